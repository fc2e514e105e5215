"""Cross-check with datamodel-code-generator (the pinned 0.89.0, through its Python API).

The models are emitted from the IR by our templates, not by datamodel-code-generator (too
slow for the generate budget; see acpgen/emit/models.py). Its parser is kept as an
independent reading of the schema for what the jsonschema fidelity test
(tests/test_fidelity.py) cannot see, because a validator only sees the wire:

* objects: every member's Python name, wire name, required-ness and default;
* closed enums: the member values and their Python names;
* open enums: the known constants and the catch-all's base type (a validator accepts any
  value of that type, so a lost constant is invisible to it).

Unions are left to the fidelity test: datamodel-code-generator reads most of them as
synthetic helper models (and a branch that is itself a union as an opaque root model), so a
structural comparison would re-implement the planner; the fidelity test instead checks
every union's behaviour on drawn and mutated instances. The decision and its measurements
are in docs/architecture.md ("The datamodel-code-generator oracle").
"""

from __future__ import annotations

import enum
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir
from pydantic_core import PydanticUndefined


@pytest.fixture(scope="module")
def dmcg_models(inputs_dir: Path) -> dict[str, Any]:
    from datamodel_code_generator import DataModelType, PythonVersion
    from datamodel_code_generator.model import get_data_model_types
    from datamodel_code_generator.parser.jsonschema import JsonSchemaParser

    types = get_data_model_types(DataModelType.PydanticV2BaseModel, target_python_version=PythonVersion.PY_311)
    parser = JsonSchemaParser(
        (inputs_dir / "schema" / "v1" / "schema.json").read_text(encoding="utf-8"),
        data_model_type=types.data_model,
        data_model_root_type=types.root_model,
        data_model_field_type=types.field_model,
        data_type_manager_type=types.data_type_manager,
        dump_resolve_reference_action=types.dump_resolve_reference_action,
        snake_case_field=True,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns about the uint formats it does not know
        parser.parse_raw()
    out: dict[str, Any] = {}
    for model in parser.results:
        path = model.reference.path
        if path.startswith("#/$defs/") and "/" not in path[len("#/$defs/") :]:
            out[path[len("#/$defs/") :]] = model
    return out


@pytest.mark.slow
def test_objects_agree_with_datamodel_code_generator(project: Any, dmcg_models: dict[str, Any]) -> None:
    generated_dir()  # generated now into a temporary directory, on sys.path
    from acp_v1 import models

    compared = 0
    for name, d in project.ir.defs.items():
        if d.shape != "object":
            continue
        theirs = {
            f.original_name or f.name: (f.name, bool(f.required), f.default if f.has_default else None)
            for f in dmcg_models[name].fields
        }
        ours = {}
        for py_name, info in getattr(models, name).model_fields.items():
            default = None if info.default is PydanticUndefined else info.default
            ours[info.serialization_alias or py_name] = (py_name, info.is_required(), default)
        assert ours == theirs, name
        compared += 1
    assert compared == sum(1 for d in project.ir.defs.values() if d.shape == "object")


def _dmcg_enum(model: Any) -> dict[str, Any]:
    """datamodel-code-generator's Enum: member name -> value (its defaults wrap the value)."""
    return {f.name: getattr(f.default, "value", f.default) for f in model.fields}


def test_closed_enums_agree_on_values_and_member_names(project: Any, dmcg_models: dict[str, Any]) -> None:
    generated_dir()
    from acp_v1 import models

    closed = [d for d in project.ir.defs.values() if d.shape == "enum"]
    assert len(closed) >= 5
    for d in closed:
        theirs = _dmcg_enum(dmcg_models[d.name])
        ours = getattr(models, d.name)
        assert issubclass(ours, enum.Enum), d.name
        # Values agree in order; our member names are theirs upper-cased (END_TURN / end_turn).
        assert [m.value for m in ours] == list(theirs.values()), d.name
        assert [m.name for m in ours] == [name.upper() for name in theirs], d.name


def test_open_enums_agree_on_constants_and_catch_all(project: Any, dmcg_models: dict[str, Any]) -> None:
    generated_dir()
    from acp_v1 import models

    opened = [d for d in project.ir.defs.values() if d.shape == "open_enum"]
    assert opened
    for d in opened:
        (root,) = dmcg_models[d.name].fields
        members = root.data_type.data_types
        known = [lit for m in members for lit in m.literals]
        catch_all = [m.type for m in members if not m.literals]
        ours = getattr(models, d.name)
        constants = [value for name, value in vars(ours).items() if name.isupper() and isinstance(value, ours)]
        assert sorted(constants) == sorted(known), d.name
        assert catch_all == [next(b.__name__ for b in ours.__mro__ if b in (int, str))], d.name
