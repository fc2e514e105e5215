"""The gating manifest schema/capabilities.toml: loaded, validated against the real inputs, and
refused (one line, exit 2, nothing written) when an entry does not match them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir, run_acpgen, tree_digest
from repin import make_project

from acpgen.errors import AcpgenError
from acpgen.load import capabilities
from acpgen.load.capabilities import (
    MANIFEST_RELPATH,
    gate_warnings,
    parse_manifest,
    states_gate,
    uncited_gate_warnings,
)

MANIFEST = Path(__file__).resolve().parents[1] / MANIFEST_RELPATH


def test_every_gate_resolves_in_the_ir_and_the_roster(project) -> None:  # type: ignore[no-untyped-def]
    gates = project.capabilities.gates
    ids = {r.id for r in project.roster.requirements}
    for g in gates:
        assert project.ir.method(g.method) is not None
        assert set(g.requirements) <= ids
        if g.kind == "never":
            assert g.capability is None and g.condition
        else:
            assert g.capability is not None
            assert project.ir.capability(g.capability.root, g.capability.path) == g.capability
            assert g.capability.kind == g.kind
            # The sender checks its peer's capabilities, never its own.
            assert g.capability.root != g.sender


def test_inspect_gates_json_lists_at_least_20_targets_with_roster_ids(project) -> None:  # type: ignore[no-untyped-def]
    result = run_acpgen("inspect", "--gates", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    targets = {g["target"] for g in data}
    assert len(targets) == len(data) >= 20
    ids = {r.id for r in project.roster.requirements}
    for g in data:
        assert {"target", "sender", "capability", "kind", "requirements"} <= set(g)
        assert g["requirements"] and set(g["requirements"]) <= ids


@pytest.mark.parametrize(
    ("target", "capability"),
    [
        ("session/load", "agentCapabilities.loadSession"),
        ("session/resume", "agentCapabilities.sessionCapabilities.resume"),
        ("session/close", "agentCapabilities.sessionCapabilities.close"),
        ("session/list", "agentCapabilities.sessionCapabilities.list"),
        ("session/delete", "agentCapabilities.sessionCapabilities.delete"),
        ("logout", "agentCapabilities.auth.logout"),
        ("session/prompt params.prompt[].type=image", "agentCapabilities.promptCapabilities.image"),
        ("session/prompt params.prompt[].type=audio", "agentCapabilities.promptCapabilities.audio"),
        ("session/prompt params.prompt[].type=resource", "agentCapabilities.promptCapabilities.embeddedContext"),
        ("session/new params.mcpServers[].type=http", "agentCapabilities.mcpCapabilities.http"),
        ("session/resume params.mcpServers[].type=sse", "agentCapabilities.mcpCapabilities.sse"),
        ("session/load params.additionalDirectories", "agentCapabilities.sessionCapabilities.additionalDirectories"),
        ("fs/read_text_file", "clientCapabilities.fs.readTextFile"),
        ("fs/write_text_file", "clientCapabilities.fs.writeTextFile"),
        ("terminal/kill", "clientCapabilities.terminal"),
        ("elicitation/create params.mode=form", "clientCapabilities.elicitation.form"),
        ("elicitation/create params.mode=url", "clientCapabilities.elicitation.url"),
        ("elicitation/complete", "clientCapabilities.elicitation.url"),
        ("session/update params.update.configOptions[].type=boolean", "clientCapabilities.session.configOptions.boolean"),
        ("session/new result.configOptions[].type=boolean", "clientCapabilities.session.configOptions.boolean"),
        ("initialize result.authMethods[].type=terminal", "clientCapabilities.auth.terminal"),
        ("authenticate params.methodId", None),
    ],
)
def test_required_rows_are_in_the_manifest(project, target: str, capability: str | None) -> None:  # type: ignore[no-untyped-def]
    by_target = {g.target: g for g in project.capabilities.gates}
    assert target in by_target
    assert by_target[target].qualified_capability == capability


def test_verify_has_no_uncited_gate_on_the_real_manifest(project) -> None:  # type: ignore[no-untyped-def]
    assert uncited_gate_warnings(project.roster, project.capabilities) == []


def test_gate_heuristic_is_explainable() -> None:
    assert states_gate("MUST NOT", "Clients MUST NOT call it unless the Agent advertised it.")
    assert states_gate("MUST", "Before attempting X, Clients MUST verify the capability.")
    assert states_gate("MUST NOT", "If terminal is false or not present, the Agent MUST NOT call it.")
    assert not states_gate("SHOULD", "Clients SHOULD check the capability.")
    assert not states_gate("MUST", "The Agent MUST respond with the capabilities it supports.")
    assert not states_gate("MUST", "Clients MUST create the file.")


# ---- bad manifests ---------------------------------------------------------------------------


def _break(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


BAD = {
    "unknown-capability": (
        'capability = "agentCapabilities.sessionCapabilities.resume"',
        'capability = "agentCapabilities.sessionCapabilities.rezume"',
        r"gate #2 \(session/resume\): unknown capability path 'agentCapabilities\.sessionCapabilities\.rezume'",
    ),
    "unknown-requirement": (
        'requirements = ["ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY"]',
        'requirements = ["ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITI"]',
        r"gate #6 \(logout\): unknown requirement ID 'ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITI'",
    ),
    "unknown-method": (
        'method = "session/close"',
        'method = "session/shut"',
        r"gate #3 \(session/shut\): unknown method 'session/shut'",
    ),
    "wrong-kind": (
        'capability = "agentCapabilities.loadSession"\nkind = "boolean"',
        'capability = "agentCapabilities.loadSession"\nkind = "object"',
        r"gate #1 \(session/load\): capability 'agentCapabilities\.loadSession' is boolean in the schema",
    ),
    "own-capabilities": (
        'capability = "clientCapabilities.fs.readTextFile"',
        'capability = "agentCapabilities.loadSession"',
        (r"gate #\d+ \(fs/read_text_file\): capability 'agentCapabilities\.loadSession': the agent must "
        r"check its peer's clientCapabilities"),
    ),
    "bad-selector": (
        'select = "prompt[].type"\nequals = "image"',
        'select = "prompts[].type"\nequals = "image"',
        r"gate #7 \(session/prompt prompts\[\]\.type=image\): selector step 'prompts' does not resolve",
    ),
    "bad-tag": (
        'equals = "audio"',
        'equals = "video"',
        r"gate #8 \(session/prompt prompt\[\]\.type=video\): 'video' is not a value",
    ),
    "requirement-of-the-other-side": (
        'requirements = ["ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY"]',
        'requirements = ["ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY"]',
        (r"gate #6 \(logout\): requirement ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY binds the agent, not the "
        r"sender \(client\)"),
    ),
    "wrong-sender": (
        'method = "logout"\nsender = "client"',
        'method = "logout"\nsender = "agent"',
        r"gate #6 \(logout\): logout is sent by the client, not the agent",
    ),
}


@pytest.fixture()
def broken_project(tmp_path: Path, project_root: Path, inputs_copy: Path):  # type: ignore[no-untyped-def]
    def make(case: str) -> Path:
        old, new, _ = BAD[case]
        proj = make_project(project_root, tmp_path / "proj", inputs_copy)
        (proj / MANIFEST_RELPATH).write_text(_break(MANIFEST.read_text(encoding="utf-8"), old, new), encoding="utf-8")
        return proj

    return make


CLI_CASES = ("unknown-capability", "unknown-method", "unknown-requirement")


@pytest.mark.slow
@pytest.mark.parametrize("case", CLI_CASES)
def test_bad_manifest_is_one_line_exit_2_and_nothing_written(broken_project, project_root: Path, case: str) -> None:  # type: ignore[no-untyped-def]
    proj = broken_project(case)
    # An existing output tree (a copy of a generated one) must come out byte-identical.
    out = proj / "generated"
    shutil.copytree(generated_dir(), out, ignore=shutil.ignore_patterns("__pycache__"))
    before = tree_digest(out)
    result = run_acpgen("generate", "--project", str(proj), "--out", str(out))
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"acpgen: error: {MANIFEST_RELPATH}: "), lines[0]
    assert re.search(BAD[case][2], lines[0]), lines[0]
    assert result.stdout == ""
    assert tree_digest(out) == before
    assert sorted(p.name for p in proj.iterdir()) == ["generated", "schema"]


def test_bad_manifest_fails_verify_too(broken_project) -> None:  # type: ignore[no-untyped-def]
    proj = broken_project("unknown-capability")
    result = run_acpgen("verify", "--project", str(proj))
    assert result.returncode == 2, result.stderr
    assert re.fullmatch(f"acpgen: error: {MANIFEST_RELPATH}: {BAD['unknown-capability'][2]}.*\n",
                        result.stderr), result.stderr


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_manifest_entry_is_named_in_the_error(project, case: str) -> None:  # type: ignore[no-untyped-def]
    old, new, expected = BAD[case]
    with pytest.raises(AcpgenError) as info:
        parse_manifest(project.ir, project.roster, _break(MANIFEST.read_text(encoding="utf-8"), old, new))
    assert info.value.where == MANIFEST_RELPATH
    assert info.value.exit_code == 2
    assert re.match(expected, info.value.message), info.value.message


def test_invalid_toml_is_one_error(project) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AcpgenError) as info:
        parse_manifest(project.ir, project.roster, "[[gate]\nmethod = ")
    assert str(info.value).startswith(f"{MANIFEST_RELPATH}: not valid TOML")
    assert "\n" not in str(info.value)


def test_verify_warns_about_an_uncited_gate(project, tmp_path: Path, project_root: Path, inputs_copy: Path) -> None:  # type: ignore[no-untyped-def]
    """Dropping the logout gate leaves ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY uncited."""
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    text = MANIFEST.read_text(encoding="utf-8")
    text = _break(
        text,
        '[[gate]]\nmethod = "logout"\nsender = "client"\ncapability = "agentCapabilities.auth.logout"\n'
        'kind = "object"\nrequirements = ["ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY"]\n',
        "",
    )
    (proj / MANIFEST_RELPATH).write_text(text, encoding="utf-8")
    result = run_acpgen("verify", "--project", str(proj))
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "states a capability gate" in line]
    assert len(warnings) == 1
    assert "ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY" in warnings[0]
    # A reviewed [[not_a_gate]] entry silences it, and names its reason.
    text += ('\n[[not_a_gate]]\nrequirement = "ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY"\n'
             'reason = "test"\n')
    manifest = parse_manifest(project.ir, project.roster, text)
    assert manifest.not_a_gate == {"ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY": "test"}
    assert gate_warnings(project.roster, manifest) == []

def test_manifest_round_trips_through_the_project(project) -> None:  # type: ignore[no-untyped-def]
    manifest = project.capabilities
    assert "initialize" in manifest.exempt_before_initialize
    assert set(manifest.initialize_first) == {"client", "agent"}
    cwd_rules = [p for p in manifest.absolute_paths if p.select == ("cwd",) and p.sender == "client"]
    assert {p.method for p in cwd_rules} == {"session/new", "session/load", "session/resume", "session/list"}


# ---- Cross-check: the schema's own prose agrees with the hand-written manifest ---------------


def _expected_from_schema_text(project) -> set[tuple[str, str, str | None]]:  # type: ignore[no-untyped-def]
    """(method, capability, tag) gates the schema descriptions state, found by plain patterns."""
    defs = project.ir.defs
    expected: set[tuple[str, str, str | None]] = set()
    for variant in defs["ContentBlock"].variants:  # "Requires the `image` prompt capability"
        match = re.search(r"Requires the `(\w+)` prompt capability", variant.description or "")
        if match:
            expected.add(("session/prompt", f"agentCapabilities.promptCapabilities.{match[1]}", variant.tag))
    for variant in defs["McpServer"].variants:  # "... indicate `mcp_capabilities.http` is `true`"
        match = re.search(r"`mcp_capabilities\.(\w+)` is `true`", variant.description or "")
        if match:
            for wire in ("session/new", "session/load", "session/resume"):
                expected.add((wire, f"agentCapabilities.mcpCapabilities.{match[1]}", variant.tag))
    methods = {m.wire for m in project.ir.methods}
    for cap in project.ir.capabilities:  # "Whether the agent supports `session/list`."
        owner = defs["AgentCapabilities" if cap.root == "agent" else "ClientCapabilities"]
        *parents, leaf = cap.path.split(".")
        for step in parents:
            prop = owner.property(step)
            assert prop is not None and prop.type.name
            owner = defs[prop.type.name]
        prop = owner.property(leaf)
        text = (prop.description if prop else "") or ""
        for named in re.findall(r"^Whether the \w+ supports? (?:all )?`([\w/*]+)`", text):
            pattern = re.compile(named.replace("*", r"\w+"))
            for wire in sorted(w for w in methods if pattern.fullmatch(w)):
                expected.add((wire, cap.qualified, None))
    return expected


def test_manifest_covers_every_gate_the_schema_descriptions_state(project) -> None:  # type: ignore[no-untyped-def]
    expected = _expected_from_schema_text(project)
    # The patterns must find the documented gates, or this test proves nothing.
    assert len(expected) >= 15
    assert ("terminal/kill", "clientCapabilities.terminal", None) in expected
    stated = {(g.method, g.qualified_capability, g.equals) for g in project.capabilities.gates}
    assert expected - stated == set()


def selected_members(
    ir: Any, roster: Any, method: str, message: str, select: tuple[str, ...]
) -> set[tuple[str, str]]:
    """The (def, member) pairs a path rule's selector names, e.g. ``{("Diff", "path")}``, as the
    manifest's validator resolves them."""
    m = ir.method(method)
    assert m is not None, method
    validator = capabilities._Validator(ir, roster)
    validator.resolve(f"{method} {message}.{capabilities.format_select(select)}",
                      m.params if message == "params" else str(m.result), select)
    return set(validator.last_owners)


def test_every_member_the_schema_calls_absolute_has_a_path_rule(project) -> None:  # type: ignore[no-untyped-def]
    """Members whose description says the path is absolute (and that sit in some message)."""
    described = {
        (name, prop.wire_name)
        for name, d in project.ir.defs.items()
        for prop in d.properties
        if "absolute" in (prop.description or "").lower()
    }
    assert ("NewSessionRequest", "cwd") in described and ("Diff", "path") in described
    covered: set[tuple[str, str]] = set()
    for rule in project.capabilities.absolute_paths:
        covered |= selected_members(project.ir, project.roster, rule.method, rule.message, rule.select)
    assert described - covered == KNOWN_GAPS


# Reviewed gaps, each with its reason (none today: a member the schema calls absolute with no
# rule fails the test above until a rule or a reasoned entry here is added).
KNOWN_GAPS: set[tuple[str, str]] = set()


def test_verify_says_when_there_is_no_gating_manifest(tmp_path: Path, project_root: Path, inputs_copy: Path) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    (proj / MANIFEST_RELPATH).unlink()
    result = run_acpgen("verify", "--project", str(proj))
    assert result.returncode == 0, result.stderr
    assert f"acpgen: warning: {MANIFEST_RELPATH}: not found; the generated guards enforce no capability gate" in result.stderr
    # Without the manifest every gate the roster states is uncited, and each is named.
    assert sum("states a capability gate" in line for line in result.stderr.splitlines()) > 10
