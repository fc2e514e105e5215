"""The conformance manifest, ``schema/conformance.toml``: where each requirement is observable.

Every roster requirement appears exactly once, classified ``agent`` / ``client`` / ``both``
(checked black-box by the generated conformance kit when the implementation under test plays
that side) or ``none`` (not observable from outside), with a one-line reason. Parsed and
validated once, when the project loads; any problem is one line naming the file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.inputs import toml_manifest
from acpgen.inputs.roster import Roster

MANIFEST_RELPATH = "schema/conformance.toml"
CLASSES = ("agent", "client", "both", "none")
_KEYS = {"id", "observable", "reason"}


@dataclass(frozen=True)
class Observability:
    id: str
    observable: str  # agent | client | both | none
    reason: str

    def checked_against(self, side: str) -> bool:
        """Whether the kit checks this requirement when the implementation under test is ``side``."""
        return self.observable in (side, "both")


@dataclass(frozen=True)
class ConformanceManifest:
    entries: tuple[Observability, ...]  # roster order

    def by_id(self) -> dict[str, Observability]:
        return {e.id: e for e in self.entries}

    def checked_against(self, side: str) -> tuple[Observability, ...]:
        return tuple(e for e in self.entries if e.checked_against(side))


def read_manifest(path: Path) -> bytes | None:
    """The manifest's bytes, or None when the project has none."""
    return toml_manifest.read_optional(path, MANIFEST_RELPATH)


def parse_manifest(roster: Roster, blob: bytes | str) -> ConformanceManifest:
    data = toml_manifest.load_toml(MANIFEST_RELPATH, blob)
    unknown = sorted(set(data) - {"requirement"})
    if unknown:
        raise AcpgenError(
            MANIFEST_RELPATH, f"unknown top-level key {unknown[0]!r} (expected [[requirement]])"
        )
    rows = data.get("requirement", [])
    if not isinstance(rows, list):
        raise AcpgenError(
            MANIFEST_RELPATH, "requirement must be an array of tables ([[requirement]])"
        )
    order = {r.id: index for index, r in enumerate(roster.requirements)}
    seen: dict[str, int] = {}
    entries = []
    for number, row in enumerate(rows, start=1):
        entry = _entry(row, number, order, seen, roster.revision)
        seen[entry.id] = number
        entries.append(entry)
    missing = [r.id for r in roster.requirements if r.id not in seen]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise AcpgenError(
            MANIFEST_RELPATH, f"roster requirement {missing[0]} is not classified{more}"
        )
    entries.sort(key=lambda e: order[e.id])
    return ConformanceManifest(tuple(entries))


def _entry(
    row: Any, number: int, order: dict[str, int], seen: dict[str, int], revision: str
) -> Observability:
    where = f"requirement {number}"
    if not isinstance(row, dict):
        raise AcpgenError(MANIFEST_RELPATH, f"{where}: not a table")
    req_id = row.get("id")
    if isinstance(req_id, str):
        where = f"requirement {number} ({req_id})"
    extra = sorted(set(row) - _KEYS)
    if extra:
        raise AcpgenError(MANIFEST_RELPATH, f"{where}: unknown key {extra[0]!r}")
    if not isinstance(req_id, str) or not req_id:
        raise AcpgenError(MANIFEST_RELPATH, f"{where}: id must be a roster requirement ID")
    if req_id not in order:
        raise AcpgenError(
            MANIFEST_RELPATH, f"{where}: unknown requirement ID (not in roster {revision})"
        )
    if req_id in seen:
        raise AcpgenError(
            MANIFEST_RELPATH,
            f"{where}: duplicate; already classified by requirement {seen[req_id]}",
        )
    observable = row.get("observable")
    if observable not in CLASSES:
        raise AcpgenError(
            MANIFEST_RELPATH,
            f"{where}: observable must be one of {', '.join(CLASSES)}, " f"not {observable!r}",
        )
    reason = row.get("reason")
    if not isinstance(reason, str) or not reason.strip() or "\n" in reason.strip():
        raise AcpgenError(MANIFEST_RELPATH, f"{where}: reason must be one non-empty line")
    return Observability(req_id, str(observable), reason.strip())
