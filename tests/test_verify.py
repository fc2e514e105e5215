"""`acpgen verify` and the lock: the pinned bytes, drift, and where inputs come from."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import run_acpgen, tree_digest
from repin import make_project

from acpgen.inputs.lock import load_lock

SCHEMA = "schema/v1/schema.json"


PROJECT_LOCK = Path(__file__).resolve().parents[1] / "schema" / "acp.lock"


@pytest.mark.slow
def test_verify_passes_on_the_pinned_inputs(project_root: Path, inputs_dir: Path) -> None:
    result = run_acpgen("verify", "--inputs", str(inputs_dir))
    assert result.returncode == 0, result.stderr
    # v1 stable's schema, meta and roster, and each other surface's schema and meta.
    assert "9 inputs match" in result.stdout
    for surface in ("v1-unstable (acp_v1_unstable): 268 defs, 42 methods",
                    "v2 (acp_v2): 175 defs, 16 methods", "v2-unstable (acp_v2_unstable): 265 defs, 33 methods"):
        assert f"ok: surface {surface}" in result.stdout
    assert "170 defs, 25 methods, 240 requirements" in result.stdout


def test_lock_records_path_hash_size_and_upstream(project_root: Path, inputs_dir: Path) -> None:
    lock = load_lock(project_root)
    for name, pinned in lock.files.items():
        blob = (inputs_dir / pinned.path).read_bytes()
        assert pinned.sha256 == hashlib.sha256(blob).hexdigest(), name
        assert pinned.size == len(blob), name
        # v1 stable at the roster's commit; v1 unstable's schema from a published package, not
        # a commit (schema/inputs/PROVENANCE.md); the other surfaces from the release that has them.
        stable = name in ("schema", "meta", "roster")
        expected = ("2797d33125c14e5bcfc815952930130c43e5bc4c" if stable
                    else "unknown" if name == "schema-v1-unstable"
                    else "272bf799f35a258c6a4107a0410ed361e83683d3")
        assert pinned.upstream["commit"] == expected, name
    assert "@agentclientprotocol/sdk 1.5.0" in lock.files["schema-v1-unstable"].upstream["source"]
    assert lock.files["roster"].upstream["revision"] == "acp-v1-2797d331-r2"
    assert lock.files["schema"].upstream["repository"] == "agentclientprotocol/agent-client-protocol"


def test_one_flipped_byte_is_refused_with_both_hashes(
    project_root: Path, inputs_copy: Path
) -> None:
    schema = inputs_copy / SCHEMA
    data = bytearray(schema.read_bytes())
    data[1000] ^= 0x01
    schema.write_bytes(bytes(data))
    expected = load_lock(project_root).files["schema"].sha256
    actual = hashlib.sha256(bytes(data)).hexdigest()
    before_project = tree_digest(project_root / "schema") | tree_digest(project_root / "generated")
    before_inputs = tree_digest(inputs_copy)

    result = run_acpgen("verify", "--inputs", str(inputs_copy))

    assert result.returncode == 2
    drift_lines = [ln for ln in result.stderr.splitlines() if "input drift" in ln]
    assert len(drift_lines) == 1, result.stderr  # one line per drifted file, only the schema
    assert SCHEMA in drift_lines[0] and expected in drift_lines[0] and actual in drift_lines[0]
    assert tree_digest(project_root / "schema") | tree_digest(project_root / "generated") == before_project
    assert tree_digest(inputs_copy) == before_inputs


@pytest.mark.slow
def test_every_command_refuses_drifted_inputs(project_root: Path, inputs_copy: Path) -> None:
    meta = inputs_copy / "schema/v1/meta.json"
    meta.write_bytes(meta.read_bytes() + b"\n")
    lock_before = (project_root / "schema" / "acp.lock").read_bytes()
    for command in (["roster"], ["inspect", "--methods"], ["check"], ["lock"], ["generate", "--out", "x"],
                    ["diff", str(inputs_copy / "schema/v1/schema.json"), str(inputs_copy / "schema/v1/schema.json")]):
        result = run_acpgen(*command, "--inputs", str(inputs_copy))
        assert result.returncode == 2, command
        # Exactly one line, naming the drifted file and how to accept it.
        assert result.stderr.count("\n") == 1, (command, result.stderr)
        assert result.stderr.startswith("acpgen: error: schema/acp.lock: input drift: schema/v1/meta.json:")
        assert "acpgen lock --update" in result.stderr
        assert result.stdout == "", command
    assert (project_root / "schema" / "acp.lock").read_bytes() == lock_before
    assert not (project_root / "x").exists()


@pytest.mark.slow
def test_lock_update_accepts_drifted_inputs_that_lock_refuses(tmp_path: Path, inputs_dir: Path) -> None:
    import shutil

    project = tmp_path / "project"
    (project / "schema").mkdir(parents=True)
    shutil.copyfile(PROJECT_LOCK, project / "schema" / "acp.lock")
    inputs = tmp_path / "inputs"
    shutil.copytree(inputs_dir / "schema", inputs / "schema")
    shutil.copytree(inputs_dir / "roster", inputs / "roster")
    meta = inputs / "schema/v1/meta.json"
    meta.write_bytes(meta.read_bytes() + b"\n")
    shown = run_acpgen("lock", "--project", str(project), "--inputs", str(inputs))
    assert shown.returncode == 2 and "input drift: schema/v1/meta.json" in shown.stderr
    updated = run_acpgen("lock", "--update", "--project", str(project), "--inputs", str(inputs))
    assert updated.returncode == 0, updated.stderr
    assert updated.stdout.startswith("lock updated: schema/v1/meta.json -> ")
    shown = run_acpgen("lock", "--project", str(project), "--inputs", str(inputs))
    assert shown.returncode == 0 and hashlib.sha256(meta.read_bytes()).hexdigest() in shown.stdout


def test_missing_inputs_directory_is_one_line_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = run_acpgen("verify", "--inputs", str(missing))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert str(missing) in result.stderr and "does not exist" in result.stderr
    assert "(from --inputs: " in result.stderr and "--inputs DIR or $ACPGEN_INPUTS" in result.stderr


def test_a_relative_inputs_path_in_the_lock_says_what_it_is_relative_to(tmp_path: Path) -> None:
    import shutil

    project = tmp_path / "moved"
    (project / "schema").mkdir(parents=True)
    shutil.copyfile(PROJECT_LOCK, project / "schema" / "acp.lock")
    result = run_acpgen("verify", "--project", str(project))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("acpgen: error: schema/inputs: inputs directory does not exist")
    assert f"relative to {project}" in result.stderr and "$ACPGEN_INPUTS" in result.stderr


@pytest.mark.slow
def test_inputs_option_beats_env_beats_lock(project_root: Path, inputs_dir: Path, tmp_path: Path) -> None:
    missing = str(tmp_path / "from-env")
    via_env = run_acpgen("verify", env={"ACPGEN_INPUTS": missing})
    assert via_env.returncode == 2 and "from-env" in via_env.stderr
    both = run_acpgen("verify", "--inputs", str(inputs_dir), env={"ACPGEN_INPUTS": missing})
    assert both.returncode == 0, both.stderr
    # The lock's default (schema/inputs, relative to the project root) is used otherwise,
    # whatever the current directory is.
    from_elsewhere = run_acpgen("verify", "--project", str(project_root), cwd=tmp_path)
    assert from_elsewhere.returncode == 0, from_elsewhere.stderr


@pytest.mark.slow
def test_lock_update_accepts_new_consistent_bytes(project_root: Path, inputs_copy: Path, tmp_path: Path) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    meta = inputs_copy / "schema/v1/meta.json"
    meta.write_bytes(meta.read_bytes().replace(b'"version": 1', b'"version":  1'))
    refused = run_acpgen("verify", "--project", str(proj))
    assert refused.returncode == 2 and "meta.json" in refused.stderr

    updated = run_acpgen("lock", "--update", "--project", str(proj))
    assert updated.returncode == 0, updated.stderr
    assert "schema/v1/meta.json" in updated.stdout
    assert load_lock(proj).files["meta"].sha256 == hashlib.sha256(meta.read_bytes()).hexdigest()
    assert run_acpgen("verify", "--project", str(proj)).returncode == 0


def test_lock_update_refuses_inconsistent_bytes_and_keeps_the_lock(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    lock_before = (proj / "schema/acp.lock").read_bytes()
    schema = inputs_copy / SCHEMA
    schema.write_bytes(schema.read_bytes().replace(b'"title"', b'"title" ', 1))
    # The roster header still pins the old schema hash: the new set is not consistent.
    result = run_acpgen("lock", "--update", "--project", str(proj))
    assert result.returncode == 2
    assert "roster/requirements.md" in result.stderr and "pins schema sha256" in result.stderr
    assert (proj / "schema/acp.lock").read_bytes() == lock_before


def test_lock_update_records_the_upstream_coordinates_of_new_bytes(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy, all_surfaces=True)
    unstable = inputs_copy / "schema/v1/schema.unstable.json"
    unstable.write_bytes(unstable.read_bytes() + b"\n")
    commit = "0123456789abcdef0123456789abcdef01234567"
    updated = run_acpgen("lock", "--update", "--project", str(proj),
                         "--upstream", f"schema-v1-unstable:commit={commit}")
    assert updated.returncode == 0, updated.stderr
    entry = load_lock(proj).files["schema-v1-unstable"]
    assert entry.sha256 == hashlib.sha256(unstable.read_bytes()).hexdigest()
    # The old bytes' tag does not name the new bytes: a commit given alone drops it.
    assert entry.upstream["commit"] == commit and "tag" not in entry.upstream
    assert load_lock(proj).files["schema-v2"].upstream == load_lock(project_root).files["schema-v2"].upstream
    tagged = run_acpgen("lock", "--update", "--project", str(proj),
                        "--upstream", "schema-v1-unstable:tag=schema-v9.9.9")
    assert tagged.returncode == 0, tagged.stderr
    assert load_lock(proj).files["schema-v1-unstable"].upstream["tag"] == "schema-v9.9.9"
    # Bytes from a package rather than a commit: the commit unknown, the source said.
    sourced = run_acpgen("lock", "--update", "--project", str(proj), "--upstream", "schema-v1-unstable:commit=unknown",
                         "--upstream", "schema-v1-unstable:source=npm @example/sdk 1.0.0 schema/schema.json")
    assert sourced.returncode == 0, sourced.stderr
    assert load_lock(proj).files["schema-v1-unstable"].upstream == {
        "commit": "unknown", "path": "schema/v1/schema.unstable.json",
        "repository": "agentclientprotocol/agent-client-protocol", "source": "npm @example/sdk 1.0.0 schema/schema.json",
    }


@pytest.mark.parametrize("value, problem", [
    ("nosuch:commit=0123456789abcdef0123456789abcdef01234567", "no lock entry 'nosuch'"),
    ("schema-v1-unstable:commit=abc", "40 lowercase hex digits"),
    ("schema-v1-unstable:branch=main", "expected ENTRY:commit=SHA, ENTRY:tag=TAG or ENTRY:source=TEXT"),
    ("schema-v1-unstable", "expected ENTRY:commit=SHA, ENTRY:tag=TAG or ENTRY:source=TEXT"),
])
def test_lock_update_refuses_a_bad_upstream_option_and_keeps_the_lock(
    project_root: Path, inputs_copy: Path, tmp_path: Path, value: str, problem: str
) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    lock_before = (proj / "schema/acp.lock").read_bytes()
    result = run_acpgen("lock", "--update", "--project", str(proj), "--upstream", value)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("acpgen: error: --upstream: ") and problem in result.stderr
    assert result.stderr.count("\n") == 1
    assert (proj / "schema/acp.lock").read_bytes() == lock_before
    assert run_acpgen("lock", "--project", str(proj), "--upstream", "schema-v1-unstable:tag=x").returncode == 2
