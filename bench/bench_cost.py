"""The cost guard's counts (tests/test_cost_guard.py), printed, with the calls per function.

Runs ``tests/support/cost_exchange.py`` on the committed ``generated/`` packages: both ends in
one process over an in-memory pipe, the calls counted (Python-level and into C) per prompt
round trip and per ``session/update``, both ends together, beside the budgets of
``tests/cost_budgets.toml``. ``--top PACKAGE`` adds the Python functions called most, per
round trip and per update: the breakdown to read when a budget is exceeded (run it on the
parent commit too, and compare). The counts do not depend on load; the load average is
printed all the same, as every bench here does.

Run: ``.venv/bin/python bench/bench_cost.py [--top acp_v1] [--prompts N] [--updates N]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
sys.path.insert(0, str(ROOT / "tests"))

from support.cost_exchange import measure, top

PACKAGES = ("acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable")


def _short(name: str) -> str:
    path, _, rest = name.partition(":")
    parts = Path(path).parts
    if "generated" in parts:
        path = "/".join(parts[parts.index("generated") + 1 :])
    elif "lib" in parts:
        path = "/".join(parts[parts.index("lib") + 2 :])  # lib/pythonX.Y/...
    return f"{path}:{rest}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", metavar="PACKAGE", help="the calls per function of PACKAGE")
    parser.add_argument("--prompts", type=int, default=20)
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--lines", type=int, default=30, help="functions listed with --top")
    args = parser.parse_args()
    print(f"command: {shlex.join([Path(sys.executable).name, *sys.argv])}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    budgets = tomllib.loads((ROOT / "tests" / "cost_budgets.toml").read_text(encoding="utf-8"))
    print("\n| package | figure | counted | budget |")
    print("|---|---|---:|---:|")
    for package in PACKAGES:
        costs = measure(package, prompts=args.prompts, updates=args.updates)
        for figure, value in costs.figures().items():
            budget = budgets.get(package, {}).get(figure, {}).get("budget", "")
            print(f"| {package} | {figure} | {value:.2f} | {budget} |")
    if args.top:
        costs = measure(args.top, prompts=args.prompts, updates=args.updates, by_function=True)
        for title, count, per in (
            ("per prompt round trip", costs.round_trip, costs.prompts),
            (f"per update (the streaming prompt / {costs.updates})", costs.streamed, costs.updates),
        ):
            print(f"\n{args.top}: Python calls {title}, both ends (total {count.python / per:.1f})")
            for calls, name in top(count, per, args.lines):
                print(f"  {calls:7.2f}  {_short(name)}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
