"""The bounded instance generator behind witnesses and the counterexample search."""

from __future__ import annotations

import json
import random

from jsonschema import Draft202012Validator

from acpgen.evolve.instances import Instances
from tests.conftest import INPUTS

DEFS = {
    "Kind": {"type": "string", "enum": ["a", "b", "c"]},
    "Shape": {"oneOf": [
        {"type": "object", "properties": {"t": {"const": "x"}, "n": {"type": "integer",
                                                                     "format": "uint8"}},
         "required": ["t"]},
        {"type": "object", "properties": {"t": {"const": "y"}, "k": {"$ref": "#/$defs/Kind"}},
         "required": ["t", "k"]}]},
    "Tree": {"type": "object", "properties": {"kids": {"type": "array",
                                                        "items": {"$ref": "#/$defs/Tree"}}}},
}


def _valid(name: str, value: object) -> bool:
    return Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/{name}"}).is_valid(value)


def test_every_enum_value_and_union_branch_is_a_candidate() -> None:
    kinds = Instances(DEFS).of_def("Kind")
    assert {"a", "b", "c"} <= set(kinds)
    shapes = [v for v in Instances(DEFS).of_def("Shape") if _valid("Shape", v)]
    assert {v["t"] for v in shapes} == {"x", "y"}
    assert {v.get("k") for v in shapes if v["t"] == "y"} >= {"a", "b", "c"}


def test_boundaries_of_integer_formats_are_tried() -> None:
    values = [v.get("n") for v in Instances(DEFS).of_def("Shape") if isinstance(v, dict)]
    assert {0, 255, 256, -1} <= set(values)  # inside and just outside uint8


def test_recursion_is_cut_and_the_output_is_bounded_and_deterministic() -> None:
    trees = Instances(DEFS).of_def("Tree")
    assert trees and all(_valid("Tree", t) for t in trees)
    schema = json.loads((INPUTS / "schema/v1/schema.json").read_text(encoding="utf-8"))
    first = Instances(schema["$defs"]).of_def("SessionUpdate")
    assert 0 < len(first) <= 48
    assert first == Instances(schema["$defs"]).of_def("SessionUpdate")
    seeded = [Instances(schema["$defs"], rng=random.Random(7)).of_def("SessionUpdate")
              for _ in range(2)]
    assert seeded[0] == seeded[1]
