"""Order per session without stalling, and a flood against a slow handler (issue 33).

Two measurements of the generated client's receive path (``acp_v1``, as shipped):

1. **Twenty sessions, one slow.** A raw agent (in this process, over a socket pair) streams
   ``--per-session`` ``session/update`` notifications to each of 19 sessions and
   ``--slow-updates`` to ``s0``, interleaved on the wire, then answers each session's prompt.
   The client's handler records every update; ``s0``'s sleeps ``--slow-ms`` on each. Figure: the
   wall time until the 19 other sessions' prompts have all returned (each after its updates,
   in order: checked), slow run against a run of the 19 without ``s0``, paired rounds, and
   the ratio of their throughputs (1.0: the slow session costs the others nothing). The
   slow session stays under the per-session queue limit (``--slow-updates`` below
   ``DEFAULT_MAX_QUEUED_PER_SESSION``): past it, backpressure pauses the connection by design.
2. **A flood.** A raw agent process writes ``--flood`` updates of one session as fast as its
   pipe takes them; the client's handler yields to the loop on every update and sleeps 1 ms
   every 200 (slower than the reader). Figures: this process' peak RSS (``VmHWM``) over its
   RSS after ``initialize``, the most notifications ever queued, and the wall time; every
   update is delivered, in order.

Run: ``.venv/bin/python bench/bench_sessions.py`` (about a minute; ``--rounds N``,
``--flood N``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from acp_v1 import Client, models, rpc
from acp_v1.connection import ClientSideConnection
from acp_v1.launch import connect_to_agent

SESSIONS = 20


def _update(session_id: str, n: int) -> bytes:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": str(n)}}
    message = {"method": "session/update", "params": {"sessionId": session_id, "update": update}}
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


class Recorder(Client):
    def __init__(self, slow: str | None, slow_seconds: float) -> None:
        self.slow, self.slow_seconds = slow, slow_seconds
        self.seen: dict[str, list[int]] = {}

    async def session_update(self, params: models.SessionNotification) -> None:
        session_id = str(params.session_id)
        if session_id == self.slow:
            await asyncio.sleep(self.slow_seconds)
        text = getattr(params.update, "content", None)
        self.seen.setdefault(session_id, []).append(int(getattr(text, "text", "-1")))


async def _sessions_round(
    slow: bool, per_session: int, slow_updates: int, slow_seconds: float
) -> float:
    """Seconds until the 19 fast sessions' prompts have returned."""
    left, right = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=left)
    agent_reader, agent_writer = await asyncio.open_connection(sock=right)
    client = Recorder("s0" if slow else None, slow_seconds)
    connection = ClientSideConnection(client, reader, writer)
    connection.start()
    try:
        init = asyncio.ensure_future(
            connection.initialize(protocol_version=1, client_capabilities=models.ClientCapabilities())
        )
        request = json.loads(await agent_reader.readline())
        result = {"protocolVersion": 1, "agentCapabilities": {}}
        agent_writer.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}).encode() + b"\n")
        await init
        # Without the slow session: s1 to s19 alone (the run the issue compares with).
        sessions = [f"s{i}" for i in range(0 if slow else 1, SESSIONS)]
        prompts = {
            s: asyncio.ensure_future(
                connection.session_prompt(session_id=s, prompt=[models.ContentBlockText(text="go")])
            )
            for s in sessions
        }
        ids = {}
        for _ in sessions:
            request = json.loads(await agent_reader.readline())
            ids[request["params"]["sessionId"]] = request["id"]
        start = time.perf_counter()
        for n in range(per_session):
            due = [s for s in sessions if s != "s0" or n < slow_updates]
            agent_writer.write(b"".join(_update(s, n) for s in due))
            await agent_writer.drain()
        for s in sessions:
            answer = {"jsonrpc": "2.0", "id": ids[s], "result": {"stopReason": "end_turn"}}
            agent_writer.write(json.dumps(answer).encode() + b"\n")
        await agent_writer.drain()
        fast = [s for s in sessions if s != "s0"]
        await asyncio.wait([prompts[s] for s in fast])
        elapsed = time.perf_counter() - start
        for s in fast:  # every fast session: all its updates, in order, before its answer
            assert client.seen[s] == list(range(per_session)), s
        if slow:
            assert not prompts["s0"].done()  # still working through its updates
            await asyncio.wait_for(prompts["s0"], slow_updates * slow_seconds + 60)
            assert client.seen["s0"] == list(range(slow_updates))
        return elapsed
    finally:
        await connection.close()
        agent_writer.close()


FLOOD_AGENT = r"""
import json, sys
line = sys.stdin.buffer.readline()
request = json.loads(line)
answer = {"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 1, "agentCapabilities": {}}}
out = sys.stdout.buffer
out.write(json.dumps(answer).encode() + b"\n"); out.flush()
sys.stdin.buffer.readline()  # the client's go-ahead: a second request, never answered
count, batch = int(sys.argv[1]), 1000
for start in range(0, count, batch):
    out.write(b"".join(
        (json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "flood",
         "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": str(n)}}}})
         + "\n").encode() for n in range(start, min(start + batch, count))))
out.flush()
sys.stdin.buffer.read()
"""


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


async def _flood(count: int) -> dict[str, Any]:
    received = [0]
    in_order = [True]

    class Slow(Client):
        async def session_update(self, params: models.SessionNotification) -> None:
            n = int(getattr(params.update.content, "text", "-1"))
            in_order[0] &= n == received[0]
            received[0] += 1
            if received[0] % 200 == 0:
                await asyncio.sleep(0.001)
            else:
                await asyncio.sleep(0)

    command = [sys.executable, "-c", FLOOD_AGENT, str(count)]
    async with connect_to_agent(Slow(), command) as connection:
        await connection.initialize(protocol_version=1, client_capabilities=models.ClientCapabilities())
        baseline = _rss_kib("VmRSS")
        start = time.perf_counter()
        go = asyncio.ensure_future(connection.rpc.request("_bench/go", {}))
        most_queued = 0
        while received[0] < count:
            most_queued = max(most_queued, connection.rpc.queued_notifications)
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - start
        go.cancel()
    return {
        "baseline_mib": baseline / 1024,
        "peak_mib": _rss_kib("VmHWM") / 1024,
        "most_queued": most_queued,
        "seconds": elapsed,
        "in_order": in_order[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--per-session", type=int, default=1000)
    parser.add_argument("--slow-updates", type=int, default=100)
    parser.add_argument("--slow-ms", type=float, default=50.0)
    parser.add_argument("--flood", type=int, default=1_000_000)
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    assert args.slow_updates < rpc.DEFAULT_MAX_QUEUED_PER_SESSION, "past the limit: backpressure"
    ratios, fast, slow = [], [], []
    for r in range(args.rounds):
        order = [False, True] if r % 2 == 0 else [True, False]
        got = {}
        for is_slow in order:
            got[is_slow] = asyncio.run(
                _sessions_round(is_slow, args.per_session, args.slow_updates, args.slow_ms / 1000)
            )
        fast.append(got[False])
        slow.append(got[True])
        ratios.append(got[False] / got[True])  # throughput with the slow session / without
        print(f"round {r + 1}: {ratios[-1]:.2f}", file=sys.stderr)
    print(
        f"{SESSIONS - 1} sessions x {args.per_session} updates beside s0 ({args.slow_updates} "
        f"updates, sleeping {args.slow_ms:g} ms on each); {args.rounds} paired rounds "
        f"(load average {os.getloadavg()[0]:.2f})\n"
    )
    print("| run | 19 fast sessions done, s (median) | throughput vs alone (min / median / max) |")
    print("|---|---:|---:|")
    print(f"| s1-s19 alone | {statistics.median(fast):.3f} | 1.00 |")
    print(
        f"| s1-s19 beside a slow s0 | {statistics.median(slow):.3f} | {min(ratios):.2f} / "
        f"{statistics.median(ratios):.2f} / {max(ratios):.2f} |"
    )
    if args.flood:
        flood = asyncio.run(_flood(args.flood))
        assert flood["in_order"], "the flood was delivered out of order"
        print(
            f"\nflood: {args.flood} updates in {flood['seconds']:.1f} s, all delivered in order; "
            f"RSS {flood['baseline_mib']:.1f} MiB after initialize, peak {flood['peak_mib']:.1f} "
            f"MiB; at most {flood['most_queued']} notifications queued (limits: "
            f"{rpc.DEFAULT_MAX_QUEUED_PER_SESSION} per session, {rpc.DEFAULT_MAX_QUEUED_TOTAL} in "
            f"all, {rpc.DEFAULT_MAX_QUEUED_BYTES // 2**20} MiB of frames)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
