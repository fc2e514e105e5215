"""``acpgen roster`` filters: only known values, any case, the choices named on error."""

from __future__ import annotations

import re
from collections.abc import Sequence

from acpgen.errors import AcpgenError
from acpgen.inputs.roster import Requirement


def _norm(value: str) -> str:
    return " ".join(value.replace("_", " ").split()).casefold()


def choose(option: str, given: Sequence[str], known: Sequence[str]) -> set[str]:
    """The canonical spelling of each given value; an unknown one is refused (exit 2)."""
    by_norm = {_norm(k): k for k in known}
    chosen: set[str] = set()
    for value in given:
        canonical = by_norm.get(_norm(value))
        if canonical is None:
            choices = ", ".join(known)
            raise AcpgenError(option, f"unknown value {value!r}; choose from {choices}")
        chosen.add(canonical)
    return chosen


_PREFIX = re.compile(r"^ACP-V\d+-", re.IGNORECASE)  # the roster's own prefix, ACP-V1- for v1


def _bare(req_id: str) -> str:
    return _PREFIX.sub("", req_id.strip()).upper()


def requirements_by_id(given: Sequence[str], known: Sequence[Requirement]) -> list[Requirement]:
    """The requirements named (with or without the ``ACP-V1-`` prefix, any case), in the
    order given; an unknown ID is refused (exit 2)."""
    by_bare = {_bare(r.id): r for r in known}
    chosen = []
    for value in given:
        found = by_bare.get(_bare(value))
        if found is None:
            raise AcpgenError("roster", f"unknown requirement ID {value!r} (see `acpgen roster`)")
        chosen.append(found)
    return list(dict.fromkeys(chosen))


def wording(r: Requirement) -> str:
    """A requirement as the roster states it: ID, keyword and role, its text, where it applies
    and where the text comes from."""
    lines = [f"{r.id} ({r.keyword}, {r.role}, {r.responsibility}, {r.kind})", f"  {r.text}"]
    if r.applicability:
        lines.append(f"  applies: {r.applicability}")
    lines.append(f"  source: {r.source}")
    return "\n".join(lines)
