"""Patterns the generated models can enforce: proved with the engine that will run them.

A ``pattern`` reaches the models as ``Field(pattern=...)``, which pydantic-core compiles with
its Rust ``regex`` engine when the model class is built. That engine rejects look-around and
back-references that the JSON Schema metaschema (ECMA-262 syntax) accepts, so every pattern is
compiled here, at generation time, by the same engine; a pattern it rejects is refused with
its JSON pointer instead of producing a package that fails on import.
"""

from __future__ import annotations


def pattern_problem(pattern: str) -> str | None:
    """None if pydantic-core compiles ``pattern``; else the engine's reason, on one line."""
    # Imported here: only schemas that use ``pattern`` pay for loading pydantic-core.
    from pydantic_core import SchemaError, SchemaValidator, core_schema

    try:
        SchemaValidator(core_schema.str_schema(pattern=pattern))
    except SchemaError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return lines[-1] if lines else "rejected"
    return None
