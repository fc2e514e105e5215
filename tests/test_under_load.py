"""bench/under_load.sh: the command runs beside N CPU burners, which are gone when it ends."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT

SCRIPT = PROJECT_ROOT / "bench" / "under_load.sh"

# Run as the command: the burners are its siblings, children of the script (its parent).
SIBLINGS = """
import os, pathlib
parent = os.getppid()
found = []
for proc in pathlib.Path("/proc").iterdir():
    if not proc.name.isdigit():
        continue
    try:
        stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        cmdline = (proc / "cmdline").read_bytes().replace(b"\\0", b" ").decode()
    except OSError:
        continue
    mine = proc.name == str(os.getpid())  # this source holds the words too
    if int(stat[1]) == parent and "while True: pass" in cmdline and stat[0] in "RS" and not mine:
        found.append(proc.name)
print(" ".join(found))
raise SystemExit(7)
"""


def _alive(pid: str) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.slow  # two burners for as long as a Python starts
def test_the_command_runs_beside_the_burners_which_are_stopped_after_it() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "-n", "2", "--", sys.executable, "-c", SIBLINGS],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 7, done.stderr  # the command's own exit status
    burners = done.stdout.split()
    assert len(burners) == 2, done.stdout  # both burning while it ran
    assert not [pid for pid in burners if _alive(pid)]  # and stopped when it ended
    assert "2 CPU burner(s)" in done.stderr and "load average:" in done.stderr


def test_a_bad_burner_count_is_one_line_and_exit_2() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "-n", "two", "--", "true"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr == "under_load: error: -n: not a whole number: two\n"
