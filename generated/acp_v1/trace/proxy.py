# Edit acpgen/shipped/trace/proxy.py, not this file: acpgen generate writes it.
"""The recorder: a transparent stdio proxy between a client and the agent it starts.

``python -m <package>.trace record -o trace.jsonl -- AGENT_COMMAND`` is itself an agent
command: the client starts it, it starts the agent, and every byte goes through unchanged
and at once (a partial line is forwarded without waiting for its newline), while each
complete line is written to the trace (:class:`.format.TraceWriter`). The agent's stderr is
the proxy's own (inherited, untouched). The proxy writes nothing to stdout of its own.

Lifetimes: the agent runs in a process group of its own; SIGTERM, SIGINT and SIGHUP sent to
the proxy go to that group; when the client closes the proxy's stdin the agent's stdin is
closed, and an agent still running ``grace`` seconds later is terminated (then killed); when
the agent exits, whatever it left in its group is terminated and the proxy exits with the
agent's exit code (128 + N for a signal N, as shells report it). On Linux the agent is also
killed if the proxy itself is killed (``PR_SET_PDEATHSIG``).

The remote transports (Streamable HTTP, WebSocket) record through the same writer, a whole
frame per record (``TraceWriter.frame``, called by ``transports/channel.py``); no proxy process
is needed there.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from ..recording import Sender, TraceWriter

__all__ = ["record_stdio"]

CHUNK = 65536
FORWARDED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the group; False when none of it is left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Proxy:
    def __init__(self, argv: Sequence[str], writer: TraceWriter, grace: float) -> None:
        self.writer = writer
        self.grace = grace
        self.client_gone = threading.Event()
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,  # its own process group: signals and cleanup reach all of it
            # Safe here: the proxy starts the agent before it starts any thread of its own.
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,  # noqa: PLW1509
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.to_agent = self.process.stdin.fileno()
        self.from_agent = self.process.stdout.fileno()

    def pump(self, source: int, target: int, sender: Sender) -> None:
        """Copy ``source`` to ``target`` unchanged, recording as ``sender``; close both at EOF.

        Recorded before forwarded: the peer cannot answer a line before the trace has it, so
        the trace's order never puts an answer before what it answers."""
        try:
            while data := os.read(source, CHUNK):
                self.writer.feed(sender, data)
                _write_all(target, data)
        except OSError:  # the reader went away (EPIPE): its side is gone
            pass
        self.writer.finish(sender)
        if sender == "client":
            with contextlib.suppress(OSError):
                self.process.stdin.close()  # type: ignore[union-attr]
            self.client_gone.set()
        else:
            with contextlib.suppress(OSError):
                os.close(target)  # our stdout: the client sees the agent's EOF

    def forward(self, signum: int, _frame: FrameType | None) -> None:
        _signal_group(self.process.pid, signum)

    def wait(self) -> int:
        """The agent's exit status, stopping it once the client has gone and ``grace`` passed."""
        deadline: float | None = None
        stage = 0
        while True:
            try:
                return self.process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
            if self.client_gone.is_set() and deadline is None:
                deadline = time.monotonic() + self.grace
            if deadline is not None and time.monotonic() >= deadline:
                _signal_group(self.process.pid, (signal.SIGTERM, signal.SIGKILL)[min(stage, 1)])
                stage += 1
                deadline = time.monotonic() + self.grace

    def stop_group(self) -> None:
        """Terminate what the agent left in its group (a launcher's child), then kill it."""
        pgid = self.process.pid
        if not _signal_group(pgid, signal.SIGTERM):
            return
        for _ in range(40):
            time.sleep(0.05)
            if not _signal_group(pgid, 0):
                return
        _signal_group(pgid, signal.SIGKILL)


def record_stdio(argv: Sequence[str], output: str | os.PathLike[str], grace: float = 5.0) -> int:
    """Run ``argv`` as the agent behind this process' stdin/stdout, recording to ``output``;
    return the exit code to exit with."""
    header = {"recorder": "proxy", "command": list(argv), "cwd": os.getcwd()}
    writer = TraceWriter(Path(output), header)
    try:
        proxy = _Proxy(argv, writer, grace)
    except OSError as exc:
        writer.close(None)
        print(f"trace record: cannot start {argv[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127
    previous = {sig: signal.signal(sig, proxy.forward) for sig in FORWARDED_SIGNALS}
    threads = [
        threading.Thread(target=proxy.pump, args=(0, proxy.to_agent, "client"), daemon=True),
        threading.Thread(target=proxy.pump, args=(proxy.from_agent, 1, "agent"), daemon=True),
    ]
    for thread in threads:
        thread.start()
    status = proxy.wait()
    threads[1].join(timeout=proxy.grace)  # the agent's last output reaches the client
    proxy.stop_group()
    for sig, handler in previous.items():
        signal.signal(sig, handler)
    code = status if status >= 0 else 128 - status
    writer.close(code)
    return code
