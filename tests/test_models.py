"""The generated models (``generated/acp_v1/models.py``): naming contract and behaviour.

Every expectation is derived from the IR of the pinned schema (names, wire names, tags,
enum values, formats), not hard-coded from the generated file.
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import MESSAGES, generated_dir, tree_now
from pydantic import BaseModel, TypeAdapter, ValidationError

from acpgen.emit.models_plan import int_formats
from acpgen.ir.formats import INTEGER_FORMATS as INT_FORMATS
from acpgen.ir.types import Definition, SchemaIR

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ir(project: Any) -> SchemaIR:
    return project.ir  # type: ignore[no-any-return]


@cache
def models() -> Any:
    generated_dir()  # generated now into a temporary directory, on sys.path
    import acp_v1.models as module

    return module


def ta(name: str) -> TypeAdapter[Any]:
    return TypeAdapter(getattr(models(), name))


def wire(value: Any, name: str) -> Any:
    return ta(name).dump_python(value, mode="json", by_alias=True, exclude_unset=True)


def errors(name: str, data: Any) -> list[Any]:
    with pytest.raises(ValidationError) as info:
        ta(name).validate_python(data)
    return info.value.errors()


# -- naming ----------------------------------------------------------------------------------


def test_every_def_importable_under_its_name(ir: SchemaIR) -> None:
    m = models()
    missing = [name for name in ir.defs if not hasattr(m, name)]
    assert not missing
    # Exported: every def, every union branch class, the annotation helpers -- nothing else.
    extra = set(m.__all__) - set(ir.defs)
    helpers = {"StrictStr", "StrictInt", "StrictFloat", "StrictBool", "Omittable"}
    helpers |= {f.capitalize() for f in INT_FORMATS if hasattr(m, f.capitalize())}
    unions = [d.name for d in ir.defs.values() if d.shape in ("union", "tagged_union")]
    for name in extra - helpers:
        cls = getattr(m, name)
        assert isinstance(cls, type) and issubclass(cls, BaseModel), name
        # Named by the rule: {Union}{Variant}, or {Variant}{Union} when the schema took that.
        assert any(name.startswith(u) or name.endswith(u) for u in unions), name
        assert not name.startswith("_")
    for name in ir.defs:
        TypeAdapter(getattr(m, name))  # a class or a type alias, usable by other emitters


def test_public_names_are_exported_and_never_positional(ir: SchemaIR) -> None:
    m = models()
    source = Path(m.__file__).read_text(encoding="utf-8")
    defined = re.findall(r"^(?:class (\w+)|(\w+)(?:: TypeAlias)? = )", source, re.MULTILINE)
    names = {a or b for a, b in defined}
    unexported = sorted(n for n in names if not n.startswith("_") and n not in m.__all__)
    assert unexported == []
    # No class named by its position in a union (SessionUpdate10, AgentClientProtocol7).
    ranges = {f.name for f in int_formats()}  # Int32, Uint64: named by format
    positional = [n for n in names if re.search(r"\d+$", n) and n not in ranges]
    assert positional == []


def test_wire_names_and_python_names(ir: SchemaIR) -> None:
    m = models()
    checked = 0
    for d in ir.defs.values():
        if d.shape != "object":
            continue
        cls = getattr(m, d.name)
        for p in d.properties:
            info = cls.model_fields[p.py_name]
            assert (info.serialization_alias or p.py_name) == p.wire_name, (d.name, p.wire_name)
            assert (info.validation_alias or p.py_name) == p.wire_name, (d.name, p.wire_name)
            # Not alias=: a type checker would take it as the __init__ parameter name.
            assert info.alias is None
            checked += 1
    assert checked > 300
    tool_call = m.ToolCall
    assert tool_call.model_fields["field_meta"].serialization_alias == "_meta"
    by_alias = tool_call.model_validate({"toolCallId": "t1", "title": "Read", "_meta": {"k": 1}})
    by_name = tool_call(tool_call_id="t1", title="Read", field_meta={"k": 1})
    assert by_alias == by_name
    assert by_name.tool_call_id == "t1"
    assert wire(by_name, "ToolCall") == {"toolCallId": "t1", "title": "Read", "_meta": {"k": 1}}


def test_unknown_members_survive_a_round_trip() -> None:
    data = {
        "sessionId": "s",
        "update": {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "text", "text": "hi", "vendorX": {"deep": [1, 2]}},
            "futureMember": True,
        },
        "_meta": {"trace": "abc"},
        "topLevelExtra": 5,
    }
    value = ta("SessionNotification").validate_python(data)
    assert wire(value, "SessionNotification") == data
    assert wire(ta("SessionNotification").validate_json(json.dumps(data)), "SessionNotification") == data


# -- unions ----------------------------------------------------------------------------------


def _tagged_unions(ir: SchemaIR) -> list[Definition]:
    return [d for d in ir.defs.values() if d.shape == "tagged_union"]


def test_tagged_unions_pick_the_branch_the_tag_names(ir: SchemaIR) -> None:
    m = models()
    # ContentBlock's text branch is TextContent plus the tag.
    block = ta("ContentBlock").validate_python({"type": "text", "text": "hi"})
    assert isinstance(block, m.TextContent) and block.type == "text"
    update = ta("SessionUpdate").validate_python(
        {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t"}
    )
    assert isinstance(update, m.ToolCall) and update.session_update == "tool_call"
    chunk = ta("SessionUpdate").validate_python(
        {"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "x"}}
    )
    assert isinstance(chunk, m.ContentChunk) and chunk.session_update == "agent_thought_chunk"
    # Branches with no tag: McpServer stdio, AuthMethod agent.
    stdio = ta("McpServer").validate_python({"name": "n", "command": "c", "args": [], "env": []})
    assert type(stdio) is m.McpServerStdio
    agent = ta("AuthMethod").validate_python({"id": "a", "name": "Agent"})
    assert type(agent) is m.AuthMethodAgent
    # Catch-all branches keep unknown tags.
    other = {"mode": "_vendor_mode", "message": "m", "sessionId": "s", "extra": 1}
    assert wire(ta("CreateElicitationRequest").validate_python(other), "CreateElicitationRequest") == other
    for d in _tagged_unions(ir):
        assert d.discriminator, d.name


def test_a_wrong_tag_is_one_error_naming_the_tag(ir: SchemaIR) -> None:
    """For every tagged union whose tag set is closed: one error, naming the tag member."""
    checked = []
    for d in _tagged_unions(ir):
        open_ended = any(v.catch_all or v.tag is None for v in d.variants)
        if open_ended:
            continue
        required = {p.wire_name: "x" for p in d.properties if p.required}
        for bad in ({**required, d.discriminator: "no_such_tag"}, dict(required)):
            errs = errors(d.name, bad)
            assert len(errs) == 1, (d.name, bad, errs)
            text = json.dumps(errs[0], default=str)
            assert d.discriminator in text, (d.name, errs)
        checked.append(d.name)
    assert {"ContentBlock", "SessionUpdate", "ToolCallContent", "RequestPermissionOutcome",
            "SessionConfigOption"} <= set(checked)


def test_catch_all_unions_report_one_error_for_a_missing_tag() -> None:
    for name, tag in (("CreateElicitationResponse", "action"), ("ElicitationPropertySchema", "type"),
                      ("CreateElicitationRequest", "mode")):
        for bad in ({}, {tag: 5}):
            errs = errors(name, bad)
            assert len(errs) == 1 and f"'{tag}'" in errs[0]["msg"], errs


def test_union_typed_fields_are_discriminated() -> None:
    prompt = {"sessionId": "s", "prompt": [{"type": "text", "text": "a"}, {"type": "bogus"}]}
    errs = errors("PromptRequest", prompt)
    assert len(errs) == 1 and "type" in errs[0]["msg"], errs
    call = {"toolCallId": "c", "title": "t", "content": [{"type": "nope"}]}
    errs = errors("ToolCall", call)
    assert len(errs) == 1 and "type" in errs[0]["msg"], errs
    servers = {"cwd": "/", "mcpServers": [{"type": "sse", "name": "x"}]}
    errs = errors("NewSessionRequest", servers)
    assert all(e["loc"][:3] == ("mcpServers", 0, "sse") for e in errs), errs


def test_session_config_option_common_members_and_kind() -> None:
    select = {
        "id": "model", "name": "Model", "type": "select", "currentValue": "a",
        "options": [{"value": "a", "name": "A"}],
    }
    value = ta("SessionConfigOption").validate_python(select)
    assert value.id == "model" and value.type == "select"
    assert wire(value, "SessionConfigOption") == select
    boolean = {"sessionId": "s", "configId": "c", "type": "boolean", "value": True}
    assert wire(ta("SetSessionConfigOptionRequest").validate_python(boolean),
                "SetSessionConfigOptionRequest") == boolean
    value_id = {"sessionId": "s", "configId": "c", "value": "v1"}
    parsed = ta("SetSessionConfigOptionRequest").validate_python(value_id)
    assert parsed.value == "v1" and wire(parsed, "SetSessionConfigOptionRequest") == value_id


# -- enums, formats, optionality -------------------------------------------------------------


def test_closed_sets_are_enums_that_reject_other_values(ir: SchemaIR) -> None:
    from enum import Enum

    m = models()
    enums = [d for d in ir.defs.values() if d.shape == "enum"]
    assert {"Role", "StopReason", "ToolKind"} <= {d.name for d in enums}
    for d in enums:
        cls = getattr(m, d.name)
        assert issubclass(cls, Enum)
        for member in d.enum_members:
            assert ta(d.name).validate_python(member.value) == member.value
            assert ta(d.name).validate_json(json.dumps(member.value)) == member.value
        errors(d.name, "robot")
    errors("SessionNotification", {"sessionId": "s", "update": {
        "sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "x",
                                                           "annotations": {"audience": ["robot"]}}}})


def test_open_sets_keep_known_constants_and_accept_others(ir: SchemaIR) -> None:
    m = models()
    opens = [d for d in ir.defs.values() if d.shape == "open_enum"]
    assert {d.name for d in opens} == {"ErrorCode", "SessionConfigOptionCategory"}
    for d in opens:
        cls = getattr(m, d.name)
        for member in d.enum_members:
            assert ta(d.name).validate_python(member.value) == member.value
        other = 1234 if d.enum_base == "integer" else "_custom"
        value = ta(d.name).validate_python(other)
        assert value == other and isinstance(value, cls)
        assert ta(d.name).dump_python(value, mode="json") == other
        errors(d.name, "x" if d.enum_base == "integer" else 5)
        errors(d.name, True)
    assert m.ErrorCode.PARSE_ERROR == -32700
    assert m.SessionConfigOptionCategory.MODEL == "model"
    errors("ErrorCode", 2**31)  # int32
    error = {"code": -32001, "message": "custom"}
    assert wire(ta("Error").validate_python(error), "Error") == error


def test_integer_formats_and_minimum_are_enforced(ir: SchemaIR) -> None:
    checked = 0
    for d in ir.defs.values():
        if d.shape != "object":
            continue
        for p in d.properties:
            t = p.type
            if t.kind != "primitive" or t.name != "integer" or t.format not in INT_FORMATS:
                continue
            lo, hi = INT_FORMATS[t.format]
            lo = max(lo, p.constraints.get("minimum", lo))
            try:
                base = {q.wire_name: _minimal(q, ir) for q in d.properties if q.required}
            except LookupError:
                continue  # a required member too complex to fill in here
            adapter = ta(d.name)
            adapter.validate_python({**base, p.wire_name: lo})
            adapter.validate_python({**base, p.wire_name: hi})
            for bad in (lo - 1, hi + 1, "1", True, 1.5):
                with pytest.raises(ValidationError):
                    adapter.validate_python({**base, p.wire_name: bad})
            checked += 1
    assert checked >= 10
    errors("ProtocolVersion", 65536)
    errors("ProtocolVersion", -1)
    assert ta("ProtocolVersion").validate_python(65535) == 65535


def _minimal(p: Any, ir: SchemaIR) -> Any:
    t = p.type
    if t.kind == "ref" and ir.defs[t.name].shape == "primitive":
        t = ir.defs[t.name].primitive
    if t.kind == "primitive":
        return {"string": "s", "integer": 0, "number": 0.0, "boolean": False}[t.name]
    if t.kind == "array":
        return []
    raise LookupError(p.wire_name)


def test_required_optional_nullable_and_defaults() -> None:
    m = models()
    errors("ToolCall", {"title": "t"})  # toolCallId required
    errors("ToolCall", {"toolCallId": "c", "title": "t", "kind": None})  # optional, not nullable
    errors("ToolCall", {"toolCallId": "c", "title": "t", "status": "bogus"})
    ok = {"toolCallId": "c", "title": "t", "name": None}  # nullable
    assert wire(ta("ToolCall").validate_python(ok), "ToolCall") == ok
    caps = m.AgentCapabilities()
    assert caps.load_session is False
    assert caps.prompt_capabilities.image is False
    assert caps.mcp_capabilities.http is False
    assert wire(caps, "AgentCapabilities") == {}
    init = m.InitializeRequest(protocol_version=1)
    assert init.client_capabilities.fs.read_text_file is False
    assert wire(init, "InitializeRequest") == {"protocolVersion": 1}


def test_descriptions_become_docstrings_and_field_descriptions(ir: SchemaIR) -> None:
    m = models()
    for d in ir.defs.values():
        if d.shape != "object" or not d.description:
            continue
        cls = getattr(m, d.name)
        assert issubclass(cls, BaseModel)
        assert inspect.cleandoc(cls.__doc__ or "") == inspect.cleandoc(d.description), d.name
        for p in d.properties:
            assert cls.model_fields[p.py_name].description == p.description, (d.name, p.wire_name)


# -- the module as a whole -------------------------------------------------------------------


@pytest.mark.slow
def test_imports_without_warnings() -> None:
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import acp_v1.models"],
        cwd=generated_dir(), capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr


def test_corpus_messages_validate_and_round_trip() -> None:
    corpus = MESSAGES
    rows = [line.split("\t") for line in (corpus / "TYPES.tsv").read_text().splitlines()[1:] if line]
    assert len(rows) == len(list(corpus.glob("*.json"))) == 43
    for filename, type_name, *_ in rows:
        data = json.loads((corpus / filename).read_text(encoding="utf-8"))
        value = ta(type_name).validate_python(data)
        assert wire(value, type_name) == data, filename
        assert wire(ta(type_name).validate_json(json.dumps(data)), type_name) == data, filename


@pytest.mark.slow
def test_templates_lay_out_code_the_way_black_does(project: Any) -> None:
    """The emitted module is already black-formatted: black runs in the pipeline, and on a
    stable file it costs a fraction of what it costs on raw template output."""
    from support.models import generation_model

    from acpgen.emit.models import emit
    from acpgen.model.generation import GenOptions
    from acpgen.output.format import format_python

    (text,) = emit(generation_model(project, GenOptions())).values()
    formatted = format_python("models.py", text)
    if formatted != text:
        import difflib

        diff = "".join(list(difflib.unified_diff(text.splitlines(True), formatted.splitlines(True)))[:40])
        raise AssertionError("black changes the emitted models:\n" + diff)
    # The pipeline (format cache, parallel black) gives the same bytes as black directly, under
    # the provenance line that names the template.
    from acpgen.emit.provenance import sourced

    written = tree_now()["acp_v1/models.py"].decode("utf-8")
    assert written == sourced("acp_v1/models.py", text, emit)
    assert written.startswith("# Edit templates/models/models.py.jinja, not this file")


def test_a_def_named_like_an_import_is_an_error() -> None:
    from acpgen.ir.naming import MODULE_NAMES, NamingError, def_class_name

    template = (Path(__file__).resolve().parent.parent / "templates" / "models" / "models.py.jinja")
    header = template.read_text(encoding="utf-8").split("__all__")[0]
    imported = set(re.findall(r"^\s+(\w+),$", header, re.MULTILINE))
    imported |= {n.strip() for line in re.findall(r"^from (?!__future__)\S+ import ([\w, ]+)$", header, re.MULTILINE)
                 for n in line.split(",")}
    # A def name never starts with "_" (refused by naming), so the private bases cannot clash.
    assert {n for n in imported if not n.startswith("_")} <= MODULE_NAMES  # the guard knows the rest
    with pytest.raises(NamingError, match="shadow a name the models module imports"):
        def_class_name("Field")
