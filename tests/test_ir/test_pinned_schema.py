"""The schema IR on the real pinned schema, and `acpgen inspect`."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from conftest import run_acpgen

NOTIFICATIONS = {"session/cancel", "session/update", "elicitation/complete", "$/cancel_request"}


def _inspect(*args: str) -> Any:
    result = run_acpgen("inspect", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_methods_table() -> None:
    methods = _inspect("--methods")
    assert len(methods) == 25
    assert all(set(m) == {"wire", "py_name", "side", "kind", "params", "result"} for m in methods)
    assert Counter(m["side"] for m in methods) == {"agent": 13, "client": 11, "protocol": 1}
    assert [m["wire"] for m in methods if m["side"] == "protocol"] == ["$/cancel_request"]
    notifications = {m["wire"] for m in methods if m["kind"] == "notification"}
    assert notifications == NOTIFICATIONS
    assert all(m["result"] is None for m in methods if m["kind"] == "notification")
    assert all(m["result"] for m in methods if m["kind"] == "request")


def test_methods_agree_with_meta_and_annotations(project) -> None:  # type: ignore[no-untyped-def]
    meta = project.meta
    listed = {w for group in ("agentMethods", "clientMethods", "protocolMethods") for w in meta[group].values()}
    assert {m.wire for m in project.ir.methods} == listed
    for m in project.ir.methods:
        for name in filter(None, (m.params, m.result)):
            node = project.schema["$defs"][name]
            assert node["x-method"] == m.wire and node["x-side"] == m.side


def test_every_def_is_in_the_ir_with_a_shape(project) -> None:  # type: ignore[no-untyped-def]
    assert set(project.ir.defs) == set(project.schema["$defs"])
    assert len(project.ir.defs) == 170
    shapes = {name: d.shape for name, d in project.ir.defs.items()}
    assert shapes["ContentBlock"] == "tagged_union"
    assert shapes["SessionUpdate"] == "tagged_union"
    assert shapes["Role"] == "enum" and shapes["StopReason"] == "enum" and shapes["ToolKind"] == "enum"
    assert shapes["ErrorCode"] == "open_enum" and shapes["SessionConfigOptionCategory"] == "open_enum"
    assert shapes["RequestId"] == "union" and shapes["SessionId"] == "primitive"
    assert shapes["ToolCall"] == "object"


def test_tagged_unions_know_their_discriminator_and_tags(project) -> None:  # type: ignore[no-untyped-def]
    defs = project.ir.defs
    su = defs["SessionUpdate"]
    assert su.discriminator == "sessionUpdate"
    assert {v.tag: v.ref for v in su.variants}["tool_call"] == "ToolCall"
    assert [v.tag for v in su.variants] == [
        m["properties"]["sessionUpdate"]["const"] for m in project.schema["$defs"]["SessionUpdate"]["oneOf"]]
    mcp = defs["McpServer"]
    assert mcp.discriminator == "type"
    assert [(v.tag, v.ref) for v in mcp.variants] == [
        ("http", "McpServerHttp"), ("sse", "McpServerSse"), (None, "McpServerStdio")]
    other = [v for v in defs["ElicitationPropertySchema"].variants if v.catch_all]
    assert len(other) == 1 and other[0].tag is None
    assert defs["RequestPermissionOutcome"].discriminator == "outcome"


def test_properties_carry_wire_and_python_names(project) -> None:  # type: ignore[no-untyped-def]
    tool_call = project.ir.defs["ToolCall"]
    by_wire = {p.wire_name: p for p in tool_call.properties}
    assert by_wire["toolCallId"].py_name == "tool_call_id" and by_wire["toolCallId"].required
    assert by_wire["_meta"].py_name == "field_meta" and by_wire["_meta"].nullable
    assert by_wire["name"].nullable and not by_wire["name"].required
    assert by_wire["content"].type.kind == "array" and by_wire["content"].type.items.name == "ToolCallContent"
    version = project.ir.defs["ProtocolVersion"].primitive
    assert dict(version.constraints) == {"minimum": 0, "maximum": 65535} and version.format == "uint16"
    caps = project.ir.defs["AgentCapabilities"].property("loadSession")
    assert caps.has_default and caps.default is False


def test_capability_tree_paths() -> None:
    caps = _inspect("--capabilities")
    paths = {(c["root"], c["path"]): c["kind"] for c in caps}
    assert paths[("agent", "loadSession")] == "boolean"
    assert paths[("agent", "sessionCapabilities.resume")] == "object"
    assert paths[("agent", "promptCapabilities.embeddedContext")] == "boolean"
    assert paths[("agent", "auth.logout")] == "object"
    assert paths[("client", "fs.readTextFile")] == "boolean"
    assert paths[("client", "terminal")] == "boolean"
    assert paths[("client", "session.configOptions.boolean")] == "object"
    assert paths[("client", "elicitation.url")] == "object"
    assert not any(path.endswith("_meta") for _, path in paths)


def test_inspect_one_type_and_an_unknown_one() -> None:
    tool_call = _inspect("ToolCall")
    assert tool_call["name"] == "ToolCall" and tool_call["shape"] == "object"
    assert [p["wire_name"] for p in tool_call["properties"]][:2] == ["toolCallId", "title"]
    result = run_acpgen("inspect", "NoSuchType")
    assert result.returncode == 2
    assert "no def, class or method named 'NoSuchType' in surface v1" in result.stderr


@pytest.mark.slow
def test_inspect_text_is_a_view_and_json_has_every_field() -> None:
    """Without --json, one line per entry; with --json, objects (the same selection)."""
    for args, key in ((["--methods"], "wire"), (["--capabilities"], "path"), (["--gates"], "target")):
        text = run_acpgen("inspect", *args)
        assert text.returncode == 0, text.stderr
        data = _inspect(*args)
        lines = text.stdout.splitlines()
        assert len(lines) == len(data) and not text.stdout.lstrip().startswith(("[", "{"))
        for line, entry in zip(lines, data, strict=True):
            assert str(entry[key]) in line
    capabilities = run_acpgen("inspect", "--capabilities").stdout.splitlines()
    assert "clientCapabilities.fs.readTextFile" in [line.split()[0] for line in capabilities]
    tool_call = run_acpgen("inspect", "ToolCall").stdout.splitlines()
    assert tool_call[0] == "ToolCall (object) /$defs/ToolCall"
    assert any(line.startswith("  toolCallId (.tool_call_id): ToolCallId [required]") for line in tool_call)
