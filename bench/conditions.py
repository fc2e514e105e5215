"""What every bench here prints about the conditions it ran in (bench/README.md's figures
come with them): the exact command line, and the load average (1, 5 and 15 minutes) before
the first measurement and after the last. On this shared 2-core machine the load says how far
a timing can be trusted; the ratios of paired rounds are the figures to read.

A bench calls :func:`announce` once it has parsed its arguments; the "after" line is printed
when the process exits (also after an error or Ctrl-C, so a failed run says its conditions).
"""

from __future__ import annotations

import atexit
import os
import shlex
import sys
from pathlib import Path
from typing import TextIO


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def command_line() -> str:
    """The command as it was run, from the project root: the interpreter and the arguments."""
    python = Path(sys.executable)
    try:
        python = python.relative_to(Path.cwd())
    except ValueError:
        pass
    return shlex.join([str(python), *sys.argv])


def announce(out: TextIO | None = None) -> None:
    """Print the command and the load average now, and the load average again at exit, to
    ``out`` (stdout; a bench whose stdout is data prints them to stderr)."""
    stream = sys.stdout if out is None else out
    print(f"command: {command_line()}", file=stream, flush=True)
    print(f"load average before (1/5/15 min): {load_average()}", file=stream, flush=True)

    def after() -> None:
        print(f"load average after (1/5/15 min): {load_average()}", file=stream, flush=True)

    atexit.register(after)
