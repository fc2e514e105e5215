"""The four protocol surfaces (docs/surfaces.md): v1 stable, v1 unstable, v2, v2 unstable.

The project's own lock lists all four; the tree built now from it is what these tests read
(``generated_dir``). Lock-level behaviour is tested on temporary copies of the project.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import INPUTS, MESSAGES, PROJECT_ROOT, generated_dir, run_acpgen, tree_now
from pydantic import TypeAdapter, ValidationError

# package -> (pinned schema, meta) below schema/inputs; the expected $def counts are the
# upstream figures (PROVENANCE.md), not read from the code under test.
SURFACES = {
    "acp_v1": ("schema/v1/schema.json", "schema/v1/meta.json", 170),
    "acp_v1_unstable": ("schema/v1/schema.unstable.json", "schema/v1/meta.unstable.json", 268),
    "acp_v2": ("schema/v2/schema.json", "schema/v2/meta.json", 175),
    "acp_v2_unstable": ("schema/v2/schema.unstable.json", "schema/v2/meta.unstable.json", 265),
}


def _json(rel: str) -> Any:
    return json.loads((INPUTS / rel).read_text(encoding="utf-8"))


def _package(name: str, module: str) -> Any:
    generated_dir()
    return importlib.import_module(f"{name}.{module}")


def _wires(meta: dict[str, Any]) -> set[str]:
    return {w for group in ("agentMethods", "clientMethods", "protocolMethods") for w in meta[group].values()}


@pytest.mark.slow
@pytest.mark.parametrize("package", sorted(SURFACES))
def test_every_def_is_a_class_under_its_own_name(package: str) -> None:
    schema_rel, meta_rel, count = SURFACES[package]
    defs = _json(schema_rel)["$defs"]
    assert len(defs) == count
    models = _package(package, "models")
    assert [name for name in defs if not hasattr(models, name)] == []
    # No numbered duplicate of a def (``ContentBlock1``, ``SessionUpdate2``).
    numbered = [n for n in models.__all__ if re.fullmatch(r"(.+?)\d+", n) and re.sub(r"\d+$", "", n) in defs]
    assert numbered == []
    # The method table is the surface's meta.json, each method once.
    methods = _package(package, "methods")
    assert set(methods.METHODS) == _wires(_json(meta_rel))


@pytest.mark.slow
def test_v1_stable_never_sends_an_unstable_method_or_member() -> None:
    """What only v1 unstable has is absent from the stable package: no method in its table or
    on its connections, no member on its models (models forbid unknown members on output)."""
    stable_meta, unstable_meta = _json("schema/v1/meta.json"), _json("schema/v1/meta.unstable.json")
    only_unstable = _wires(unstable_meta) - _wires(stable_meta)
    assert {"session/fork", "nes/start", "providers/list", "mcp/message"} <= only_unstable
    stable_methods = _package("acp_v1", "methods")
    connection = _package("acp_v1", "connection")
    assert only_unstable.isdisjoint(stable_methods.METHODS)
    for cls in (connection.ClientSideConnection, connection.AgentSideConnection):
        assert not hasattr(cls, "session_fork") and not hasattr(cls, "nes_start")
    stable_defs = _json("schema/v1/schema.json")["$defs"]
    unstable_defs = _json("schema/v1/schema.unstable.json")["$defs"]
    models = _package("acp_v1", "models")
    added = 0
    for name, definition in stable_defs.items():
        extra = set(unstable_defs[name].get("properties", {})) - set(definition.get("properties", {}))
        cls = getattr(models, name)
        fields = getattr(cls, "model_fields", {})
        aliases = {f.alias or n for n, f in fields.items()}
        assert extra.isdisjoint(aliases), (name, extra & aliases)
        added += len(extra)
    assert added > 0  # e.g. McpCapabilities.acp: the check above did look at something
    assert "acp" not in {f.alias for f in models.McpCapabilities.model_fields.values()}


@pytest.mark.slow
def test_every_stable_message_round_trips_through_the_unstable_models() -> None:
    """An agent switches from acp_v1 to acp_v1_unstable by one import: every v1 stable
    message of the corpus validates there and dumps back unchanged."""
    unstable = _package("acp_v1_unstable", "models")
    rows = [line.split("\t") for line in (MESSAGES / "TYPES.tsv").read_text(encoding="utf-8").splitlines()[1:] if line]
    checked = 0
    for filename, type_name, valid, *_ in rows:
        if valid != "true":
            continue
        instance = json.loads((MESSAGES / filename).read_text(encoding="utf-8"))
        ta: TypeAdapter[Any] = TypeAdapter(getattr(unstable, type_name))
        value = ta.validate_python(instance)
        assert ta.dump_python(value, mode="json", by_alias=True, exclude_unset=True) == instance, filename
        again = ta.validate_json(json.dumps(instance))
        assert ta.dump_python(again, mode="json", by_alias=True, exclude_unset=True) == instance, filename
        checked += 1
    assert checked == len(list(MESSAGES.glob("*.json")))


@pytest.mark.slow
def test_unstable_members_are_typed_in_the_unstable_models() -> None:
    """What a real agent advertises only on the unstable surface (codex-acp's
    ``mcpCapabilities.acp``) is a typed member there, not an unknown extra."""
    unstable = _package("acp_v1_unstable", "models")
    caps = unstable.McpCapabilities.model_validate({"http": True, "acp": True})
    assert caps.acp is True
    # The schema marks `acp` x-deserialize-default-on-error: read leniently, a wrong type is
    # its default (as on the wire), while construction from Python stays strict.
    lenient = unstable.McpCapabilities.model_validate({"acp": "yes"})
    assert lenient.acp is False
    with pytest.raises(ValidationError):
        unstable.McpCapabilities(acp="yes")


def test_v2_interfaces_follow_the_v2_method_table() -> None:
    """v2 moves authentication to auth/login, folds session/load into resume and has no
    fs/* or terminal/*: the typed interfaces say so."""
    interfaces = _package("acp_v2", "interfaces")
    connection = _package("acp_v2", "connection")
    assert hasattr(interfaces.Agent, "auth_login") and not hasattr(interfaces.Agent, "authenticate")
    assert not hasattr(interfaces.Agent, "session_load")
    assert not any(n.startswith(("fs_", "terminal_")) for n in dir(interfaces.Client))
    assert not hasattr(connection.AgentSideConnection, "fs_read_text_file")
    assert hasattr(connection.ClientSideConnection, "auth_login")


def _project_copy(tmp_path: Path, lock_text: str | None = None) -> Path:
    root = tmp_path / "project"
    (root / "schema").mkdir(parents=True)
    for manifest in (PROJECT_ROOT / "schema").glob("*.toml"):  # the gating and kit manifests
        shutil.copyfile(manifest, root / "schema" / manifest.name)
    shutil.copytree(INPUTS, root / "schema" / "inputs")
    text = lock_text if lock_text is not None else (PROJECT_ROOT / "schema" / "acp.lock").read_text(encoding="utf-8")
    (root / "schema" / "acp.lock").write_text(text, encoding="utf-8")
    return root


def _v1_only(lock: str) -> str:
    """The project's lock as an old, v1-only project has it: no surfaces, no surface files."""
    lock = re.sub(r"\[generate\.surfaces\]\n(?:[^\n\[]+\n)+\n", "", lock)
    return re.sub(r"\[files\.(?:schema|meta)-[a-z0-9-]+(?:\.upstream)?\]\n(?:[^\n\[]+\n)+\n?", "", lock)


def test_an_old_v1_only_lock_round_trips_byte_for_byte() -> None:
    from acpgen.inputs.lock import dump_lock, load_lock

    old = _v1_only((PROJECT_ROOT / "schema" / "acp.lock").read_text(encoding="utf-8"))
    assert "surfaces" not in old and "unstable" not in old
    root = Path(__file__).parent  # any directory: dump_lock does not read it
    del root
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        project = _project_copy(Path(tmp), old)
        lock = load_lock(project)
        assert lock.surfaces == {}
        assert dump_lock(lock) == old.rstrip("\n") + "\n"


@pytest.mark.slow
def test_a_v1_only_project_generates_what_it_always_did(tmp_path: Path) -> None:
    """Listing surfaces adds their packages and nothing else: a v1-only project's tree is the
    four-surface tree without the three packages (MANIFEST.json aside, which lists them)."""
    old = _v1_only((PROJECT_ROOT / "schema" / "acp.lock").read_text(encoding="utf-8"))
    project = _project_copy(tmp_path, old)
    result = run_acpgen("generate", "-q", "--project", str(project), timeout=600)
    assert result.returncode == 0, result.stderr
    out = project / "generated"
    v1_only = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    four = tree_now()
    extra = ("acp_v1_unstable/", "acp_v2/", "acp_v2_unstable/")
    assert {k for k in four if not k.startswith(extra)} == set(v1_only)
    assert [k for k in v1_only if k != "MANIFEST.json" and v1_only[k] != four[k]] == []
    manifest = json.loads(v1_only["MANIFEST.json"])
    assert "surfaces" not in manifest["options"]
    assert not any(k.startswith(extra) for k in manifest["files"])


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ('v2 = "acp_v2"', 'V2 = "acp_v2"'),
        ('v2 = "acp_v2"', 'v1 = "acp_v2"'),
        ('v2 = "acp_v2"', 'v2 = "acp_v1_unstable"'),
    ],
)
def test_a_bad_surface_list_is_refused_in_one_line(tmp_path: Path, edit: str, problem: str) -> None:
    lock = (PROJECT_ROOT / "schema" / "acp.lock").read_text(encoding="utf-8")
    project = _project_copy(tmp_path, lock.replace(edit, problem))
    result = run_acpgen("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("acpgen: error: schema/acp.lock")
    assert not (project / "generated").exists()


def test_a_surface_manifest_must_classify_every_method(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    manifest = project / "schema" / "capabilities-v2.toml"
    manifest.write_text('[[ungated]]\nmethod = "session/new"\nreason = "no capability names it"\n', encoding="utf-8")
    result = run_acpgen("verify", "--project", str(project))
    assert result.returncode == 2
    assert result.stderr.startswith("acpgen: error: schema/capabilities-v2.toml: method ")
    assert "neither gated" in result.stderr


@pytest.mark.slow
def test_each_surface_enforces_its_own_reviewed_gates() -> None:
    """The surface manifests reach the generated guards: what v1 unstable and v2 gate is
    refused without the capability and allowed with it, under each surface's own names."""
    unstable = _package("acp_v1_unstable", "guards")
    fork = {"sessionId": "s", "cwd": "/tmp", "mcpServers": []}
    with pytest.raises(unstable.CapabilityError):
        unstable.check_client_call("session/fork", fork, {"sessionCapabilities": {}})
    unstable.check_client_call("session/fork", fork, {"sessionCapabilities": {"fork": {}}})
    acp_server = {"cwd": "/tmp", "mcpServers": [{"type": "acp", "name": "m", "id": "x"}]}
    with pytest.raises(unstable.CapabilityError):
        unstable.check_client_call("session/new", acp_server, {"mcpCapabilities": {}})
    # v1 stable's rules are carried over unchanged.
    with pytest.raises(unstable.CapabilityError):
        unstable.check_agent_call("fs/read_text_file", {"sessionId": "s", "path": "/a"}, {"fs": {}})
    # A notice only to a client that advertised session.notices (the schema's own text).
    notice = {"sessionId": "s", "update": {"sessionUpdate": "notice", "severity": "info", "title": "t"}}
    with pytest.raises(unstable.CapabilityError):
        unstable.check_agent_call("session/update", notice, {"session": {}})
    unstable.check_agent_call("session/update", notice, {"session": {"notices": {}}})

    v2 = _package("acp_v2", "guards")
    with pytest.raises(v2.CapabilityError):
        v2.check_client_call("session/delete", {"sessionId": "s"}, {"session": {}})
    v2.check_client_call("session/delete", {"sessionId": "s"}, {"session": {"delete": {}}})
    with pytest.raises(v2.CapabilityError):  # no session surface at all
        v2.check_client_call("session/new", {"cwd": "/tmp"}, {})
    v2.check_client_call("session/new", {"cwd": "/tmp"}, {"session": {}})
    with pytest.raises(v2.PathNotAbsoluteError):
        v2.check_client_call("session/new", {"cwd": "relative"}, {"session": {}})


@pytest.mark.slow
def test_check_explains_drift_per_surface(tmp_path: Path) -> None:
    """One check covers every listed surface and says which one drifted."""
    project = _project_copy(tmp_path)
    out = project / "generated"
    for rel, data in tree_now().items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    clean = run_acpgen("check", "--project", str(project), timeout=600)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "surfaces: v1 (acp_v1), v1-unstable (acp_v1_unstable), v2 (acp_v2), v2-unstable (acp_v2_unstable)" in clean.stdout
    (out / "acp_v2" / "models.py").write_text("# edited\n", encoding="utf-8")
    (out / "acp_v1_unstable" / "py.typed").unlink()
    result = run_acpgen("check", "--json", "--project", str(project), timeout=600)
    assert result.returncode == 1
    surfaces = json.loads(result.stdout)["surfaces"]
    assert surfaces["v2"]["changed"] == ["acp_v2/models.py"]
    assert surfaces["v1-unstable"]["missing"] == ["acp_v1_unstable/py.typed"]
    assert surfaces["v1"] == {"package": "acp_v1", "changed": [], "missing": [], "added": []}
    assert surfaces["v2-unstable"]["changed"] == []
    drift = run_acpgen("check", "--project", str(project), timeout=600)
    text = drift.stdout + drift.stderr
    assert "  surface v2 (acp_v2/): 1 changed\n" in text
    assert "  surface v2-unstable (acp_v2_unstable/): identical\n" in text


@pytest.mark.slow
def test_a_skeleton_builds_v1_stable_unless_told_other_surfaces(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    result = run_acpgen("skeleton", "--package", "mysdk", "--out", str(plain), timeout=600)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (plain / "generated").iterdir()) == [
        "MANIFEST.json", "mysdk", "runtime_tests", "tests"]
    assert "surfaces" not in (plain / "schema" / "acp.lock").read_text(encoding="utf-8")
    assert not list((plain / "schema").glob("capabilities-*.toml"))
    assert sorted(p.name for p in (plain / "schema" / "inputs" / "schema" / "v1").iterdir()) == [
        "meta.json", "schema.json"]
    assert not (plain / "schema" / "inputs" / "schema" / "v2").exists()

    both = tmp_path / "both"
    result = run_acpgen("skeleton", "--package", "mysdk", "--out", str(both),
                        "--surface", "v2", "--surface", "v1-unstable", timeout=600)
    assert result.returncode == 0, result.stderr
    lock = (both / "schema" / "acp.lock").read_text(encoding="utf-8")
    assert '[generate.surfaces]\nv1-unstable = "mysdk_v1_unstable"\nv2 = "mysdk_v2"\n' in lock
    assert {"mysdk", "mysdk_v1_unstable", "mysdk_v2"} <= {p.name for p in (both / "generated").iterdir()}
    assert sorted(p.name for p in (both / "schema").glob("capabilities-*.toml")) == [
        "capabilities-v1-unstable.toml", "capabilities-v2.toml"]
    pyproject = (both / "pyproject.toml").read_text(encoding="utf-8")
    assert 'packages = ["generated/mysdk", "generated/mysdk_v1_unstable", "generated/mysdk_v2"]' in pyproject
    check = run_acpgen("check", "--project", str(both), timeout=600)
    assert check.returncode == 0, check.stdout + check.stderr
    # The skeleton stands alone: its vendored inputs are exactly what its lock pins.
    verify = run_acpgen("verify", "--project", str(both), timeout=600)
    assert verify.returncode == 0 and "ok: surface v2 (mysdk_v2)" in verify.stdout, verify.stderr


def test_a_skeleton_refuses_a_surface_the_project_does_not_pin(tmp_path: Path) -> None:
    out = tmp_path / "sk"
    result = run_acpgen("skeleton", "--package", "mysdk", "--out", str(out), "--surface", "v3")
    assert result.returncode == 2
    assert result.stderr == ("acpgen: error: --surface: 'v3' is not a surface this project pins "
                             "(choose from v1, v1-unstable, v2, v2-unstable)\n")
    assert not out.exists()


def _diff(old: str, new: str) -> dict[str, Any]:
    result = run_acpgen("diff", "--json", old, new, timeout=300)
    assert result.returncode in (1, 3), result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    assert doc["exit_code"] == result.returncode
    return doc


def _methods(doc: dict[str, Any]) -> dict[str, tuple[str, Any, Any, str, str]]:
    return {c["subject"]: (c["kind"], c["old"], c["new"], c["client"], c["agent"])
            for c in doc["changes"] if c["kind"].startswith("METHOD_")}


@pytest.mark.slow
def test_diff_v1_stable_to_unstable_lists_what_unstable_adds() -> None:
    """By surface name: every method only unstable has is an added, compatible method."""
    doc = _diff("v1", "v1-unstable")
    assert doc["old"]["schema"] == "schema/v1/schema.json"
    assert doc["new"]["schema"] == "schema/v1/schema.unstable.json"
    added = _wires(_json("schema/v1/meta.unstable.json")) - _wires(_json("schema/v1/meta.json"))
    methods = _methods(doc)
    assert set(methods) == added
    assert all(kind == "METHOD_ADDED" and client == agent == "compatible"
               for kind, _, _, client, agent in methods.values())
    members = {(c["subject"], c["member"]): c for c in doc["changes"] if c["kind"] == "PROPERTY_ADDED"}
    assert members[("McpCapabilities", "acp")]["client"] == "compatible"
    # Every change carries the rules' verdict for each side and the reason for it.
    assert all(c["client"] in ("compatible", "breaking") and c["agent"] in ("compatible", "breaking")
               and c["reason"] for c in doc["changes"] if c["semantic"])


@pytest.mark.slow
def test_diff_v1_to_v2_shows_the_migration() -> None:
    """Methods moved (renamed), removed, with the diff rules' verdicts for each side."""
    doc = _diff("v1", "v2")
    methods = _methods(doc)
    assert methods["authenticate"][:3] == ("METHOD_RENAMED", "authenticate", "auth/login")
    assert methods["logout"][:3] == ("METHOD_RENAMED", "logout", "auth/logout")
    assert methods["authenticate"][3:] == ("breaking", "breaking")
    removed = {w for w, m in methods.items() if m[0] == "METHOD_REMOVED"}
    assert removed == {"session/load", "session/set_mode", "fs/read_text_file", "fs/write_text_file",
                       "terminal/create", "terminal/kill", "terminal/output", "terminal/release",
                       "terminal/wait_for_exit"}
    # A removed client-handled method breaks an OLD agent (which calls it), not an OLD client.
    assert methods["fs/read_text_file"][3:] == ("compatible", "breaking")
    assert methods["session/load"][3:] == ("breaking", "compatible")
    assert doc["verdict"] == "breaking" and doc["exit_code"] == 3


def test_diff_pairs_an_unstable_schema_with_its_own_method_table(tmp_path: Path) -> None:
    """A schema file named schema.unstable.json is read with meta.unstable.json beside it."""
    for name in ("schema.json", "meta.json", "schema.unstable.json", "meta.unstable.json"):
        shutil.copyfile(INPUTS / "schema" / "v1" / name, tmp_path / name)
    doc = _diff(str(tmp_path / "schema.json"), str(tmp_path / "schema.unstable.json"))
    assert doc["new"]["meta"].endswith("meta.unstable.json")
    assert "session/fork" in _methods(doc)


def test_a_method_either_side_handles_is_one_method_on_both_interfaces() -> None:
    """v1 unstable's mcp/message: listed under agentMethods and clientMethods, x-side "both",
    a request form and a notification form. One method, handled on both sides."""
    from acpgen.ir.build import build_ir

    schema, meta = _json("schema/v1/schema.unstable.json"), _json("schema/v1/meta.unstable.json")
    assert meta["agentMethods"]["mcp_message"] == meta["clientMethods"]["mcp_message"] == "mcp/message"
    method = build_ir(schema, meta, "s", "m").method("mcp/message")
    assert method is not None
    assert method.to_json() == {"wire": "mcp/message", "side": "both", "kind": "request",
                                "params": "MessageMcpRequest", "result": "MessageMcpResponse",
                                "notification_params": "MessageMcpNotification"}
    interfaces = _package("acp_v1_unstable", "interfaces")
    connection = _package("acp_v1_unstable", "connection")
    assert hasattr(interfaces.Agent, "mcp_message") and hasattr(interfaces.Client, "mcp_message")
    assert hasattr(connection.AgentSideConnection, "mcp_message")
    assert hasattr(connection.ClientSideConnection, "mcp_message")
    sides = _package("acp_v1_unstable", "sides")
    assert "mcp/message" in sides.AGENT_ROUTES and "mcp/message" in sides.CLIENT_ROUTES


# -- one surface record: no code branches on a surface's name -------------------------------

SURFACE_TABLE = "acpgen/inputs/surfaces.py"  # the one table (SurfaceSpec, surface_spec)
# Every surface's name and package as the project's lock spells them: none may appear in
# acpgen's code outside the table, nor may the table's name constant be compared elsewhere.
SURFACE_WORDS = {"v1", "v1-unstable", "v2", "v2-unstable", *SURFACES}
TABLE_NAMES = {"ROSTER_SURFACE", "STABLE_SURFACE"}
# (path, line text) -> why it stays: reviewed data that only looks like a surface's name.
SURFACE_WORD_ALLOWED: dict[tuple[str, str], str] = {
    ("acpgen/shipped/runtime/runtime_tests/test_faults.py",
     '({"id": "v2", "method": "session/new"}, ("v2", -32600)),'): "a JSON-RPC request id",
    ("acpgen/model/profiles.py", 'surface="v1-unstable",'):
        "a profile's data: the surface it renders (the official Python SDK's module is v1 unstable's)",
}


def _surface_branches(source: str) -> list[int]:
    """Lines that spell a surface's name or package as a value, or compare with the table's
    name of the roster surface."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in SURFACE_WORDS:
            found.add(node.lineno)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Name) and o.id in TABLE_NAMES for o in operands):
                found.add(node.lineno)
    return sorted(found)


def test_no_surface_is_special_outside_the_surface_table() -> None:
    found = {}
    for path in sorted((PROJECT_ROOT / "acpgen").rglob("*.py")):
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        if rel == SURFACE_TABLE:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for number in _surface_branches("\n".join(lines)):
            if (rel, lines[number - 1].strip()) not in SURFACE_WORD_ALLOWED:
                found[f"{rel}:{number}"] = lines[number - 1].strip()
    assert found == {}, "a surface is told apart by its name: make it a field of SurfaceSpec"


def test_the_surface_scan_finds_branches_on_a_name() -> None:
    source = ('if name == "v1":\n    pass\npackage = "acp_v1"\nif surface != ROSTER_SURFACE:\n    pass\n'
              'where = "schema/v1/schema.json"\nx = f"{ROSTER_SURFACE!r}"\n')
    assert _surface_branches(source) == [1, 3, 4]
    table = (PROJECT_ROOT / SURFACE_TABLE).read_text(encoding="utf-8")
    assert _surface_branches(table), "the table itself names the roster surface"
