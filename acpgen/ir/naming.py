"""Python names for wire names, decided once (in the IR) so no emitter ever renames."""

from __future__ import annotations

import keyword
import re

# Attributes a pydantic BaseModel already has: a field with one of these names would shadow it.
_RESERVED = frozenset(
    {"copy", "dict", "json", "schema", "construct", "validate", "fields", "parse_obj", "parse_raw"}
)
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake_case(wire: str) -> str:
    """``toolCallId`` -> ``tool_call_id``; ``_meta`` -> ``field_meta``; keywords get a ``_``."""
    if wire.startswith("_"):
        # pydantic treats leading-underscore attributes as private, so the ACP ``_meta`` member
        # (and any other ``_x``) gets a ``field_`` prefix and keeps its wire name as alias.
        return "field_" + snake_case(wire.lstrip("_"))
    name = _CAMEL_BOUNDARY.sub("_", wire).replace("-", "_").replace("/", "_").lower()
    name = re.sub(r"[^0-9a-z_]", "_", name)
    if not name or name[0].isdigit():
        name = "f_" + name
    if keyword.iskeyword(name) or name in _RESERVED or name.startswith("model_"):
        name += "_"
    return name


def method_py_name(wire: str) -> str:
    """``session/set_mode`` -> ``session_set_mode``; ``$/cancel_request`` -> ``cancel_request``."""
    return snake_case(wire.lstrip("$/").replace("/", "_"))
