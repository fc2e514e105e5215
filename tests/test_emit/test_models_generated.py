"""Generated models for each fixture schema: emitted and formatted now into a temporary
directory, imported from there, and exercised (one small schema per shape, expectations
written by hand)."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from support.fixture_schemas import SHAPES, fixture_ir
from support.models import generation_model

from acpgen.emit import shipped
from acpgen.emit.models import emit
from acpgen.model.generation import GenOptions
from acpgen.output.format import format_python


@pytest.fixture(scope="module")
def fx(tmp_path_factory: pytest.TempPathFactory, project: Any) -> dict[str, Any]:
    """shape -> the imported ``fx_<shape>.models`` module, generated from its fixture schema."""
    root = tmp_path_factory.mktemp("fixture-models")
    modules: dict[str, Any] = {}
    for shape in SHAPES:
        package = f"fx_{shape}"
        # Only the IR and the options reach the models emitter; the rest is the real project's.
        model = dataclasses.replace(generation_model(project, GenOptions(package=package)), ir=fixture_ir(shape))
        # models.py builds on the shipped model_base.py beside it.
        base = f"{package}/model_base.py"
        for rel, text in {**emit(model), base: shipped.emit(model)[base]}.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(format_python(rel, text), encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        for shape in SHAPES:
            modules[shape] = importlib.import_module(f"fx_{shape}.models")
    finally:
        sys.path.remove(str(root))
    return modules


def ta(module: Any, name: str) -> TypeAdapter[Any]:
    return TypeAdapter(getattr(module, name))


def rejects(module: Any, name: str, data: Any) -> None:
    with pytest.raises(ValidationError):
        ta(module, name).validate_python(data)


def wire(module: Any, name: str, value: Any) -> Any:
    return ta(module, name).dump_python(value, mode="json", by_alias=True, exclude_unset=True)


@pytest.mark.slow
def test_object(fx: dict[str, Any]) -> None:
    m = fx["object"]
    s = m.Session.model_validate({"sessionId": "s1", "_meta": None, "counts": {"a": 1}})
    assert (s.session_id, s.field_meta, s.counts, s.tags) == ("s1", None, {"a": 1}, [])
    assert wire(m, "Session", s) == {"sessionId": "s1", "_meta": None, "counts": {"a": 1}}
    assert m.Session.__doc__ == "A session."
    rejects(m, "Session", {})  # sessionId is required
    rejects(m, "Session", {"sessionId": "s", "title": ""})  # minLength 1
    rejects(m, "Session", {"sessionId": "s", "title": None})  # optional, not nullable
    rejects(m, "Session", {"sessionId": "s", "counts": {"a": "1"}})  # strict integers
    # The defs, and the public names of the annotation types (no integer format is used).
    assert sorted(m.__all__) == ["AgentCapabilities", "ClientCapabilities", "Omittable", "Session",
                                 "StrictBool", "StrictFloat", "StrictInt", "StrictStr"]


def test_open_enum(fx: dict[str, Any]) -> None:
    m = fx["open_enum"]
    assert m.Role("user") is m.Role.USER
    rejects(m, "Role", "system")
    assert ta(m, "StopReason").validate_python("end_turn") is m.StopReason.END_TURN
    # An open set: its known values are named constants, any other value of its type is kept.
    kind = ta(m, "ToolKind")
    assert kind.validate_python("read") == m.ToolKind.READ == "read"
    custom = kind.validate_python("custom")
    assert isinstance(custom, m.ToolKind) and wire(m, "ToolKind", custom) == "custom"
    rejects(m, "ToolKind", 3)
    code = ta(m, "ErrorCode")
    assert code.validate_python(-32700) == m.ErrorCode.PARSE_ERROR == -32700
    assert m.ErrorCode.METHOD_NOT_FOUND == -32601
    assert wire(m, "ErrorCode", code.validate_python(7)) == 7
    rejects(m, "ErrorCode", 2**31)  # the catch-all keeps the int32 range


def test_tagged_union(fx: dict[str, Any]) -> None:
    m = fx["tagged_union"]
    block = ta(m, "ContentBlock")
    text = block.validate_python({"type": "text", "text": "hi"})
    assert isinstance(text, m.TextContent) and text.type == "text"
    image = block.validate_python({"type": "image", "data": "AA==", "mimeType": "image/png"})
    assert isinstance(image, m.ImageContent) and image.mime_type == "image/png"
    rejects(m, "ContentBlock", {"type": "video"})  # no catch-all here
    rejects(m, "ContentBlock", {"type": "text"})  # the text branch needs its text

    el = ta(m, "Elicitation")
    form = el.validate_python({"message": "m", "mode": "form", "fields": ["a"]})
    assert isinstance(form, m.FormMode) and form.fields_ == ["a"]
    session = el.validate_python({"message": "m", "mode": "_custom", "sessionId": "s"})
    assert isinstance(session, m.SessionScope) and (session.mode, session.session_id) == ("_custom", "s")
    request = el.validate_python({"message": "m", "mode": "_custom", "requestId": 3})
    assert isinstance(request, m.RequestScope) and request.request_id == 3
    assert wire(m, "Elicitation", request) == {"message": "m", "mode": "_custom", "requestId": 3}
    rejects(m, "Elicitation", {"message": "m", "mode": "form"})  # a known tag: its branch or nothing
    rejects(m, "Elicitation", {"message": "m", "mode": "_custom"})  # other: scoped or nothing


def test_untagged_union(fx: dict[str, Any]) -> None:
    m = fx["untagged_union"]
    rid = ta(m, "RequestId")
    assert [rid.validate_python(v) for v in (None, 5, "x")] == [None, 5, "x"]
    for bad in (1.5, True, [1]):
        rejects(m, "RequestId", bad)
    server = ta(m, "McpServer")
    assert isinstance(server.validate_python({"url": "u"}), m.HttpServer)
    assert isinstance(server.validate_python({"command": "c"}), m.StdioServer)
    rejects(m, "McpServer", {})


def test_integer_formats(fx: dict[str, Any]) -> None:
    m = fx["integer_formats"]
    ok = {"small": 65535, "count": 1, "big": 2**64 - 1, "offset": -(2**63), "plain": 2**70}
    assert m.Limits.model_validate(ok).big == 2**64 - 1
    for member, bad in (("small", 65536), ("small", -1), ("count", 0), ("big", 2**64), ("offset", 2**63),
                        ("plain", "1"), ("small", 1.0)):
        rejects(m, "Limits", {**ok, member: bad})
    port = ta(m, "Port")
    assert port.validate_python(1024) == 1024
    for bad in (1023, 65536):
        rejects(m, "Port", bad)


def test_nullable(fx: dict[str, Any]) -> None:
    m = fx["nullable"]
    plan = m.Plan.model_validate({"entries": [{"name": "a"}], "title": None, "owner": None})
    assert (plan.title, plan.owner, plan.reviewer, plan.note) == (None, None, None, None)
    assert isinstance(plan.entries[0], m.Person)
    assert wire(m, "Plan", plan) == {"entries": [{"name": "a"}], "title": None, "owner": None}
    assert m.Plan.model_validate({"entries": [], "reviewer": {"name": "r"}}).reviewer.name == "r"
    rejects(m, "Plan", {})  # entries is required
    rejects(m, "Plan", {"entries": [], "note": None})  # optional but not nullable
    rejects(m, "Plan", {"entries": [None]})


def test_recursive_ref(fx: dict[str, Any]) -> None:
    m = fx["recursive_ref"]
    data = {"label": "root", "children": [{"label": "a", "children": [{"label": "b"}]}], "parent": None}
    tree = m.Tree.model_validate(data)
    assert isinstance(tree.children[0].children[0], m.Tree) and tree.children[0].children[0].label == "b"
    assert wire(m, "Tree", tree) == data
    rejects(m, "Tree", {"label": "x", "children": [{"children": []}]})  # a nested label is missing
    expr = ta(m, "Expr").validate_python({"terms": [{"value": 1.5}, {"terms": [{"value": 2.0}]}]})
    assert isinstance(expr, m.Sum) and isinstance(expr.terms[0], m.Num) and isinstance(expr.terms[1], m.Sum)
    rejects(m, "Expr", {"terms": [{"value": "1"}]})


