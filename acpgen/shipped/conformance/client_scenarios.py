"""Runs of a client under test against the kit's scripted agent.

The client command names the agent it should start with ``{agent}``; the kit puts the
scripted agent there (with a script saying what its prompt turn does) and reads back the
agent's log: every line the client wrote to the agent (``in``) and the agent's own (``out``).

A run ends on an event: the kit's agent exits (the client exited or closed the connection, and
the agent finished its script), or the client exits without ever starting it. Two timeouts are
hang guards only: no progress for ``timeout`` seconds (after the prompt turn: a client that
neither exits nor closes the connection), or a run longer than ``run_timeout``. A run stopped
by a guard says so (``hung``); checks do not judge what it did not get to. The client's whole
process group is killed and reaped in every case.
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
from .workdir import KitWorkdir

AGENT_SCRIPT = Path(__file__).with_name("scripted_agent.py")
PLACEHOLDER = "{agent}"
TERM_GRACE = 1.0
POLL = 0.05  # seconds between looks at the client and the agent's log


class ClientCommandError(Exception):
    pass


@dataclass(frozen=True)
class ClientTarget:
    argv: tuple[str, ...]
    timeout: float = 10.0  # hang guard: seconds without progress before a run is stopped
    run_timeout: float = 60.0  # hang guard: seconds for a whole run
    stdin: bytes = b""  # what the client reads on its stdin (an interactive client's prompt)
    cwd: str | None = None  # where the command runs; None: the caller's working directory


@dataclass
class ClientRun:
    mode: str
    transcript: Transcript
    events: list[tuple[str, float]] = field(default_factory=list)
    timed_out: bool = False  # a hang guard stopped the run
    hung: str = ""  # ... what it saw then
    exited: bool = False  # the client exited by itself (exit_code is its status)
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


class ClientRunner(KitWorkdir):
    def __init__(self, target: ClientTarget, workdir: str | None = None) -> None:
        super().__init__(workdir, "acp-kit-client-")
        self.target = target
        self.runs: dict[str, ClientRun] = {}
        self.broken: str | None = None
        self.asked: list[str] = []  # every mode asked for, in order (as AgentRunner's)

    def start(self) -> str | None:
        """Run the first mode; why the command cannot even start the kit's agent, or None."""
        self.run("basic")
        return self.broken

    def run(self, mode: str) -> ClientRun:
        self.asked.append(mode)
        if mode not in self.runs:
            self.runs[mode] = self._run(mode)
        return self.runs[mode]

    def _run(self, mode: str) -> ClientRun:
        workdir = tempfile.mkdtemp(prefix=f"{mode}-", dir=self.workdir)
        Path(workdir, "notes.md").write_text("# Notes\n", encoding="utf-8")
        log = Path(workdir, "agent-log.jsonl")
        script = Path(workdir, "script.json")
        # The agent's own deadline lies past the kit's guards: the kit always decides first.
        deadline = self.target.run_timeout + 2 * self.target.timeout
        script.write_text(
            json.dumps({"mode": mode, "log": str(log), "workdir": workdir, "deadline": deadline}),
            encoding="utf-8",
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
                run.hung = self._wait(proc, log)
                run.exited = proc.poll() is not None
            finally:
                _kill_group(proc)
        run.timed_out = bool(run.hung)
        run.exit_code = proc.returncode
        run.output = _tail(out_path.read_bytes())
        self._read_log(log, run)
        if not run.transcript.frames and run.event("started") is None:
            run.error = self.broken = f"the client never started the kit's agent ({_exit(run)})"
        return run

    def _wait(self, proc: subprocess.Popen[bytes], log: Path) -> str:
        """Wait for the run's end: "" on an event, else what the hang guard saw."""
        start = time.monotonic()
        last_size, last_change = -1, start
        turn_ended = agent_gone = False
        agent: int | None = None  # the kit agent's pid, once it started
        while True:
            now = time.monotonic()
            exited = proc.poll() is not None
            size = log.stat().st_size if log.exists() else 0
            if size != last_size:
                last_size, last_change = size, now
                text = log.read_bytes() if size else b""
                agent = _agent_pid(text)
                turn_ended = _EVENT % b"turn-ended" in text
                agent_gone = _EVENT % b"exit" in text
                if _EVENT % b"deadline" in text:
                    return "the kit's agent reached its own deadline"
            # The agent exits at the end of its input, or the client killed it.
            agent_gone = agent_gone or (agent is not None and not _alive(agent))
            if agent_gone or (exited and agent is None):
                try:  # the client's own exit status, for messages (it may stay up: a UI)
                    proc.wait(timeout=TERM_GRACE)
                except subprocess.TimeoutExpired:
                    pass
                return ""
            if now - last_change > self.target.timeout:
                if exited:
                    return f"the client exited, but the kit's agent ran on for {self.target.timeout:g} s"
                if turn_ended:
                    return (
                        f"after its prompt turn the client neither exited nor closed the "
                        f"connection for {self.target.timeout:g} s"
                    )
                return f"nothing happened on the wire for {self.target.timeout:g} s"
            if now - start > self.target.run_timeout:
                return f"the run took longer than {self.target.run_timeout:g} s"
            time.sleep(POLL)

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


_EVENT = b'{"event": "%s"'  # how the agent logs an event (json.dumps's separators)


def _agent_pid(log: bytes) -> int | None:
    start = log.find(_EVENT % b"started")
    end = log.find(b"\n", start)
    if start < 0 or end < 0:
        return None
    entry = json.loads(log[start:end])
    pid = entry.get("pid")
    return pid if isinstance(pid, int) else None


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, killed but not reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True  # no /proc: a zombie counts as running until its parent reaps it
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def _exit(run: ClientRun) -> str:
    what = f"exit status {run.exit_code}" if not run.timed_out else f"hung: {run.hung}"
    return f"{what}; output: {run.output}" if run.output else what
