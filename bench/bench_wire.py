"""CPU per message over stdio pipes: the generated runtime against the official Python SDK.

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

Rounds are paired: each round runs the official SDK and ours back to back (alternating which
goes first), and the ratio ours / official is taken within the round; the table gives the
min / median / max of those ratios (below 1.0: ours costs less). Our runtime runs as shipped:
guards on, strict validation, omission of unadvertised items.

Run: ``.venv/bin/python bench/bench_wire.py`` (about a minute; ``--rounds N``,
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
                        update=acp.update_agent_message(acp.text_block(CHUNK_TEXT)),
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
            await conn.prompt(session_id=sid, prompt=[acp.text_block(text)])

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


def _round(sdk: str, updates: int, prompts: int, report: Path) -> dict[str, float]:
    agent = [
        sys.executable,
        __file__,
        "--role",
        "agent",
        "--sdk",
        sdk,
        "--report",
        str(report),
    ]
    client = [sys.executable, __file__, "--role", "client", "--sdk", sdk]
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
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--updates", type=int, default=3000)
    parser.add_argument("--prompts", type=int, default=500)
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

    ratios: dict[str, list[float]] = {key: [] for _, key in ROWS}
    cpu: dict[str, dict[str, list[float]]] = {"ours": {}, "official": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = ["official", "ours"] if r % 2 == 0 else ["ours", "official"]
            got = {}
            for sdk in order:
                got[sdk] = _round(sdk, args.updates, args.prompts, Path(tmp) / f"{sdk}.json")
                for key, value in got[sdk].items():
                    cpu[sdk].setdefault(key, []).append(value)
            for _, key in ROWS:
                ratios[key].append(got["ours"][key] / got["official"][key])
            print(
                f"round {r + 1}: update {ratios['update'][-1]:.2f}x, rt {ratios['rt'][-1]:.2f}x",
                file=sys.stderr,
            )
    print(
        f"{args.rounds} paired rounds, {args.updates} updates, {args.prompts} prompts "
        f"(load average {os.getloadavg()[0]:.2f})\n"
    )
    print(
        "| message | official µs (median) | ours µs (median) | ratio min | ratio median | ratio max |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for label, key in ROWS:
        rs = ratios[key]
        official = statistics.median(cpu["official"][key]) * 1e6
        ours = statistics.median(cpu["ours"][key]) * 1e6
        print(
            f"| {label} | {official:.0f} | {ours:.0f} | {min(rs):.2f}x | "
            f"{statistics.median(rs):.2f}x | {max(rs):.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
