"""acpgen bump in a throwaway copy of the project and its inputs (the real ones stay read-only).

Layout of each copy: ``<tmp>/proj`` (schema/acp.lock, schema/capabilities.toml, generated/)
with the pinned inputs plus history/ in ``<tmp>/proj/schema/inputs``, so the lock's ``inputs =
"schema/inputs"`` resolves exactly as in the real checkout.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import HISTORY, INPUTS, PROJECT_ROOT, generated_dir, run_acpgen, tree_digest

from acpgen.inputs.lock import load_lock

NPM_2_0 = "history/schema-v1-from-npm-sdk-2.0.0.json"
# Every file the project's lock pins: v1 stable's and the other surfaces' (docs/surfaces.md).
PINNED_REL = tuple(f.path for f in load_lock(PROJECT_ROOT).files.values())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project copy with a generated/ tree (the session's, built once from the pinned inputs)."""
    root = tmp_path_factory.mktemp("bump-template")
    proj = root / "proj"
    inputs = proj / "schema" / "inputs"
    for rel in PINNED_REL:
        (inputs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(INPUTS / rel, inputs / rel)
    (inputs / "history").mkdir()
    shutil.copyfile(HISTORY / NPM_2_0.removeprefix("history/"), inputs / NPM_2_0)
    for manifest in (PROJECT_ROOT / "schema").glob("*.*"):  # the lock and every manifest
        if manifest.is_file():
            shutil.copyfile(manifest, proj / "schema" / manifest.name)
    shutil.copytree(generated_dir(), proj / "generated",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


@pytest.fixture()
def world(template: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "world"
    shutil.copytree(template, dest)
    return dest


def bump(world: Path, *args: str):  # type: ignore[no-untyped-def]
    return run_acpgen("bump", *args, cwd=world / "proj")


def digest(world: Path) -> dict[str, bytes]:
    return tree_digest(world)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_roster_pin_must_be_handled(world: Path) -> None:
    before = digest(world)
    result = bump(world, "--schema", f"schema/inputs/{NPM_2_0}")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "--accept-roster-mismatch" in result.stderr and "--roster" in result.stderr
    assert digest(world) == before


def test_schema_outside_the_inputs_is_refused(world: Path) -> None:
    outside = world / "elsewhere" / "schema.json"
    outside.parent.mkdir()
    shutil.copyfile(world / "proj" / "schema" / "inputs" / NPM_2_0, outside)
    before = digest(world)
    result = bump(world, "--schema", str(outside), "--accept-roster-mismatch")
    assert result.returncode == 2
    assert "must be inside the inputs directory" in result.stderr
    assert digest(world) == before


@pytest.mark.slow
def test_invalid_new_schema_changes_nothing(world: Path) -> None:
    broken = world / "proj" / "schema" / "inputs" / "history" / "broken.json"
    data = json.loads((world / "proj" / "schema" / "inputs" / NPM_2_0).read_text(encoding="utf-8"))
    # Valid JSON Schema, but the gating manifest cites a capability it no longer has.
    del data["$defs"]["AgentCapabilities"]["properties"]["loadSession"]
    broken.write_text(json.dumps(data), encoding="utf-8")
    before = digest(world)
    result = bump(world, "--schema", "schema/inputs/history/broken.json", "--accept-roster-mismatch")
    assert result.returncode == 2, result.stdout
    assert "loadSession" in result.stderr
    assert digest(world) == before


@pytest.mark.slow
def test_bump_applies_lock_and_regenerates(world: Path) -> None:
    proj, new_schema = world / "proj", world / "proj" / "schema" / "inputs" / NPM_2_0
    pinned = proj / "schema" / "inputs" / "schema" / "v1" / "schema.json"
    new_bytes = new_schema.read_bytes()
    old_lock = tomllib.loads((proj / "schema" / "acp.lock").read_text(encoding="utf-8"))
    result = bump(world, "--schema", f"schema/inputs/{NPM_2_0}", "--accept-roster-mismatch")
    assert result.returncode == 0, result.stderr  # applied: bump defaults to --fail-on never
    assert "bump applied" in result.stdout and "verdict: compatible" in result.stdout
    lock = tomllib.loads((proj / "schema" / "acp.lock").read_text(encoding="utf-8"))
    schema = lock["files"]["schema"]
    # The new bytes took the pinned name; the file given to --schema and the old bytes are gone.
    assert pinned.read_bytes() == new_bytes and not new_schema.exists()
    assert (schema["path"], schema["sha256"], schema["size"]) == (
        "schema/v1/schema.json", sha(pinned), len(new_bytes))
    assert lock["files"]["meta"] == old_lock["files"]["meta"]  # no meta.json beside it: kept
    roster = lock["files"]["roster"]
    assert roster["sha256"] == old_lock["files"]["roster"]["sha256"]
    assert roster["upstream"]["pins_schema_sha256"] == old_lock["files"]["schema"]["sha256"]
    # No roster pins the new bytes and no --upstream-* was given: their commit is unknown
    # (the repository and path carry over), never the old bytes' commit or tag.
    assert schema["upstream"] == {"commit": "unknown", "path": "schema/v1/schema.json",
                                  "repository": "agentclientprotocol/agent-client-protocol"}
    assert not _empty_tables(lock)
    manifest = json.loads((proj / "generated" / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["schema"]["sha256"] == sha(pinned)
    # The bumped project is consistent: verify (warning about the roster) and check pass.
    verify = run_acpgen("verify", cwd=proj)
    assert verify.returncode == 0, verify.stderr
    assert "pins schema sha256" in verify.stderr
    assert "178 defs" in verify.stdout
    check = run_acpgen("check", cwd=proj)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow
def test_dry_run_writes_nothing(world: Path) -> None:
    """A dry run with a roster for the new schema: full report, and not one byte written."""
    inputs = world / "proj" / "schema" / "inputs"
    text = (inputs / "roster" / "requirements.md").read_text(encoding="utf-8")
    old_sha, new_sha = sha(inputs / "schema" / "v1" / "schema.json"), sha(inputs / NPM_2_0)
    first, rest = text.split("\n", 1)
    assert old_sha in first
    (inputs / "roster" / "requirements-2.0.0.md").write_text(
        first.replace(old_sha, new_sha) + "\n" + rest, encoding="utf-8")
    before = digest(world)  # every file of the project and of the inputs
    result = bump(world, "--schema", f"schema/inputs/{NPM_2_0}",
                  "--roster", "schema/inputs/roster/requirements-2.0.0.md", "--dry-run", "--json")
    assert result.returncode == 0, result.stderr  # compatible changes only, --fail-on never
    assert digest(world) == before
    data = json.loads(result.stdout)
    assert data["bump"]["dry_run"] and not data["bump"]["applied"]
    assert data["bump"]["roster_note"] is None
    lock_lines = data["bump"]["lock"]
    assert any(line.startswith(f"schema: {NPM_2_0} -> schema/v1/schema.json ({new_sha[:12]}")
               for line in lock_lines)
    assert any(line.startswith("roster: roster/requirements-2.0.0.md -> roster/requirements.md")
               for line in lock_lines)
    assert data["bump"]["moved"] and (data["exit_code"], data["verdict_code"]) == (0, 1)
    # What would change under generated/ is listed (the manifest pins the schema hash).
    assert "MANIFEST.json" in data["bump"]["generated"]["changed"]
    assert {c["subject"] for c in data["changes"] if c["kind"] == "DEF_ADDED"} == set(
        json.loads((inputs / NPM_2_0).read_text())["$defs"]) - set(
        json.loads((inputs / "schema" / "v1" / "schema.json").read_text())["$defs"])


def _empty_tables(node: object, path: str = "") -> list[str]:
    if isinstance(node, dict):
        if not node:
            return [path or "/"]
        return [p for k, v in node.items() for p in _empty_tables(v, f"{path}.{k}")]
    return []


@pytest.mark.slow
def test_file_system_error_is_one_line_exit_2_and_changes_nothing(world: Path) -> None:
    """A directory where the new lock's temporary file goes: the write fails."""
    (world / "proj" / "schema" / "acp.lock.bump-tmp").mkdir()
    before = digest(world)
    result = bump(world, "--schema", f"schema/inputs/{NPM_2_0}", "--accept-roster-mismatch")
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("acpgen: error: ") and "acp.lock.bump-tmp" in line
    assert digest(world) == before
    assert (world / "proj" / "schema" / "acp.lock.bump-tmp").is_dir()  # not ours to remove


def test_outside_error_names_the_inputs_directory_in_use(world: Path) -> None:
    other = world / "other-inputs"
    shutil.copytree(world / "proj" / "schema" / "inputs", other)
    outside = world / "elsewhere.json"
    shutil.copyfile(other / NPM_2_0, outside)
    result = run_acpgen("bump", "--schema", str(outside), "--accept-roster-mismatch",
                        cwd=world / "proj", env={"ACPGEN_INPUTS": str(other)})
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert str(other.resolve()) in line
    assert "schema/inputs" not in line


@pytest.mark.slow
def test_a_downgrade_with_upstream_coordinates_is_recorded_and_said(world: Path) -> None:
    """The release schema-v1.21.0 (older than the pinned schema-v1.23.0) with its upstream
    commit and tag: the lock and PROVENANCE.md describe the new bytes, the report says
    downgrade, --fail-on breaking fails on the removed members, and a plain bump exits 0."""
    from acpgen.inputs.provenance_note import HEADER

    inputs = world / "proj" / "schema" / "inputs"
    shutil.copyfile(HISTORY / "schema-v1.21.0.json", inputs / "schema" / "v1" / "older.json")
    (inputs / "PROVENANCE.md").write_text(
        f"# Inputs\n\n{HEADER}\n|---|---|---|---|\n| schema/v1/schema.json | old | 1 | - |\n",
        encoding="utf-8")
    (world / "proj" / "pyproject.toml").write_text(
        '[project]\nname = "sdk"\nversion = "1.4.2"\n\n[tool.acpgen]\nbump-sdk-version = true\n',
        encoding="utf-8")
    commit = "272bf799f35a258c6a4107a0410ed361e83683d3"  # tests/data/releases/PROVENANCE.md
    args = ("--schema", "schema/inputs/schema/v1/older.json", "--accept-roster-mismatch",
            "--upstream-commit", commit, "--upstream-tag", "schema-v1.21.0")
    before = digest(world)
    checked = bump(world, *args, "--dry-run", "--fail-on", "breaking")
    assert checked.returncode == 3, checked.stdout + checked.stderr
    assert "Release: downgrade: schema-v1.23.0 (lock tag) -> schema-v1.21.0 (--upstream-tag)" in checked.stdout
    assert digest(world) == before
    done = bump(world, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    lock = tomllib.loads((world / "proj" / "schema" / "acp.lock").read_text(encoding="utf-8"))
    assert lock["files"]["schema"]["upstream"] == {
        "commit": commit, "path": "schema/v1/schema.json", "tag": "schema-v1.21.0",
        "repository": "agentclientprotocol/agent-client-protocol"}
    pinned = inputs / "schema" / "v1" / "schema.json"
    assert pinned.read_bytes() == (HISTORY / "schema-v1.21.0.json").read_bytes()
    assert not (inputs / "schema" / "v1" / "older.json").exists()
    # The SDK's own release: a break from 1.4.2 is a major release, its changelog entry says so.
    assert 'version = "2.0.0"' in (world / "proj" / "pyproject.toml").read_text(encoding="utf-8")
    changelog = (world / "proj" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [2.0.0] - " in changelog and "Schema bump (downgrade)" in changelog
    # The entry names the pinned input it replaced and both releases, not the file given to
    # --schema (moved onto the pin), and the level with what it needs from 1.4.2.
    old_sha = hashlib.sha256((INPUTS / "schema" / "v1" / "schema.json").read_bytes()).hexdigest()
    assert (f"Schema bump (downgrade): schema/v1/schema.json from {old_sha[:12]} (upstream "
            f"schema-v1.23.0) to {sha(pinned)[:12]} (upstream schema-v1.21.0); "
            "schema/v1/meta.json unchanged.") in changelog, changelog[:1500]
    assert "older.json" not in changelog
    assert "The change is a breaking (" in changelog and "a major release of the SDK from 1.4.2." in changelog
    removed = changelog.split("### Removed", 1)[1]
    assert "#### Agent" in removed and "- **BREAKING** `PROPERTY_REMOVED` ToolCall.name" in removed
    row = f"| schema/v1/schema.json | {sha(pinned)} | {pinned.stat().st_size} | commit: {commit}; "
    assert row in (inputs / "PROVENANCE.md").read_text(encoding="utf-8")
    bad = bump(world, "--schema", "schema/inputs/schema/v1/schema.json", "--accept-roster-mismatch",
               "--upstream-tag", "v1\nx")
    assert bad.returncode == 2 and bad.stderr.startswith("acpgen: error: --upstream-tag")
