"""What a parsed JSON input may hold before anything walks it recursively.

Two limits, both checked without recursion so that no input can crash a later stage:

- **Nesting depth** at most :data:`MAX_DEPTH` (objects and arrays). The ACP schema nests
  about a dozen levels; the metaschema validator, the IR builder and the planners all recurse,
  and Python's recursion limit would turn a deeper input into a traceback.
- **Strings** (values and member names) must be Unicode text: a lone surrogate (``"\ud800"``
  is valid JSON) cannot be written to a UTF-8 file or a docstring.
- **Numbers** must be finite: JSON has no NaN or infinity, but Python's parser accepts
  ``NaN``/``Infinity`` and reads ``1e400`` as ``inf``, none of which a Python literal (or
  JSON output) can carry exactly.
"""

from __future__ import annotations

import math
import re
from typing import Any

from acpgen.errors import AcpgenError, json_pointer

MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_json_limits(doc: Any, where: str) -> None:
    stack: list[tuple[Any, tuple[str, ...]]] = [(doc, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, (dict, list)):
            if len(path) >= MAX_DEPTH:
                raise AcpgenError(where, f"{json_pointer(*path)}: nested deeper than {MAX_DEPTH} "
                                  "levels (acpgen's documented limit)")
            if isinstance(node, dict):
                for key in node:
                    _check_text(key, (*path, key), where)
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((value, (*path, str(key))) for key, value in items)
        elif isinstance(node, str):
            _check_text(node, path, where)
        elif isinstance(node, float) and not math.isfinite(node):
            raise AcpgenError(where, f"{json_pointer(*path)}: number {node!r} is not finite "
                              "(JSON has no NaN or infinity; Python cannot write it exactly)")


def nesting_pointer(text: str, limit: int = MAX_DEPTH) -> tuple[str, ...] | None:
    """The path of the first container nested ``limit`` levels deep in JSON ``text``, found by
    scanning (no recursion): what to name when the parser itself gives up on the nesting.
    None when nothing is that deep (or the text is not JSON enough to tell)."""
    from json.decoder import scanstring  # type: ignore[attr-defined]  # public, not in the stubs

    path: list[str] = []
    kinds: list[str] = []  # the open containers, "{" or "["
    index: list[int] = []  # per open container: the member or item count so far
    key = ""
    expect_key = False
    i = 0
    try:
        while i < len(text):
            c = text[i]
            if c == '"':
                value, i = scanstring(text, i + 1)
                if kinds and kinds[-1] == "{" and expect_key:
                    key, expect_key = value, False
                continue
            if c in "{[":
                if kinds:
                    path.append(key if kinds[-1] == "{" else str(index[-1]))
                if len(path) >= limit:
                    return tuple(path)
                kinds.append(c)
                index.append(0)
                expect_key = c == "{"
            elif c in "}]" and kinds:
                kinds.pop()
                index.pop()
                del path[max(len(kinds) - 1, 0):]
                expect_key = False
            elif c == "," and kinds:
                index[-1] += 1
                expect_key = kinds[-1] == "{"
            i += 1
    except ValueError:  # a broken string: the parser's own message is better then
        return None
    return None


def _check_text(text: str, path: tuple[str, ...], where: str) -> None:
    if _SURROGATE.search(text):
        raise AcpgenError(where, f"{json_pointer(*path)}: a lone surrogate (\\u{ord(_SURROGATE.search(text)[0]):04x}) "  # type: ignore[index]
                          "is not Unicode text and cannot be written as UTF-8")
