"""Model-level leniency (issue 44, item 2): the schema's ``x-deserialize-*`` markers and the
``_meta`` salvage, applied by ``model_validate``/``model_validate_json`` exactly as by the
runtime's decoding of a peer's messages (``lenient.validate_lenient``), with one
implementation (``model_base.validate_repairing``), and stated in each member's docstring.

The fixture schema ``tests/data/schemas/lenient.json`` isolates each marker: every
expectation below is written by hand from it. The agreement tests then run the pinned
surfaces' own samples and mutants through the wire path and the models.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import itertools
import json
import logging
import random
import sys
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import generated_dir
from pydantic import TypeAdapter, ValidationError
from support.fixture_schemas import fixture_ir
from support.models import generation_model
from support.models_samples import mutants, samples

from acpgen.emit import shipped
from acpgen.emit.models import emit
from acpgen.model.generation import GenOptions
from acpgen.output.format import format_python

PACKAGE = "fx_lenient_models"


@pytest.fixture(scope="module")
def fx(tmp_path_factory: pytest.TempPathFactory, project: Any) -> tuple[ModuleType, ModuleType]:
    """(models, lenient) of a package generated from the fixture schema."""
    root = tmp_path_factory.mktemp("lenient-models")
    model = dataclasses.replace(generation_model(project, GenOptions(package=PACKAGE)),
                                ir=fixture_ir("lenient"))
    fixed = shipped.emit(model)
    files = {**emit(model), **{f"{PACKAGE}/{name}": fixed[f"{PACKAGE}/{name}"]
                                for name in ("model_base.py", "lenient.py")}}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(format_python(rel, text), encoding="utf-8")
    (root / PACKAGE / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        return (importlib.import_module(f"{PACKAGE}.models"),
                importlib.import_module(f"{PACKAGE}.lenient"))
    finally:
        sys.path.remove(str(root))


def three_ways(fx: tuple[ModuleType, ModuleType], name: str, data: Any) -> list[Any]:
    """``data`` read by the wire path, ``model_validate_json`` and ``model_validate``: the
    three results, or the ValidationError each raised."""
    models, lenient = fx
    cls = getattr(models, name)
    readers: list[Callable[[], Any]] = [
        lambda: lenient.validate_lenient(TypeAdapter(cls), cls, data),
        lambda: cls.model_validate_json(json.dumps(data)),
        lambda: cls.model_validate(data),
    ]
    out = []
    for read in readers:
        try:
            out.append(read())
        except ValidationError as error:
            out.append(error)
    return out


def agreed(fx: tuple[ModuleType, ModuleType], name: str, data: Any) -> Any:
    original = json.loads(json.dumps(data))
    wire, from_json, from_python = three_ways(fx, name, data)
    assert data == original  # nobody repairs the caller's value in place
    assert not isinstance(wire, ValidationError), wire
    assert wire == from_json == from_python
    assert wire.model_fields_set == from_json.model_fields_set == from_python.model_fields_set
    return wire


def refused_everywhere(fx: tuple[ModuleType, ModuleType], name: str, data: Any) -> None:
    assert all(isinstance(r, ValidationError) for r in three_ways(fx, name, data))


# -- x-deserialize-default-on-error ---------------------------------------------------------------


def test_default_on_error_an_optional_member_reads_as_absent(fx: Any, caplog: Any) -> None:
    with caplog.at_level(logging.WARNING):
        read = agreed(fx, "Defaulted", {"entries": [], "mode": "m", "count": "seven"})
    assert read.count is None and "count" not in read.model_fields_set
    assert "'count'" in caplog.text and "x-deserialize-default-on-error" in caplog.text


def test_default_on_error_a_member_with_a_default_reads_as_it(fx: Any) -> None:
    read = agreed(fx, "Defaulted", {"entries": [], "mode": "m", "flag": "yes"})
    assert read.flag is False and "flag" not in read.model_fields_set


def test_default_on_error_a_required_member_reads_as_the_schemas_default(fx: Any) -> None:
    read = agreed(fx, "Defaulted", {"entries": [], "mode": 5})
    assert read.mode == "auto"
    # A required array without a stated default reads as the empty array.
    read = agreed(fx, "Defaulted", {"entries": {"not": "a list"}, "mode": "m"})
    assert read.entries == []


def test_an_unmarked_member_is_still_refused(fx: Any) -> None:
    refused_everywhere(fx, "Defaulted", {"entries": [], "mode": "m", "exact": "x"})
    refused_everywhere(fx, "Skipping", {"exactItems": [{"name": 1}]})


# -- x-deserialize-skip-invalid-items -------------------------------------------------------------


def test_skip_invalid_items_drops_only_the_invalid_ones(fx: Any, caplog: Any) -> None:
    with caplog.at_level(logging.WARNING):
        read = agreed(fx, "Skipping", {"items": [{"name": "a"}, {"name": 1}, {}, {"name": "b"}]})
    assert [item.name for item in read.items] == ["a", "b"]
    assert "x-deserialize-skip-invalid-items" in caplog.text


# -- the _meta salvage ----------------------------------------------------------------------------


def test_an_invalid_meta_is_dropped_a_null_one_kept(fx: Any) -> None:
    read = agreed(fx, "WithMeta", {"name": "n", "_meta": "not an object"})
    assert read.field_meta is None and "field_meta" not in read.model_fields_set
    # _meta allows null: a null is a value (kept, sent back), not a repair.
    read = agreed(fx, "WithMeta", {"name": "n", "_meta": None})
    assert "field_meta" in read.model_fields_set
    assert read.model_dump(mode="json", by_alias=True, exclude_unset=True) == {
        "name": "n", "_meta": None}


# -- nested places, union branches ----------------------------------------------------------------


def test_repairs_happen_at_the_innermost_marked_place(fx: Any) -> None:
    read = agreed(fx, "Outer", {
        "inner": {"entries": [], "mode": "m", "count": "x"},
        # An item with an invalid _meta is kept (its _meta repaired); an invalid one dropped.
        "metas": [{"name": "a", "_meta": 5}, {"name": 2}, {"name": "b"}],
    })
    assert "count" not in read.inner.model_fields_set
    assert [m.name for m in read.metas] == ["a", "b"]
    assert "field_meta" not in read.metas[0].model_fields_set
    # An unmarked place inside a marked array: the item goes, not the whole message.
    refused_everywhere(fx, "Outer", {"inner": {"entries": [], "mode": "m", "exact": "x"}})


def test_a_union_branch_reads_its_members_markers(fx: Any) -> None:
    models, _ = fx
    read = agreed(fx, "Outer", {"block": {"type": "meta", "name": "n", "_meta": 1, "level": "x"}})
    assert isinstance(read.block, models.WithMeta)  # the branch class, built on WithMeta
    assert not {"field_meta", "level"} & read.block.model_fields_set
    read = agreed(fx, "Outer", {"block": {"type": "skipping", "items": [{"name": 2}]}})
    assert read.block.items == []


def test_construction_stays_strict(fx: Any) -> None:
    models, _ = fx
    with pytest.raises(ValidationError):
        models.Defaulted(entries=[], mode="m", count="seven")
    with pytest.raises(ValidationError):
        models.Skipping(items=[{"name": 1}])


# -- the docstrings -------------------------------------------------------------------------------


def _member_docstrings(module: ModuleType, cls: str) -> dict[str, str]:
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    docs = {}
    for stmt, after in itertools.pairwise(body):
        if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)):
            docs[stmt.target.id] = after.value.value
    return docs


def test_each_marked_member_says_what_is_repaired(fx: Any) -> None:
    models, _ = fx
    marker = "(`x-deserialize-default-on-error`)"
    assert _member_docstrings(models, "Defaulted") == {
        "flag": f"Read leniently: an invalid value reads as its default {marker}.",
        "count": f"Read leniently: an invalid value reads as absent {marker}.",
        "entries": f"Read leniently: an invalid value reads as `[]` {marker}.",
        "mode": f'Read leniently: an invalid value reads as `"auto"` {marker}.',
    }
    assert _member_docstrings(models, "Skipping") == {
        "items": "Read leniently: an invalid item dropped (`x-deserialize-skip-invalid-items`).",
    }
    assert set(_member_docstrings(models, "WithMeta")) == {"field_meta"}


# -- the pinned surfaces: the wire and the models agree -------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
SURFACES = {
    "acp_v1": "schema/v1/schema.json",
    "acp_v1_unstable": "schema/v1/schema.unstable.json",
    "acp_v2": "schema/v2/schema.json",
    "acp_v2_unstable": "schema/v2/schema.unstable.json",
}


@cache
def surface(package: str) -> tuple[ModuleType, ModuleType, dict[str, Any]]:
    generated_dir()
    path = ROOT / "schema" / "inputs" / SURFACES[package]
    defs = json.loads(path.read_text(encoding="utf-8"))["$defs"]
    return (importlib.import_module(f"{package}.models"),
            importlib.import_module(f"{package}.lenient"), defs)


@pytest.mark.slow
@pytest.mark.parametrize("package", sorted(SURFACES))
def test_the_wire_and_model_validate_json_agree_on_samples_and_mutants(package: str) -> None:
    """For every object def: seeded samples and their mutants (wrong types, nulls, unknown
    tags, dropped members), read by the wire path and by ``model_validate_json``: both
    refuse, or both give the same object; and where the wire accepts, ``model_validate`` of
    the same JSON gives it too."""
    from pydantic import BaseModel

    models, lenient, defs = surface(package)
    compared = repaired = 0
    for name in sorted(defs):
        cls = getattr(models, name, None)
        if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
            continue
        rng = random.Random(zlib.crc32(name.encode()))
        adapter = TypeAdapter(cls)
        drawn = [s for _, s in zip(range(4), samples(defs, name), strict=False)]
        inputs = [*drawn, *(m for s in drawn for _, m in mutants(s, rng, 12))]
        for data in inputs:
            text = json.dumps(data)
            try:
                wire: Any = lenient.validate_lenient(adapter, cls, json.loads(text))
            except ValidationError:
                wire = None
            try:
                from_json: Any = cls.model_validate_json(text)
            except ValidationError:
                from_json = None
            assert (wire is None) == (from_json is None), (name, text)
            if wire is not None:
                assert wire == from_json, (name, text)
                assert wire.model_fields_set == from_json.model_fields_set, (name, text)
                assert cls.model_validate(json.loads(text)) == wire, (name, text)
                try:
                    adapter.validate_python(json.loads(text), by_alias=True, by_name=False)
                except ValidationError:
                    repaired += 1
            compared += 1
    assert compared > 1000 and repaired > 50, (compared, repaired)
