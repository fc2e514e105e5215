"""The mutation matrix: every single-change mutation of tests/evolve/mutations.py, diffed.

Each mutation is built from the pinned schema and meta.json into a temporary inputs
directory and compared with the pinned inputs. The exit code and both per-side verdicts must
be exactly the ones written in the table; a breaking mutation must never come out as exit 0
or 1 (asserted on its own so a failure says which promise was broken).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from acpgen.errors import AcpgenError
from tests.conftest import INPUTS, PROJECT_ROOT
from tests.evolve.mutations import MUTATIONS, Mutation, build
from tests.evolve.run import diff_dirs, pinned_side, write_inputs

SCHEMA = INPUTS / "schema" / "v1" / "schema.json"
META = INPUTS / "schema" / "v1" / "meta.json"


@cache
def _pinned() -> tuple[bytes, bytes]:
    return SCHEMA.read_bytes(), META.read_bytes()


def _inputs(tmp_path: Path, m: Mutation) -> Path:
    schema, meta = build(m, *_pinned())
    return write_inputs(tmp_path / m.id, schema, meta)


# -- the table itself ----------------------------------------------------------------------


def test_matrix_is_large_and_covers_both_directions() -> None:
    ids = [m.id for m in MUTATIONS]
    assert len(ids) == len(set(ids))
    assert len([m for m in MUTATIONS if m.exit != 2]) >= 80
    sides = {(m.client, m.agent) for m in MUTATIONS if m.exit == 3}
    assert {("breaking", "compatible"), ("compatible", "breaking"), ("breaking", "breaking")} <= sides
    assert any(m.id.startswith("method-") for m in MUTATIONS)
    assert all((m.exit in (1, 3, 4)) == (m.client is not None and m.agent is not None)
               for m in MUTATIONS)
    assert all(m.exit != 3 or "breaking" in (m.client, m.agent) for m in MUTATIONS)
    assert all(m.exit != 1 or (m.client, m.agent) == ("compatible", "compatible") for m in MUTATIONS)


@pytest.mark.parametrize("m", MUTATIONS, ids=lambda m: m.id)
def test_mutation_really_changes_the_inputs(m: Mutation) -> None:
    """A mutation that edits nothing would make its row prove nothing (compared as JSON text
    with member order kept, or as bytes for a mutation of the bytes)."""
    schema, meta = build(m, *_pinned())
    if m.raw is not None:
        assert schema != _pinned()[0]
        return
    pinned = tuple(json.dumps(json.loads(blob)) for blob in _pinned())
    assert (schema.decode(), meta.decode()) != pinned


# -- the verdicts ----------------------------------------------------------------------------


@pytest.mark.parametrize("m", [m for m in MUTATIONS if m.exit != 2], ids=lambda m: m.id)
def test_mutation_verdict(tmp_path: Path, m: Mutation) -> None:
    result = diff_dirs(pinned_side(), _inputs(tmp_path, m))
    if m.exit == 3:
        assert result.exit in (3,), f"{m.id}: a breaking change reported with exit {result.exit}"
    assert (result.exit, result.client, result.agent) == (m.exit, m.client, m.agent), (
        m.what, result.lines)
    for where in m.reports:
        assert any(where == p or p.startswith(where + "/") or where == s for p, s in result.at), (
            f"{m.id}: nothing reported at {where}", result.lines)


@pytest.mark.parametrize("m", [m for m in MUTATIONS if m.exit == 2], ids=lambda m: m.id)
def test_bad_input_is_refused(tmp_path: Path, m: Mutation) -> None:
    with pytest.raises(AcpgenError) as info:
        diff_dirs(pinned_side(), _inputs(tmp_path, m))
    assert "\n" not in str(info.value)


def test_bad_input_from_the_command_line_is_one_line_exit_2(tmp_path: Path) -> None:
    from tests.conftest import run_acpgen

    [m] = [m for m in MUTATIONS if m.id == "bad-ref"]
    new = _inputs(tmp_path, m)
    result = run_acpgen("diff", str(INPUTS), str(new), "--project", str(PROJECT_ROOT),
                        "--inputs", str(INPUTS))
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("acpgen: error: ") and "Nope" in line
