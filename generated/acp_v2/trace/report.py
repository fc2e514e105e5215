# Edit acpgen/shipped/trace/report.py, not this file: acpgen generate writes it.
"""The judge's verdicts as text: each failure with its requirement, wording and frames."""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Sequence

from .format import Trace
from .judge import Verdict
from .requirements import REQUIREMENTS

WIDTH = 100


def _sessions(trace: Trace) -> int:
    from .judge import Conversation

    return len(
        {
            (m.get("params") or {}).get("sessionId")
            for m in Conversation.of(trace).messages()
            if isinstance(m.get("params"), dict) and "sessionId" in m.get("params")
        }
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _frames(numbers: Sequence[int]) -> str:
    if not numbers:
        return ""
    return ("frame " if len(numbers) == 1 else "frames ") + ", ".join(map(str, numbers))


def verdict_lines(v: Verdict) -> list[str]:
    keyword, _role, text = REQUIREMENTS.get(v.req_id, ("", "", ""))
    head = f"{v.status.upper():<14}{v.req_id} ({v.side}, {keyword})"
    lines = [f"{head}  {_frames(v.frames)}".rstrip()]
    if v.status == "fail":
        lines += textwrap.wrap(
            f'"{text}"', WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 7
        )
    if v.detail:
        lines += textwrap.wrap(v.detail, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return lines


def text_report(name: str, trace: Trace, verdicts: Sequence[Verdict], verbose: bool) -> list[str]:
    counts = Counter(v.status for v in verdicts)
    ended = "ended" if trace.end is not None else "cut off (no end record)"
    sessions = _plural(_sessions(trace), "session")
    lines = [f"{name}: {len(trace.frames)} frames, {sessions}, recording {ended}"]
    for v in verdicts:
        if v.status == "fail" or verbose:
            lines += verdict_lines(v)
    lines.append(
        f"{counts['fail']} failed, {counts['pass']} passed, {counts['not exercised']} not "
        "exercised" + ("" if verbose else " (-v lists them)")
    )
    return lines
