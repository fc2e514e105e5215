"""One small fixture pair per rule of the witness-backed diff (issue 24).

Each test builds a tiny ACP-shaped schema (``_base``: a ``ping`` request the client sends and
the agent handles, a ``note`` notification the agent sends; a meta.json without
``protocolMethods``, as older releases have), edits one thing, and diffs the pair. The
false-alarm classes of the issue are numbered as there; every breaking verdict is checked
against its witness with ``jsonschema`` here, independently of the tool's validators.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from acpgen.errors import AcpgenError
from acpgen.evolve.changes import Change
from acpgen.evolve.diff import SchemaDiff, build_side, diff_sides
from acpgen.evolve.methods import compute_flows
from acpgen.evolve.proof import prove_all
from acpgen.evolve.report import exit_code
from tests.conftest import INPUTS, PROJECT_ROOT, run_acpgen

Json = dict[str, Any]
META: Json = {"agentMethods": {"ping": "ping"}, "clientMethods": {"note": "note"}}


def ref(name: str) -> Json:
    return {"$ref": f"#/$defs/{name}"}


def _base() -> Json:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "anyOf": [ref("ClientRequest"), ref("AgentResponse"), ref("AgentNotification")],
        "$defs": {
            "ClientRequest": {"type": "object", "properties": {
                "id": {"type": "integer"}, "method": {"type": "string"},
                "params": {"anyOf": [ref("PingRequest")]}}, "required": ["id", "method"]},
            "AgentResponse": {"anyOf": [
                {"type": "object", "properties": {"id": {"type": "integer"},
                                                  "result": {"anyOf": [ref("PingResponse")]}},
                 "required": ["id", "result"]},
                {"type": "object", "properties": {"id": {"type": "integer"}, "error": ref("Error")},
                 "required": ["id", "error"]}]},
            "AgentNotification": {"type": "object", "properties": {
                "method": {"type": "string"},
                "params": {"anyOf": [ref("NoteNotification")]}}, "required": ["method"]},
            "PingRequest": {"type": "object", "x-method": "ping", "x-side": "agent",
                            "properties": {"sessionId": {"type": "string"},
                                           "clientCapabilities": ref("ClientCapabilities")},
                            "required": ["sessionId"]},
            "PingResponse": {"type": "object", "x-method": "ping", "x-side": "agent",
                             "properties": {"count": {"type": "integer"}}},
            "NoteNotification": {"type": "object", "x-method": "note", "x-side": "client",
                                 "properties": {"update": ref("Update")}, "required": ["update"]},
            "Update": {"oneOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "text"},
                                                  "text": {"type": "string"}},
                 "required": ["kind", "text"]}]},
            "ClientCapabilities": {"type": "object", "properties": {
                "fs": ref("FileSystemCapability")}},
            "FileSystemCapability": {"type": "object", "properties": {
                "readTextFile": {"type": "boolean"}}},
            "Error": {"type": "object", "properties": {
                "code": ref("ErrorCode"), "message": {"type": "string"}},
                "required": ["code", "message"]},
            "ErrorCode": {"anyOf": [
                {"type": "integer", "format": "int32", "const": -32700},
                {"type": "integer", "format": "int32"}]},
        },
    }


def _side(label: str, schema: Json, meta: Json | None = None, own: bool = True) -> Any:
    blob = json.dumps(schema).encode()
    return build_side(label, Path(label), blob, f"{label}/meta.json",
                      json.dumps(META if meta is None else meta).encode(), meta_is_own=own)


def _diff(old: Json, new: Json, meta_old: Json | None = None, meta_new: Json | None = None,
          gates: tuple[tuple[str, str, str], ...] = ()) -> SchemaDiff:
    return diff_sides(_side("old.json", old, meta_old), _side("new.json", new, meta_new), gates)


def _closed(schema: Json, name: str) -> Json:
    """The schema with unknown members refused at the root of one def."""
    out = copy.deepcopy(schema)
    out["$defs"][name]["unevaluatedProperties"] = False
    return out


def _valid(schema: Json, of: str, instance: Any) -> bool:
    root = schema if of == "(envelope)" else {"$defs": schema["$defs"], "$ref": f"#/$defs/{of}"}
    return Draft202012Validator(root).is_valid(instance)


def _confirmed(old: Json, new: Json, diff: SchemaDiff) -> None:
    """Every breaking side has a witness jsonschema confirms in the claimed direction."""
    for c in diff.changes:
        for side in ("client", "agent"):
            if getattr(c, side) != "breaking":
                continue
            ws = [w for w in c.witnesses if side in w.breaks]
            assert ws, f"{c.describe()}: no witness for the {side}"
            w = ws[0]
            if w.kind == "writer":
                assert _valid(old, w.of, w.instance) and not _valid(new, w.of, w.instance)
            elif w.kind == "reader":
                assert _valid(new, w.of, w.instance) and not _valid(old, w.of, w.instance)
            elif w.kind == "dropped":
                assert _valid(old, w.of, w.instance) and _valid(new, w.of, w.instance)
                # ... and NEW keeps it only as an unknown member (unknown members refused).
                assert _valid(_closed(old, w.of), w.of, w.instance)
                assert not _valid(_closed(new, w.of), w.of, w.instance)


def _sides(diff: SchemaDiff) -> tuple[str, str]:
    """(client, agent): breaking if any change breaks that side, else compatible."""
    return tuple("breaking" if any(getattr(c, r) == "breaking" for c in diff.changes)  # type: ignore[return-value]
                 else "compatible" for r in ("client", "agent"))


# -- the false-alarm classes ------------------------------------------------------------------


def test_class1_single_branch_lifted_then_a_second_branch() -> None:
    """A one-branch oneOf is merged into its def; a second branch must not make every member
    'removed': OLD messages still validate, so the writer (agent) is not broken; the reader
    (client) is, by an instance of the new branch."""
    old = _base()
    old["$defs"]["PingResponse"]["properties"]["option"] = ref("Option")
    old["$defs"]["Option"] = {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
        "oneOf": [{"type": "object", "properties": {"type": {"type": "string", "const": "select"},
                                                    "value": {"type": "string"}},
                   "required": ["type", "value"]}]}
    new = copy.deepcopy(old)
    new["$defs"]["Option"]["oneOf"].append(
        {"type": "object", "properties": {"type": {"type": "string", "const": "boolean"},
                                          "value": {"type": "boolean"}},
         "required": ["type", "value"]})
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    assert _sides(diff) == ("breaking", "compatible")
    assert not [c for c in diff.changes if c.kind == "PROPERTY_REMOVED" and c.breaking]
    [w] = [w for c in diff.changes for w in c.witnesses]
    assert w.kind == "reader" and '"boolean"' in json.dumps(w.instance)


def test_class1_member_moved_into_branches_is_not_removed() -> None:
    """PingRequest.value moves into the branches of an anyOf; every OLD request validates
    against NEW, so the client (its writer) is not broken."""
    old = _base()
    old["$defs"]["PingRequest"]["properties"]["value"] = {"type": "string"}
    old["$defs"]["PingRequest"]["required"].append("value")
    new = copy.deepcopy(old)
    del new["$defs"]["PingRequest"]["properties"]["value"]
    new["$defs"]["PingRequest"]["required"].remove("value")
    new["$defs"]["PingRequest"]["anyOf"] = [
        {"properties": {"type": {"const": "bool"}, "value": {"type": "boolean"}},
         "required": ["type", "value"]},
        {"properties": {"value": {"type": "string"}}, "required": ["value"]}]
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    assert _sides(diff)[0] == "compatible"


def test_class2_open_integer_enum_gains_a_value() -> None:
    old = _base()
    new = copy.deepcopy(old)
    new["$defs"]["ErrorCode"]["anyOf"].insert(1, {"type": "integer", "format": "int32",
                                                  "const": -32800})
    diff = _diff(old, new)
    assert exit_code(diff) == 1
    [c] = diff.semantic
    assert c.kind == "ENUM_VALUE_ADDED" and not c.breaking


def _gated_update(old_has_capability: bool, doc: str) -> tuple[Json, Json]:
    old = _base()
    if old_has_capability:
        old["$defs"]["ClientCapabilities"]["properties"]["notices"] = {"type": "boolean"}
    new = copy.deepcopy(old)
    new["$defs"]["ClientCapabilities"]["properties"]["notices"] = {"type": "boolean"}
    branch = {"type": "object", "properties": {"kind": {"type": "string", "const": "notice"},
                                               "level": {"type": "string"}},
              "required": ["kind", "level"]}
    if doc:
        branch["description"] = doc
    new["$defs"]["Update"]["oneOf"].append(branch)
    return old, new


def test_class3_gate_read_from_the_schema_wording_same_release() -> None:
    old, new = _gated_update(False, "Agents MUST send this update only when the client enabled "
                                    "its notices capability.")
    diff = _diff(old, new)
    assert exit_code(diff) == 1
    [v] = [c for c in diff.semantic if c.kind == "VARIANT_ADDED"]
    assert v.gate == "clientCapabilities.notices" and not v.breaking


def test_class3_gate_read_from_the_manifest() -> None:
    old, new = _gated_update(False, "")
    gates = (("kind", "notice", "clientCapabilities.notices"),)
    assert exit_code(_diff(old, new, gates=gates)) == 1
    # Without the manifest's word nothing says so: the client reads a variant it rejects.
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    assert _sides(diff) == ("breaking", "compatible")


def test_class3_gate_on_a_capability_old_already_has_does_not_help() -> None:
    """An OLD client may advertise the capability, and then receives what it cannot read."""
    old, new = _gated_update(True, "Agents MUST send this update only when the client enabled "
                                   "its notices capability.")
    diff = _diff(old, new, gates=(("kind", "notice", "clientCapabilities.notices"),))
    _confirmed(old, new, diff)
    assert _sides(diff) == ("breaking", "compatible")


def test_class4_new_method_is_reported_once_as_the_method() -> None:
    old = _base()
    new = copy.deepcopy(old)
    new["$defs"]["EchoRequest"] = {"type": "object", "x-method": "echo", "x-side": "agent",
                                   "properties": {"text": {"type": "string"}}}
    new["$defs"]["EchoResponse"] = {"type": "object", "x-method": "echo", "x-side": "agent",
                                    "properties": {"text": {"type": "string"}}}
    new["$defs"]["ClientRequest"]["properties"]["params"]["anyOf"].append(ref("EchoRequest"))
    new["$defs"]["AgentResponse"]["anyOf"][0]["properties"]["result"]["anyOf"].append(
        ref("EchoResponse"))
    meta = copy.deepcopy(META)
    meta["agentMethods"]["echo"] = "echo"
    diff = _diff(old, new, meta_new=meta)
    assert exit_code(diff) == 1
    assert sorted(c.kind for c in diff.semantic) == ["DEF_ADDED", "DEF_ADDED", "METHOD_ADDED"]


def test_class5_capability_def_renamed_with_the_same_shape() -> None:
    old = _base()
    new = copy.deepcopy(old)
    new["$defs"]["FileSystemCapabilities"] = new["$defs"].pop("FileSystemCapability")
    new["$defs"]["ClientCapabilities"]["properties"]["fs"] = ref("FileSystemCapabilities")
    diff = _diff(old, new)
    assert exit_code(diff) == 1
    assert not [c for c in diff.semantic if c.kind.startswith("CAPABILITY_")]
    assert "EQUIVALENT_REWRITE" in {c.kind for c in diff.semantic}


def _mode_union(url_requires_member: bool) -> tuple[Json, Json]:
    old = _base()
    form = {"type": "object", "properties": {"mode": {"type": "string", "const": "form"},
                                             "form": {"type": "string"}},
            "required": ["mode", "form"]}
    other = {"type": "object", "properties": {"mode": {"type": "string"}}, "required": ["mode"],
             "not": {"anyOf": [{"properties": {"mode": {"const": "form"}}, "required": ["mode"]}]}}
    old["$defs"]["Mode"] = {"anyOf": [form, other]}
    old["$defs"]["PingResponse"]["properties"]["mode"] = ref("Mode")
    new = copy.deepcopy(old)
    url: Json = {"type": "object", "properties": {"mode": {"type": "string", "const": "url"}},
                 "required": ["mode"]}
    if url_requires_member:
        url["properties"]["url"] = {"type": "string"}
        url["required"].append("url")
    new["$defs"]["Mode"]["anyOf"].insert(1, url)
    new["$defs"]["Mode"]["anyOf"][2]["not"]["anyOf"].append(
        {"properties": {"mode": {"const": "url"}}, "required": ["mode"]})
    return old, new


def test_class6_catch_all_union_gains_a_named_variant() -> None:
    """The new value moves from the catch-all to its own branch: the same documents."""
    old, new = _mode_union(False)
    diff = _diff(old, new)
    assert exit_code(diff) == 1, [c.describe() for c in diff.changes if c.breaking]


def test_class6_control_a_named_variant_that_requires_more_breaks_the_writer() -> None:
    old, new = _mode_union(True)
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    assert _sides(diff) == ("compatible", "breaking")  # the agent writes PingResponse


def test_class7_members_declared_in_another_order_is_no_change() -> None:
    old = _base()
    new = copy.deepcopy(old)
    props = new["$defs"]["PingRequest"]["properties"]
    new["$defs"]["PingRequest"]["properties"] = dict(reversed(list(props.items())))
    assert exit_code(_diff(old, new)) == 0


# -- witnesses, unproven, the counterexample search ----------------------------------------------


def test_breaking_change_carries_a_witness_per_side() -> None:
    """A required member removed: the reader (agent) gets requests without it (reader
    witness), the writer's (client) value is ignored (dropped witness)."""
    old = _base()
    old["$defs"]["PingRequest"]["properties"]["mode"] = {"type": "string"}
    old["$defs"]["PingRequest"]["required"].append("mode")
    new = _base()
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    [c] = [c for c in diff.semantic if c.kind == "PROPERTY_REMOVED"]
    assert (c.client, c.agent) == ("breaking", "breaking")
    assert {w.kind for w in c.witnesses} == {"reader", "dropped"}


def test_no_witness_means_not_breaking() -> None:
    """A maximum raised far above a format's range: the policy would call it relaxed (reader
    break), but int32 already bounds it, so no value tells the schemas apart."""
    old = _base()
    old["$defs"]["PingResponse"]["properties"]["count"] = {"type": "integer", "format": "int32",
                                                           "maximum": 2**40}
    new = copy.deepcopy(old)
    del new["$defs"]["PingResponse"]["properties"]["count"]["maximum"]
    diff = _diff(old, new)
    assert exit_code(diff) in (0, 1)


def test_unproven_when_no_instance_reaches_the_change() -> None:
    old = _base()
    old["$defs"]["PingRequest"]["properties"]["sessionId"]["pattern"] = "^x{40}$"
    new = copy.deepcopy(old)
    new["$defs"]["PingRequest"]["properties"]["sessionId"]["pattern"] = "^x{41}$"
    diff = _diff(old, new)
    assert exit_code(diff) == 4
    [c] = diff.semantic
    assert c.unproven and c.witnesses == () and c.reason.startswith("unproven")


def test_counterexample_search_turns_a_compatible_verdict_into_a_breaking_one() -> None:
    """Given a change the policy calls compatible on a def that really changed otherwise (an
    object closed), the seeded search finds the counterexample, the same one every run."""
    old = _base()
    new = copy.deepcopy(old)
    new["$defs"]["PingRequest"]["properties"]["extra"] = {"type": "string"}
    new["$defs"]["PingRequest"]["additionalProperties"] = False
    side = _side("old.json", old)
    claimed = Change("PROPERTY_ADDED", "PingRequest", "extra",
                     "/$defs/PingRequest/properties/extra", effect="none")
    flows = compute_flows(old, side.methods)
    runs = [prove_all([claimed], old, new, side.methods, side.methods, flows) for _ in range(2)]
    [c] = runs[0].changes
    assert c.breaking and c.client == "breaking" and "counterexample" in c.detail
    [w] = c.witnesses
    assert w.kind == "writer" and _valid(old, "PingRequest", w.instance)
    assert not _valid(new, "PingRequest", w.instance)
    assert runs[0].changes == runs[1].changes


# -- real history reads -------------------------------------------------------------------------


def test_meta_without_protocol_methods_reads() -> None:
    side = _side("old.json", _base())
    assert {(m.wire, m.side, m.kind) for m in side.methods} == {
        ("ping", "agent", "request"), ("note", "client", "notification")}


def _pre_envelope() -> Json:
    """A schema from before the envelope defs: the routing defs are unions of params."""
    s = _base()
    s["$defs"]["ClientRequest"] = {"anyOf": [ref("PingRequest")]}
    s["$defs"]["AgentResponse"] = {"anyOf": [ref("PingResponse")]}
    s["$defs"]["AgentNotification"] = {"anyOf": [ref("NoteNotification")]}
    return s


def test_schema_before_the_envelopes_gives_a_verdict() -> None:
    old = _pre_envelope()
    side = _side("old.json", old)
    assert {(m.wire, m.kind, m.params, m.result) for m in side.methods} == {
        ("ping", "request", "PingRequest", "PingResponse"),
        ("note", "notification", "NoteNotification", None)}
    new = copy.deepcopy(old)
    new["$defs"]["PingRequest"]["properties"]["session"] = new["$defs"]["PingRequest"][
        "properties"].pop("sessionId")
    new["$defs"]["PingRequest"]["required"] = ["session"]
    diff = _diff(old, new)
    _confirmed(old, new, diff)
    assert exit_code(diff) == 3


def test_schema_without_annotations_and_a_stand_in_meta_gives_a_verdict() -> None:
    old = _pre_envelope()
    for node in old["$defs"].values():
        node.pop("x-method", None)
        node.pop("x-side", None)
    stand_in = {"agentMethods": {"prompt": "session/prompt"}, "clientMethods": {},
                "protocolMethods": {}}
    side = _side("old.json", old, stand_in, own=False)
    assert side.methods == ()
    new = copy.deepcopy(old)
    new["$defs"]["PingResponse"]["properties"]["extra"] = {"type": "string"}
    assert exit_code(diff_sides(side, _side("new.json", new, stand_in, own=False))) == 1


@pytest.mark.parametrize("meta, where", [
    ({"clientMethods": {"note": "note"}}, "agentMethods"),
    ({"agentMethods": {}, "clientMethods": {"note": "note"}}, "PingRequest"),
])
def test_malformed_input_is_still_one_line(meta: Json, where: str) -> None:
    with pytest.raises(AcpgenError) as info:
        _side("bad.json", _base(), meta)
    assert where in str(info.value) and "\n" not in str(info.value)


# -- the JSON report ----------------------------------------------------------------------------


def test_json_report_carries_the_witness_fields(tmp_path: Path) -> None:
    old = _base()
    new = copy.deepcopy(old)
    new["$defs"]["PingResponse"]["properties"]["count"]["maximum"] = 10
    for name, schema in (("old", old), ("new", new)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
        (tmp_path / name / "meta.json").write_text(json.dumps(META), encoding="utf-8")
    result = run_acpgen("diff", "--json", str(tmp_path / "old" / "schema.json"),
                        str(tmp_path / "new" / "schema.json"), "--project", str(PROJECT_ROOT),
                        "--inputs", str(INPUTS))
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    [c] = [c for c in report["changes"] if c["agent"] == "breaking"]
    [w] = c["witnesses"]
    assert set(w) == {"kind", "of", "instance", "old", "new", "breaks"}
    assert w["kind"] == "writer" and w["breaks"] == ["agent"] and w["of"] == "PingResponse"
    assert _valid(old, "PingResponse", w["instance"])
    assert not _valid(new, "PingResponse", w["instance"])
    assert w["old"] == "accepts" and w["new"].startswith("rejects: ")
    assert report["summary"]["unproven"] == 0


def test_a_checkout_of_any_release_is_a_directory_to_diff(tmp_path: Path) -> None:
    """The schema lived at the root first (no meta.json), then at schema/ (meta.json beside
    it), then at schema/v1/: a checkout of each release is read as it is."""
    from tests.evolve.releases import releases

    by_tag = {r.tag: r for r in releases()}
    first, later = by_tag["v0.0.1"], by_tag["v0.4.1"]
    (tmp_path / "first").mkdir()
    (tmp_path / "first" / "schema.json").write_bytes(first.schema.read_bytes())
    (tmp_path / "later" / "schema").mkdir(parents=True)
    (tmp_path / "later" / "schema" / "schema.json").write_bytes(later.schema.read_bytes())
    assert later.meta is not None
    (tmp_path / "later" / "schema" / "meta.json").write_bytes(later.meta.read_bytes())
    from acpgen.evolve.diff import load_side

    stand_in = (f"{INPUTS}/schema/v1/meta.json", (INPUTS / "schema/v1/meta.json").read_bytes())
    old = load_side(str(tmp_path / "first"), stand_in)
    new = load_side(str(tmp_path / "later"), stand_in)
    assert old.schema_path == tmp_path / "first" / "schema.json" and old.meta_label == stand_in[0]
    assert new.schema_path == tmp_path / "later" / "schema" / "schema.json"
    assert new.meta_label.endswith("later/schema/meta.json")
    assert exit_code(diff_sides(old, new)) == 3
    (tmp_path / "empty").mkdir()
    with pytest.raises(AcpgenError) as info:
        load_side(str(tmp_path / "empty"), stand_in)
    assert "schema/v1/schema.json" in str(info.value) and "\n" not in str(info.value)


def test_a_changed_default_is_shown_by_an_instance_that_omits_the_member() -> None:
    old = _base()
    old["$defs"]["PingResponse"]["properties"]["count"]["default"] = 1
    new = copy.deepcopy(old)
    new["$defs"]["PingResponse"]["properties"]["count"]["default"] = 2
    [c] = _diff(old, new).semantic
    assert c.kind == "DEFAULT_CHANGED" and (c.client, c.agent) == ("breaking", "breaking")
    [w] = c.witnesses
    assert w.kind == "default" and w.breaks == ("client", "agent")
    assert "count" not in w.instance and _valid(old, "PingResponse", w.instance)
    assert _valid(new, "PingResponse", w.instance)
    assert w.old.endswith("means 1") and w.new.endswith("means 2")
