# Edit acpgen/shipped/trace/cli.py, not this file: acpgen generate writes it.
"""``python -m <package>.trace``: ``record``, ``check`` and ``html`` (docs/traces.md).

Exit codes: ``record`` exits with the agent's exit code (128 + N when a signal N ended it,
127 when it cannot start). ``check``: 0 no requirement failed, 1 at least one failed, 2 the
trace cannot be read (or bad usage), 3 this package has no roster to judge with. ``html``:
0 written, 2 the trace cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..conformance.validate import Validator
from .format import Trace, TraceError, read_trace

EXIT_FAILED = 1
EXIT_UNREADABLE = 2
EXIT_NO_ROSTER = 3


def _parser() -> argparse.ArgumentParser:
    prog = f"python -m {__name__.rsplit('.', 1)[0]}"
    parser = argparse.ArgumentParser(prog=prog, description="Record, judge and show ACP traces.")
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser(
        "record",
        help="run AGENT_COMMAND behind this process' stdin/stdout, recording every frame",
        description="A transparent stdio proxy: use it as the agent command of any client.",
    )
    record.add_argument("-o", "--output", required=True, help="the trace file to write")
    record.add_argument(
        "--grace",
        type=float,
        default=5.0,
        help="seconds the agent gets to exit after the client closed its input (default 5)",
    )
    record.add_argument("agent", nargs=argparse.REMAINDER, help="-- AGENT_COMMAND [ARGS...]")
    check = commands.add_parser("check", help="judge a trace against the roster's wire rules")
    check.add_argument("trace")
    check.add_argument("--json", action="store_true", help="every verdict as JSON on stdout")
    check.add_argument(
        "-v", "--verbose", action="store_true", help="also list passed and not exercised"
    )
    html = commands.add_parser("html", help="write the trace as one self-contained HTML page")
    html.add_argument("trace")
    html.add_argument("-o", "--output", required=True, help="the HTML file to write")
    return parser


def _read(path: str) -> Trace | None:
    try:
        return read_trace(path)
    except TraceError as exc:
        print(f"trace: error: {exc}", file=sys.stderr)
        return None


def _check(args: argparse.Namespace) -> int:
    from .judge import Verdict, judge, package_name
    from .report import text_report
    from .requirements import REQUIREMENTS

    if not REQUIREMENTS:
        print(
            f"trace: error: {package_name()} has no requirement roster to judge with "
            "(judge with the trace package of the roster's surface)",
            file=sys.stderr,
        )
        return EXIT_NO_ROSTER
    trace = _read(args.trace)
    if trace is None:
        return EXIT_UNREADABLE
    verdicts: list[Verdict] = judge(trace, _validator(package_name()))
    if args.json:
        print(json.dumps([v.to_json() for v in verdicts], indent=2, ensure_ascii=False))
    else:
        for line in text_report(args.trace, trace, verdicts, args.verbose):
            print(line)
    return EXIT_FAILED if any(v.status == "fail" for v in verdicts) else 0


def _validator(package: str) -> Validator | None:
    try:
        return Validator(package)
    except ImportError:  # the models need pydantic; framing and ordering are judged without
        return None


def _html(args: argparse.Namespace) -> int:
    from .page import render_page

    trace = _read(args.trace)
    if trace is None:
        return EXIT_UNREADABLE
    Path(args.output).write_text(render_page(trace, Path(args.trace).name), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "record":
        command = list(args.agent)
        if command[:1] == ["--"]:
            command = command[1:]
        if not command:
            print("trace record: error: no agent command (after --)", file=sys.stderr)
            return EXIT_UNREADABLE
        from .proxy import record_stdio

        return record_stdio(command, args.output, args.grace)
    if args.command == "check":
        return _check(args)
    return _html(args)
