"""Runs of a client under test against the kit's scripted agent.

The client command names the agent it should start with ``{agent}``; the kit puts the
scripted agent there (with a script saying what its prompt turn does) and reads back the
agent's log: every line the client wrote to the agent (``in``) and the agent's own (``out``).
A run ends when the client exits, shortly after the agent answered the first prompt, or at
the deadline; the client's whole process group is killed and reaped in every case.
"""

from __future__ import annotations

import base64
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .wire import Direction, Transcript, decode_line

AGENT_SCRIPT = Path(__file__).with_name("scripted_agent.py")
PLACEHOLDER = "{agent}"
AFTER_TURN = 1.0  # seconds a client gets to finish once its turn ended
TERM_GRACE = 1.0


class ClientCommandError(Exception):
    pass


@dataclass(frozen=True)
class ClientTarget:
    argv: tuple[str, ...]
    timeout: float = 10.0  # seconds without progress before a run is given up
    run_timeout: float = 60.0  # seconds for a whole run
    stdin: bytes = b""  # what the client reads on its stdin (an interactive client's prompt)
    cwd: str | None = None  # where the command runs; None: the caller's working directory


@dataclass
class ClientRun:
    mode: str
    transcript: Transcript
    events: list[tuple[str, float]] = field(default_factory=list)
    timed_out: bool = False
    exit_code: int | None = None
    output: str = ""  # the end of the client's stdout and stderr, for messages
    workdir: str = ""
    error: str | None = None  # the run could not happen at all

    def event(self, name: str) -> float | None:
        return next((t for n, t in self.events if n == name), None)


def client_argv(template: tuple[str, ...], agent: list[str]) -> list[str]:
    if not any(PLACEHOLDER in word for word in template):
        raise ClientCommandError(
            f"the client command has no {PLACEHOLDER} placeholder for the kit's agent"
        )
    argv: list[str] = []
    for word in template:
        if word == PLACEHOLDER:
            argv.extend(agent)
        else:
            argv.append(word.replace(PLACEHOLDER, shlex.join(agent)))
    return argv


class ClientRunner:
    def __init__(self, target: ClientTarget, workdir: str | None = None) -> None:
        self.target = target
        self.workdir = workdir or tempfile.mkdtemp(prefix="acp-kit-client-")
        self.runs: dict[str, ClientRun] = {}
        self.broken: str | None = None

    def start(self) -> str | None:
        """Run the first mode; why the command cannot even start the kit's agent, or None."""
        self.run("basic")
        return self.broken

    def run(self, mode: str) -> ClientRun:
        if mode not in self.runs:
            self.runs[mode] = self._run(mode)
        return self.runs[mode]

    def _run(self, mode: str) -> ClientRun:
        workdir = tempfile.mkdtemp(prefix=f"{mode}-", dir=self.workdir)
        Path(workdir, "notes.md").write_text("# Notes\n", encoding="utf-8")
        log = Path(workdir, "agent-log.jsonl")
        script = Path(workdir, "script.json")
        script.write_text(
            json.dumps({"mode": mode, "log": str(log), "workdir": workdir}), encoding="utf-8"
        )
        run = ClientRun(mode, Transcript(f"client-{mode}"), workdir=workdir)
        if self.broken:
            run.error = self.broken
            return run
        try:
            argv = client_argv(self.target.argv, [sys.executable, str(AGENT_SCRIPT), str(script)])
        except ClientCommandError as exc:
            run.error = self.broken = str(exc)
            return run
        out_path = Path(workdir, "client-output.txt")
        with open(out_path, "wb") as out:
            try:
                proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    cwd=self.target.cwd,
                    start_new_session=True,
                )
            except OSError as exc:
                reason = "command not found" if isinstance(exc, FileNotFoundError) else exc.strerror
                run.error = self.broken = f"{reason}: {argv[0]!r}"
                return run
            try:
                _feed(proc, self.target.stdin)
                run.timed_out = not self._wait(proc, log, mode)
            finally:
                _kill_group(proc)
        run.exit_code = proc.returncode
        run.output = _tail(out_path.read_bytes())
        self._read_log(log, run)
        if not run.transcript.frames and run.event("started") is None:
            run.error = self.broken = f"the client never started the kit's agent ({_exit(run)})"
        return run

    def _wait(self, proc: subprocess.Popen[bytes], log: Path, mode: str) -> bool:
        """Whether the client finished (exited, or its turn ended) before the deadline."""
        start = time.monotonic()
        turn_ended: float | None = None
        last_size, last_change = -1, start
        while True:
            now = time.monotonic()
            if proc.poll() is not None:
                return True
            size = log.stat().st_size if log.exists() else 0
            if size != last_size:
                last_size, last_change = size, now
                if turn_ended is None and size and b"turn-ended" in log.read_bytes():
                    turn_ended = now
            if turn_ended is not None and now - turn_ended > AFTER_TURN:
                return True
            if mode == "version" and now - last_change > min(self.target.timeout, 3.0) and size:
                return (
                    True  # the client stopped after the unsupported version: the point of the run
                )
            if now - last_change > self.target.timeout or now - start > self.target.run_timeout:
                return False
            time.sleep(0.05)

    def _read_log(self, log: Path, run: ClientRun) -> None:
        if not log.exists():
            return
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                entry: dict[str, Any] = json.loads(line)
            except ValueError:
                continue
            if "event" in entry:
                run.events.append((str(entry["event"]), float(entry["t"])))
                continue
            direction: Direction = "in" if entry.get("d") == "in" else "out"
            run.transcript.frames.append(
                decode_line(direction, base64.b64decode(entry["raw"]), float(entry["t"]))
            )


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    """Give the client its input and close its stdin (a client that reads none sees EOF)."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except OSError:
        pass  # the client exited or closed its stdin: nothing to feed


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=TERM_GRACE)
            if sig == signal.SIGTERM:
                # The leader is gone; children may linger in the group: SIGKILL them too.
                continue
        except subprocess.TimeoutExpired:
            continue
    proc.wait()


def _tail(blob: bytes, limit: int = 400) -> str:
    text = blob.decode("utf-8", errors="backslashreplace").strip()
    text = " | ".join(line for line in text.splitlines() if line.strip())
    return text if len(text) <= limit else "..." + text[-limit:]


def _exit(run: ClientRun) -> str:
    what = f"exit status {run.exit_code}" if not run.timed_out else "timed out"
    return f"{what}; output: {run.output}" if run.output else what
