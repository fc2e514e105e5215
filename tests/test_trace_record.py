"""The recorder: the stdio proxy (``python -m acp_v1.trace record``) changes no byte, adds no
message, propagates exit codes and signals and leaves no process behind; the runtime's own
``record=`` option records the same conversation from inside."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import generated_dir

GENERATED = generated_dir()

from acp_v1.trace.format import read_trace
from acp_v1.trace.judge import judge

pytestmark = pytest.mark.slow  # real processes
PYTHON = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(GENERATED)}

AGENT = r'''
import os, signal, subprocess, sys, time
mode, out = sys.argv[1], sys.argv[2]

def read_all():
    data = b""
    while chunk := os.read(0, 65536):
        data += chunk
    return data

if mode == "bytes":
    os.write(1, b'{"jsonrpc":"2.0",')  # half a line: the client must see it before the rest
    seen = b""
    while b"go" not in seen:
        seen += os.read(0, 1)
    os.write(1, b'"method":"x"}\n\xff\xfe not utf-8\n\n')
    os.write(2, b"agent says hello on stderr\n")
    data = seen + read_all()
    open(out, "wb").write(data)
    os.write(1, b"last line, no newline")
    sys.exit(7)
if mode == "stubborn":  # ignores EOF, keeps a grandchild in its group
    child = subprocess.Popen(["sleep", "300"])
    open(out, "w").write(f"{os.getpid()} {child.pid}")
    os.write(1, b"ready\n")
    while True:
        time.sleep(1)
if mode == "orphan":  # exits at once, leaving a grandchild that holds stdout open
    child = subprocess.Popen(["sleep", "300"])
    open(out, "w").write(f"{os.getpid()} {child.pid}")
    os.write(1, b"ready\n")
    sys.exit(3)
if mode == "trap":
    def on_signal(signum, _frame):
        open(out, "w").write(f"got {signum}")
        sys.exit(0)
    signal.signal(signal.SIGTERM, on_signal)
    os.write(1, b"ready\n")
    while True:
        time.sleep(0.05)
'''


def proxy(tmp_path: Path, mode: str, *extra: str) -> tuple[subprocess.Popen[bytes], Path, Path]:
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    trace, out = tmp_path / "trace.jsonl", tmp_path / f"{mode}.out"
    process = subprocess.Popen(
        [PYTHON, "-m", "acp_v1.trace", "record", "-o", str(trace), *extra, "--",
         PYTHON, str(script), mode, str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )
    return process, trace, out


def read_until(process: subprocess.Popen[bytes], wanted: bytes, timeout: float = 30) -> bytes:
    assert process.stdout is not None
    got, deadline = b"", time.monotonic() + timeout
    while wanted not in got:
        assert time.monotonic() < deadline, f"waited for {wanted!r}, got {got!r}"
        got += os.read(process.stdout.fileno(), 65536)
    return got


def gone(pid: int, timeout: float = 60.0) -> bool:
    """Whether ``pid`` has exited (a zombie waiting for its reaper counts as exited)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_every_byte_goes_through_unchanged_and_is_recorded(tmp_path: Path) -> None:
    process, trace_path, out = proxy(tmp_path, "bytes")
    assert process.stdin is not None
    try:
        first = read_until(process, b'{"jsonrpc":"2.0",')  # forwarded before its newline came
        client = [b'{"jsonrpc":"2.0","id":1,', b'"method":"go"}\n', b"\xc3\x28 not utf-8\n",
                  b"\r\n", b"final line without newline"]
        for piece in client:
            process.stdin.write(piece)
            process.stdin.flush()
            time.sleep(0.02)
        process.stdin.close()
        process.stdin = None  # closed: communicate() must not flush it
        rest, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    agent = b'{"jsonrpc":"2.0","method":"x"}\n\xff\xfe not utf-8\n\nlast line, no newline'
    assert first + rest == agent  # nothing added, nothing changed
    assert out.read_bytes() == b"".join(client)
    assert process.returncode == 7
    assert b"agent says hello on stderr" in stderr
    trace = read_trace(trace_path)
    assert trace.end is not None and trace.end["exit"] == 7
    recorded = {s: b"".join(f.raw for f in trace.frames if f.sender == s) for s in ("client", "agent")}
    assert recorded == {"client": b"".join(client), "agent": agent}
    assert [f.raw for f in trace.frames if f.sender == "agent"][-1] == b"last line, no newline"


def test_the_client_leaving_stops_a_stubborn_agent_and_its_children(tmp_path: Path) -> None:
    process, trace_path, out = proxy(tmp_path, "stubborn", "--grace", "0.3")
    assert process.stdin is not None
    try:
        read_until(process, b"ready\n")
        agent_pid, child_pid = map(int, out.read_text().split())
        process.stdin.close()  # the client exits
        process.stdin = None
        process.wait(timeout=30)
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == 128 + signal.SIGTERM
    assert gone(agent_pid) and gone(child_pid)
    end = read_trace(trace_path).end
    assert end is not None and end["exit"] == 143


def test_the_agent_leaving_takes_what_it_left_running(tmp_path: Path) -> None:
    process, _trace, out = proxy(tmp_path, "orphan", "--grace", "0.3")
    try:
        read_until(process, b"ready\n")
        process.wait(timeout=30)
        _agent_pid, child_pid = map(int, out.read_text().split())
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == 3
    assert gone(child_pid)


def test_signals_reach_the_agent(tmp_path: Path) -> None:
    process, _trace, out = proxy(tmp_path, "trap")
    try:
        read_until(process, b"ready\n")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    finally:
        process.kill()
        process.communicate()
    assert out.read_text() == f"got {int(signal.SIGTERM)}"
    assert process.returncode == 0  # the agent's own exit code, after it handled the signal


def test_an_agent_that_cannot_start(tmp_path: Path) -> None:
    done = subprocess.run(
        [PYTHON, "-m", "acp_v1.trace", "record", "-o", str(tmp_path / "t.jsonl"), "--",
         str(tmp_path / "no-such-agent")],
        env=ENV, capture_output=True, timeout=60, check=False,
    )
    assert done.returncode == 127 and done.stdout == b""
    assert b"cannot start" in done.stderr


ECHO_WITH_RECORD = (
    "import asyncio, sys\n"
    "from acp_v1 import run_agent\n"
    "from acp_v1.examples.echo_agent import EchoAgent\n"
    "asyncio.run(run_agent(EchoAgent(), record=sys.argv[1]))\n"
)


def test_the_runtime_records_its_own_connections_both_ends(tmp_path: Path) -> None:
    from acp_v1 import PROTOCOL_VERSION, connect_to_agent, models
    from acp_v1.examples.client import PrintingClient

    client_trace, agent_trace = tmp_path / "client.jsonl", tmp_path / "agent.jsonl"

    async def body() -> list[str]:
        stops = []
        command = [PYTHON, "-c", ECHO_WITH_RECORD, str(agent_trace)]
        async with connect_to_agent(PrintingClient(io.StringIO()), command, env=ENV,
                                    record=client_trace) as conn:
            await conn.initialize(protocol_version=PROTOCOL_VERSION,
                                  client_capabilities=models.ClientCapabilities())
            session = await conn.session_new(cwd=str(tmp_path), mcp_servers=[])
            for text in ("hello world", "again"):
                response = await conn.session_prompt(
                    session_id=session.session_id, prompt=[models.ContentBlockText(text=text)])
                stops.append(response.stop_reason.value)
        return stops

    assert asyncio.run(asyncio.wait_for(body(), 60)) == ["end_turn", "end_turn"]
    mine, theirs = read_trace(client_trace), read_trace(agent_trace)
    assert mine.header["recorder"] == "runtime" and mine.header["role"] == "client"
    assert theirs.header["role"] == "agent"
    for sender in ("client", "agent"):  # the two ends recorded the same bytes
        assert [f.raw for f in mine.frames if f.sender == sender] == [
            f.raw for f in theirs.frames if f.sender == sender]
    assert len(mine.frames) >= 10
    assert [v for v in judge(mine) if v.status == "fail"] == []
