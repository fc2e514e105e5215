"""Which way a diff goes and what release it needs: the "Release" section of every report.

The release versions come from what can be read: an explicit version or tag (``diff
--old-version/--new-version``, ``bump --upstream-tag``), else the lock's upstream ``tag`` of a
pinned side, else a release version the documents state themselves (a version string under
``version`` or ``x-version`` in the schema, or a string ``version`` in meta.json); the
protocol version of each side's meta.json (``"version": 1``, an integer) orders two sides of
different protocol versions even when no release version is known.

A diff of an unstable surface (a ``*.unstable.json`` schema, a ``*-unstable`` surface name)
is reported in full but needs no more than a ``feature`` release and fails nothing unless the
project opts in (``--fail-on-unstable``): upstream makes no compatibility promise there, as
buf's ignore-unstable-packages and the official SDKs' opt-in unstable features do.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.evolve.diff import SchemaDiff, SchemaSide
from acpgen.evolve.semver import (
    LEVELS,
    Version,
    change_level,
    direction,
    missing_bump,
    parse_version,
    required_bump,
)


@dataclass(frozen=True)
class ReleaseView:
    old: Version | None
    new: Version | None
    old_from: str  # where the version was read ("--old-version", "lock tag", "unknown")
    new_from: str
    direction: str  # upgrade | downgrade | sideways | unknown
    level: str  # none | fix | feature | breaking (acpgen.evolve.semver)
    required: str  # none | patch | minor | major, from OLD's version
    missing: str | None  # "released without the bump it needs", when both versions are known
    unstable: bool  # a diff of an unstable surface
    unstable_fails: bool  # ... and the project opted in to failing on it

    @property
    def gates_breaking(self) -> bool:
        """Whether breaking changes count for the exit code and the required bump."""
        return not self.unstable or self.unstable_fails

    def to_json(self) -> dict[str, object]:
        return {
            "old_version": str(self.old) if self.old else None, "old_version_from": self.old_from,
            "new_version": str(self.new) if self.new else None, "new_version_from": self.new_from,
            "direction": self.direction, "level": self.level, "required_bump": self.required,
            "missing_bump": self.missing, "unstable_surface": self.unstable,
            "unstable_fails": self.unstable_fails,
        }


def is_unstable(side: SchemaSide) -> bool:
    label = side.label.lower()
    return label.endswith((".unstable.json", "-unstable"))


def _protocol(side: SchemaSide) -> int | None:
    version = side.meta.get("version") if isinstance(side.meta, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def stated_version(side: SchemaSide) -> str | None:
    """A release version the schema or meta.json states about itself (None if none)."""
    for doc, keys in ((side.schema, ("version", "x-version")), (side.meta, ("version",))):
        for key in keys:
            value = doc.get(key) if isinstance(doc, dict) else None
            if isinstance(value, str) and parse_version(value) is not None:
                return value
    return None


def release_view(diff: SchemaDiff, old_version: str | None, new_version: str | None,
                 old_from: str = "", new_from: str = "", fail_unstable: bool = False) -> ReleaseView:
    if old_version is None and (stated := stated_version(diff.old)):
        old_version, old_from = stated, "the document"
    if new_version is None and (stated := stated_version(diff.new)):
        new_version, new_from = stated, "the document"
    old, new = parse_version(old_version), parse_version(new_version)
    unstable = is_unstable(diff.old) or is_unstable(diff.new)
    level = change_level(diff.changes)
    if unstable and not fail_unstable and level == "breaking":
        level = "feature"
    way = direction(old, new)
    po, pn = _protocol(diff.old), _protocol(diff.new)
    if po is not None and pn is not None and po != pn:
        way = "upgrade" if pn > po else "downgrade"  # another protocol version orders them
    missing = missing_bump(level, old, new)
    return ReleaseView(old, new, old_from if old else "unknown", new_from if new else "unknown",
                       way, level, required_bump(level, old), missing, unstable, fail_unstable)


def release_lines(view: ReleaseView) -> list[str]:
    """The text report's Release section."""
    def shown(v: Version | None, source: str) -> str:
        return f"{v.text or v} ({source})" if v else "unknown"

    lines = [(f"Release: {view.direction}: {shown(view.old, view.old_from)} -> "
             f"{shown(view.new, view.new_from)}")]
    if view.direction == "unknown":
        lines.append("  (no release version for "
                     + " and ".join(n for n, v in (("OLD", view.old), ("NEW", view.new)) if v is None)
                     + ": pass --old-version/--new-version to diff, --upstream-tag to bump)")
    base = f" from {view.old}" if view.old else " (1.x rules: OLD's version is unknown)"
    lines.append(f"  the change is {view.level}: it needs a {view.required} release{base}"
                 if view.required != "none" else "  no change: no release needed")
    if view.missing:
        lines.append(f"  MISSING BUMP: released without the bump it needs: {view.missing}")
    if view.unstable:
        lines.append("  unstable surface: breaking changes are reported and "
                     + ("fail (--fail-on-unstable)" if view.unstable_fails
                        else "do not fail (opt in with --fail-on-unstable)"))
    assert view.level in LEVELS
    return lines
