"""Benchmark ``acpgen diff`` of the pinned schema against real releases, search included.

Each target is diffed as a user runs it: a fresh ``acpgen diff PINNED NEW`` process (wall
seconds, and CPU seconds of the process from ``wait4``), paired in the same round with the
anchor, a fresh ``acpgen verify`` (it reads and checks the same pinned inputs, so it is the
floor any command that loads them pays). Figures: wall seconds of the diff (the issue's
budget is under 3 s on this machine, the witness and counterexample searches included), and
the ratio diff / verify of CPU seconds, min / median / max over the rounds.

Targets: the real v1 schemas newer than the pinned one in ``tests/data/history/`` (shipped
by the TypeScript SDK releases; the newest real release there is), and the newest upstream
schema release of ``tests/data/releases/`` (older than the pinned one).

Run: ``.venv/bin/python bench/bench_diff.py`` (about 30 s; ``--rounds N``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACPGEN = [sys.executable, "-m", "acpgen"]


def _inputs_dir() -> Path:
    from acpgen.load.project import load_project

    return load_project(ROOT).inputs.directory


def _run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + sys of the child) and the exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen([*ACPGEN, *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def _targets() -> list[tuple[str, Path]]:
    history = ROOT / "tests/data/history"
    out = [(p.name, p) for p in sorted(history.glob("schema-v1-from-npm-*.json"))]
    index = json.loads((ROOT / "tests/data/releases/index.json").read_text(encoding="utf-8"))
    newest = index["order"][-1]
    entry = index["releases"][newest]
    out.append((f"{newest} (upstream)", ROOT / "tests/data/releases" / entry["schema"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    inputs = _inputs_dir()
    env_note = os.getloadavg()
    print(f"acpgen diff PINNED NEW, {rounds} paired round(s); load average at start "
          f"{env_note[0]:.2f}")
    print()
    print("| NEW | exit | wall s min | wall s median | wall s max | CPU s median "
          "| ratio diff/verify (CPU) min / median / max |")
    print("|---|---:|---:|---:|---:|---:|---|")
    verify_cpu: list[float] = []
    for label, path in _targets():
        walls, cpus, ratios = [], [], []
        code = -1
        for _ in range(rounds):
            _, anchor, _ = _run(["verify", "--inputs", str(inputs)])
            wall, cpu, code = _run(["diff", "--inputs", str(inputs), str(inputs), str(path)])
            verify_cpu.append(anchor)
            walls.append(wall)
            cpus.append(cpu)
            ratios.append(cpu / anchor)
        print(f"| {label} | {code} | {min(walls):.2f} | {statistics.median(walls):.2f} | "
              f"{max(walls):.2f} | {statistics.median(cpus):.2f} | {min(ratios):.2f}x / "
              f"{statistics.median(ratios):.2f}x / {max(ratios):.2f}x |")
    print()
    print(f"anchor: acpgen verify, CPU s median {statistics.median(verify_cpu):.2f}")


if __name__ == "__main__":
    main()
