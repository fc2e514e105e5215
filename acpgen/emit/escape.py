"""The one escaping layer: how an input-derived value is written into generated Python.

Every value that comes from the schema or meta.json reaches generated source through exactly
one of these functions, chosen by the *context* it lands in. Each is registered as a jinja
filter (and ``lit`` as a global) by :mod:`acpgen.emit.render`:

============  ===================  =========================================================
filter        context              guarantee
============  ===================  =========================================================
``ident``     identifier           the value is a valid ASCII identifier and not a keyword
                                   (names are *decided* by :mod:`acpgen.ir.naming`; this
                                   only proves the template got one), else an error
``pyrepr``    string/JSON literal  a Python literal that evaluates to exactly the value
(``lit``)                          (any str, int, float, bool, None, list, dict); NaN and
                                   infinities are refused
``regex``     regex literal        a string literal (the pattern text, exactly)
``num``       numeric literal      an int or finite float literal (bools refused)
``doc``       docstring body       text inside ``\"\"\"...\"\"\"`` whose ``inspect.cleandoc``
                                   equals the value's, even after black reformats it
``comment``   ``#`` comment        one line; no character can end the comment
============  ===================  =========================================================

The checkable convention (``tests/test_escaping.py`` parses every template that writes
Python): an ``{{ }}`` expression is

- a constant, a ``loop`` counter, or a ``length``/``count``;
- a call of a macro (whose body is checked the same way) or of ``lit``;
- one of the filters above (anywhere in its filter chain);
- a macro parameter, a ``{% set %}`` variable, or one of a layout node's template-built parts
  (:data:`LAYOUT_PARTS`): text the templates built, where every ``~`` concatenation is itself
  checked (each operand safe, unless the whole concatenation is escaped);
- a name of :data:`VALIDATED_CONTEXT`, which :func:`acpgen.emit.render.render` validates
  with its escaping function before rendering.

Reading a context value any other way is a test failure. Skeleton templates (README, TOML,
YAML for a new project) are not Python and take only the skeleton's validated options.
"""

from __future__ import annotations

import inspect
import keyword
import math
import re
from typing import Any

# Filters the template scan accepts as the escaping of an input-derived value.
ESCAPING_FILTERS = frozenset({"ident", "pyrepr", "regex", "num", "doc", "comment"})
# black_value writes every value through py_literal, black_union every name through ident
# (acpgen.emit.render): escaping globals that also lay out what they write as black does;
# ty spells a type tree, every name through ident and every value through py_literal.
ESCAPING_GLOBALS = frozenset({"lit", "ty", "black_value", "black_union"})
# Parts of the layout nodes of templates/models/_layout.jinja that templates build (heads and
# brackets of calls, ``name=`` leads): template text, never a context value.
LAYOUT_PARTS = frozenset({"head", "open", "close", "lead", "trail", "k"})

_ASCII_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class EscapeError(ValueError):
    """A value reached a template that the IR should have refused (a generator bug)."""


def ident(name: Any) -> str:
    """An identifier the naming module produced, proven once more where it is written."""
    if not isinstance(name, str) or not _ASCII_IDENT.match(name) or keyword.iskeyword(name):
        raise EscapeError(f"not a valid Python identifier: {name!r}")
    return name


def validate_context(context: dict[str, Any]) -> None:
    """Check the context values templates may write bare (:data:`VALIDATED_CONTEXT`)."""
    for name, check in VALIDATED_CONTEXT.items():
        if name in context:
            check(context[name])


def num(value: Any) -> str:
    """An int or a finite float as a Python literal that reads back exactly."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EscapeError(f"not a number: {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise EscapeError(f"not a finite number: {value!r}")
    return repr(value)


def py_literal(value: Any) -> str:
    """A Python literal for a JSON value, spelled the way black spells it (double quotes
    unless that needs more escapes). Dict keys keep their order (the schema's order is the
    meaning a reader sees, and dicts compare equal either way). Templates that already emit
    black's layout rely on the spelling: black then finds nothing to do."""
    if isinstance(value, str):
        return _str_literal(value)
    if isinstance(value, dict):
        items = ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if value is None or isinstance(value, bool):
        return repr(value)
    return num(value)


def _str_literal(value: str) -> str:
    # repr() escapes backslashes, quotes, every non-printable character (controls, NUL, line
    # and paragraph separators, bidi controls, lone surrogates): the literal is one line of
    # printable text whatever the value holds.
    single = repr(value)
    if single.startswith('"'):
        return single  # contains ' and no ": black keeps this form
    body = single[1:-1]
    swapped = body.replace("\\'", "'").replace('"', '\\"')
    if swapped.count('\\"') > body.count("\\'"):
        return single
    return '"' + swapped + '"'


def regex(pattern: Any) -> str:
    """A regex as a plain string literal (never a raw string: a raw literal cannot end in an
    odd backslash and cannot hold every character). The IR proved the engine accepts it."""
    if not isinstance(pattern, str):
        raise EscapeError(f"not a pattern: {pattern!r}")
    return _str_literal(pattern)


def doc(text: Any) -> str:
    """Text for the inside of a ``\"\"\"`` docstring (the template writes the quotes).

    Readable where it can be (newlines stay newlines, quotes stay quotes), escaped where it
    must be: backslashes; any quote followed by another (so no run of three closes the
    string); a quote at either end (black pads those with a space, which would change the
    value) as ``\\x22``; every non-printable character (``\\r``, tabs, NUL, line separators,
    bidi controls); and the last space of each line (black strips trailing whitespace).
    For ``text`` in ``inspect.cleandoc``'s normal form (what the planners pass: tabs
    expanded, common indentation removed), ``inspect.cleandoc`` of the resulting ``__doc__``
    equals ``text``.
    """
    if not isinstance(text, str):
        raise EscapeError(f"not text: {text!r}")
    if '"' not in text and "\\" not in text and all(
        line.isprintable() and not line.endswith(" ") for line in text.split("\n")
    ):
        return text  # nothing below would change a character (most descriptions): no loop
    out: list[str] = []
    last = len(text) - 1
    for i, ch in enumerate(text):
        if ch == "\n":
            if out and out[-1] == " ":
                out[-1] = "\\x20"
            out.append(ch)
        elif ch == "\\":
            out.append("\\\\")
        elif ch == '"' and (i in (0, last)):
            out.append("\\x22")
        elif ch == '"' and text[i + 1 : i + 2] == '"':
            out.append('\\"')
        elif not ch.isprintable():
            out.append(_escape_char(ch))
        else:
            out.append(ch)
    if out and out[-1] == " ":
        out[-1] = "\\x20"
    return "".join(out)


def doc_text(text: str | None) -> str | None:
    """A description as a docstring states it: ``inspect.cleandoc``'s normal form, with blank
    lines empty (a line of only whitespace, which black would re-indent), applied until it
    changes nothing (one pass can leave a first line that starts with a line separator);
    None when empty. ``doc`` writes it so that ``inspect.cleandoc(__doc__)`` gives it back.
    The description itself is written exactly elsewhere (``Field(description=...)``)."""
    if not text:
        return None
    while True:
        cleaned = "\n".join(line if not line.isspace() else "" for line in inspect.cleandoc(text).split("\n"))
        if cleaned == text:
            return cleaned or None
        text = cleaned


def comment(text: Any) -> str:
    """Text for after a ``#``: one line of printable characters (repr's escaping)."""
    return repr(str(text))[1:-1]


def md_cell(text: Any) -> str:
    """Text for one cell of a Markdown table: one line, no character that ends the cell
    (``|``), starts markup that spans cells (a backtick) or opens HTML (``<``, ``>``, ``&``)."""
    one_line = " ".join(str(text).split())
    for raw, safe in (("\\", "\\\\"), ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("|", "\\|"), ("`", "\\`")):
        one_line = one_line.replace(raw, safe)
    return one_line


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


# Context values every template may write bare: checked once per render instead of filtered at
# each of their many uses (the package name in imports, the protocol version in headers).
VALIDATED_CONTEXT = {"package": ident, "protocol_version": num}
