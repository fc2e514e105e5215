"""Load on the remote transport, paired with the official Python SDK 1.0.0rc3 in the same run.

On loopback, over WebSocket (``--profile http``: Streamable HTTP/2): CONNECTIONS concurrent
connections, SESSIONS sessions each, every session's prompt streaming UPDATES updates at once
(``bench/remote_bench_agent.py``, the same behaviour in both SDKs). The load client is raw
(websockets, or httpx2 for HTTP, and json; the same for both servers): it checks that each
session got exactly its updates, none lost, duplicated or reordered, and measures updates per
second, each update's latency (the agent stamps it with the machine's monotonic clock) and
the server process's memory (RSS), open descriptors before, during (the peak) and after
(every connection closed, then a settling pause).

    python bench/bench_remote.py                      # 200 x 5 x 200 (the issue's size)
    python bench/bench_remote.py --connections 20 --updates 50   # a quick one
    python bench/bench_remote.py --profile http --connections 20 --updates 50

rc3 is installed (pinned) into a cached venv (``~/.cache/acpgen-bench/rc3``) on first use.
The figures to read are the ratios generated / rc3 of the same run (bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
AGENT = Path(__file__).with_name("remote_bench_agent.py")
RC3 = ["agent-client-protocol[http]==1.0.0rc3", "hypercorn==0.18.0"]
RC3_VENV = Path.home() / ".cache" / "acpgen-bench" / "rc3"
SETTLE = 6.0  # seconds after the last close before "after" is read (the idle release runs
#                on the reaper's next tick: at most 5 s with the default idle_timeout)
STAGES: dict[int, str] = {}  # what each HTTP connection is opening (a stall's report)
GUARD = 150.0  # seconds: a run that takes longer is stopped (a hang, not a result)


def rc3_python() -> str:
    python = RC3_VENV / "bin" / "python"
    marker = RC3_VENV / "installed.txt"
    if not marker.exists() or marker.read_text() != "\n".join(RC3):
        venv.create(RC3_VENV, with_pip=True, clear=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--pre", *RC3], check=True,
                       timeout=900)
        marker.write_text("\n".join(RC3))
    return str(python)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """The process' CPU time so far (user + system), from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@dataclass
class Result:
    name: str
    updates: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    rss_kib: dict[str, int] = field(default_factory=dict)
    fds: dict[str, int] = field(default_factory=dict)
    blocks: dict[str, int] = field(default_factory=dict)
    server_cpu: float = 0.0  # the server's CPU seconds over the round (user + system)


def request(req_id: int, method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})


PACE = [0.0]  # seconds between two updates of a session (--rate), 0: all at once
OFFSETS = random.Random(0)  # each session's first update, spread over one pause


def prompt_request(k: int, session: str, updates: int) -> str:
    """A prompt for ``updates`` updates: all at once, or paced (``N PAUSE OFFSET``, --rate)."""
    text = str(updates)
    if PACE[0]:
        text = f"{updates} {PACE[0]} {OFFSETS.uniform(0, PACE[0]):.4f}"
    params = {"sessionId": session, "prompt": [{"type": "text", "text": text}]}
    return request(100 + k, "session/prompt", params)


async def all_opened(opened: asyncio.Event, go: asyncio.Event, count: list[int]) -> None:
    """Count this connection in; the load starts when every one has opened its sessions."""
    count[0] += 1
    if count[0] == count[1]:
        opened.set()
    await go.wait()


async def one_connection(url: str, sessions: int, updates: int, result: Result,
                         opened: asyncio.Event, go: asyncio.Event, count: list[int]) -> None:
    async with connect(url, max_size=2**24, compression=None, open_timeout=60) as socket:
        await socket.send(request(0, "initialize", {"protocolVersion": 1, "clientCapabilities": {}}))
        json.loads(await socket.recv())
        ids: list[str] = []
        for k in range(sessions):
            await socket.send(request(1 + k, "session/new", {"cwd": "/", "mcpServers": []}))
            ids.append(json.loads(await socket.recv())["result"]["sessionId"])
        await all_opened(opened, go, count)
        for k, session in enumerate(ids):
            await socket.send(prompt_request(k, session, updates))

        async def receive() -> dict[str, Any]:
            return json.loads(await socket.recv())  # type: ignore[no-any-return]

        await tally(result, ids, updates, receive)


async def tally(result: Result, ids: list[str], updates: int,
                receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
    """Read the sessions' updates and prompt answers; note any lost, doubled or reordered."""
    seen: dict[str, list[int]] = {session: [] for session in ids}
    answered = 0
    while answered < len(ids):
        message = await receive()
        if "method" in message:
            now = time.monotonic_ns()
            params = message["params"]
            seq, stamp = params["update"]["content"]["text"].split()
            seen[params["sessionId"]].append(int(seq))
            result.latencies_ms.append((now - int(stamp)) / 1e6)
        else:
            answered += 1
            if message.get("result", {}).get("stopReason") != "end_turn":
                result.problems.append(f"prompt answered {message}")
    for session, got in seen.items():
        if got != list(range(updates)):
            lost = updates - len(set(got))
            result.problems.append(f"{session}: {len(got)} updates, {lost} lost, "
                                   f"in order: {got == sorted(got)}")
        result.updates += len(got)


async def one_http_connection(url: str, sessions: int, updates: int, result: Result,
                              opened: asyncio.Event, go: asyncio.Event, count: list[int]) -> None:
    """The same load over Streamable HTTP/2: POSTs on one connection, each SSE stream (the
    connection's, one per session) on an HTTP/2 connection of its own, as the generated
    client does (docs/remote.md), everything they carry into one inbox."""
    def client() -> httpx2.AsyncClient:
        # An idle connection is dropped after 1 s, before a server closes it (the generated
        # one after 2 s): a POST never goes on a connection the server is closing.
        return httpx2.AsyncClient(http1=False, http2=True, timeout=httpx2.Timeout(60, read=None),
                                  limits=httpx2.Limits(keepalive_expiry=1.0))

    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    readers: list[asyncio.Future[None]] = []

    async def read(headers: dict[str, str], ready: asyncio.Future[int]) -> None:
        async with client() as own, own.stream("GET", url, headers=headers) as response:
            ready.set_result(response.status_code)
            async for event in httpx2.EventSource(response, max_event_size=2**24):
                if event.data:
                    inbox.put_nowait(json.loads(event.data))

    async def listen(headers: dict[str, str], ready: asyncio.Future[int]) -> None:
        try:
            try:
                await read(headers, ready)
            except httpx2.TransportError:
                if ready.done():
                    raise
                await read(headers, ready)  # closed unread: once more, as the generated client
        except Exception as exc:  # the opening fails at once, with why (not at the guard)
            if not ready.done():
                ready.set_exception(exc)
            raise

    async with client() as http:
        json_type = {"Content-Type": "application/json"}
        init = request(0, "initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        base = {"Acp-Connection-Id": (await http.post(url, content=init, headers=json_type)
                                      ).headers["acp-connection-id"]}

        async def stream(session: str | None) -> None:
            headers = {**base, "Accept": "text/event-stream"}
            if session is not None:
                headers["Acp-Session-Id"] = session
            ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            readers.append(asyncio.ensure_future(listen(headers, ready)))
            if await ready != 200:
                raise RuntimeError(f"GET (SSE) answered {ready.result()}")

        async def post(body: str, session: str | None = None) -> None:
            headers = {**json_type, **base}
            if session is not None:
                headers["Acp-Session-Id"] = session
            try:
                status = (await http.post(url, content=body, headers=headers)).status_code
            except httpx2.WriteError:  # never left: once more on a new connection, as the
                # generated client does (transports/http/client.py, _HttpLink._send)
                status = (await http.post(url, content=body, headers=headers)).status_code
            if status != 202:
                raise RuntimeError(f"POST answered {status}")

        try:
            STAGES[id(inbox)] = "GET connection stream"
            await stream(None)
            ids: list[str] = []
            for k in range(sessions):
                STAGES[id(inbox)] = f"POST session/new {k}"
                await post(request(1 + k, "session/new", {"cwd": "/", "mcpServers": []}))
                STAGES[id(inbox)] = f"answer session/new {k}"
                ids.append((await inbox.get())["result"]["sessionId"])
                STAGES[id(inbox)] = f"GET session stream {k}"
                await stream(ids[-1])
            STAGES[id(inbox)] = "opened"
            await all_opened(opened, go, count)
            for k, session in enumerate(ids):
                await post(prompt_request(k, session, updates), session)
            await tally(result, ids, updates, inbox.get)
        finally:
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            with contextlib.suppress(httpx2.HTTPError):
                await http.delete(url, headers=base)


async def live_blocks(proc: subprocess.Popen[str]) -> int:
    """The server's live heap: it answers SIGUSR1 with ``blocks N`` (remote_bench_agent.py)."""
    assert proc.stdout is not None
    os.kill(proc.pid, signal.SIGUSR1)
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
    if not line.startswith("blocks "):
        raise SystemExit(f"the server answered the memory probe with {line!r}")
    return int(line.split()[1])


async def load(name: str, proc: subprocess.Popen[str], url: str, args: argparse.Namespace
               ) -> Result:
    """``args.rounds`` rounds of the same load on one server process; the figures are the
    last round's, "after" read after each round (a leak grows from round to round)."""
    await asyncio.sleep(1.0)
    before = rss_kib(proc.pid), fds(proc.pid), await live_blocks(proc)
    afters: list[tuple[int, int]] = []
    for _ in range(args.rounds):
        result = await one_round(name, proc.pid, url, args)
        afters.append((result.rss_kib["after"], await live_blocks(proc)))
    result.rss_kib["before"], result.fds["before"], result.blocks["before"] = before
    result.blocks["after"] = afters[-1][1]
    for n, (rss, blocks) in enumerate(afters[:-1], 1):
        result.rss_kib[f"after round {n}"] = rss
        result.blocks[f"after round {n}"] = blocks
    return result


async def one_round(name: str, pid: int, url: str, args: argparse.Namespace) -> Result:
    result = Result(name)
    target = "ws" + url[4:] if args.profile == "websocket" else url
    connection = one_connection if args.profile == "websocket" else one_http_connection
    opened, go = asyncio.Event(), asyncio.Event()
    count = [0, args.connections]
    peak = [0, 0]
    sampling = True

    async def sample() -> None:
        while sampling:
            peak[0] = max(peak[0], rss_kib(pid))
            peak[1] = max(peak[1], fds(pid))
            await asyncio.sleep(0.1)

    sampler = asyncio.ensure_future(sample())
    clients = [asyncio.ensure_future(connection(target, args.sessions, args.updates, result,
                                                    opened, go, count))
               for _ in range(args.connections)]
    # A client that fails while opening ends the round at once (not after GUARD).
    opening = asyncio.ensure_future(opened.wait())
    await asyncio.wait([opening, *clients], timeout=GUARD, return_when=asyncio.FIRST_COMPLETED)
    if not opening.done():
        opening.cancel()
        failed = [c for c in clients if c.done() and c.exception() is not None]
        for client in clients:
            client.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
        sampling = False
        await sampler
        waiting = collections.Counter(STAGES.values())
        reason = repr(failed[0].exception()) if failed else f"not open after {GUARD:g} s: {waiting}"
        raise SystemExit(f"{name}: {len(failed)} of {len(clients)} connections failed while "
                         f"opening: {reason}")
    start, cpu = time.monotonic(), cpu_seconds(pid)
    go.set()
    await asyncio.wait_for(asyncio.gather(*clients), GUARD)
    result.seconds = time.monotonic() - start
    result.server_cpu = cpu_seconds(pid) - cpu
    sampling = False
    await sampler
    result.rss_kib["during"], result.fds["during"] = peak
    await asyncio.sleep(SETTLE)
    result.rss_kib["after"], result.fds["after"] = rss_kib(pid), fds(pid)
    return result


def serve(argv: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    if not url.startswith("http://"):
        proc.kill()
        raise SystemExit(f"{argv}: printed no URL ({url!r})")
    return proc, url


def run(name: str, argv: list[str], env: dict[str, str], args: argparse.Namespace) -> Result:
    proc, url = serve(argv, env)
    try:
        return asyncio.run(load(name, proc, url, args))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def report(result: Result, args: argparse.Namespace) -> dict[str, Any]:
    expected = args.connections * args.sessions * args.updates
    lat = sorted(result.latencies_ms)
    p99 = lat[int(len(lat) * 0.99) - 1] if lat else float("nan")
    return {
        "updates": result.updates, "expected": expected, "problems": result.problems[:5],
        "updates_per_s": round(result.updates / result.seconds) if result.seconds else 0,
        # What an update costs the server, whatever share of the cores it got: the figure
        # to compare on a loaded machine, where updates per second follow the scheduler.
        "server_cpu_us_per_update": (
            round(result.server_cpu / result.updates * 1e6, 1) if result.updates else None
        ),
        "p50_ms": round(statistics.median(lat), 1) if lat else None, "p99_ms": round(p99, 1),
        "rss_mib": {k: round(v / 1024, 1) for k, v in result.rss_kib.items()},
        "fds": result.fds,
        # Python's live blocks (objects and buffers), whatever pages the allocator keeps.
        "live_blocks": result.blocks,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of the load on one server (memory after each)")
    parser.add_argument("--profile", choices=("websocket", "http"), default="websocket",
                        help="WebSocket, or Streamable HTTP over HTTP/2")
    parser.add_argument("--no-rc3", action="store_true", help="the generated server only")
    parser.add_argument("--rate", type=float, default=None,
                        help="offer this many updates per second in all (each session paced "
                        "evenly, starts spread), the same to both servers: latency at one load "
                        "rather than at each server's own saturation")
    parser.add_argument("--session-ttl", type=float, default=None,
                        help="the generated server keeps ended connections' sessions resumable "
                        "this long (default: its 3600 s); under SETTLE, 'after' has none left")
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce(sys.stderr)
    if args.rate:
        PACE[0] = args.connections * args.sessions / args.rate
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    ttl = [] if args.session_ttl is None else [str(args.session_ttl)]
    ours = run("generated", [sys.executable, str(AGENT), "generated", *ttl],
               {**env, "PYTHONPATH": str(ROOT / "generated")}, args)
    results = {"generated": report(ours, args)}
    if not args.no_rc3:
        theirs = run("rc3", [rc3_python(), str(AGENT), "rc3"], env, args)
        results["rc3"] = report(theirs, args)
        a, b = results["generated"], results["rc3"]
        results["ratio generated/rc3"] = {
            "updates_per_s": round(a["updates_per_s"] / b["updates_per_s"], 2),
            "server_cpu_per_update": round(
                a["server_cpu_us_per_update"] / b["server_cpu_us_per_update"], 2
            ),
            "p99_ms": round(a["p99_ms"] / b["p99_ms"], 2),
            "rss_during": round(a["rss_mib"]["during"] / b["rss_mib"]["during"], 2),
        }
    load_avg = os.getloadavg()
    print(json.dumps({"size": vars(args), "load_average": [round(x, 2) for x in load_avg],
                      **results}, indent=1))
    failed = [name for name, r in results.items() if "problems" in r and
              (r["problems"] or r["updates"] != r["expected"])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
