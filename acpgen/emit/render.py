"""The jinja2 environment every emitter renders through.

A template whose first line is :data:`BLACK_LAYOUT_MARK` promises that it lays its output
out the way black does; :func:`render` then returns a :class:`BlackLayout` string, and the
formatting stage may skip black for it after a cheap check of what the inputs put into it
(:mod:`acpgen.output.layout`). ``tests/test_fast_format.py`` holds every such template to
its promise.

Compiled templates are memoised in a jinja2 bytecode cache beside the black cache
(``<cache>/jinja-<jinja2 version>``): an entry is used only for the same template name and
the same SHA-1 of its source, by the same jinja2 and Python versions. jinja2 is imported on first use, so a command answered from the
generation memo never pays for it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from acpgen import disk_cache
from acpgen.emit import escape
from acpgen.emit.escape import py_literal
from acpgen.emit.type_spelling import spell_type
from acpgen.errors import AcpgenError

if TYPE_CHECKING:
    import jinja2

__all__ = [
    "BlackLayout", "Sourced", "Verbatim", "environment", "export_sort_key", "plan_fields", "py_literal", "render",
    "render_plan", "templates_dir",
]

ENV_TEMPLATES = "ACPGEN_TEMPLATES"  # named in the error for a bad one (read by acpgen.cli.options)
BLACK_LAYOUT_MARK = "{# acpgen: black-layout"


class Sourced(str):
    """Emitted text that knows the file a contributor edits to change it: ``origin`` is its
    template (``templates/...``) or the shipped file it is a copy of (``acpgen/shipped/...``).
    The emit stage names it in the file's first line and in ``MANIFEST.json``."""

    origin: str = ""

    def __new__(cls, text: str, origin: str = "") -> Self:
        made = super().__new__(cls, text)
        made.origin = origin
        return made


class BlackLayout(Sourced):
    """Text rendered by a template that declares black's layout (see the module docstring)."""


class Verbatim(BlackLayout):
    """Text that does not vary with the inputs and is already black-formatted: fixed code an
    emitter copies as it is (say a module of the runtime kept as real Python). The format
    stage passes it through untouched, without even the layout check; that black leaves it
    unchanged, and that it is the same for other inputs and options, is tested once
    (``tests/test_fast_format.py``) instead of paid on every run."""


def export_sort_key(name: str) -> tuple[int, str]:
    """The order isort and ruff's RUF022 want names in (an import list, ``__all__``):
    CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


# Another templates directory, set by the CLI edge from $ACPGEN_TEMPLATES (use_templates).
_override: str | None = None


def use_templates(directory: str | None) -> None:
    """Render from ``directory`` instead of the installed templates (None: the installed
    ones): the CLI edge passes ``$ACPGEN_TEMPLATES`` (:mod:`acpgen.cli.options`), a test and
    debugging hook (tests break a copy of the templates to prove bad output is never
    half-applied); ``acpgen check`` in CI never sets it."""
    global _override
    if directory != _override:
        _override = directory
        environment.cache_clear()


def templates_dir() -> Path:
    """``templates/`` at the project root (source checkout), or inside an installed wheel, or
    the directory given to :func:`use_templates`."""
    if _override:
        if not Path(_override).is_dir():
            raise AcpgenError(_override, f"${ENV_TEMPLATES} is not a directory")
        return Path(_override).resolve()
    here = Path(__file__).resolve().parent.parent  # the acpgen package
    for candidate in (here / "_templates", here.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise AcpgenError(str(here), "templates directory not found (broken installation)")


LINE_LENGTH = 100  # black's line length (acpgen.output.format); layouts below aim at it
# Layout helpers that write only what they are given: every argument must be escaped or
# layout text (tests/test_escaping.py checks each argument like any other interpolation).
LAYOUT_HELPERS = frozenset({"black_def"})


def _magic(value: Any) -> bool:
    """A tuple written with a trailing comma after every item: the comma is magic (black keeps
    the tuple exploded) from two items on, or when an item holds such a tuple."""
    return isinstance(value, (list, tuple)) and (len(value) > 1 or any(_magic(v) for v in value))


def _joined(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_joined(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return py_literal(value)


def black_value(
    prefix: str, value: Any, indent: int = 0, suffix: str = "", key: Any = None,
    trailing_comma: bool = True,
) -> str:
    """``prefix`` (layout text), then ``key: `` when a key is given, then a literal (a JSON
    scalar, or nested tuples of them, every tuple written with a trailing comma except the
    outermost one when ``trailing_comma`` is false), then ``suffix``, as black lays it out:
    joined when it fits and no tuple in it has a magic trailing comma, else exploded one
    item a line, recursively. Every value it writes goes through :func:`py_literal` (an
    escaping global: ``acpgen.emit.escape.ESCAPING_GLOBALS``)."""
    if key is not None:
        prefix = f"{prefix}{py_literal(key)}: "
    pad = " " * indent
    magic = _magic(value) if trailing_comma else any(_magic(v) for v in value)
    if not magic:
        joined = f"{pad}{prefix}{_joined(value)}{suffix}"
        if len(joined) <= LINE_LENGTH or not isinstance(value, (list, tuple)) or not value:
            return joined
    lines = [f"{pad}{prefix}("]
    lines += [black_value("", item, indent + 4, ",") for item in value]  # nested: no key
    lines.append(f"{pad}){suffix}")
    return "\n".join(lines)


def black_union(names: list[str], indent: int = 0, suffix: str = "") -> str:
    """``A | B | C`` + ``suffix`` of Python names (each through :func:`escape.ident`, an
    escaping global) as black splits it when it does not fit: one operand a line, the
    operator leading."""
    items = [escape.ident(name) for name in names]
    pad = " " * indent
    joined = f"{pad}{' | '.join(items)}{suffix}"
    if len(joined) <= LINE_LENGTH:
        return joined
    return "\n".join(f"{pad}{'| ' if i else ''}{item}" for i, item in enumerate(items)) + suffix


def black_def(head: str, params: str, tail: str, indent: int = 0) -> str:
    """A ``def`` line (``head`` ends with ``(``, ``tail`` starts with ``)``) as black lays it
    out: one line when it fits, else the parameters on a line of their own, else one
    parameter a line with a trailing comma. ``params`` holds no bracketed comma. Layout
    only: its arguments are text the template already escaped (:data:`LAYOUT_HELPERS`)."""
    pad, inner = " " * indent, " " * (indent + 4)
    joined = f"{pad}{head}{params}{tail}"
    if len(joined) <= LINE_LENGTH:
        return joined
    if len(inner) + len(params) <= LINE_LENGTH and "," in params:
        return f"{pad}{head}\n{inner}{params}\n{pad}{tail}"
    return "\n".join([f"{pad}{head}", *(f"{inner}{p.strip()}," for p in params.split(",")), f"{pad}{tail}"])


@functools.lru_cache(maxsize=64)
def _declares_black_layout(directory: str, template: str) -> bool:
    with open(Path(directory) / template, encoding="utf-8") as handle:
        return handle.readline().startswith(BLACK_LAYOUT_MARK)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    import jinja2

    cache_dir = disk_cache.cache_dir(f"jinja-{disk_cache.installed_version('jinja2')}")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,  # a typo in a template is an error, not empty output
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        bytecode_cache=_BytecodeCache(cache_dir) if cache_dir else None,
        auto_reload=False,  # one process renders each template once; no mtime polling
    )
    # The escaping layer (acpgen.emit.escape): one filter per output context.
    env.filters["pyrepr"] = escape.py_literal
    env.filters["ident"] = escape.ident
    env.filters["regex"] = escape.regex
    env.filters["num"] = escape.num
    env.filters["doc"] = escape.doc
    env.filters["comment"] = escape.comment
    env.globals["lit"] = escape.py_literal
    env.globals["ty"] = spell_type  # a type tree, spelled and escaped (acpgen.emit.type_spelling)
    env.globals.update(black_value=black_value, black_union=black_union, black_def=black_def)
    env.filters["tojson_sorted"] = lambda v: json.dumps(v, sort_keys=True)
    return env


def _BytecodeCache(directory: Path) -> jinja2.BytecodeCache:
    """jinja2's file bytecode cache in ``directory``; any cache trouble only costs a compile."""
    import jinja2

    class Cache(jinja2.FileSystemBytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # noqa: BLE001 - a damaged entry: compile from source
                bucket.reset()

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                directory.mkdir(parents=True, exist_ok=True)
                super().dump_bytecode(bucket)
            except OSError:
                pass

    return Cache(str(directory))


def plan_fields(plan: Any) -> dict[str, Any]:
    """The fields of a plan (a dataclass a planner built) by name: the names a template reads."""
    return {f.name: getattr(plan, f.name) for f in dataclasses.fields(plan)}


def render_plan(template: str, *plans: Any, **context: Any) -> str:
    """Render ``template`` with the fields of ``plans`` and ``context``; a name two of them
    give must have one value (a planner bug otherwise)."""
    names: dict[str, Any] = {}
    for part in (*map(plan_fields, plans), context):
        for name, value in part.items():
            if name in names and names[name] != value:
                raise AcpgenError(f"templates/{template}", f"two plans give {name!r} different values")
            names[name] = value
    return render(template, **names)


def render(template: str, **context: Any) -> str:
    import jinja2

    try:
        escape.validate_context(context)
        env = environment()
        text = env.get_template(template).render(**context)
    except escape.EscapeError as exc:
        # The IR refuses what cannot be written; reaching here is a generator bug, still
        # reported as one line naming the template.
        raise AcpgenError(f"templates/{template}", f"refused to write a value: {exc}") from None
    except jinja2.TemplateError as exc:
        name = getattr(exc, "filename", None) or template
        line = getattr(exc, "lineno", None)
        where = f"templates/{template}" + (f":{line}" if line else "")
        raise AcpgenError(where if name else template, f"template failed to render: {exc}") from None
    origin = f"templates/{template}"
    if _declares_black_layout(str(templates_dir()), template):
        return BlackLayout(text, origin)
    return Sourced(text, origin)
