"""The four routes by which a mutated upstream schema used to run code on import (issue 18).

Each test plants a string that closes its context and runs code (it would create a canary
file) in a copy of the real pinned inputs, re-pins them as `acpgen lock --update` would, and
runs the real `acpgen generate`. The outcome must be either a one-line refusal (exit 2)
naming the input element, or a generated package that imports without running anything and
gives the planted string back exactly.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_acpgen
from repin import make_project

from acpgen.ir.naming import member_name

SCHEMA = "schema/v1/schema.json"
META = "schema/v1/meta.json"


def _payload(canary: Path) -> str:
    return f"__import__('pathlib').Path({str(canary)!r}).touch()"


def _edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _generate(project_root: Path, tmp_path: Path, inputs: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    proj = make_project(project_root, tmp_path / "proj", inputs)
    out = tmp_path / "out"
    return run_acpgen("generate", "--project", str(proj), "--out", str(out), timeout=300), out


def _import_and_read(out: Path, code: str) -> str:
    """Import the generated package in a fresh interpreter and run ``code`` (prints a result)."""
    script = f"import sys\nsys.path.insert(0, {str(out)!r})\n{code}"
    run = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def _assert_one_line_refusal(result: subprocess.CompletedProcess[str], where: str, element: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"acpgen: error: {where}: "), lines[0]
    assert element in lines[0], lines[0]
    assert "Traceback" not in result.stderr and "formatter" not in result.stderr


def test_route_1_a_def_name_with_code_is_refused(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    name = f"X(_Model):\n    pass\n\n{_payload(canary)}\n\nclass Y"

    def plant(schema: Any) -> None:
        schema["$defs"][name] = {"type": "object", "properties": {}}

    _edit_json(inputs_copy / SCHEMA, plant)
    result, out = _generate(project_root, tmp_path, inputs_copy)
    _assert_one_line_refusal(result, SCHEMA, "/$defs/X(_Model):\\n    pass\\n\\n__import__(")
    assert "is not a Python identifier" in result.stderr
    assert not out.exists() and not canary.exists()


@pytest.mark.slow
def test_route_2_a_method_name_with_triple_quotes_is_written_exactly(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    wire = f'session/set_mode"""\n{_payload(canary)}\n"""'

    def plant_meta(meta: Any) -> None:
        meta["agentMethods"]["session_set_mode"] = wire

    def plant_schema(schema: Any) -> None:
        for d in schema["$defs"].values():
            if d.get("x-method") == "session/set_mode":
                d["x-method"] = wire

    _edit_json(inputs_copy / META, plant_meta)
    _edit_json(inputs_copy / SCHEMA, plant_schema)
    result, out = _generate(project_root, tmp_path, inputs_copy)
    assert result.returncode == 0, result.stderr
    assert not canary.exists()
    got = _import_and_read(out, (
        "import json\nfrom acp_v1 import methods, interfaces, connection\n"
        f"spec = methods.METHODS[{wire!r}]\n"
        "print(json.dumps([spec.wire, spec.py_name, spec.message.__doc__]))\n"
    ))
    assert not canary.exists()
    spec_wire, py_name, doc = json.loads(got)
    assert spec_wire == wire
    assert py_name.isidentifier()
    # The docstring states the wire name as it is (black re-indents docstrings: cleandoc).
    assert inspect.cleandoc(doc) == inspect.cleandoc(f"``{wire}`` request (client -> agent).")


@pytest.mark.slow
def test_route_3_an_error_code_title_with_a_newline_runs_nothing(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    """The title used to be written raw into a ``#`` comment of rpc.py. The runtime's codes
    are now fixed Python (checked against the schema); a title only names its member."""
    canary = tmp_path / "canary"
    title = f"PARSE_ERROR:0#\n{_payload(canary)}"

    def plant(schema: Any) -> None:
        codes = schema["$defs"]["ErrorCode"]["anyOf"]
        codes.insert(-1, {"type": "integer", "format": "int32", "const": -32099, "title": title})

    _edit_json(inputs_copy / SCHEMA, plant)
    result, out = _generate(project_root, tmp_path, inputs_copy)
    assert result.returncode == 0, result.stderr
    assert not canary.exists()
    member = member_name(-32099, title)
    got = _import_and_read(out, f"from acp_v1 import models, connection\nprint(int(models.ErrorCode.{member}))\n")
    assert got.strip() == "-32099"
    assert not canary.exists()


@pytest.mark.slow
def test_route_4_a_capability_name_with_a_quote_is_written_exactly(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    name = f'probe", "x": {_payload(canary)}, "y'

    def plant(schema: Any) -> None:
        schema["$defs"]["AgentCapabilities"]["properties"][name] = {"type": "boolean", "default": False}

    _edit_json(inputs_copy / SCHEMA, plant)
    result, out = _generate(project_root, tmp_path, inputs_copy)
    assert result.returncode == 0, result.stderr
    tests_dir = out / "tests"
    got = _import_and_read(out, (
        f"sys.path.insert(0, {str(tests_dir)!r})\n"
        "import json, _acp_checks\nfrom acp_v1 import models, guards\n"
        "aliases = [f.serialization_alias or n for n, f in models.AgentCapabilities.model_fields.items()]\n"
        "print(json.dumps([sorted(_acp_checks.CAPABILITIES), aliases]))\n"
    ))
    assert not canary.exists()
    capabilities, aliases = json.loads(got)
    assert f"agentCapabilities.{name}" in capabilities
    assert name in aliases


@pytest.mark.slow
@pytest.mark.parametrize("route", ["meta_version_true", "nan_default", "deep_nesting", "nullable_enum_def"])
def test_values_python_cannot_hold_are_refused_by_pointer(
    route: str, project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    if route == "meta_version_true":
        _edit_json(inputs_copy / META, lambda m: m.__setitem__("version", True))
        where, element = META, "/version"
    elif route == "nan_default":
        path = inputs_copy / SCHEMA
        text = path.read_text(encoding="utf-8")
        marker = '"AgentCapabilities": {'
        path.write_text(text.replace(marker, marker + '"default": NaN,', 1), encoding="utf-8")
        where, element = SCHEMA, "/$defs/AgentCapabilities/default"
    elif route == "deep_nesting":
        deep: Any = {"type": "string"}
        for _ in range(120):
            deep = {"allOf": [deep]}
        _edit_json(inputs_copy / SCHEMA, lambda s: s["$defs"].__setitem__("Deep", deep))
        where, element = SCHEMA, "/$defs/Deep/allOf/0/allOf/0"
    else:
        _edit_json(inputs_copy / SCHEMA, lambda s: s["$defs"].__setitem__(
            "Maybe", {"type": ["string", "null"], "enum": ["a", None]}))
        where, element = SCHEMA, "/$defs/Maybe"
    result, out = _generate(project_root, tmp_path, inputs_copy)
    _assert_one_line_refusal(result, where, element)
    assert not out.exists()
