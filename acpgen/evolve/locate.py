"""The line of a JSON pointer in a JSON document's text (for editor and CI annotations).

A small scanner over the text as written (``json`` gives no positions): it records the line
where each object member's key and each array item starts, under its JSON pointer. Only what
the report points at needs it, so the text is scanned once per file and nothing is validated
beyond what finding the positions needs (the document was already parsed).
"""

from __future__ import annotations

import json

_WS = " \t\r\n"


def pointer_lines(text: str) -> dict[str, int]:
    """JSON pointer -> 1-based line of its member key (or item), ``""`` -> 1."""
    lines: dict[str, int] = {"": 1}
    pos = 0
    line = 1
    n = len(text)

    def skip() -> None:
        nonlocal pos, line
        while pos < n and text[pos] in _WS:
            if text[pos] == "\n":
                line += 1
            pos += 1

    def string() -> str:
        nonlocal pos
        end = pos + 1
        while text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        raw = text[pos:end + 1]
        pos = end + 1
        return str(json.loads(raw))

    def value(ptr: str) -> None:
        nonlocal pos
        skip()
        ch = text[pos]
        if ch == "{":
            pos += 1
            skip()
            if text[pos] == "}":
                pos += 1
                return
            while True:
                skip()
                key_line = line
                key = string()
                child = f"{ptr}/{key.replace('~', '~0').replace('/', '~1')}"
                lines[child] = key_line
                skip()
                pos += 1  # ':'
                value(child)
                skip()
                if text[pos] == ",":
                    pos += 1
                    continue
                pos += 1  # '}'
                return
        if ch == "[":
            pos += 1
            skip()
            if text[pos] == "]":
                pos += 1
                return
            index = 0
            while True:
                skip()
                child = f"{ptr}/{index}"
                lines[child] = line
                value(child)
                skip()
                index += 1
                if text[pos] == ",":
                    pos += 1
                    continue
                pos += 1  # ']'
                return
        if ch == '"':
            string()
            return
        while pos < n and text[pos] not in ",]}" + _WS:  # a number, true, false or null
            pos += 1

    try:
        value("")
    except (IndexError, ValueError):
        pass  # a document json already parsed; whatever was found so far stands
    return lines


def line_of(lines: dict[str, int], pointer: str) -> int:
    """The line of ``pointer``, or of its nearest ancestor the scan found."""
    ptr = pointer.split("#", 1)[-1].rstrip("/")
    while ptr and ptr not in lines:
        ptr = ptr.rsplit("/", 1)[0]
    return lines.get(ptr, 1)
