"""The generated builders (``{package}/builders.py``): one per union branch, typed, valid.

The usage file is written by this test from the builders' own signatures (so a schema bump,
or another protocol surface, is covered with nothing listed here): every builder called with
a value for each required argument, built the same way from the argument's type (a model
from its required members, an enum's first member, a list of one item...). mypy --strict
must accept it, and every value it builds, dumped to the wire, must validate against the
schema's definition of its union (jsonschema, Draft 2020-12).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest
from jsonschema import Draft202012Validator
from support.generated_sdk import importable_sdk

from acpgen.emit.builders import plan_builders
from acpgen.emit.models_plan import Planner

PACKAGE = "acp_v1"
NONE = type(None)


@pytest.fixture(scope="module")
def out(project: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with importable_sdk(project, tmp_path_factory.mktemp("builders"), only_package=True) as root:
        yield root


class _Source:
    """Python source for a value of a type, as a person would write it."""

    def __init__(self, models: Any) -> None:
        self.models = models

    def of(self, tp: Any, depth: int = 0) -> str:
        if depth > 8:
            raise AssertionError(f"no finite value for {tp!r}")
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Annotated:
            return self.of(args[0], depth)
        if isinstance(tp, typing.TypeAliasType if hasattr(typing, "TypeAliasType") else ()):
            return self.of(tp.__value__, depth)
        if origin in (typing.Union, types.UnionType):
            return self.of(next(a for a in args if a is not NONE), depth + 1)
        if origin is typing.Literal:
            return repr(args[0])
        if origin is list:
            return f"[{self.of(args[0], depth + 1)}]"
        if origin is dict or tp is dict:
            return "{}"
        if tp is typing.Any or tp is object:
            return "{}"
        if tp is str:
            return '"/x"'  # absolute, in case it is a path
        if tp is bool:
            return "True"
        if tp is int:
            return "1"
        if tp is float:
            return "1.0"
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return f"models.{tp.__name__}.{next(iter(tp)).name}"
        if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
            return self.model(tp, depth)
        raise AssertionError(f"cannot write a value of {tp!r}")

    def model(self, cls: type[pydantic.BaseModel], depth: int) -> str:
        parts = []
        for name, field in cls.model_fields.items():
            ann = field.annotation
            is_tag = typing.get_origin(ann) is typing.Literal and len(typing.get_args(ann)) == 1
            if field.is_required() and not is_tag:
                parts.append(f"{name}={self.of(ann, depth + 1)}")
        return f"models.{cls.__name__}({', '.join(parts)})"


def _usage(builders: Any, models: Any) -> tuple[str, list[str]]:
    source = _Source(models)
    lines = [f"from {PACKAGE} import builders, models", "", "BUILT = {"]
    names = []
    for name in builders.__all__:
        func = getattr(builders, name)
        if name in ("text_chunk", "tool_call_pair", "plan_from"):
            continue  # compound helpers: their own test
        hints = typing.get_type_hints(func, globalns=vars(builders), include_extras=True)
        args = []
        for pname, param in inspect.signature(func).parameters.items():
            if param.default is inspect.Parameter.empty:
                args.append(f"{pname}={source.of(hints[pname])}")
        lines.append(f"    {name!r}: builders.{name}({', '.join(args)}),")
        names.append(name)
    lines.append("}")
    return "\n".join(lines) + "\n", names


@pytest.fixture(scope="module")
def usage(out: Path) -> tuple[Path, list[str], Any]:
    builders = importlib.import_module(f"{PACKAGE}.builders")
    models = importlib.import_module(f"{PACKAGE}.models")
    text, names = _usage(builders, models)
    path = out / "usage_builders.py"
    path.write_text(text, encoding="utf-8")
    return path, names, builders


def test_every_tagged_union_branch_has_a_builder(project: Any, usage: Any) -> None:
    _, names, builders = usage
    planner = Planner(project.ir)
    planner.plan()
    expected = {b.cls for b in plan_builders(planner)}
    built = {getattr(builders, n).__annotations__["return"].removeprefix("models.") for n in names}
    assert built == expected
    # Independently of the plan: every SessionUpdate and ContentBlock branch class is built.
    models = importlib.import_module(f"{PACKAGE}.models")
    for union in ("SessionUpdate", "ContentBlock", "ToolCallContent", "RequestPermissionOutcome"):
        branches = typing.get_args(typing.get_args(getattr(models, union))[0])
        assert branches and {b.__name__ for b in branches} <= built, union


@pytest.mark.slow
def test_mypy_strict_accepts_a_file_that_calls_every_builder(usage: Any, out: Path) -> None:
    path, _, _ = usage
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir",
         str(out / ".mypy"), path.name],
        cwd=out, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_built_value_validates_against_the_json_schema(usage: Any, inputs_dir: Path) -> None:
    path, names, builders = usage
    schema = json.loads((inputs_dir / "schema" / "v1" / "schema.json").read_text("utf-8"))
    built = importlib.import_module(path.stem).BUILT  # the file mypy checked, run
    assert sorted(built) == sorted(names) and len(names) > 30
    for name, value in built.items():
        union = _union_of(builders, name)
        wire = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
        validator = Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{union}"})
        errors = [e.message for e in validator.iter_errors(wire)]
        assert not errors, (name, wire, errors)


def _union_of(builders: Any, name: str) -> str:
    doc = getattr(builders, name).__doc__ or ""
    return doc.split("``")[1]  # "``Union`` branch ..."


def test_a_builder_fills_the_tag_and_omits_what_is_not_given(usage: Any) -> None:
    _, _, builders = usage
    chunk = builders.agent_message_chunk(content=builders.text(text="hi"))
    assert chunk.model_dump(mode="json", by_alias=True, exclude_unset=True) == {
        "sessionUpdate": "agent_message_chunk",
        "content": {"type": "text", "text": "hi"},
    }
    with pytest.raises(TypeError):
        builders.text("positional")  # keyword arguments only


def test_the_compound_helpers(usage: Any) -> None:
    _, _, builders = usage
    dump = lambda v: v.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dump(builders.text_chunk("hi")) == dump(
        builders.agent_message_chunk(content=builders.text(text="hi"))
    )
    start, update = builders.tool_call_pair("c1", "Read a file", kind="read")
    assert dump(start) == {"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Read a file",
                           "kind": "read"}
    assert dump(update) == {"sessionUpdate": "tool_call_update", "toolCallId": "c1"}
    plan = builders.plan_from(("Step one", "high", "pending"), ("Step two", "low", "completed"))
    assert dump(plan) == {"sessionUpdate": "plan", "entries": [
        {"content": "Step one", "priority": "high", "status": "pending"},
        {"content": "Step two", "priority": "low", "status": "completed"},
    ]}
