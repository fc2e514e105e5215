"""``acpgen roster`` filters: only known values, any case, the choices named on error."""

from __future__ import annotations

from collections.abc import Sequence

from acpgen.errors import AcpgenError


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
