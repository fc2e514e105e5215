"""The jinja2 environment every emitter renders through."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import jinja2

from acpgen.emit import escape
from acpgen.emit.escape import py_literal
from acpgen.errors import AcpgenError

__all__ = ["environment", "py_literal", "render", "templates_dir"]

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
    # The escaping layer (acpgen.emit.escape): one filter per output context.
    env.filters["pyrepr"] = escape.py_literal
    env.filters["ident"] = escape.ident
    env.filters["regex"] = escape.regex
    env.filters["num"] = escape.num
    env.filters["doc"] = escape.doc
    env.filters["comment"] = escape.comment
    env.globals["lit"] = escape.py_literal
    env.filters["tojson_sorted"] = lambda v: json.dumps(v, sort_keys=True)
    return env


def render(template: str, directory: str | None = None, **context: Any) -> str:
    try:
        escape.validate_context(context)
        return environment(directory).get_template(template).render(**context)
    except escape.EscapeError as exc:
        # The IR refuses what cannot be written; reaching here is a generator bug, still
        # reported as one line naming the template.
        raise AcpgenError(f"templates/{template}", f"refused to write a value: {exc}") from None
    except jinja2.TemplateError as exc:
        name = getattr(exc, "filename", None) or template
        line = getattr(exc, "lineno", None)
        where = f"templates/{template}" + (f":{line}" if line else "")
        raise AcpgenError(where if name else template, f"template failed to render: {exc}") from None
