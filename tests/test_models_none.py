"""An explicit None of an optional member, over every optional member of every model class
of the four generated surfaces (issue 44, item 1).

From Python (construction by Python name, ``model_validate`` by wire name) None for an
optional member whose schema allows no null means "absent": the member stays unset and is
not dumped; it reads as its default. Where the schema allows null, None is the null: set,
and dumped as null (a patch's "clear"). JSON input is the wire's: a JSON null where the
schema allows none is refused unless the member is marked ``x-deserialize-default-on-error``
(then it reads as the default, as any invalid value there does).

Which members allow null is read from the pinned schema (for classes named after a $def)
and from each class's own JSON Schema, and the two must agree; the minimal instances the
calls start from are proposed by ``support.minimal_instances`` and accepted by the class.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import generated_dir
from pydantic import BaseModel, ValidationError
from support.minimal_instances import minimal_input, model_classes

ROOT = Path(__file__).resolve().parents[1]
SURFACES = {
    "acp_v1": "schema/v1/schema.json",
    "acp_v1_unstable": "schema/v1/schema.unstable.json",
    "acp_v2": "schema/v2/schema.json",
    "acp_v2_unstable": "schema/v2/schema.unstable.json",
}


@cache
def models(package: str) -> ModuleType:
    generated_dir()
    return importlib.import_module(f"{package}.models")


@cache
def pinned_defs(package: str) -> dict[str, Any]:
    path = ROOT / "schema" / "inputs" / SURFACES[package]
    defs: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["$defs"]
    return defs


def _allows_null(node: Any, defs: dict[str, Any], depth: int = 0) -> bool:
    """Whether a JSON Schema node admits null (a node without a type constraint does)."""
    if not isinstance(node, dict) or depth > 20:
        return True
    if "$ref" in node:
        return _allows_null(defs[node["$ref"].rsplit("/", 1)[-1]], defs, depth + 1)
    if "const" in node:
        return node["const"] is None
    if "enum" in node:
        return None in node["enum"]
    for key in ("anyOf", "oneOf"):
        if key in node:
            return any(_allows_null(b, defs, depth + 1) for b in node[key])
    if "allOf" in node:
        return all(_allows_null(b, defs, depth + 1) for b in node["allOf"])
    typ = node.get("type")
    if typ is None:
        return not ({"properties", "items", "additionalProperties"} & node.keys())
    return typ == "null" or (isinstance(typ, list) and "null" in typ)


def optional_members(package: str) -> list[tuple[type[BaseModel], str, str, bool]]:
    """(class, Python name, wire name, schema allows null) of every optional member."""
    defs = pinned_defs(package)
    out = []
    for cls in model_classes(models(package)):
        schema = cls.model_json_schema(by_alias=True)
        props = schema.get("properties", {})
        for name, field in cls.model_fields.items():
            if field.is_required():
                continue
            wire = field.serialization_alias or name
            nullable = _allows_null(props[wire], schema.get("$defs", {}))
            raw = defs.get(cls.__name__, {}).get("properties", {}).get(wire)
            if raw is not None:
                assert _allows_null(raw, defs) == nullable, (cls.__name__, wire)
            out.append((cls, name, wire, nullable))
    return out


def _required_by_name(cls: type[BaseModel]) -> tuple[dict[str, Any], dict[str, Any]]:
    wire = minimal_input(cls)
    instance = cls.model_validate(wire)
    names = {n: getattr(instance, n) for n, f in cls.model_fields.items() if f.is_required()}
    return wire, names


@pytest.mark.slow
@pytest.mark.parametrize("package", sorted(SURFACES))
def test_none_for_every_optional_member(package: str) -> None:
    members = optional_members(package)
    failures: list[str] = []
    omittable = 0
    for cls, name, wire, nullable in members:
        base_wire, base_names = _required_by_name(cls)
        built = cls(**base_names, **{name: None})
        read = cls.model_validate({**base_wire, wire: None})
        for how, obj in (("constructed", built), ("validated", read)):
            dumped = obj.model_dump(mode="json", by_alias=True, exclude_unset=True)
            dumped_json = json.loads(obj.model_dump_json(by_alias=True, exclude_unset=True))
            if nullable:
                # None is the schema's null: kept, and sent.
                ok = name in obj.model_fields_set and dumped.get(wire, 0) is None
                ok = ok and dumped_json.get(wire, 0) is None
            else:
                ok = (
                    name not in obj.model_fields_set
                    and wire not in dumped
                    and wire not in dumped_json
                    and getattr(obj, name) == getattr(cls.model_validate(base_wire), name)
                )
            if not ok:
                failures.append(f"{cls.__name__}.{name} ({how}, nullable={nullable})")
        omittable += not nullable
    assert not failures, failures
    # The pinned surfaces have hundreds of optional members (acp_v1: 373, 40 of them without null).
    assert len(members) > 300 and omittable >= 20, (len(members), omittable)


@pytest.mark.slow
@pytest.mark.parametrize("package", sorted(SURFACES))
def test_none_of_a_required_member_is_still_refused(package: str) -> None:
    checked = 0
    for cls in model_classes(models(package)):
        base_wire, base_names = _required_by_name(cls)
        for name, field in cls.model_fields.items():
            wire = field.serialization_alias or name
            schema = cls.model_json_schema(by_alias=True)
            annotation_null = _allows_null(schema["properties"][wire], schema.get("$defs", {}))
            if not field.is_required() or annotation_null or wire in ("type",):
                continue
            if name in _tags(cls):
                continue
            with pytest.raises(ValidationError):
                cls(**{**base_names, name: None})
            if _marked_default_on_error(package, cls, wire):
                # Validation applies the schema's marker: null is an invalid value there,
                # read as the member's default, as on the wire (tests/test_models_lenient.py).
                cls.model_validate({**base_wire, wire: None})
            else:
                with pytest.raises(ValidationError):
                    cls.model_validate({**base_wire, wire: None})
            checked += 1
    assert checked > 100


def _marked_default_on_error(package: str, cls: type[BaseModel], wire: str) -> bool:
    """The pinned schema's marker for classes named after a $def; a branch class's member
    is the $def's it is built on, or its own."""
    defs = pinned_defs(package)
    for klass in cls.__mro__:
        prop = defs.get(klass.__name__, {}).get("properties", {}).get(wire)
        if prop is not None:
            return prop.get("x-deserialize-default-on-error") is True
    return bool(cls.__acp_lenient__.get(wire, (False,))[0])  # type: ignore[attr-defined]


def _tags(cls: type[BaseModel]) -> set[str]:
    return {
        n
        for n, f in cls.model_fields.items()
        if getattr(f.annotation, "__origin__", None) is not None
        and str(f.annotation).startswith("typing.Literal")
    }


def test_nested_none_is_absent_too() -> None:
    m = models("acp_v1")
    request = m.NewSessionRequest.model_validate(
        {
            "cwd": "/w",
            "mcpServers": [{"name": "s", "command": "c", "args": [], "env": []}],
            "additionalDirectories": None,
        }
    )
    # A nested dict given to the constructor: its omittable members by either name.
    built = m.SessionNotification(
        session_id="s1",
        update={"sessionUpdate": "tool_call", "toolCallId": "t", "title": "x", "rawInput": None,
                "kind": None},
    )
    assert request.additional_directories is None
    assert "additional_directories" not in request.model_fields_set
    update = built.update
    assert "kind" not in update.model_fields_set
    assert built.model_dump(mode="json", by_alias=True, exclude_unset=True)["update"] == {
        "sessionUpdate": "tool_call", "toolCallId": "t", "title": "x", "rawInput": None,
    }


def test_the_callers_input_is_not_changed() -> None:
    m = models("acp_v1")
    servers = [m.McpServerStdio(name="s", command="c", args=[], env=[])]
    data = {"cwd": "/w", "mcpServers": [{"name": "s", "command": "c", "args": [], "env": []}],
            "additionalDirectories": None}
    m.NewSessionRequest.model_validate(data)
    assert data["additionalDirectories"] is None
    built = m.NewSessionRequest(cwd="/w", mcp_servers=servers, additional_directories=None)
    # Instances given to the constructor are kept as they are, not copied.
    assert built.mcp_servers[0] is servers[0]


# -- the type checkers see the same constructors ------------------------------------------------

_REFUSED = '''\
from acp_v1 import models


def refused() -> None:
    models.NewSessionRequest(cwd=None, mcp_servers=[])  # a required member: None refused
    models.NewSessionRequest(cwd="/", mcp_servers=[], bogus=1)  # not a member
    models.NewSessionRequest(cwd="/", mcpServers=[])  # wire names are not parameters
'''


def _calls_module(package: str) -> tuple[str, list[tuple[str, str, bool]]]:
    """A module of one constructor call per optional member, each given None; the required
    members come in as ``Any`` values (their types are not what is checked)."""
    lines = [
        "# One call per optional member of every model class, each given None (generated).",
        "from typing import Any",
        "",
        f"from {package} import models",
        "",
        "",
        "def calls(v: dict[str, dict[str, Any]]) -> list[Any]:",
        "    return [",
    ]
    expected = []
    for cls, name, _wire, nullable in optional_members(package):
        required = [n for n, f in cls.model_fields.items() if f.is_required()]
        args = [f"{n}=v[{cls.__name__!r}][{n!r}]" for n in required] + [f"{name}=None"]
        lines.append(f"        models.{cls.__name__}({', '.join(args)}),")
        expected.append((cls.__name__, name, nullable))
    lines.append("    ]")
    return "\n".join(lines) + "\n", expected


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    import os
    import subprocess

    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, check=False)
    return done.stdout + done.stderr


@pytest.mark.slow
def test_type_checkers_and_runtime_agree_on_none(tmp_path: Path) -> None:
    import sys

    root = generated_dir()
    expected: dict[str, list[tuple[str, str, bool]]] = {}
    for package in sorted(SURFACES):
        text, expected[package] = _calls_module(package)
        (tmp_path / f"calls_{package}.py").write_text(text, encoding="utf-8")
    (tmp_path / "refused.py").write_text(_REFUSED, encoding="utf-8")
    files = sorted(p.name for p in tmp_path.glob("*.py"))
    bin_dir = Path(sys.executable).parent

    mypy = _run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                 "--cache-dir", "/dev/null", *files], tmp_path, {"MYPYPATH": str(root)})
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({
        "typeCheckingMode": "strict", "extraPaths": [str(root)], "pythonVersion": "3.11",
    }), encoding="utf-8")
    pyright = _run([str(bin_dir / "pyright"), "--pythonpath", sys.executable, *files], tmp_path)
    ty = _run([str(bin_dir / "ty"), "check", "--output-format", "concise", "--python", sys.prefix,
               "--extra-search-path", str(root), *files], tmp_path)

    # Every error is in refused.py, one per line 5-7 (the checkers are really checking).
    mypy_errors = [line for line in mypy.splitlines() if ": error:" in line]
    assert sorted({e.split(":")[0] + ":" + e.split(":")[1] for e in mypy_errors}) == [
        "refused.py:5", "refused.py:6", "refused.py:7"], mypy
    pyright_errors = [line for line in pyright.splitlines() if " - error:" in line]
    assert sorted({e.strip().split(" - ")[0].rsplit("/", 1)[-1].rsplit(":", 1)[0]
                   for e in pyright_errors}) == ["refused.py:5", "refused.py:6", "refused.py:7"], pyright
    # ty too (it read the constructors' wire names before each class stated its __init__).
    ty_errors = [line for line in ty.splitlines() if ": error[" in line]
    assert sorted({":".join(e.split(":")[:2]) for e in ty_errors}) == [
        "refused.py:5", "refused.py:6", "refused.py:7"], ty

    # The same calls at run time: every None accepted, unset unless the schema allows null.
    sys.path.insert(0, str(tmp_path))
    try:
        for package in sorted(SURFACES):
            module = importlib.import_module(f"calls_{package}")
            values = {cls.__name__: _required_by_name(cls)[1]
                      for cls in model_classes(models(package))}
            built = module.calls(values)
            assert len(built) == len(expected[package]) > 300
            for obj, (cls_name, name, nullable) in zip(built, expected[package], strict=True):
                assert type(obj).__name__ == cls_name
                assert (name in obj.model_fields_set) == nullable, (cls_name, name)
    finally:
        sys.path.remove(str(tmp_path))


# -- JSON null on the wire keeps its treatment ---------------------------------------------------


def test_a_json_null_where_the_schema_allows_none_is_the_wires() -> None:
    generated_dir()
    sides = importlib.import_module("acp_v1.sides")
    m = models("acp_v1")
    # Marked x-deserialize-default-on-error: null is an invalid value, read as the default.
    read = sides.from_peer({"cwd": "/w", "mcpServers": [], "additionalDirectories": None},
                           m.NewSessionRequest)
    assert read.additional_directories is None
    assert "additional_directories" not in read.model_fields_set
    # Not marked: null is refused (the peer is answered Invalid params).
    with pytest.raises(ValidationError) as refused:
        sides.from_peer({"type": "object", "properties": None}, m.ElicitationSchema)
    assert [e["loc"] for e in refused.value.errors()] == [("properties",)]
    # The same bytes from Python are None, which means absent.
    assert "properties" not in m.ElicitationSchema.model_validate(
        {"type": "object", "properties": None}).model_fields_set
