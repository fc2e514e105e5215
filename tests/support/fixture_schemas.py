"""The small fixture schemas under ``tests/data/schemas/``: one file per IR shape.

Each is a complete JSON Schema 2020-12 document with the two capability roots the IR
builder requires (empty), plus the defs that isolate one shape. They share ``meta.json``
(no methods). Expectations about them are written by hand in the tests that use them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from acpgen.ir.build import build_ir
from acpgen.ir.types import SchemaIR

SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "schemas"
SHAPES = ("object", "open_enum", "tagged_union", "untagged_union", "integer_formats", "nullable",
          "recursive_ref", "lenient")


def fixture_schema(shape: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((SCHEMAS / f"{shape}.json").read_text(encoding="utf-8"))
    return doc


def fixture_meta() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((SCHEMAS / "meta.json").read_text(encoding="utf-8"))
    return doc


def fixture_ir(shape: str) -> SchemaIR:
    return build_ir(fixture_schema(shape), fixture_meta(), f"tests/data/schemas/{shape}.json",
                    "tests/data/schemas/meta.json")
