"""The cost guard's counts (tests/test_cost_guard.py), printed, with the calls per function.

Runs ``tests/support/cost_exchange.py`` on the committed ``generated/`` packages (``--tree
DIR``: another generated tree, say a parent commit's, to compare): both ends in one process
over an in-memory pipe, the calls counted (Python-level and into C) per prompt round trip and
per ``session/update``, both ends together, beside the budgets of ``tests/cost_budgets.toml``.

``--breakdown PACKAGE`` adds where the Python calls go, per round trip and per update, by part
of the runtime (the event loop and task hops, framing, the engine, validation, the guards,
the typed ends' dispatch, ...); ``--top PACKAGE`` the functions called most: what to read when
a budget is exceeded (run it on the parent commit too, and compare). The counts do not depend
on load; the load average is printed all the same, as every bench here does.

Run: ``.venv/bin/python bench/bench_cost.py [--breakdown acp_v1] [--top acp_v1]``.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable")

# (part, what a call's "path:line name" holds): the first that matches names its part.
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("the in-memory pipe (a socket's transport, in the bench)", ("streams.py", "MemoryPipe")),
    ("the exchange's handlers (the script's own work)", ("cost_exchange.py",)),
    ("event loop, futures and task hops (asyncio)", ("asyncio/", "selectors.py", "_weakrefset.py")),
    ("framing: encode (JSON text, UTF-8)", ("encode_message", "json/encoder.py")),
    ("framing: split and decode", ("decode_frame", "json/decoder.py", "feed_data", "read_frames")),
    (
        "send guards, receive guards, omission (planned scans)",
        ("outbound.py", "omit.py", "guards.py", " admit", "_received_rules", "_outbound",
         "_check_received_result", "peer_capabilities", "_advertise"),
    ),
    (
        "validation and dumps (pydantic, lenient)",
        ("pydantic/", "lenient.py", "from_peer", "to_wire", "from_wire", "_parse_params",
         "_validate", "_dump"),
    ),
    ("models built (keyword arguments, handlers' answers)", ("model_base.py", " _params", "abc>")),
    ("JSON-RPC engine: ids, lanes, answers, write turn", ("rpc.py", "transport.py", "cancellation")),
    (
        "typed ends: routing, dispatch, hooks, debug-log checks",
        ("sides.py", "connection.py", "observability.py", "logging/"),
    ),
]
# The pipe's methods, by name (its file also holds the script's handlers).
PIPE_METHODS = frozenset(
    {"write", "_deliver", "get_write_buffer_size", "set_write_buffer_limits", "can_write_eof",
     "write_eof", "_deliver_eof", "is_closing", "close"}
)


def part_of(name: str) -> str:
    if "cost_exchange.py" in name and name.rpartition(" ")[2] in PIPE_METHODS:
        return PARTS[0][0]
    for part, needles in PARTS:
        if any(needle in name for needle in needles):
            return part
    return "other"


def _short(name: str) -> str:
    path, _, rest = name.partition(":")
    parts = Path(path).parts
    for anchor in ("generated", "gen_before", "tests"):
        if anchor in parts:
            path = "/".join(parts[parts.index(anchor) + 1 :])
            break
    else:
        if "lib" in parts:
            path = "/".join(parts[parts.index("lib") + 2 :])  # lib/pythonX.Y/...
    return f"{path}:{rest}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT / "generated", help="a generated/")
    parser.add_argument("--top", metavar="PACKAGE", help="the calls per function of PACKAGE")
    parser.add_argument("--breakdown", metavar="PACKAGE", help="the calls per part of PACKAGE")
    parser.add_argument("--prompts", type=int, default=20)
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--lines", type=int, default=30, help="functions listed with --top")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    sys.path.insert(0, str(ROOT / "tests"))
    import conditions  # bench/conditions.py: the command and the load average, printed
    from support.cost_exchange import measure, top

    conditions.announce()
    budgets = tomllib.loads((ROOT / "tests" / "cost_budgets.toml").read_text(encoding="utf-8"))
    print(f"tree: {args.tree}")
    print("\n| package | figure | counted | budget |")
    print("|---|---|---:|---:|")
    for package in PACKAGES:
        costs = measure(package, prompts=args.prompts, updates=args.updates)
        for figure, value in costs.figures().items():
            budget = budgets.get(package, {}).get(figure, {}).get("budget", "")
            print(f"| {package} | {figure} | {value:.2f} | {budget} |")
    if args.breakdown:
        costs = measure(
            args.breakdown, prompts=args.prompts, updates=args.updates, by_function=True
        )
        rt: collections.Counter[str] = collections.Counter()
        streamed: collections.Counter[str] = collections.Counter()
        for name, calls in costs.round_trip.by_function.items():
            rt[part_of(name)] += calls
        for name, calls in costs.streamed.by_function.items():
            streamed[part_of(name)] += calls
        print(f"\n{args.breakdown}: Python calls by part, both ends")
        print("\n| part | per round trip | per update |")
        print("|---|---:|---:|")
        for part in [p for p, _ in PARTS] + ["other"]:
            per_rt = rt[part] / costs.prompts
            per_update = (streamed[part] - per_rt) / costs.updates
            if per_rt or per_update:
                print(f"| {part} | {per_rt:.1f} | {per_update:.1f} |")
        print(f"| all | {costs.rt_python:.1f} | {costs.update_python:.1f} |")
    if args.top:
        costs = measure(args.top, prompts=args.prompts, updates=args.updates, by_function=True)
        for title, count, per in (
            ("per prompt round trip", costs.round_trip, costs.prompts),
            (f"per update (the streaming prompt / {costs.updates})", costs.streamed, costs.updates),
        ):
            print(f"\n{args.top}: Python calls {title}, both ends (total {count.python / per:.1f})")
            for calls, name in top(count, per, args.lines):
                print(f"  {calls:7.2f}  {_short(name)}  [{part_of(name)}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
