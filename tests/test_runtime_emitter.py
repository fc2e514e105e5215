"""The runtime emitter: what it computes from the IR, and how it refuses a schema it cannot serve."""

from __future__ import annotations

import inspect
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support.models import generation_model
from test_skeleton_support import import_skeleton

from acpgen.emit import runtime, shipped
from acpgen.errors import AcpgenError
from acpgen.model.generation import GenOptions


@pytest.fixture(scope="module")
def sdk(skeleton: Path) -> Any:
    import_skeleton(skeleton)
    import interop_sdk.connection
    import interop_sdk.interfaces
    import interop_sdk.rpc

    return interop_sdk


def test_error_codes_are_the_schemas(sdk: Any, project: Any) -> None:
    members = project.ir.defs["ErrorCode"].enum_members
    assert {m.value: m.title for m in members} == sdk.rpc.ERROR_MESSAGES
    for member in members:
        assert sdk.rpc.RpcError(member.value).to_json() == {"code": member.value, "message": member.title}


def test_one_typed_method_per_method_each_side_handles(sdk: Any, project: Any) -> None:
    sides = {"agent": (sdk.interfaces.Agent, sdk.connection.ClientSideConnection),
             "client": (sdk.interfaces.Client, sdk.connection.AgentSideConnection)}
    for method in project.ir.methods:
        if method.side not in sides:
            continue
        for cls in sides[method.side]:  # the handler interface and the peer's outbound call
            func = getattr(cls, method.py_name)
            assert inspect.iscoroutinefunction(func), (cls, method.wire)
            expected = f"models.{method.result}" if method.result else "None"
            overloads = typing.get_overloads(func)
            if overloads:  # an outbound call: the params model, or its members as keywords
                by_model, by_keywords = overloads
                assert by_model.__annotations__["params"] == f"models.{method.params}"
                assert "params" not in by_keywords.__annotations__
                assert {a for a in by_keywords.__annotations__ if a != "return"} == {
                    p.py_name for p in project.ir.defs[method.params].properties
                }
                assert func.__annotations__["params"] == f"models.{method.params} | None"
                for variant in overloads:
                    assert variant.__annotations__["return"] == expected, (cls, method.wire)
            else:
                assert func.__annotations__["params"] == f"models.{method.params}"
            assert func.__annotations__["return"] == expected, (cls, method.wire)
    handled = {m.wire for m in project.ir.methods if m.side == "agent"}
    assert set(sdk.connection.AGENT_ROUTES) == handled
    assert set(sdk.connection.CLIENT_ROUTES) == {m.wire for m in project.ir.methods if m.side == "client"}
    protocol = [m for m in project.ir.methods if m.side == "protocol"]
    assert [m.wire for m in protocol] == [sdk.rpc.CANCEL_REQUEST_METHOD]


def _with_ir(project: Any, ir: Any) -> Any:
    """The project with another IR for the roster's surface."""
    return replace(project, surfaces=(replace(project.primary, ir=ir), *project.others))


def _without_def(project: Any, name: str) -> Any:
    defs = {k: v for k, v in project.ir.defs.items() if k != name}
    return _with_ir(project, replace(project.ir, defs=defs))


def _without_method(project: Any, wire: str) -> Any:
    methods = tuple(m for m in project.ir.methods if m.wire != wire)
    return _with_ir(project, replace(project.ir, methods=methods))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda p: _without_def(p, "ErrorCode"), "ErrorCode"),
        (lambda p: _without_method(p, "session/request_permission"), "session/request_permission"),
        (lambda p: _without_method(p, "$/cancel_request"), "cancel request"),
        (lambda p: _without_def(p, "RequestPermissionOutcome"), "cancelled"),
    ],
    ids=["no-error-codes", "no-permission-method", "no-cancel-request", "no-cancelled-outcome"],
)
def test_a_schema_the_runtime_cannot_serve_is_one_error(project: Any, mutate: Any, message: str) -> None:
    with pytest.raises(AcpgenError) as caught:
        runtime.emit(generation_model(mutate(project), GenOptions(package="x")))
    assert message in str(caught.value)
    assert str(caught.value).startswith("schema/v1/schema.json:") and "\n" not in str(caught.value)


def _error_code_retitled(project: Any, value: int, title: str) -> Any:
    error_code = project.ir.defs["ErrorCode"]
    members = tuple(replace(m, title=title) if m.value == value else m for m in error_code.enum_members)
    defs = {**project.ir.defs, "ErrorCode": replace(error_code, enum_members=members)}
    return _with_ir(project, replace(project.ir, defs=defs))


def test_an_error_code_the_runtime_answers_with_must_be_the_schemas(project: Any) -> None:
    changed = _error_code_retitled(project, -32602, "Bad params")
    with pytest.raises(AcpgenError) as caught:
        runtime.emit(generation_model(changed, GenOptions(package="x")))
    assert "-32602 'Invalid params'" in str(caught.value) and "acpgen/shipped/runtime/errors.py" in str(caught.value)


def test_the_fixed_runtime_is_copied_byte_for_byte_under_any_package_name(project: Any) -> None:
    model = generation_model(project, GenOptions(package="some_sdk", tests_dir="checks/acp"))
    files = shipped.emit(model)
    runtime_dir = shipped.SHIPPED_DIR / "runtime"
    expected = {
        "some_sdk/errors.py": runtime_dir / "errors.py",
        "some_sdk/rpc.py": runtime_dir / "rpc.py",
        "some_sdk/examples/__init__.py": runtime_dir / "examples" / "__init__.py",
        "some_sdk/examples/echo_agent.py": runtime_dir / "examples" / "echo_agent.py",
        "runtime_tests/__init__.py": runtime_dir / "runtime_tests" / "__init__.py",
        "runtime_tests/test_faults.py": runtime_dir / "runtime_tests" / "test_faults.py",
        "checks/acp/_acp_checks.py": shipped.SHIPPED_DIR / "reqchecks" / "_acp_checks.py",
        "checks/acp/_acp_kit/__init__.py": shipped.SHIPPED_DIR / "conformance" / "__init__.py",
        "checks/acp/_acp_kit/wire.py": shipped.SHIPPED_DIR / "conformance" / "wire.py",
    }
    for rel, path in expected.items():
        assert files[rel] == path.read_text(encoding="utf-8"), rel
    for rel, text in files.items():
        assert "acp_v1" not in text and "some_sdk" not in text, rel
    # acpgen's own package markers are not shipped: the package face is rendered.
    assert "some_sdk/__init__.py" not in files and "checks/acp/__init__.py" not in files
    rendered = runtime.emit(model)
    assert not set(rendered) & set(files)
    assert 'PACKAGE = "some_sdk"' in rendered["runtime_tests/_package.py"]
    assert "import some_sdk as package" in rendered["runtime_tests/_package.py"]


def test_the_conformance_kit_is_shipped_only_with_a_conformance_manifest(project: Any) -> None:
    model = generation_model(replace(project, conformance=None), GenOptions(package="x"))
    files = shipped.emit(model)
    assert files and not any("_acp_kit" in rel for rel in files)


