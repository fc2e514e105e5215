"""CPU per message over stdio pipes: the generated runtime against the official Python SDKs.

Both SDKs run the same two processes: a client that spawns an agent over stdio pipes, and an
agent that answers ``session/prompt``. One round of one SDK is:

1. ``initialize``, ``session/new``, and a warm-up (50 empty prompts, one prompt streaming
   200 updates), so that caches, adapters and the allocator are warm;
2. ``--prompts`` empty prompts back to back (the **prompt round trip**);
3. one prompt during which the agent sends ``--updates`` ``session/update`` notifications
   (``agent_message_chunk`` with a text block) before answering; the client waits until its
   handler has seen every one (the **session/update notification**);
4. a last prompt, which makes the agent report its CPU times.

Each process measures its own CPU (``time.process_time``, all threads): the client around
steps 2 and 3, the agent at the start of every prompt (so an agent cycle includes reading the
prompt, answering and everything in between). Per-notification CPU = (CPU of step 3 - one
round trip) / updates, for each side. The figure is agent + client (both ends of the wire run
the SDK under test), with each side also shown.

Two official versions: ``agent-client-protocol`` 0.12.1 (the test dependency, in this venv)
and 1.0.0rc3, installed on first use into its own venv under the bench cache
(``$ACPGEN_BENCH_CACHE``, by default ``~/.cache/acpgen-bench``) and run with that venv's
interpreter (``--no-rc`` leaves it out). Rounds are paired: each round runs every SDK there and
back (A B C C B A, rotating which goes first; each SDK's figure is the mean of its two runs),
and the ratio ours / official is taken within the round; the table gives the min, quartiles,
median and max of those ratios (below 1.0: ours costs less) and how many rounds met 0.6x. Our
runtime runs as shipped: receive and send guards on, strict validation, omission of
unadvertised items, per-session ordered delivery.

Run: ``.venv/bin/python bench/bench_wire.py`` (about five minutes; ``--rounds N``,
``--updates N``, ``--prompts N``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
CHUNK_TEXT = "Here is the next part of the answer, streamed."
WARM_PROMPTS = 50
WARM_UPDATES = 200
RC_VERSION = "1.0.0rc3"
CACHE = Path(os.environ.get("ACPGEN_BENCH_CACHE", Path.home() / ".cache" / "acpgen-bench"))


# -- our generated package -----------------------------------------------------------------


def _ours_agent(report: str) -> None:
    sys.path.insert(0, str(GENERATED))
    from acp_v1 import Agent, models, run_agent

    marks: list[float] = []

    class BenchAgent(Agent):
        async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
            return models.NewSessionResponse(session_id="bench")

        async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
            marks.append(time.process_time())
            first = params.prompt[0]
            text = first.text if isinstance(first, models.ContentBlockText) else ""
            if text == "report":
                Path(report).write_text(json.dumps(marks))
            elif text:
                for _ in range(int(text)):
                    await self.connection.session_update(
                        session_id=params.session_id,
                        update=models.SessionUpdateAgentMessageChunk(
                            content=models.ContentBlockText(text=CHUNK_TEXT)
                        ),
                    )
            return models.PromptResponse(stop_reason=models.StopReason.END_TURN)

    asyncio.run(run_agent(BenchAgent()))


async def _ours_client(agent: list[str], updates: int, prompts: int) -> dict[str, float]:
    sys.path.insert(0, str(GENERATED))
    from acp_v1 import PROTOCOL_VERSION, Client, connect_to_agent, models

    seen = [0]

    class BenchClient(Client):
        async def session_update(self, params: models.SessionNotification) -> None:
            seen[0] += 1

    async with connect_to_agent(BenchClient(), agent, env=dict(os.environ)) as conn:
        await conn.initialize(
            protocol_version=PROTOCOL_VERSION,
            client_capabilities=models.ClientCapabilities(),
        )
        sid = (await conn.session_new(cwd="/", mcp_servers=[])).session_id

        async def prompt(text: str) -> None:
            await conn.session_prompt(session_id=sid, prompt=[models.ContentBlockText(text=text)])

        return await _client_script(prompt, seen, updates, prompts)


# -- the official SDK (agent-client-protocol) ----------------------------------------------


def _text_block(text: str) -> Any:
    from acp import schema  # the same class in 0.12.1 and 1.0.0rc3 (acp.text_block is 0.12's)

    return schema.TextContentBlock(type="text", text=text)


def _official_agent(report: str) -> None:
    import acp
    from acp import schema

    marks: list[float] = []

    class BenchAgent:
        def on_connect(self, conn: Any) -> None:
            self.conn = conn

        async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
            return schema.InitializeResponse(protocol_version=protocol_version)

        async def new_session(self, cwd: str, **kwargs: Any) -> Any:
            return schema.NewSessionResponse(session_id="bench")

        async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> Any:
            marks.append(time.process_time())
            text = getattr(prompt[0], "text", "")
            if text == "report":
                Path(report).write_text(json.dumps(marks))
            elif text:
                for _ in range(int(text)):
                    await self.conn.session_update(
                        session_id=session_id,
                        update=schema.AgentMessageChunk(
                            session_update="agent_message_chunk", content=_text_block(CHUNK_TEXT)
                        ),
                    )
            return schema.PromptResponse(stop_reason="end_turn")

    asyncio.run(acp.run_agent(BenchAgent()))


async def _official_client(agent: list[str], updates: int, prompts: int) -> dict[str, float]:
    import acp
    from acp.stdio import spawn_agent_process

    seen = [0]

    class BenchClient:
        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            seen[0] += 1

    async with spawn_agent_process(BenchClient(), agent[0], *agent[1:]) as (
        conn,
        _proc,
    ):
        await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
        sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id

        async def prompt(text: str) -> None:
            await conn.prompt(session_id=sid, prompt=[_text_block(text)])

        return await _client_script(prompt, seen, updates, prompts)


# -- the shared script ---------------------------------------------------------------------


async def _client_script(
    prompt: Any, seen: list[int], updates: int, prompts: int
) -> dict[str, float]:
    for _ in range(WARM_PROMPTS):
        await prompt("")
    await prompt(str(WARM_UPDATES))
    start = time.process_time()
    for _ in range(prompts):
        await prompt("")
    round_trips = time.process_time()
    expected = seen[0] + updates
    await prompt(str(updates))
    if seen[0] != expected:  # every update must have been handled when prompt returns
        raise SystemExit(f"saw {seen[0]} updates, expected {expected}")
    streamed = time.process_time()
    await prompt("report")
    rt = (round_trips - start) / prompts
    return {"client_rt": rt, "client_update": (streamed - round_trips - rt) / updates}


def _rc_python() -> str:
    """The interpreter of a venv holding the official SDK's release candidate (made once)."""
    venv = CACHE / f"acp-{RC_VERSION}"
    python = venv / "bin" / "python"
    if not (venv / "ready").exists():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        pin = f"agent-client-protocol=={RC_VERSION}"
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--pre", pin], check=True)
        (venv / "ready").write_text(pin + "\n")
    return str(python)


def _round(sdk: str, updates: int, prompts: int, report: Path) -> dict[str, float]:
    python = _rc_python() if sdk == "official-rc" else sys.executable
    role_sdk = "official" if sdk == "official-rc" else sdk
    agent = [
        python,
        __file__,
        "--role",
        "agent",
        "--sdk",
        role_sdk,
        "--report",
        str(report),
    ]
    client = [python, __file__, "--role", "client", "--sdk", role_sdk]
    client += ["--updates", str(updates), "--prompts", str(prompts), "--"] + agent
    out = subprocess.run(client, check=True, capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    marks = json.loads(report.read_text())
    # marks: warm-up prompts, the streaming warm-up, `prompts` empty ones, the streamed one,
    # the report prompt.
    first = WARM_PROMPTS + 1
    agent_rt = (marks[first + prompts] - marks[first]) / prompts
    stream = marks[first + prompts + 1] - marks[first + prompts]
    figures["agent_rt"] = agent_rt
    figures["agent_update"] = (stream - agent_rt) / updates
    figures["rt"] = figures["agent_rt"] + figures["client_rt"]
    figures["update"] = figures["agent_update"] + figures["client_update"]
    return figures


ROWS = [
    ("session/update notification, both ends", "update"),
    ("  agent side (send)", "agent_update"),
    ("  client side (receive)", "client_update"),
    ("prompt round trip, both ends", "rt"),
    ("  agent side", "agent_rt"),
    ("  client side", "client_rt"),
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["bench", "agent", "client"], default="bench")
    parser.add_argument("--sdk", choices=["ours", "official"], default="ours")
    parser.add_argument("--report", default="")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--updates", type=int, default=3000)
    parser.add_argument("--prompts", type=int, default=500)
    parser.add_argument("--no-rc", action="store_true", help=f"leave {RC_VERSION} out")
    parser.add_argument("agent", nargs="*")
    args = parser.parse_args()
    if args.role == "agent":
        (_ours_agent if args.sdk == "ours" else _official_agent)(args.report)
        return 0
    if args.role == "client":
        run = _ours_client if args.sdk == "ours" else _official_client
        print(json.dumps(asyncio.run(run(args.agent, args.updates, args.prompts))))
        return 0
    import tempfile

    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    officials = ["official"] + ([] if args.no_rc else ["official-rc"])
    names = {"official": "0.12.1", "official-rc": RC_VERSION}
    sdks = ["ours", *officials]
    ratios = {o: {key: [] for _, key in ROWS} for o in officials}
    cpu: dict[str, dict[str, list[float]]] = {sdk: {} for sdk in sdks}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = sdks[r % len(sdks) :] + sdks[: r % len(sdks)]  # each goes first in turn
            # There and back (A B C C B A): a load that rises or falls during the round hits
            # every SDK alike; each SDK's figure is the mean of its two runs.
            runs: dict[str, list[dict[str, float]]] = {sdk: [] for sdk in sdks}
            for sdk in order + order[::-1]:
                runs[sdk].append(_round(sdk, args.updates, args.prompts, Path(tmp) / "m.json"))
            got = {
                sdk: {k: statistics.mean(x[k] for x in two) for k in two[0]}
                for sdk, two in runs.items()
            }
            for sdk in sdks:
                for key, value in got[sdk].items():
                    cpu[sdk].setdefault(key, []).append(value)
            for official in officials:
                for _, key in ROWS:
                    ratios[official][key].append(got["ours"][key] / got[official][key])
            line = ", ".join(
                f"vs {names[o]}: update {ratios[o]['update'][-1]:.2f}x, rt {ratios[o]['rt'][-1]:.2f}x"
                for o in officials
            )
            print(f"round {r + 1}: {line}", file=sys.stderr)
    print(
        f"{args.rounds} paired rounds, {args.updates} updates, {args.prompts} prompts "
        f"(load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after)"
    )
    for official in officials:
        print(f"\nagainst agent-client-protocol {names[official]}:\n")
        print(
            "| message | official µs (median) | ours µs (median) | ratio min | ratio q1 "
            "| ratio median | ratio q3 | ratio max | rounds at or under 0.6x |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for label, key in ROWS:
            rs = ratios[official][key]
            theirs = statistics.median(cpu[official][key]) * 1e6
            ours = statistics.median(cpu["ours"][key]) * 1e6
            q1, _, q3 = (
                statistics.quantiles(rs, n=4, method="inclusive") if len(rs) > 1 else (rs[0],) * 3
            )
            under = sum(r <= 0.6 for r in rs)
            print(
                f"| {label} | {theirs:.0f} | {ours:.0f} | {min(rs):.2f}x | {q1:.2f}x | "
                f"{statistics.median(rs):.2f}x | {q3:.2f}x | {max(rs):.2f}x | "
                f"{under}/{len(rs)} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
