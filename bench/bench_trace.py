"""The cost of recording a conversation, and the trace page's load time.

**Recording (CPU per frame).** A client on the generated runtime prompts an agent on the
generated runtime that streams ``--updates`` ``session/update`` notifications, three ways
in each round, back to back: the unrecorded pair (the client spawns the agent), the pair
through the recorder proxy (the client spawns ``python -m acp_v1.trace record -- AGENT``),
and the pair with the runtime's own ``record=`` option on the client's connection. CPU is
user+sys of the whole process tree (``RUSAGE_CHILDREN`` around the client's run: the client
waits for what it spawned, the proxy for its agent, so everything is counted). Per frame:
(CPU of the recorded run - CPU of the unrecorded run of the same round) / frames in the
trace. The ratio recorded / unrecorded is taken within each round; min / median / max over
the rounds.

**The page.** A trace of ``--frames`` frames (a prompt turn streaming updates), made into
its page by ``render_page`` (the judge included: its marks are on the page), opened in
headless Chromium (Debian's ``chromium``; the DevTools protocol through
``tests/support/headless_chromium.py``): seconds from navigation to the load event, the page
script's own time to its first draw, and a jump to the last frame (scroll and redraw)
measured in the page. ``--screenshot PATH`` also writes a picture of a small trace with two
sessions and a planted fault (docs/img/trace-view.png).

Run: ``.venv/bin/python bench/bench_trace.py`` (about a minute; ``--rounds N``,
``--updates N``, ``--frames N``, ``--screenshot PATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
sys.path.insert(0, str(GENERATED))
sys.path.insert(0, str(ROOT / "tests"))
PYTHON = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(GENERATED)}

AGENT = """
import asyncio
from acp_v1 import Agent, models, run_agent

class StreamingAgent(Agent):
    async def session_new(self, params):
        return models.NewSessionResponse(session_id="bench")

    async def session_prompt(self, params):
        for _ in range(int(params.prompt[0].text)):
            await self.connection.session_update(
                session_id=params.session_id,
                update=models.SessionUpdateAgentMessageChunk(
                    content=models.ContentBlockText(text="Here is the next part of the answer.")
                ),
            )
        return models.PromptResponse(stop_reason=models.StopReason.END_TURN)

asyncio.run(run_agent(StreamingAgent()))
"""

CLIENT = """
import asyncio, json, sys
from acp_v1 import PROTOCOL_VERSION, Client, connect_to_agent, models

record, updates, agent = sys.argv[1] or None, int(sys.argv[2]), sys.argv[3:]
seen = [0]

class CountingClient(Client):
    async def session_update(self, params):
        seen[0] += 1

async def main():
    async with connect_to_agent(CountingClient(), agent, record=record) as conn:
        await conn.initialize(protocol_version=PROTOCOL_VERSION,
                              client_capabilities=models.ClientCapabilities())
        sid = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
        await conn.session_prompt(session_id=sid, prompt=[models.ContentBlockText(text=str(updates))])
    assert seen[0] == updates, seen

asyncio.run(main())
"""


def _tree_cpu(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=ENV, check=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def recording_cost(rounds: int, updates: int, work: Path) -> dict[str, Any]:
    """Per way and round, the CPU of a run with ``updates`` and with 5 x ``updates``: the
    slope is the CPU per frame, the rest the fixed cost (process starts, imports)."""
    from acp_v1.trace.format import read_trace

    agent = [PYTHON, "-c", AGENT]
    client = [PYTHON, "-c", CLIENT]
    traces = {"unrecorded": None, "proxy": work / "proxy.jsonl", "runtime record=": work / "rt.jsonl"}

    def argv(way: str, n: int) -> list[str]:
        if way == "proxy":
            return [*client, "", str(n), PYTHON, "-m", "acp_v1.trace", "record", "-o",
                    str(traces["proxy"]), "--", *agent]
        return [*client, str(traces[way] or ""), str(n), *agent]

    sizes = (updates, 5 * updates)
    _tree_cpu(argv("unrecorded", 10))  # warm: bytecode, page cache
    per_frame: dict[str, list[float]] = {way: [] for way in traces}
    fixed: dict[str, list[float]] = {way: [] for way in traces}
    for index in range(rounds):
        order = list(traces) if index % 2 == 0 else list(reversed(traces))
        for way in order:
            small, large = (_tree_cpu(argv(way, n)) for n in sizes)
            frames = len(read_trace(traces[way]).frames) if traces[way] else 5 * updates + 6
            slope = (large - small) / (sizes[1] - sizes[0])
            per_frame[way].append(slope * 1e6)
            fixed[way].append(small - slope * updates)
            assert frames >= 5 * updates, frames
    result: dict[str, Any] = {"rounds": rounds, "sizes": sizes, "us_per_frame": per_frame,
                              "fixed_s": fixed}
    for way in ("proxy", "runtime record="):
        result[way] = {
            "ratio": [r / u for r, u in zip(per_frame[way], per_frame["unrecorded"], strict=True)],
            "extra_us": [r - u for r, u in zip(per_frame[way], per_frame["unrecorded"], strict=True)],
            "extra_fixed_s": [r - u for r, u in zip(fixed[way], fixed["unrecorded"], strict=True)],
        }
    return result


def writer_cost(frames: int, work: Path) -> float:
    """The recorder's own work per frame, in this process: the bytes of ``frames`` typical
    update lines fed to a TraceWriter in 64 KiB chunks (as the proxy reads them)."""
    from acp_v1.recording import TraceWriter

    line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {
        "sessionId": "bench", "update": {"sessionUpdate": "agent_message_chunk", "content": {
            "type": "text", "text": "Here is the next part of the answer."}}}}).encode() + b"\n"
    data = line * frames
    writer = TraceWriter(work / "writer.jsonl", {"recorder": "bench"})
    start = time.process_time()
    for at in range(0, len(data), 65536):
        writer.feed("agent", data[at : at + 65536])
    writer.close(0)
    return (time.process_time() - start) / frames * 1e6


def _big_trace(path: Path, frames: int) -> Path:
    from test_trace import chunk, clean, write_trace

    made = clean()
    made += [("agent", chunk(f"part {i} of the answer")) for i in range(frames - len(made))]
    return write_trace(path, made)


def _small_trace(path: Path) -> Path:
    from test_trace import chunk, clean, note, req, res, write_trace

    made = clean()
    made[7:7] = [("agent", chunk("Reading the file ", "s1"))]
    made += [
        ("client", req(3, "session/new", {"cwd": "/home/user/project", "mcpServers": []})),
        ("agent", res(3, {"sessionId": "s2"})),
        ("client", req(4, "session/prompt", {"sessionId": "s2", "prompt": [
            {"type": "text", "text": "summarise the README"}]})),
        ("agent", chunk("The README describes ", "s2")),
        ("agent", chunk("a code generator.", "s2")),
        ("client", note("session/cancel", {"sessionId": "s2"})),
        ("agent", res(4, {"stopReason": "end_turn"})),
        ("agent", chunk(" (late)", "s2")),
        ("agent", b"Loaded 3 tools\n"),
    ]
    return write_trace(path, made)


def _chromium() -> str:
    import shutil

    found = shutil.which("chromium")
    if not found:
        sys.exit("bench_trace: needs Debian's chromium (apt-get install chromium)")
    return found


def page_load(frames: int, work: Path, screenshot: Path | None) -> dict[str, Any]:
    from acp_v1.trace.format import read_trace
    from acp_v1.trace.page import render_page
    from support.headless_chromium import Browser

    trace = read_trace(_big_trace(work / "big.jsonl", frames))
    start = time.process_time()
    html = render_page(trace, "big.jsonl")
    render_cpu = time.process_time() - start
    page_file = work / "big.html"
    page_file.write_text(html, encoding="utf-8")
    result: dict[str, Any] = {"frames": frames, "html_bytes": len(html.encode()),
                              "render_cpu_s": render_cpu}
    with Browser(_chromium(), work / "profile") as browser:
        page = browser.page()
        result["load_s"] = page.open(page_file.as_uri())
        result["first_draw_ms"] = page.evaluate("window.traceView.ready")
        result["jump_to_end_ms"] = page.evaluate(
            "(() => { const l = document.getElementById('list'); const t = performance.now();"
            " l.scrollTop = l.scrollHeight; l.dispatchEvent(new Event('scroll'));"
            " return performance.now() - t; })()"
        )
        result["rows_in_dom"] = page.evaluate("document.querySelectorAll('#rows .row').length")
        result["errors"] = page.errors()
        if screenshot is not None:
            small = read_trace(_small_trace(work / "small.jsonl"))
            (work / "small.html").write_text(render_page(small, "editor-session.jsonl"), encoding="utf-8")
            page.open((work / "small.html").as_uri())
            page.evaluate("document.querySelector('#rows .row[data-n=\"19\"]').click()")
            page.screenshot(screenshot)
    return result


def _spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return " / ".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--updates", type=int, default=5000)
    parser.add_argument("--frames", type=int, default=50_000)
    parser.add_argument("--screenshot", type=Path, default=None)
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    with tempfile.TemporaryDirectory(prefix="bench-trace-") as tmp:
        work = Path(tmp)
        cost = recording_cost(args.rounds, args.updates, work)
        writer_us = [writer_cost(100_000, work) for _ in range(args.rounds)]
        page = page_load(args.frames, work, args.screenshot)
    print(f"recording: {cost['rounds']} paired rounds, runs of {cost['sizes'][0]} and "
          f"{cost['sizes'][1]} session/update frames (min / median / max over the rounds)")
    print(f"  unrecorded pair: {_spread(cost['us_per_frame']['unrecorded'], '{:.1f}')} us CPU "
          f"per frame, both processes")
    for way in ("proxy", "runtime record="):
        print(f"  {way}: {_spread(cost['us_per_frame'][way], '{:.1f}')} us per frame, ratio to "
              f"unrecorded {_spread(cost[way]['ratio'])}, recording adds "
              f"{_spread(cost[way]['extra_us'], '{:.1f}')} us per frame and "
              f"{_spread(cost[way]['extra_fixed_s'])} s once")
    print(f"  the trace writer alone (100,000 update lines fed in 64 KiB chunks): "
          f"{_spread(writer_us, '{:.1f}')} us CPU per frame")
    print(f"page: {page['frames']} frames, {page['html_bytes'] / 1e6:.1f} MB of HTML, "
          f"render_page {page['render_cpu_s']:.2f} CPU-s (judge included)")
    print(f"  chromium: load event {page['load_s']:.2f} s, first draw at {page['first_draw_ms']:.0f} ms, "
          f"jump to the last frame {page['jump_to_end_ms']:.1f} ms, {page['rows_in_dom']} rows in "
          f"the DOM, console errors: {len(page['errors'])}")
    print(json.dumps({"recording": cost, "writer_us": writer_us, "page": page}))


if __name__ == "__main__":
    main()
