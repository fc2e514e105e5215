"""The jinja2 environment every emitter renders through."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import jinja2

from acpgen.errors import AcpgenError

ENV_TEMPLATES = "ACPGEN_TEMPLATES"


def templates_dir() -> Path:
    """``templates/`` at the project root (source checkout), or inside an installed wheel.

    ``$ACPGEN_TEMPLATES`` overrides it: a test and debugging hook (tests break a copy of the
    templates to prove bad output is never half-applied); ``acpgen check`` in CI never sets it.
    """
    override = os.environ.get(ENV_TEMPLATES)
    if override:
        if not Path(override).is_dir():
            raise AcpgenError(override, f"${ENV_TEMPLATES} is not a directory")
        return Path(override).resolve()
    here = Path(__file__).resolve().parent.parent  # the acpgen package
    for candidate in (here / "_templates", here.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise AcpgenError(str(here), "templates directory not found (broken installation)")


def py_literal(value: Any) -> str:
    """A Python literal for a JSON value, spelled the way black spells it (double quotes
    unless that needs more escapes; dict keys sorted, so output never depends on dict order).
    Templates that already emit black's layout rely on it: black then finds nothing to do."""
    if isinstance(value, str):
        single = repr(value)
        if single.startswith('"'):
            return single  # contains ' and no ": black keeps this form
        body = single[1:-1]
        swapped = body.replace("\\'", "'").replace('"', '\\"')
        if swapped.count('\\"') > body.count("\\'"):
            return single
        return '"' + swapped + '"'
    if isinstance(value, dict):
        items = ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in sorted(value.items()))
        return "{" + items + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    return repr(value)


@functools.lru_cache(maxsize=4)
def environment(directory: str | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory or str(templates_dir())),
        undefined=jinja2.StrictUndefined,  # a typo in a template is an error, not empty output
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = py_literal
    env.filters["tojson_sorted"] = lambda v: json.dumps(v, sort_keys=True)
    return env


def render(template: str, directory: str | None = None, **context: Any) -> str:
    try:
        return environment(directory).get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        name = getattr(exc, "filename", None) or template
        line = getattr(exc, "lineno", None)
        where = f"templates/{template}" + (f":{line}" if line else "")
        raise AcpgenError(where if name else template, f"template failed to render: {exc}") from None
