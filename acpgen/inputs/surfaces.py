"""The protocol surfaces a project builds: one record each, in one table.

A surface is one protocol version's schema and method table, generated into one package: v1
stable, v1 unstable, v2, v2 unstable (docs/surfaces.md). They differ only in the data of
their :class:`SurfaceSpec`; no code anywhere else in acpgen branches on a surface's name
(``tests/test_surfaces.py`` greps for such branches).

The roster's surface (v1 stable: the requirement roster describes it) is always built, from
the lock's ``[generate] package`` and ``[files.schema]`` / ``[files.meta]``; it alone
carries the roster, so its output is the whole tree (requirement tests, the conformance kit,
the runtime tests beside the package). Every other surface the lock lists in
``[generate.surfaces]`` (name -> package) is pinned as ``[files.schema-NAME]`` /
``[files.meta-NAME]``, gated by ``schema/capabilities-NAME.toml``, and ships its package only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# The surface the roster describes: always built, never listed in [generate.surfaces].
ROSTER_SURFACE = "v1"
# Its package when the lock's [generate] table names none.
DEFAULT_PACKAGE = "acp_v1"
_SURFACE_NAME_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class SurfaceSpec:
    """What one surface is and what it generates: everything that tells surfaces apart."""

    name: str  # as the lock and the command line spell it: v1, v1-unstable, v2, ...
    package: str  # the package it generates (the roster's surface: --package may override it)
    schema_file: str  # the lock's [files.X] entry of its schema
    meta_file: str  # ... and of its method table (meta.json)
    capabilities: str  # its gating manifest, relative to the project root (optional file)
    capabilities_input: str  # the manifest's name among the recorded inputs (MANIFEST.json)
    # The roster's surface: the roster, the conformance manifest, the requirement tests, the
    # kit and the runtime tests belong to it. Any other surface ships its package only, and
    # its gating manifest classifies every method (it cannot lean on the roster's gates).
    carries_roster: bool
    # An unstable surface (its schema's drafts): the v1/v2 façade pairs a v2 surface with the
    # v1 surface of the same stability (acpgen/emit/versions.py).
    unstable: bool = False

    def pinned(self) -> tuple[str, ...]:
        """The lock's [files.X] entries this surface is built from."""
        return (self.schema_file, self.meta_file, *(("roster",) if self.carries_roster else ()))


def listable(name: str) -> bool:
    """A name ``[generate.surfaces]`` may list: lowercase words joined by ``-``, and not the
    roster's surface (always built)."""
    return name != ROSTER_SURFACE and bool(_SURFACE_NAME_RE.match(name))


def surface_file(kind: str, surface: str) -> str:
    """The lock's name for one surface's pinned ``schema`` or ``meta`` file."""
    return kind if surface == ROSTER_SURFACE else f"{kind}-{surface}"


def surface_spec(name: str, package: str) -> SurfaceSpec:
    """The record of the surface ``name`` (the one place a surface's name decides anything)."""
    roster = name == ROSTER_SURFACE
    return SurfaceSpec(
        name=name,
        package=package,
        schema_file=surface_file("schema", name),
        meta_file=surface_file("meta", name),
        capabilities="schema/capabilities.toml" if roster else f"schema/capabilities-{name}.toml",
        capabilities_input="capabilities" if roster else f"capabilities-{name}",
        carries_roster=roster,
        unstable=name.endswith("-unstable"),
    )


def surface_table(package: str, others: Mapping[str, str]) -> tuple[SurfaceSpec, ...]:
    """Every surface a lock builds: the roster's first (``[generate] package``), then the
    ``[generate.surfaces]`` ones in lock order."""
    return (surface_spec(ROSTER_SURFACE, package), *(surface_spec(n, p) for n, p in others.items()))
