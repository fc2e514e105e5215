"""generated/acp_v1/methods.py: the typed method table and JSON-RPC envelopes, on the real inputs."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import MESSAGES, generated_dir
from pydantic import BaseModel, TypeAdapter, ValidationError

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import methods, models

SCHEMA_EXTENSION = "ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES"


@pytest.fixture(scope="module")
def golden_dir(inputs_dir: Path) -> Path:
    return MESSAGES


def test_table_is_the_ir_method_table(project) -> None:  # type: ignore[no-untyped-def]
    assert sorted(methods.METHODS) == sorted(m.wire for m in project.ir.methods)
    assert list(methods.METHODS) == sorted(methods.METHODS)
    for m in project.ir.methods:
        spec = methods.METHODS[m.wire]
        assert (spec.wire, spec.py_name, spec.side, spec.sender, spec.kind) == (
            m.wire, m.py_name, m.side, m.sender, m.kind)
        assert spec.params is getattr(models, m.params)
        assert spec.result is (getattr(models, m.result) if m.result else None)
        assert spec.extension is False
        assert (spec.response is None) == (m.kind == "notification")


def test_cancel_request_is_in_the_table() -> None:
    spec = methods.lookup("$/cancel_request")
    assert isinstance(spec, methods.MethodSpec)
    assert (spec.side, spec.sender, spec.kind) == ("protocol", "both", "notification")


def test_gates_and_requirements_come_from_manifest_and_roster(project) -> None:  # type: ignore[no-untyped-def]

    manifest = project.capabilities
    ids = {r.id for r in project.roster.requirements}
    for wire, spec in methods.METHODS.items():
        assert set(spec.gates) == {g.target for g in manifest.gates if g.method == wire}
        for g in manifest.gates:
            if g.method == wire:
                assert set(g.requirements) <= set(spec.requirements)
        assert set(spec.requirements) <= ids
    # Each method carries the roster's schema-derived item on its params type.
    assert "ACP-V1-SCHEMA-PROMPT-SHAPE" in methods.METHODS["session/prompt"].requirements
    assert "ACP-V1-SCHEMA-TERMINAL-KILL-SHAPE" in methods.METHODS["terminal/kill"].requirements
    assert methods.METHODS["session/load"].gates


@pytest.mark.acp_requirement("ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND")
@pytest.mark.parametrize("wire", ["session/fork", "fs/delete_file", "", "Session/New", "rpc.discover"])
def test_unknown_method_raises_method_not_found_32601(wire: str) -> None:
    for call in (methods.lookup, methods.method, lambda w: methods.parse_params(w, {}),
                 lambda w: methods.parse_result(w, {})):
        with pytest.raises(methods.MethodNotFoundError) as info:
            call(wire)
        assert info.value.code == -32601
        assert info.value.to_json()["code"] == -32601
    with pytest.raises(methods.MethodNotFoundError):
        methods.parse_message({"jsonrpc": "2.0", "id": 1, "method": wire, "params": {}})


@pytest.mark.acp_requirement(SCHEMA_EXTENSION)
def test_underscore_names_are_extension_methods() -> None:
    spec = methods.lookup("_zed/open_panel")
    assert isinstance(spec, methods.ExtensionMethod)
    assert spec.extension is True and SCHEMA_EXTENSION in spec.requirements
    assert methods.is_extension_method("_x") and not methods.is_extension_method("session/new")
    payload = {"anything": [1, {"x": None}]}
    assert methods.parse_params("_zed/open_panel", payload) == payload
    msg = methods.parse_message({"jsonrpc": "2.0", "id": "a", "method": "_zed/open", "params": payload})
    assert isinstance(msg, methods.ExtensionRequestMessage) and msg.params == payload
    note = methods.parse_message({"jsonrpc": "2.0", "method": "_zed/ping"})
    assert isinstance(note, methods.ExtensionNotificationMessage)
    with pytest.raises(methods.MethodNotFoundError):
        methods.method("_zed/open")


def _golden(golden_dir: Path) -> list[tuple[str, str, Any]]:
    with (golden_dir / "TYPES.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["file"], r["schema_type"], json.loads((golden_dir / r["file"]).read_text(encoding="utf-8")))
            for r in rows if r["valid_against_pinned_schema"] == "true"]


def test_parse_params_and_result_type_the_golden_corpus(golden_dir: Path) -> None:
    by_params = {s.params.__name__: s for s in methods.METHODS.values() if isinstance(s.params, type)}
    by_result = {s.result.__name__: s for s in methods.METHODS.values() if isinstance(s.result, type)}
    checked = 0
    for name, schema_type, data in _golden(golden_dir):
        if schema_type in by_params:
            spec = by_params[schema_type]
            parsed = methods.parse_params(spec.wire, data)
        elif schema_type in by_result:
            spec = by_result[schema_type]
            parsed = methods.parse_result(spec.wire, data)
        else:
            continue
        expected = TypeAdapter(getattr(models, schema_type)).validate_python(data)
        assert parsed == expected, name
        assert TypeAdapter(getattr(models, schema_type)).dump_python(parsed, mode="json", by_alias=True,
                                                                     exclude_unset=True) == data, name
        checked += 1
    assert checked >= 10


def test_parse_params_rejects_bad_params_with_32602() -> None:
    with pytest.raises(methods.InvalidParamsError) as info:
        methods.parse_params("session/prompt", {"sessionId": "s"})
    assert info.value.code == -32602
    assert isinstance(info.value.__cause__, ValidationError)
    with pytest.raises(methods.InvalidRequestError):
        methods.parse_result("session/cancel", {})


# ---- envelopes -------------------------------------------------------------------------------


def _accepts(model: Any, data: Any) -> bool:
    try:
        TypeAdapter(model).validate_python(data)
    except ValidationError:
        return False
    return True


def test_one_methods_name_never_validates_with_another_methods_params() -> None:
    cancel = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}}
    assert isinstance(methods.parse_message(cancel), methods.SessionCancelNotificationMessage)
    # {sessionId} alone is valid params for several methods (close, delete, ...): a message
    # named session/cancel must still never validate as any of their envelopes.
    lenient = [s for s in methods.METHODS.values() if s.wire != "session/cancel"
               and _accepts(s.params, {"sessionId": "s"})]
    assert {"session/close", "session/delete"} <= {s.wire for s in lenient}
    for spec in methods.METHODS.values():
        if spec.wire == "session/cancel":
            continue
        for message in (cancel, {**cancel, "id": 1}):
            with pytest.raises(ValidationError):
                spec.message.model_validate(message)
    for union in (methods.RequestsToAgent, methods.RequestsToClient):
        with pytest.raises(ValidationError):
            TypeAdapter(union).validate_python({**cancel, "id": 1})
    with pytest.raises(ValidationError):
        TypeAdapter(methods.NotificationsToClient).validate_python(cancel)


def test_unions_are_discriminated_on_method() -> None:
    msg = TypeAdapter(methods.RequestsToClient).validate_python(
        {"jsonrpc": "2.0", "id": 7, "method": "fs/read_text_file", "params": {"sessionId": "s", "path": "/a"}})
    assert isinstance(msg, methods.FsReadTextFileRequestMessage)
    assert isinstance(msg.params, models.ReadTextFileRequest)
    with pytest.raises(ValidationError) as info:
        TypeAdapter(methods.RequestsToClient).validate_python(
            {"jsonrpc": "2.0", "id": 7, "method": "fs/read_text_file", "params": {"sessionId": "s"}})
    # One branch is tried, not every branch.
    assert all(err["loc"][0] == "fs/read_text_file" for err in info.value.errors())


@pytest.mark.acp_requirement("ACP-V1-JSONRPC-VERSION-MEMBER")
def test_jsonrpc_member_must_be_exactly_2_0() -> None:
    base = {"id": 1, "method": "session/cancel", "params": {"sessionId": "s"}}
    for bad in ({**base, "jsonrpc": "1.0"}, base, {**base, "jsonrpc": 2.0}):
        with pytest.raises(ValidationError):
            methods.JsonRpcRequest.model_validate(bad)


@pytest.mark.acp_requirement("ACP-V1-JSONRPC-PARAMS-STRUCTURED")
def test_untyped_envelope_params_are_structured_or_omitted() -> None:
    for good in ({"a": 1}, [1, 2]):
        assert methods.JsonRpcNotification.model_validate({"jsonrpc": "2.0", "method": "x", "params": good}).params == good
    assert methods.JsonRpcRequest.model_validate({"jsonrpc": "2.0", "id": 1, "method": "x"}).params is None
    for bad in ("text", 3, True):
        with pytest.raises(ValidationError):
            methods.JsonRpcRequest.model_validate({"jsonrpc": "2.0", "id": 1, "method": "x", "params": bad})


@pytest.mark.acp_requirement("ACP-V1-JSONRPC-ID-TYPE")
def test_request_ids_are_string_number_or_null_and_notifications_have_none() -> None:
    for good in ("abc", 1, None):
        assert methods.JsonRpcRequest.model_validate({"jsonrpc": "2.0", "id": good, "method": "x"}).id == good
    for bad in ([1], {"a": 1}, True):
        with pytest.raises(ValidationError):
            methods.JsonRpcRequest.model_validate({"jsonrpc": "2.0", "id": bad, "method": "x"})
    with pytest.raises(ValidationError):
        methods.JsonRpcNotification.model_validate({"jsonrpc": "2.0", "id": 1, "method": "x"})
    with pytest.raises(ValidationError):
        methods.SessionCancelNotificationMessage.model_validate(
            {"jsonrpc": "2.0", "id": 1, "method": "session/cancel", "params": {"sessionId": "s"}})
    with pytest.raises(methods.InvalidRequestError):
        methods.parse_message({"jsonrpc": "2.0", "id": 1, "method": "session/cancel", "params": {"sessionId": "s"}})
    with pytest.raises(methods.InvalidRequestError):
        methods.parse_message({"jsonrpc": "2.0", "method": "session/prompt", "params": {}})


@pytest.mark.acp_requirement("ACP-V1-JSONRPC-RESULT-XOR-ERROR", "ACP-V1-JSONRPC-ERROR-CODE-INTEGER")
def test_responses_carry_result_xor_error_with_an_integer_code() -> None:
    adapter = TypeAdapter(methods.JsonRpcResponse)
    ok = adapter.validate_python({"jsonrpc": "2.0", "id": 1, "result": {}})
    assert isinstance(ok, methods.JsonRpcSuccessResponse)
    err = adapter.validate_python({"jsonrpc": "2.0", "id": None, "error": {"code": -32601, "message": "x"}})
    assert isinstance(err, methods.JsonRpcErrorResponse) and err.error.code == -32601
    for bad in (
        {"jsonrpc": "2.0", "id": 1},
        {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": "1", "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": True, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"message": "x"}},
    ):
        with pytest.raises(ValidationError):
            adapter.validate_python(bad)
    assert adapter.validate_json('{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}').error.code == -1  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        adapter.validate_json('{"jsonrpc":"2.0","id":1,"error":{"code":-1.0,"message":"m"}}')


def test_typed_response_envelopes() -> None:
    resp = methods.METHODS["session/new"].response
    assert resp is not None
    msg = resp.model_validate({"jsonrpc": "2.0", "id": 3, "result": {"sessionId": "abc"}})
    assert isinstance(msg.result, models.NewSessionResponse)  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        resp.model_validate({"jsonrpc": "2.0", "id": 3, "result": {}})


def test_parse_message_routes_every_kind() -> None:
    req = methods.parse_message({"jsonrpc": "2.0", "id": 1, "method": "session/new",
                                 "params": {"cwd": "/w", "mcpServers": []}})
    assert isinstance(req, methods.SessionNewRequestMessage)
    resp = methods.parse_message({"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "s"}})
    assert isinstance(resp, methods.JsonRpcSuccessResponse)
    with pytest.raises(methods.InvalidParamsError):
        methods.parse_message({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w"}})
    with pytest.raises(methods.InvalidRequestError):
        methods.parse_message([1, 2])
    assert isinstance(req, BaseModel)


def test_module_docstring_documents_the_envelopes() -> None:
    doc = methods.__doc__ or ""
    for name in ("JsonRpcRequest", "JsonRpcNotification", "JsonRpcSuccessResponse", "JsonRpcErrorResponse",
                 "JsonRpcResponse", "JsonRpcErrorObject", "RequestsToAgent", "parse_message", "-32601"):
        assert name in doc, name


def test_generated_methods_and_guards_pass_ruff(project_root: Path) -> None:  # cwd: ruff's config
    """(mypy --strict on both runs once, in tests/test_guards.py, with the typing sample.)"""
    files = [str(GENERATED / "acp_v1" / "methods.py"), str(GENERATED / "acp_v1" / "guards.py")]
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--line-length", "100", *files],
                          capture_output=True, text=True, cwd=project_root, timeout=120, check=False)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
