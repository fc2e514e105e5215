"""Diff two releases of tests/data/releases/ in-process, as ``acpgen diff`` reads files: a
release without a meta.json of its own is read with the pinned meta standing in (which binds
only what the schema annotates), and the project's tagged capability gates apply."""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.evolve.releases import Release

META = "schema/v1/meta.json"


@cache
def _pinned_meta() -> bytes:
    from tests.conftest import INPUTS

    return (INPUTS / META).read_bytes()


@cache
def _gates() -> tuple[tuple[str, str, str], ...]:
    from acpgen.evolve.impact import tagged_gates
    from acpgen.load.project import load_project
    from tests.conftest import INPUTS, PROJECT_ROOT

    return tagged_gates(load_project(PROJECT_ROOT, str(INPUTS)))


@cache
def release_side(rel: Release) -> Any:
    from acpgen.evolve.diff import build_side

    own = rel.meta is not None
    meta = rel.meta.read_bytes() if rel.meta else _pinned_meta()
    return build_side(rel.tag, rel.schema, rel.schema.read_bytes(), f"{rel.tag}/meta.json", meta,
                      meta_is_own=own)


def release_diff(old: Release, new: Release) -> Any:
    from acpgen.evolve.diff import diff_sides

    return diff_sides(release_side(old), release_side(new), _gates())
