"""Cross-check with datamodel-code-generator (the pinned 0.89.0, through its Python API).

The models are emitted from the IR by our templates, not by datamodel-code-generator (it is
too slow for the generate budget; see acpgen/emitters/models.py). Its parser still serves
as an independent reading of the same schema: for every object ``$def`` it must agree with
the generated class on the members, their Python and wire names, which are required, and
the defaults.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic_core import PydanticUndefined

GENERATED = Path(__file__).resolve().parent.parent / "generated"


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


def test_objects_agree_with_datamodel_code_generator(project: Any, dmcg_models: dict[str, Any]) -> None:
    if str(GENERATED) not in sys.path:
        sys.path.insert(0, str(GENERATED))
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
