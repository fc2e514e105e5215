"""The base of the python-sdk profile's models: acpgen's ``Model`` with what the official
Python SDK's runtime relies on (``docs/python-sdk-drop-in.md``).

Copied verbatim by ``acpgen generate --profile python-sdk`` (``acpgen/shipped/python_sdk/``);
the rendered ``schema.py`` builds every class on :class:`Model`. Everything else is acpgen's:
unknown members are kept, tags are filled in, optional members may be omitted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AnyUrl, BeforeValidator, ConfigDict, Strict, field_validator
from pydantic.alias_generators import to_snake
from pydantic_core import MultiHostUrl, Url

from ..runtime import model_base


def url_text(value: Any) -> Any:
    """A URL object (``pydantic.AnyUrl`` and the other URL types) as its text; anything else
    unchanged. The schema's ``format: uri`` members are strings: their users pass either."""
    # pydantic >= 2.10 wraps pydantic_core's URLs (AnyUrl and its subclasses, HttpUrl, ...);
    # earlier versions use them directly.
    if isinstance(value, (AnyUrl, Url, MultiHostUrl)):
        return str(value)
    return value


UriStr = Annotated[str, BeforeValidator(url_text), Strict()]
"""A JSON string holding a URI; a ``pydantic.AnyUrl`` is accepted for it and kept as its text."""


def legacy_protocol_version(value: Any) -> Any:
    """``protocolVersion`` as early clients sent it: a string. Digits are that version; any
    other string means the first version, 1 (the official SDK's rule). A non-string is left
    to the member's own type."""
    if isinstance(value, str):
        text = value.strip()
        return int(text) if text.isdigit() else 1
    return value


COERCIONS: dict[str, Callable[[Any], Any]] = {
    "legacy_protocol_version": legacy_protocol_version,
}
"""The per-member coercions a profile manifest may name (``[coercions]``), by name."""


def coerce(member: str, name: str) -> Any:
    """A before-validator of ``member`` running the coercion ``name`` (a class attribute of
    the rendered models); resolved at import, so a name the manifest misspells fails there."""
    return field_validator(member, mode="before")(COERCIONS[name])


class Model(model_base.Model):
    # Input by Python name as well as by wire name (dicts, JSON, construction), and dumps by
    # Python name unless by_alias=True is asked for: the official models' configuration,
    # which its runtime and its users' code rely on (``model_dump()`` fed back as keyword
    # arguments). The wire path of the runtime asks for by_alias=True explicitly.
    model_config = ConfigDict(
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=False,
    )

    if not TYPE_CHECKING:

        def __getattr__(self, item: str) -> Any:
            # pydantic's own lookup first (private attributes, unknown members kept).
            try:
                return super().__getattr__(item)
            except AttributeError:
                # A wire name as an attribute (``update.sessionUpdate``), as the official
                # models allow: the member of that snake_case name.
                snake = to_snake(item)
                if snake != item and snake in type(self).__pydantic_fields__:
                    return getattr(self, snake)
                raise
