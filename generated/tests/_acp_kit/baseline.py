# Edit acpgen/shipped/conformance/baseline.py, not this file: acpgen generate writes it.
"""Known deviations for an agent's (or client's) own CI: ``--acp-baseline FILE``.

The file lists, per side, the requirements the implementation is known to fail. A listed
failure is expected (pytest reports it as xfail); the run fails on a failure not listed
(new) and on a listed requirement that passes (fixed: taking it out keeps the file true).
``--acp-write-baseline`` writes the run's failing requirements into the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FORMAT = "acp-conformance-baseline/1"


class BaselineError(ValueError):
    """The baseline file cannot be used; the message names the file and what is wrong."""


def load(path: str | None) -> dict[str, set[str]]:
    """side -> the requirement IDs known to fail; {} without a file or when it does not exist
    yet (a first --acp-write-baseline creates it)."""
    if not path or not Path(path).exists():
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BaselineError(f"{path}: not a readable JSON baseline: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(f"{path}: not an ACP conformance baseline (format {FORMAT!r})")
    known: dict[str, set[str]] = {}
    for side in ("agent", "client"):
        ids = data.get(side, [])
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise BaselineError(f"{path}: {side!r} must be a list of requirement IDs")
        known[side] = set(ids)
    return known


def failing(report: Mapping[str, Any]) -> set[str]:
    """The requirements a built report shows failed (known ones included)."""
    return {e["id"] for e in report["requirements"] if e["status"] == "fail"}


def dump(known: Mapping[str, set[str]]) -> str:
    data: dict[str, Any] = {"format": FORMAT}
    for side in ("agent", "client"):
        data[side] = sorted(known.get(side, set()))
    return json.dumps(data, indent=2) + "\n"
