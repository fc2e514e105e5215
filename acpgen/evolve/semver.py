"""Release versions and the semver bump a schema change needs (Cargo's and npm's rules).

A change is at one *level*: ``breaking`` (a side generated from OLD breaks, or a change is
unproven), ``feature`` (a compatible change that gives the wire something new: a member, a
variant, a method, a capability, a wider type), ``fix`` (the wire accepts the same values:
annotations, documentation, equivalent rewrites, defs added or removed with no position
changing) or ``none``.

The bump a level needs depends on the version it starts from, as Cargo and npm's caret read
versions: from 1.0.0 on, breaking -> major, feature -> minor, fix -> patch; in ``0.y.z``
(y > 0) the minor is the compatibility boundary, so breaking -> minor and feature or fix ->
patch; in ``0.0.z`` every release is its own boundary, so any change -> patch. A pre-release
on either side promises nothing, so it never needs a bump.

Read the other way, a release step *allows* a level: that is how the replay of the real
release history finds "released without the bump it needs" (a patch release of 0.6 that
breaks readers allows only ``feature``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from acpgen.evolve.changes import Change

LEVELS = ("none", "fix", "feature", "breaking")
# Kinds whose compatible occurrence leaves the values valid on the wire unchanged.
_FIX_KINDS = ("DEF_ADDED", "DEF_REMOVED", "EQUIVALENT_REWRITE", "DESCRIPTION_CHANGED",
              "ANNOTATION_CHANGED")
_VERSION = re.compile(
    r"^(?:[A-Za-z][A-Za-z0-9_.-]*?-)?v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int
    pre: tuple[tuple[int, str], ...] = ()  # empty: a release (sorts after its pre-releases)
    text: str = ""

    @property
    def prerelease(self) -> bool:
        return bool(self.pre)

    def key(self) -> tuple[int, int, int, int, tuple[tuple[int, str], ...]]:
        """Semver precedence: a release after its pre-releases; identifiers numerically or
        alphabetically."""
        return (self.major, self.minor, self.patch, 0 if self.pre else 1, self.pre)

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return core + ("-" + ".".join(s.lstrip("0") or "0" if k == 0 else s for k, s in self.pre)
                       if self.pre else "")


def parse_version(text: str | None) -> Version | None:
    """A release version from a version string or a release tag (``1.2.3``, ``v0.6.2``,
    ``schema-v1.21.0``, ``v0.2.0-alpha.3``); None when it is not one."""
    if not text:
        return None
    m = _VERSION.match(text.strip())
    if m is None:
        return None
    # Numeric identifiers compare numerically (zero-padded), before alphanumeric ones.
    pre = tuple((0, f"{int(s):020d}") if s.isdigit() else (1, s)
                for s in (m.group(4).split(".") if m.group(4) else ()))
    return Version(int(m.group(1)), int(m.group(2)), int(m.group(3)), pre, text.strip())


def change_level(changes: Iterable[Change]) -> str:
    """The level of a set of changes."""
    level = "none"
    for c in changes:
        if c.breaking or c.unproven:
            return "breaking"
        mine = "fix" if (c.kind in _FIX_KINDS or not c.semantic) else "feature"
        level = max(level, mine, key=LEVELS.index)
    return level


def sdk_level(changes: Iterable[Change], gate_breaking: bool = True) -> str:
    """The level of a set of changes for the generated SDK's own API: the wire's level, and a
    removed def is breaking too (its generated class is gone, so an import of it fails, even
    where the wire is unchanged). With ``gate_breaking`` False (an unstable surface the project
    did not opt in to failing on) a break counts as a feature."""
    changes = list(changes)
    level = change_level(changes)
    if any(c.kind == "DEF_REMOVED" for c in changes):
        level = "breaking"
    return "feature" if level == "breaking" and not gate_breaking else level


def required_bump(level: str, old: Version | None) -> str:
    """The bump ``level`` needs from ``old`` (1.x rules when ``old`` is unknown)."""
    if level == "none":
        return "none"
    if old is not None and old.major == 0:
        if old.minor == 0 or level != "breaking":
            return "patch"
        return "minor"
    return {"breaking": "major", "feature": "minor", "fix": "patch"}[level]


def step(old: Version, new: Version) -> str:
    """The bump from ``old`` to ``new``: major, minor, patch, none (same version), or
    ``downgrade``."""
    if new.key() < old.key():
        return "downgrade"
    for part, name in ((0, "major"), (1, "minor"), (2, "patch")):
        if (new.major, new.minor, new.patch)[part] != (old.major, old.minor, old.patch)[part]:
            return name
    return "none" if new.key() == old.key() else "patch"


def allowed_level(old: Version, new: Version) -> str:
    """The highest level of change the step from ``old`` to ``new`` may carry."""
    if old.prerelease or new.prerelease:
        return "breaking"  # pre-releases promise nothing
    bump = step(old, new)
    if bump in ("downgrade", "none"):
        return "none"
    if old.major == 0:
        if old.minor == 0 or bump != "patch":
            return "breaking"
        return "feature"
    return {"major": "breaking", "minor": "feature", "patch": "fix"}[bump]


def missing_bump(level: str, old: Version | None, new: Version | None) -> str | None:
    """"Released without the bump it needs": why, or None (unknown versions, a downgrade, or
    a step that allows the level)."""
    if old is None or new is None or step(old, new) == "downgrade":
        return None
    allowed = allowed_level(old, new)
    if LEVELS.index(level) <= LEVELS.index(allowed):
        return None
    needed = required_bump(level, old)
    return (f"{old.text or old} -> {new.text or new} is a {step(old, new)} release but the change "
            f"is {level}: it needs a {needed} bump (allowed from {old}: {allowed} changes)")


def direction(old: Version | None, new: Version | None) -> str:
    """upgrade, downgrade, sideways (the same release version), or unknown."""
    if old is None or new is None:
        return "unknown"
    if new.key() == old.key():
        return "sideways"
    return "upgrade" if new.key() > old.key() else "downgrade"


def raise_version(current: Version, bump: str) -> Version:
    """``current`` raised by ``bump`` (a pre-release suffix is dropped)."""
    if bump == "major":
        return Version(current.major + 1, 0, 0)
    if bump == "minor":
        return Version(current.major, current.minor + 1, 0)
    if bump == "patch":
        if current.prerelease:
            return Version(current.major, current.minor, current.patch)
        return Version(current.major, current.minor, current.patch + 1)
    return current
