"""acpgen diff on the real schemas of tests/data/history and the pinned one.

Expectations are computed from the raw files where possible (which defs, properties and
annotations differ), and the acceptance facts of the brief are asserted explicitly.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from acpgen.evolve.bump import analyse, pinned_meta
from acpgen.evolve.diff import SchemaDiff, SchemaSide, build_side, load_side
from acpgen.evolve.impact import Impact
from acpgen.evolve.report import exit_code, render_text, to_json
from tests.conftest import HISTORY, INPUTS, PROJECT_ROOT, run_acpgen

PINNED = INPUTS / "schema" / "v1" / "schema.json"
V1_21 = HISTORY / "schema-v1.21.0.json"
NPM_2_0 = HISTORY / "schema-v1-from-npm-sdk-2.0.0.json"
NPM_2_4 = HISTORY / "schema-v1-from-npm-sdk-2.4.0.json"


@cache
def _project():  # type: ignore[no-untyped-def]
    from acpgen.load.project import load_project

    return load_project(PROJECT_ROOT, str(INPUTS))


@cache
def side(path: Path) -> SchemaSide:
    return load_side(str(path), pinned_meta(_project()))


@cache
def run(old: Path, new: Path) -> tuple[SchemaDiff, Impact]:
    return analyse(_project(), side(old), side(new))


def raw_defs(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))["$defs"]


def semantic_set(diff: SchemaDiff) -> set[tuple[str, str, str | None]]:
    return {(c.kind, c.subject, c.member) for c in diff.semantic}


def _schema_file(tmp_path: Path, schema: dict[str, Any], name: str = "new.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return path


def _variant_tags(defs: dict[str, Any], union: str, ref: str) -> set[str]:
    """Tags of the union's branches built on ``ref`` (read from the raw schema)."""
    tags = set()
    for branch in defs[union].get("oneOf", []):
        refs = [a.get("$ref") for a in branch.get("allOf", [])]
        if f"#/$defs/{ref}" in refs:
            tags |= {p["const"] for p in branch.get("properties", {}).values() if "const" in p}
    return tags


# -- schema-v1.21.0 -> pinned: one optional property on two types --------------------------


def test_v1_21_to_pinned_is_exactly_the_new_optional_name() -> None:
    diff, _ = run(V1_21, PINNED)
    assert semantic_set(diff) == {
        ("PROPERTY_ADDED", "ToolCall", "name"),
        ("PROPERTY_ADDED", "ToolCallUpdate", "name"),
    }
    # The same facts computed from the raw files: properties in pinned that v1.21.0 lacks.
    old, new = raw_defs(V1_21), raw_defs(PINNED)
    computed = {
        ("PROPERTY_ADDED", name, prop)
        for name in set(old) & set(new)
        for prop in set(new[name].get("properties", {})) - set(old[name].get("properties", {}))
    }
    assert computed == semantic_set(diff)
    for c in diff.semantic:
        assert not new[c.subject].get("required", []).count("name")  # optional in the file
        assert (c.client, c.agent) == ("compatible", "compatible")
    assert diff.annotations == ()
    assert exit_code(diff) == 1


def test_v1_21_to_pinned_impact_names_sources_claims_and_carrying_variants() -> None:
    _, impact = run(V1_21, PINNED)
    project = _project()
    defs = raw_defs(PINNED)
    by_subject = {ci.change.subject: ci for ci in impact.changes}
    for name in ("ToolCall", "ToolCallUpdate"):
        ci = by_subject[name]
        sourced = {r.id for r in project.roster.requirements
                   if r.source.kind == "schema" and r.source.selector == f"/$defs/{name}"}
        assert sourced <= set(ci.requirements)
        claimed = {r.id for r in project.roster.requirements
                   if r.kind == "derived" and f"/$defs/{name}:" in r.text}
        assert claimed and claimed <= set(ci.requirements)
        assert all("claim" in ci.requirements[rid] for rid in claimed)
        tags = _variant_tags(defs, "SessionUpdate", name)
        assert tags  # the schema does carry both in session/update
        assert {f"SessionUpdate[{t}]" for t in tags} <= set(ci.carriers)
        assert "method session/update" in ci.carriers
    assert "SessionUpdate[tool_call]" in by_subject["ToolCall"].carriers
    assert "SessionUpdate[tool_call_update]" in by_subject["ToolCallUpdate"].carriers
    assert "ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS" in by_subject["ToolCall"].requirements
    assert impact.broken_claims == ()


def test_pinned_to_v1_21_removal_breaks_the_writing_agent_and_a_claim() -> None:
    diff, impact = run(PINNED, V1_21)
    assert semantic_set(diff) == {
        ("PROPERTY_REMOVED", "ToolCall", "name"),
        ("PROPERTY_REMOVED", "ToolCallUpdate", "name"),
    }
    # Agents write ToolCall(Update) (session/update, session/request_permission); a client only
    # reads them, and the property was optional, so only the agent side breaks.
    for c in diff.semantic:
        assert (c.client, c.agent) == ("compatible", "breaking")
    assert exit_code(diff) == 3
    broken = {(b.requirement, b.problem.split(":")[0]) for b in impact.broken_claims}
    assert broken == {("ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS", "/$defs/ToolCall"),
                      ("ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS", "/$defs/ToolCallUpdate")}
    assert all("missing ['name']" in b.problem for b in impact.broken_claims)


# -- pinned -> npm sdk 2.0.0 -----------------------------------------------------------------


def _x_deserialize_keys(defs: dict[str, Any]) -> set[tuple[str, str]]:
    """(pointer, key) of every x-deserialize-* annotation in the raw $defs."""
    found: set[tuple[str, str]] = set()

    def walk(node: Any, ptr: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k.startswith("x-deserialize-"):
                    found.add((ptr, k))
                walk(v, f"{ptr}/{k.replace('~', '~0').replace('/', '~1')}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{ptr}/{i}")

    for name, node in defs.items():
        walk(node, f"/$defs/{name}")
    return found


def test_pinned_to_2_0_0_new_defs_members_and_dropped_annotations() -> None:
    diff, impact = run(PINNED, NPM_2_0)
    old, new = raw_defs(PINNED), raw_defs(NPM_2_0)
    added = {c.subject for c in diff.semantic if c.kind == "DEF_ADDED"}
    assert added == set(new) - set(old)
    assert len(added) == 8 and all(n.startswith(("Compaction", "Notice")) for n in added)
    assert not [c for c in diff.semantic if c.kind == "DEF_REMOVED"]

    members = {c.member for c in diff.semantic
               if c.subject == "ClientSessionCapabilities" and c.kind == "PROPERTY_ADDED"}
    assert members == set(new["ClientSessionCapabilities"]["properties"]) - set(
        old["ClientSessionCapabilities"]["properties"])
    assert members == {"compaction", "notices"}
    caps = {c.subject for c in diff.semantic if c.kind == "CAPABILITY_ADDED"}
    assert caps == {"clientCapabilities.session.compaction", "clientCapabilities.session.notices"}

    # Dropped x-deserialize-* annotations: reported apart, non-semantic, and exactly those.
    dropped = _x_deserialize_keys(old) - _x_deserialize_keys(new)
    assert dropped
    reported = {(c.pointer, c.member) for c in diff.annotations
                if c.member and c.member.startswith("x-deserialize-") and c.new is None}
    assert reported == dropped
    assert all(not c.semantic and not c.breaking for c in diff.annotations)
    # No semantic change hides in the annotation-only defs (ReadTextFileRequest, ...).
    assert {c.subject for c in diff.semantic} <= added | {
        "ClientSessionCapabilities", "SessionUpdate", *caps}

    # The new session/update variants are gated by the new client capabilities: compatible.
    variants = {c.member: c for c in diff.semantic if c.kind == "VARIANT_ADDED"}
    assert set(variants) == {"notice", "compaction_update", "compaction_summary_chunk"}
    assert variants["notice"].gate == "clientCapabilities.session.notices"
    assert not any(c.breaking for c in diff.semantic)
    assert exit_code(diff) == 1
    # The roster lists SessionUpdate's variants exactly ("exactly one SessionUpdate variant
    # ... (a, b, ...)"): three new ones break that claim, as the generated test says
    # (tests/test_bump_agreement.py).
    assert {(b.requirement, b.problem) for b in impact.broken_claims} == {
        ("ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS",
         "SessionUpdate variants: new ['compaction_summary_chunk', 'compaction_update', 'notice']")}
    assert impact.requirements_checked == 31


@pytest.mark.slow
def test_2_0_0_to_pinned_removals_are_breaking_with_exit_3() -> None:
    diff, _ = run(NPM_2_0, PINNED)
    removed = {c.subject for c in diff.semantic if c.kind == "DEF_REMOVED"}
    assert removed == set(raw_defs(NPM_2_0)) - set(raw_defs(PINNED))
    # A def is on the wire only through the positions that refer to it, and each of those is
    # reported where it changed (issue 15: an inlined def is wire-compatible), so DEF_REMOVED
    # itself is a source-level change; every other removal here breaks someone.
    assert all(c.breaking for c in diff.semantic
               if c.kind.endswith("_REMOVED") and c.kind != "DEF_REMOVED")
    assert not any(c.breaking for c in diff.semantic if c.kind == "DEF_REMOVED")
    props = {c.member: c for c in diff.semantic if c.kind == "PROPERTY_REMOVED"}
    # Client capabilities are written by the client: dropping them breaks the client.
    assert props["notices"].client == "breaking"
    variants = {c.member: c for c in diff.semantic if c.kind == "VARIANT_REMOVED"}
    # An agent from 2.0.0 may send a notice the pinned client does not know.
    assert variants["notice"].agent == "breaking"
    assert exit_code(diff) == 3
    result = run_acpgen("diff", str(NPM_2_0), str(PINNED))
    assert result.returncode == 3, result.stderr
    assert "verdict: breaking" in result.stdout


# -- pinned -> npm sdk 2.4.0: runs, summarised -----------------------------------------------


def test_pinned_to_2_4_0_report_is_summarised_per_section() -> None:
    diff, impact = run(PINNED, NPM_2_4)
    assert {c.subject for c in diff.semantic if c.kind == "DEF_ADDED"} == set(raw_defs(NPM_2_4)) - set(
        raw_defs(PINNED))
    descriptions = [c for c in diff.annotations if c.member == "description"]
    assert len(descriptions) > 100  # ~140 defs changed their documentation
    text = render_text(diff, impact)
    sections = text.split("\n\n")
    assert all(len(s.splitlines()) <= 30 for s in sections), [len(s.splitlines()) for s in sections]
    assert f"{len(descriptions)} x description changed" in text
    verbose = render_text(diff, impact, verbose=True)
    assert len(verbose.splitlines()) > len(text.splitlines()) + len(descriptions)
    data = json.loads(json.dumps(to_json(diff, impact)))
    assert len(data["annotations"]) == len(diff.annotations)
    assert data["summary"]["semantic"] == len(diff.semantic)


# -- classification rules on controlled edits of the pinned schema --------------------------


def _pinned_copy() -> dict[str, Any]:
    return copy.deepcopy(json.loads(PINNED.read_text(encoding="utf-8")))


def _diff_to(tmp_path: Path, schema: dict[str, Any]) -> tuple[SchemaDiff, Impact]:
    project = _project()
    new = build_side("new.json", _schema_file(tmp_path, schema), json.dumps(schema).encode(),
                     *pinned_meta(project), trusted=side(PINNED))
    return analyse(project, side(PINNED), new)


def test_optional_to_required_breaks_the_writer_only(tmp_path: Path) -> None:
    schema = _pinned_copy()
    node = schema["$defs"]["ReadTextFileRequest"]  # the agent writes it, the client reads it
    node["required"] = [*node["required"], "line"]
    diff, _ = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.member) == ("PROPERTY_REQUIRED", "ReadTextFileRequest", "line")
    assert (c.client, c.agent) == ("compatible", "breaking")


def _nullable_path(d: dict[str, Any]) -> None:
    d["properties"]["path"]["type"] = ["string", "null"]


def _integer_path(d: dict[str, Any]) -> None:
    d["properties"]["path"]["type"] = "integer"


def _drop_line(d: dict[str, Any]) -> None:
    del d["properties"]["line"]


def _close(d: dict[str, Any]) -> None:
    d["additionalProperties"] = False


# ReadTextFileRequest: params of fs/read_text_file, written by the agent, read by the client.
@pytest.mark.parametrize("edit, kind, member, client, agent", [
    (_nullable_path, "NULLABLE_ADDED", "path", "breaking", "compatible"),
    (_integer_path, "TYPE_CHANGED", "path", "breaking", "breaking"),
    (_drop_line, "PROPERTY_REMOVED", "line", "compatible", "breaking"),
    (_close, "OBJECT_CLOSED", None, "compatible", "breaking"),
])
def test_member_rules_follow_who_reads_and_writes(tmp_path: Path, edit: Any, kind: str,
                                                  member: str | None, client: str, agent: str) -> None:
    schema = _pinned_copy()
    edit(schema["$defs"]["ReadTextFileRequest"])
    diff, _ = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.member, c.client, c.agent) == (
        kind, "ReadTextFileRequest", member, client, agent)


def test_enum_value_added_to_a_closed_enum_breaks_readers(tmp_path: Path) -> None:
    schema = _pinned_copy()
    schema["$defs"]["StopReason"]["oneOf"].append({"type": "string", "const": "out_of_budget"})
    diff, impact = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.member) == ("ENUM_VALUE_ADDED", "StopReason", "out_of_budget")
    # The agent writes StopReason (PromptResponse), the client reads it.
    assert (c.client, c.agent) == ("breaking", "compatible")
    assert "ACP-V1-SCHEMA-STOP-REASON-VALUES" in impact.changes[0].requirements


def test_removed_capability_is_traced_to_its_gates(tmp_path: Path) -> None:

    schema = _pinned_copy()
    del schema["$defs"]["AgentCapabilities"]["properties"]["loadSession"]
    _, impact = _diff_to(tmp_path, schema)
    cap = next(ci for ci in impact.changes if ci.change.kind == "CAPABILITY_REMOVED")
    assert cap.change.subject == "agentCapabilities.loadSession"
    assert (cap.change.client, cap.change.agent) == ("compatible", "breaking")  # the agent advertises
    gated = {rid for g in _project().capabilities.gates if g.qualified_capability == cap.change.subject
             for rid in g.requirements}
    assert gated and gated <= {rid for rid, why in cap.requirements.items() if "gate" in why}


def test_description_only_change_is_non_semantic(tmp_path: Path) -> None:
    schema = _pinned_copy()
    schema["$defs"]["PromptRequest"]["properties"]["prompt"]["description"] = "changed"
    diff, _ = _diff_to(tmp_path, schema)
    assert diff.semantic == ()
    [c] = diff.annotations
    assert (c.kind, c.subject, c.member) == ("DESCRIPTION_CHANGED", "PromptRequest", "description")
    assert c.pointer == "/$defs/PromptRequest/properties/prompt"
    assert exit_code(diff) == 1


def test_unknown_keyword_is_unclassified_and_unproven_for_both_sides(tmp_path: Path) -> None:
    """No witness can show a keyword jsonschema ignores; acpgen cannot decide what it means,
    so it says unproven (exit 4), never compatible."""
    schema = _pinned_copy()
    schema["$defs"]["PromptRequest"]["properties"]["prompt"]["frobnicate"] = True
    diff, _ = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.member) == ("UNCLASSIFIED", "PromptRequest", "prompt")
    assert (c.client, c.agent) == ("unproven", "unproven")
    assert c.witnesses == () and "unproven" in c.reason
    assert exit_code(diff) == 4


def test_unique_items_narrows_what_the_client_writes(tmp_path: Path) -> None:
    """Modelled since issue 15 (was SCHEMA_OTHER, breaking both): PromptRequest is written by
    the client only, so a tighter assertion breaks the client and not the agent."""
    schema = _pinned_copy()
    schema["$defs"]["PromptRequest"]["properties"]["prompt"]["uniqueItems"] = True
    diff, _ = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.member) == ("CONSTRAINT_TIGHTENED", "PromptRequest", "prompt")
    assert (c.client, c.agent) == ("breaking", "compatible")


def test_removed_method_breaks_its_sender_only(tmp_path: Path) -> None:
    """An inputs directory whose meta.json drops session/delete (and the schema its x-method)."""
    schema = _pinned_copy()
    meta = json.loads((INPUTS / "schema" / "v1" / "meta.json").read_text(encoding="utf-8"))
    [key] = [k for k, v in meta["agentMethods"].items() if v == "session/delete"]
    del meta["agentMethods"][key]
    for node in schema["$defs"].values():
        if node.get("x-method") == "session/delete":
            del node["x-method"], node["x-side"]
    (tmp_path / "schema" / "v1").mkdir(parents=True)
    (tmp_path / "schema" / "v1" / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "schema" / "v1" / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    diff, impact = analyse(_project(), side(PINNED), load_side(str(tmp_path), None))
    [c] = diff.semantic
    assert (c.kind, c.subject) == ("METHOD_REMOVED", "session/delete")
    assert (c.client, c.agent) == ("breaking", "compatible")  # the client sends it
    mentioning = {r.id for r in _project().roster.requirements if "session/delete" in r.text}
    assert mentioning and mentioning <= set(impact.changes[0].requirements)


# -- CLI: inputs directories, no change, bad input, --json ------------------------------------


def cli(*args: str) -> tuple[int, str, str]:
    """The click command in-process (the exit-code test above runs the real subprocess)."""
    from click.testing import CliRunner

    from acpgen.cli.main import main

    result = CliRunner().invoke(main, [*args, "--project", str(PROJECT_ROOT), "--inputs", str(INPUTS)])
    return result.exit_code, result.stdout, result.stderr


def test_cli_same_inputs_directory_is_no_change() -> None:
    code, out, err = cli("diff", str(INPUTS), str(INPUTS), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "no change" and data["changes"] == [] and data["annotations"] == []
    assert data["roster"]["broken_claims"] == []


def test_cli_json_for_v1_21(tmp_path: Path) -> None:
    code, out, err = cli("diff", str(V1_21), str(INPUTS), "--json")
    assert code == 1, err
    data = json.loads(out)
    assert {(c["kind"], c["subject"], c["member"]) for c in data["changes"]} == {
        ("PROPERTY_ADDED", "ToolCall", "name"), ("PROPERTY_ADDED", "ToolCallUpdate", "name")}
    assert all(c["client"] == c["agent"] == "compatible" for c in data["changes"])


@pytest.mark.parametrize("content", ["{not json", '{"$defs": {}}'])
def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    code, out, err = cli("diff", str(PINNED), str(bad))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("acpgen: error: ")


_MIRROR = {"ADDED": "REMOVED", "REMOVED": "ADDED", "REQUIRED": "OPTIONAL", "OPTIONAL": "REQUIRED"}


@pytest.mark.parametrize("a, b", [(V1_21, PINNED), (PINNED, NPM_2_0)])
def test_diff_is_mirrored_in_the_reverse_direction(a: Path, b: Path) -> None:
    forward, _ = run(a, b)
    backward, _ = run(b, a)

    def mirrored(kind: str) -> str:
        head, _, tail = kind.rpartition("_")
        return f"{head}_{_MIRROR.get(tail, tail)}"

    assert {(mirrored(c.kind), c.subject, c.member) for c in forward.changes} == {
        (c.kind, c.subject, c.member) for c in backward.changes}


def test_every_change_kind_is_documented() -> None:
    """docs/schema-bumps.md lists every kind, e.g. "`PROPERTY_ADDED` / `_REMOVED`"."""
    import re

    from acpgen.evolve.compat import RULES

    doc = (PROJECT_ROOT / "docs" / "schema-bumps.md").read_text(encoding="utf-8")
    documented: set[str] = set()
    for full, more in re.findall(r"`([A-Z][A-Z_]+)`((?: / `_[A-Z]+`)*)", doc):
        documented.add(full)
        head = full.rpartition("_")[0]
        documented |= {f"{head}{suffix}" for suffix in re.findall(r"`(_[A-Z]+)`", more)}
    assert set(RULES) <= documented, sorted(set(RULES) - documented)


def policy_table() -> str:
    """The policy table as markdown, from the rules the code applies (in their order)."""
    from acpgen.evolve.compat import RULES

    rows = ["| kind | change | client (generated from OLD) | agent (generated from OLD) | why |",
            "|---|---|---|---|---|"]
    for r in RULES.values():
        cells = (f"`{r.kind}`", r.what, r.verdict("client"), r.verdict("agent"), r.why)
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def test_policy_table_in_the_docs_is_the_one_the_code_applies() -> None:
    from acpgen.evolve.compat import RULES

    doc = (PROJECT_ROOT / "docs" / "schema-bumps.md").read_text(encoding="utf-8")
    assert policy_table() in doc
    assert len(policy_table().splitlines()) == len(RULES) + 2  # one row per kind


def test_explain_prints_one_row_and_refuses_an_unknown_kind() -> None:
    code, out, _ = cli("diff", "--explain", "deprecated")
    assert code == 2
    code, out, err = cli("diff", "--explain", "DEFAULT_CHANGED")
    assert code == 0, err
    assert out.splitlines()[0].startswith("DEFAULT_CHANGED: ")
    assert "client: breaking if the client writes or reads the type" in out
    assert "agent: breaking if the agent writes or reads the type" in out


def test_every_semantic_kind_has_a_section_in_the_text_report() -> None:
    """Nothing classified is left out of the plain-text report."""
    from acpgen.evolve.compat import RULES
    from acpgen.evolve.report import section_of

    annotation_kinds = {"DESCRIPTION_CHANGED", "ANNOTATION_CHANGED"}
    assert [k for k in RULES if k not in annotation_kinds and section_of(k) is None] == []


def test_a_schema_the_generator_cannot_model_is_still_diffed(tmp_path: Path) -> None:
    """SessionId as ["string", "null"]: valid JSON Schema the IR builder refuses. The diff reads
    the raw documents, classifies the change, and says bump would refuse NEW."""
    schema = _pinned_copy()
    schema["$defs"]["SessionId"]["type"] = ["string", "null"]
    diff, impact = _diff_to(tmp_path, schema)
    [c] = diff.semantic
    assert (c.kind, c.subject, c.client, c.agent) == ("NULLABLE_ADDED", "SessionId", "breaking",
                                                      "breaking")
    assert any("cannot model NEW" in n and "bump" in n for n in diff.notes)
    assert "cannot model NEW" in render_text(diff, impact)


V1_UNSTABLE_21 = HISTORY / "v1-unstable-schema-v1.21.0" / "schema.unstable.json"
V1_UNSTABLE_22 = HISTORY / "v1-unstable-schema-v1.22.0" / "schema.unstable.json"
V1_UNSTABLE_PINNED = INPUTS / "schema" / "v1" / "schema.unstable.json"


def _defs(path: Path) -> dict[str, Any]:
    return json.loads(path.read_bytes())["$defs"]


def _unstable_changes(old: Path, new: str) -> list[tuple[str, str, str | None]]:
    result = run_acpgen("diff", str(old), new, "--json", "--exit-zero")
    assert result.returncode == 0, result.stderr
    return sorted((c["kind"], c["subject"], c["member"]) for c in json.loads(result.stdout)["changes"])


def test_v1_unstable_from_schema_v1_21_0_to_v1_22_0_adds_session_notices() -> None:
    """Read from the two real files (schema/inputs/PROVENANCE.md): 1.22.0 adds the defs Notice
    and NoticeSeverity and the SessionUpdate branch that carries a Notice, nothing else."""
    old, new = _defs(V1_UNSTABLE_21), _defs(V1_UNSTABLE_22)
    assert sorted(set(new) - set(old)) == ["Notice", "NoticeSeverity"] and not set(old) - set(new)
    assert [k for k in old if old[k] != new[k]] == ["SessionUpdate"]
    added = [b for b in new["SessionUpdate"]["oneOf"] if b not in old["SessionUpdate"]["oneOf"]]
    assert [b["properties"]["sessionUpdate"]["const"] for b in added] == ["notice"]

    assert _unstable_changes(V1_UNSTABLE_21, str(V1_UNSTABLE_22)) == [
        ("DEF_ADDED", "Notice", None),
        ("DEF_ADDED", "NoticeSeverity", None),
        ("VARIANT_ADDED", "SessionUpdate", "notice"),
    ]


def test_the_pinned_v1_unstable_adds_the_notices_capability_to_v1_22_0() -> None:
    """The pinned bytes (the release after 1.22.0) against 1.22.0, read from the files: one new
    def, one new member of ClientSessionCapabilities, and descriptions; acpgen diff reports the
    same and the capability the member is."""
    old, new = _defs(V1_UNSTABLE_22), _defs(V1_UNSTABLE_PINNED)
    assert sorted(set(new) - set(old)) == ["NoticeCapabilities"] and not set(old) - set(new)
    changed = sorted(k for k in old if old[k] != new[k])
    assert changed == ["ClientSessionCapabilities", "Notice", "SessionUpdate", "ToolCall", "ToolCallUpdate"]
    members = {k: sorted(set(new[k].get("properties", {})) - set(old[k].get("properties", {}))) for k in changed}
    assert members == {"ClientSessionCapabilities": ["notices"], "Notice": [], "SessionUpdate": [],
                       "ToolCall": [], "ToolCallUpdate": []}

    result = run_acpgen("diff", str(V1_UNSTABLE_22), "v1-unstable", "--json", "--exit-zero")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert sorted((c["kind"], c["subject"], c["member"]) for c in report["changes"]) == [
        ("CAPABILITY_ADDED", "clientCapabilities.session.notices", None),
        ("DEF_ADDED", "NoticeCapabilities", None),
        ("PROPERTY_ADDED", "ClientSessionCapabilities", "notices"),
    ]
    assert report["verdict"] == "compatible"
    # The other changed defs differ in descriptions only: annotation-only changes.
    assert sorted({a["subject"] for a in report["annotations"]}) == ["Notice", "SessionUpdate", "ToolCall", "ToolCallUpdate"]


# -- labels, variants, method tables (the first hour's stumbles, issue 45) -----------------


def test_one_change_made_in_several_variants_is_one_line_for_each_naming_it(tmp_path: Path) -> None:
    # The same optional member added to three variants of the def's own union: three
    # changes, each naming its variant (five identical `SessionUpdate._meta` lines before).
    schema = _pinned_copy()
    branches = schema["$defs"]["SessionUpdate"]["oneOf"][:3]
    tags = [b["properties"]["sessionUpdate"]["const"] for b in branches]
    for branch in branches:
        branch["properties"]["extra"] = {"type": "string"}
    diff, impact = _diff_to(tmp_path, schema)
    added = [c for c in diff.semantic if c.kind == "PROPERTY_ADDED" and c.member == "extra"]
    assert sorted(c.variant for c in added) == sorted(tags)
    text = render_text(diff, impact, verbose=True)
    lines = [line for line in text.splitlines() if "PROPERTY_ADDED" in line]
    assert sorted(lines) == sorted(set(lines)) and len(lines) == 3  # distinct lines
    for tag in tags:
        assert f"PROPERTY_ADDED SessionUpdate[{tag}].extra: optional property added" in text
    assert {c["variant"] for c in to_json(diff, impact)["changes"] if c["member"] == "extra"} == set(tags)


def test_a_change_inside_a_propertys_union_is_not_taken_for_a_variant_of_the_def(tmp_path: Path) -> None:
    def holder(extra: bool) -> dict[str, Any]:
        branch_a: dict[str, Any] = {"type": "object", "properties": {"kind": {"const": "a"}},
                                    "required": ["kind"]}
        if extra:
            branch_a["properties"]["extra"] = {"type": "string"}
        branch_b = {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}
        return {"type": "object", "properties": {"choice": {"oneOf": [branch_a, branch_b]}}}

    project = _project()
    sides = []
    for name, extra in (("old.json", False), ("new.json", True)):
        schema = _pinned_copy()
        schema["$defs"]["Holder"] = holder(extra)
        sides.append(build_side(name, _schema_file(tmp_path, schema, name), json.dumps(schema).encode(),
                                *pinned_meta(project)))
    diff, _ = analyse(project, sides[0], sides[1])
    (change,) = [c for c in diff.semantic if c.subject == "Holder"]
    assert change.variant is None  # the union is the property's, not the def's own
    assert change.describe().startswith("Holder.")


def test_the_release_line_labels_each_version_with_its_own_option() -> None:
    code, out, err = cli("diff", str(V1_21), str(INPUTS), "--old-version", "1.21.0",
                         "--new-version", "1.23.0")
    assert code == 1, err
    assert "Release: upgrade: 1.21.0 (--old-version) -> 1.23.0 (--new-version)" in out


def test_the_text_report_names_the_method_table_each_side_was_read_from(tmp_path: Path) -> None:
    code, out, err = cli("diff", str(V1_21), str(INPUTS))
    assert code == 1, err
    tables = next(line for line in out.splitlines() if line.startswith("method tables:"))
    # The history file has no meta.json beside it: the pinned one stood in, and it says so.
    assert tables.startswith("method tables: OLD from schema/v1/meta.json (pinned: no meta.json "
                             "beside schema-v1.21.0.json); NEW from "), tables
    assert tables.endswith("schema/v1/meta.json"), tables
    own = tmp_path / "release"
    (own / "schema" / "v1").mkdir(parents=True)
    (own / "schema" / "v1" / "schema.json").write_bytes(V1_21.read_bytes())
    (own / "schema" / "v1" / "meta.json").write_bytes((INPUTS / "schema" / "v1" / "meta.json").read_bytes())
    code, out, err = cli("diff", str(own), str(INPUTS), "--json")
    data = json.loads(out)
    assert data["old"]["meta"] == f"{own}/schema/v1/meta.json" and data["old"]["meta_beside_schema"]


@pytest.mark.slow  # two acpgen processes
def test_releases_are_addressed_by_tag_with_their_own_method_tables(tmp_path: Path) -> None:
    import subprocess
    import sys

    def releases(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tests.support.releases", *args],
                              cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300, check=False)

    done = releases("diff", "schema-v1.20.0", "schema-v1.21.0")
    assert done.returncode == 1, done.stderr  # compatible changes only
    assert done.stdout.startswith("schema diff: schema-v1.20.0/schema/v1/schema.json ")
    assert ("method tables: OLD from schema-v1.20.0/schema/v1/meta.json; "
            "NEW from schema-v1.21.0/schema/v1/meta.json") in done.stdout
    assert "Release: upgrade: schema-v1.20.0 (--old-version) -> schema-v1.21.0 (--new-version)" in done.stdout
    assert "METHOD_ADDED elicitation/create" in done.stdout
    unknown = releases("diff", "schema-v1.20.0", "schema-v9.0.0")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert unknown.stderr.startswith("releases: error: schema-v9.0.0: no such release")
    out = releases("checkout", str(tmp_path), "v0.0.1", "schema-v1.21.0")
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / "v0.0.1" / "schema" / "v1" / "meta.json").exists()  # it had none
    index = json.loads((PROJECT_ROOT / "tests/data/releases/index.json").read_text())
    newest = tmp_path / "schema-v1.21.0" / "schema" / "v1"
    assert (newest / "schema.json").read_bytes() == (
        PROJECT_ROOT / "tests/data/releases" / index["releases"]["schema-v1.21.0"]["schema"]).read_bytes()
