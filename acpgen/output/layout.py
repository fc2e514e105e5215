"""A cheap, conservative test that black would leave a *black-layout* file unchanged.

Templates that declare black's layout (first line ``{# acpgen: black-layout #}``, see
:mod:`acpgen.emit.render`) lay out statements, blank lines, brackets and spacing the way
black does; ``tests/test_fast_format.py`` asserts that black leaves their output unchanged
on the pinned schema, on a schema twice its size and on fixtures with hostile names and
descriptions. What a template cannot control is what the *inputs* put into its output:
a long name or description can make a line black would split, a description can make a
docstring black would re-indent or pad, a character can be wider than it is long. This
module finds every such case it knows of, in one pass over the text and its AST (tens of
milliseconds, against seconds for black); when in doubt it says no, and the file goes
through black like any other. It never decides what the bytes are, only whether black may
be skipped, so a wrong "no" costs time and a wrong "yes" is what the tests guard.
"""

from __future__ import annotations

import ast
import re
import unicodedata

from acpgen.output.format import LINE_LENGTH

# Characters black or Python treat as line breaks or whitespace differently from a plain
# newline/space, and backslash continuations (black skips docstrings that hold one).
_AWKWARD = re.compile(r"[\t\r\f\v\x00\x1c-\x1e\x85\u2028\u2029]|\\\n| \n|\n\n\n\n")
# Unicode escapes black rewrites (hex digits to lowercase, \N{...} names to uppercase).
_ESCAPES = re.compile(r"\\(?:x[0-9a-fA-F]{0,1}[A-F]|u[0-9a-fA-F]{0,3}[A-F]|U[0-9a-fA-F]{0,7}[A-F]|N\{)")
# A line that is one string atom, optionally a keyword argument, optionally with its comma:
# black has no split point in it, so it stays however long it is.
_LONE_STRING = re.compile(
    r'\s*(?:[A-Za-z_][A-Za-z0-9_]*=)?'
    r'(?:[rbf]|rb|br|fr|rf)?(?:"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'),?'
)
# A single-line literal exactly as black spells it: lowercase prefix without u, double quotes.
_STRING_TOKEN = re.compile(r'(?:[rbf]|rb|br|fr|rf)?"(?:[^"\\\n]|\\.)*"')
_CONCATENATED = re.compile(
    r'(?:(?:[rbf]|rb|br|fr|rf)?"(?:[^"\\\n]|\\.)*"\n\s*)+(?:[rbf]|rb|br|fr|rf)?"(?:[^"\\\n]|\\.)*"'
)
_SINGLE_QUOTED = re.compile(r"(?:[rbf]|rb|br|fr|rf)?'((?:[^'\\\n]|\\.)*)'")
_NUMBER = re.compile(r"\d[\d_]*(?:\.\d[\d_]*)?(?:e[+-]?\d+)?|0x[0-9A-F_]+")


def black_layout(text: str) -> str | None:
    """``text`` itself when this check proves black would leave it unchanged, else None: the
    file then goes through black, whole. One authority decides a file's bytes: the template
    when this says yes, black otherwise.

    Everything the inputs can change is checked here; the few statements whose line breaks
    black chooses by length are handed to black on their own (:func:`_black_statements`),
    and must come back unchanged. The check never writes a byte: a statement black lays
    out otherwise makes the answer no (``tests/test_fast_format.py`` holds the templates to
    a yes on the pinned schema and on one twice its size)."""
    if not text.endswith("\n") or text.startswith("\n") or text.endswith("\n\n"):
        return None
    if _AWKWARD.search(text) or _ESCAPES.search(text):
        return None
    if not text.isascii() and not _narrow(text):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None  # black reports it, with its own message
    lines = text.split("\n")
    strings, numbers, blocks = _collect(tree)
    if not _literals_ok(strings, numbers, lines) or not _docstrings_ok(blocks, lines):
        return None
    uncertain = _uncertain_splits(blocks, strings, lines)
    if uncertain is None or sum(last - first + 1 for first, last, _ in uncertain) > max(len(lines) // 4, 40):
        return None  # black on the whole file costs about as much as on a quarter of it
    checked = {n for first, last, _ in uncertain for n in range(first, last + 1)}
    inside = _string_lines(strings, lines)
    for number, line in enumerate(lines, start=1):
        if len(line) > LINE_LENGTH and number not in inside | checked and not _LONE_STRING.fullmatch(line) \
                and not line.lstrip().startswith("#"):  # black never wraps a comment
            # A long line black may split (or may not: a trailing pragma comment, say): its
            # statement is laid out by black like the other uncertain ones.
            around = [span for span in _statement_spans(blocks, lines) if span[0] <= number <= span[1]]
            if not around:
                return None
            span = min(around, key=lambda span: span[1] - span[0])
            uncertain.append(span)
            checked.update(range(span[0], span[1] + 1))
    if not uncertain:
        return text
    # black checks those statements, it does not write them: the template's bytes stand only
    # if black lays every one of them out exactly so, else black formats the whole file.
    formatted = _black_statements(uncertain, lines)
    if formatted is None:
        return None
    for (first, last, _), statement in zip(uncertain, formatted):
        if statement != lines[first - 1: last]:
            return None
    return text


_CUT = "_acpgen_layout_cut = 0"


def _black_statements(spans: list[tuple[int, int, bool]], lines: list[str]) -> list[list[str]] | None:
    """black's layout of each of these statements, formatting only them.

    black formats every logical line on its own, from its text, its depth and the mode (the
    surrounding statements only decide the blank lines around it, which a black-layout
    template already has right and which do not depend on how the statement is split). So
    each statement is set at its own depth under ``if _:`` headers, a compound statement's
    header gets a ``pass`` body, and all of them go through black in one small module:
    one run on a few statements instead of the file."""
    from acpgen.output.format import format_memoised

    chunks = []
    for first, last, header in spans:
        own = lines[first - 1: last]
        indent = len(own[0]) - len(own[0].lstrip())
        if indent % 4 or any(not line.strip() for line in own):
            return None
        wrapper = [" " * (4 * i) + "if _:" for i in range(indent // 4)]
        body = [" " * (indent + 4) + "pass"] if header else []
        chunks.append("\n".join([*wrapper, *own, *body, _CUT]))
    try:
        formatted = format_memoised("layout check", "\n".join(chunks) + "\n")
    except Exception:  # noqa: BLE001 - black refuses the snippet: let black judge the file
        return None
    parts = formatted.split(_CUT + "\n")
    if len(parts) != len(spans) + 1 or parts[-1].strip():
        return None
    statements = []
    for (first, last, header), part in zip(spans, parts):
        got = [line for line in part.split("\n") if line.strip()]
        depth = (len(lines[first - 1]) - len(lines[first - 1].lstrip())) // 4
        if got[:depth] != [" " * (4 * i) + "if _:" for i in range(depth)]:
            return None
        got = got[depth: len(got) - (1 if header else 0)]
        if not got or len(got[0]) - len(got[0].lstrip()) != 4 * depth:
            return None
        statements.append(got)
    return statements


def _narrow(text: str) -> bool:
    """Every character is one column wide, so ``len`` is black's width (black counts East
    Asian wide characters as two columns and combining ones as none)."""
    for char in set(text):
        if ord(char) < 128:
            continue
        if unicodedata.combining(char) or unicodedata.east_asian_width(char) in ("W", "F"):
            return False
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Zs"):
            return False  # control, format and odd space characters: let black judge
    return True


# Nodes with nothing below them that _collect looks for (names, contexts, operators): not walked.
_LEAVES = (ast.Name, ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop, ast.alias)
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody"})


def _collect(tree: ast.AST) -> tuple[list[ast.expr], list[ast.Constant], list[list[ast.stmt]]]:
    """One walk: string literals (not those inside f-string expressions, which black leaves
    alone), number literals, and every statement block. (``ast.iter_child_nodes``, inlined:
    this walk is a third of the layout check.)"""
    strings: list[ast.expr] = []
    numbers: list[ast.Constant] = []
    blocks: list[list[ast.stmt]] = []
    todo: list[ast.AST] = [tree]
    constant, joined, node_type, leaves = ast.Constant, ast.JoinedStr, ast.AST, _LEAVES
    while todo:
        node = todo.pop()
        if isinstance(node, constant):
            if isinstance(node.value, (str, bytes)):
                strings.append(node)
            elif isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool):
                numbers.append(node)
            continue
        if isinstance(node, joined):
            strings.append(node)
            continue
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                if not value:
                    continue
                if name in _BLOCK_FIELDS and isinstance(value[0], ast.stmt):
                    blocks.append(value)
                todo.extend(v for v in value if isinstance(v, node_type) and not isinstance(v, leaves))
            elif isinstance(value, node_type) and not isinstance(value, leaves):
                todo.append(value)
    return strings, numbers, blocks


def _segment(lines: list[str], node: ast.expr) -> str:
    """The source of a node (col offsets are UTF-8 byte offsets)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if first == last:
        return lines[first].encode("utf-8")[node.col_offset:node.end_col_offset].decode("utf-8")
    head = lines[first].encode("utf-8")[node.col_offset:].decode("utf-8")
    tail = lines[last].encode("utf-8")[:node.end_col_offset].decode("utf-8")
    return "\n".join([head, *lines[first + 1:last], tail])


def _literals_ok(strings: list[ast.expr], numbers: list[ast.Constant], lines: list[str]) -> bool:
    """Strings and numbers are already spelled as black spells them."""
    for node in strings:
        source = _segment(lines, node)
        plain = source[1:] if source.startswith('r"""') else source
        if (plain.startswith('"""') and plain.endswith('"""') and '"""' not in plain[3:-3]) \
                or _STRING_TOKEN.fullmatch(source):
            continue  # one literal in black's spelling (docstrings are checked on their own)
        if _CONCATENATED.fullmatch(source):
            continue  # implicit concatenation, one literal per line, each in black's spelling
        single = _SINGLE_QUOTED.fullmatch(source)
        # black keeps single quotes only when double quotes would need more escapes.
        if isinstance(node, ast.JoinedStr) or single is None:
            return False
        body = single.group(1)
        if '"' not in body or "\\'" in body:
            return False
    return all(_NUMBER.fullmatch(_segment(lines, node)) for node in numbers)


_OPENS = ("(", "[", "{")
_CLOSES = (")", "]", "}")
_DOUBLE_CLOSES = {a + b for a in _CLOSES for b in _CLOSES}
# A trailing comma before a closing bracket on one line is magic (black explodes the bracket)
# except in a one-element tuple of a simple atom: ``("a",)``.
_JOINED_COMMA = re.compile(r",\s*[)\]}]")
_ONE_TUPLE = re.compile(r'\((?:"(?:[^"\\]|\\.)*"|[\w.]+),\)')
_CALL_OPEN = re.compile(r".*[\w)\]]\($")


def _statement_spans(blocks: list[list[ast.stmt]], lines: list[str]) -> list[tuple[int, int, bool]]:
    """(first, last, is a header) lines of every simple statement and compound statement header."""
    spans = []
    for block in blocks:
        for stmt in block:
            first = stmt.lineno  # a def or class: the keyword's line, after any decorators
            body = getattr(stmt, "body", None)
            start = body[0] if isinstance(body, list) and body else None
            header = isinstance(start, ast.stmt)
            if isinstance(start, ast.stmt):
                own_line = lines[start.lineno - 1]
                if len(own_line) - len(own_line.lstrip()) == start.col_offset:
                    last = start.lineno - 1  # the body starts on a line of its own
                    while last > first and not lines[last - 1].rstrip().endswith(":"):
                        last -= 1  # comments between the header and the body
                else:
                    header = False  # ``def f(...) -> T: ...``: the body is on the header's line
                    last = stmt.end_lineno or first
            else:
                last = stmt.end_lineno or first
            spans.append((first, last, header))
    return spans


def _uncertain_splits(
    blocks: list[list[ast.stmt]], strings: list[ast.expr], lines: list[str]
) -> list[tuple[int, int, bool]] | None:
    """The statements whose splits are not certainly black's, or None when a line holds a
    magic trailing comma black would explode.

    Certainly black's: a statement on one line, or split only where black's split does not
    depend on lengths the inputs bring, or depends on them in a way checked here:

    * exploded at a magic trailing comma (one item per line, the closing bracket after a
      comma): black keeps it so whatever the lengths, except a one-item tuple or subscript;
    * hugged: the opening bracket ends a line, the whole body is the next line (no trailing
      comma), the closing bracket starts the line after; black does exactly this when the
      joined line is too long and the body fits, for the first bracket of a ``def`` and the
      last bracket of a call that is not behind an assignment, ``return`` and the like
      (black's optional parentheses make those a choice).

    Any other split (at an operator, around an annotation) is black's choice by length: those
    statements are checked by black itself (:func:`_black_statements`)."""
    in_string: set[int] = set()  # line k: the break after line k is inside a multi-line string
    for node in strings:
        end = node.end_lineno or node.lineno
        in_string.update(range(node.lineno, end))
    for line in lines:
        if ("," in line and _JOINED_COMMA.search(line)
                and len(_JOINED_COMMA.findall(line)) != len(_ONE_TUPLE.findall(line))):
            return None
    return [span for span in _statement_spans(blocks, lines)  # one line: certain (no break)
            if span[0] != span[1] and not _span_certain(span[0], span[1], lines, in_string)]


def _span_certain(first: int, last: int, lines: list[str], in_string: set[int]) -> bool:
    stack: list[list[int]] = []  # per open bracket: [one item stays exploded, items]
    k = first
    hug_closer = 0  # the line that closes a hugged bracket (not one on the stack)
    while k < last:  # the break after line k
        if k in in_string:
            k += 1
            continue
        before = lines[k - 1].rstrip()
        after = lines[k].lstrip()
        if before.lstrip()[:2] in _DOUBLE_CLOSES:
            return False  # black closes one bracket per line
        if before.lstrip().startswith(_CLOSES) and k != hug_closer and stack and not _close(stack):
            return False
        if after.startswith("| ") and stack:
            end = _union_item_end(lines, k, last)
            if end is None:
                return False  # a split at an operator black may not make
            k = end  # the break after the item's last line (its comma) is an item break
            continue
        if before.endswith(_OPENS) and _hugged(lines, k, first, bool(stack)):
            k += 2  # head, body: go on with the break after the closing line
            hug_closer = k
            continue
        if before.endswith(_OPENS):
            stack.append([_one_item_stays(before), 0])
        elif before.endswith(","):
            if not stack or _top_level_commas(before) != 1:
                return False  # two items on one line of an exploded bracket
            stack[-1][1] += 1
        elif not before.lstrip().startswith("#"):
            return False  # a split at an operator or inside an expression
        if after.startswith(_CLOSES) and not (before.endswith(",") or before.lstrip().startswith("#")):
            return False  # no magic trailing comma: black may join the bracket
        k += 1
    if last > first and lines[last - 1].lstrip().startswith(_CLOSES) and last != hug_closer \
            and stack and not _close(stack):
        return False
    return not stack  # else a bracket opened at a line end closes inside a line: black re-splits


_OPERAND = re.compile(r"[A-Za-z_][\w.]*(?:\[\]|\(\))*")


def _union_item_end(lines: list[str], k: int, last: int) -> int | None:
    """The last line of the item of an exploded bracket that starts at line k, if it is a
    ``|`` chain split as black splits it, else None.

    Such an item (``A``, ``| B``, ..., ``| Z,``: one operand a line, the operator leading,
    the trailing comma on the last) is what black makes of an item too long for its line:
    it splits at the item's lowest-priority delimiter, here ``|`` (each operand is a name
    with bracketed trailers, so it holds no other delimiter at its depth), and keeps each
    operand line that fits as it is. So: every line fits, no line opens or closes a bracket
    it does not close or open, and the joined item does not fit."""
    if k < 2 or not lines[k - 2].rstrip().endswith((",", *_OPENS)):
        return None  # not the first line of an item
    head = lines[k - 1]
    indent = head[: len(head) - len(head.lstrip())]
    operands = [head.strip()]
    j = k + 1
    while j <= last and lines[j - 1].startswith(indent + "| "):
        operands.append(lines[j - 1][len(indent) + 2:].rstrip())
        if operands[-1].endswith(","):
            break
        j += 1
    else:
        return None  # the chain ends without the item's trailing comma
    operands[-1] = operands[-1][:-1]
    if any(len(lines[n - 1]) > LINE_LENGTH for n in range(k, j + 1)):
        return None
    if not all(_OPERAND.fullmatch(_depth_zero(op) or "?") for op in operands):
        return None
    if len(indent + " | ".join(operands) + ",") <= LINE_LENGTH:
        return None  # black joins it
    return j


def _depth_zero(text: str) -> str | None:
    """``text`` with the inside of every bracket (and every string) removed: ``A[]()``; None
    when its brackets do not balance or it holds a comment."""
    out: list[str] = []
    depth = 0
    for char in _STRING_BODY.sub('""', text):
        if char in "([{":
            if depth == 0:
                out.append(char)
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                out.append(char)
        elif char == "#" or char == "'":
            return None  # a comment, or a quote this scan does not read
        elif depth == 0:
            out.append(char)
    return "".join(out) if depth == 0 else None


_NO_HUG = re.compile(r"\s*(?:return|assert|del|raise|yield|await|if|elif|while|for|with|async|import|from)\b")
_STRING_BODY = re.compile(r'"(?:[^"\\]|\\.)*"')


def _hugged(lines: list[str], k: int, first: int, nested: bool) -> bool:
    """Lines k, k+1, k+2 are ``head(`` / body / ``)tail`` as black lays out a bracket whose
    body fits on a line of its own but not together with head and tail: the parameters of
    a ``def``; a call or subscript that starts a statement with no optional parentheses
    around it (not behind ``=``, ``return`` and the like), or that is an item of an exploded
    bracket. (A tuple, list, set or dict display with a comma is exploded instead.)"""
    if k + 1 >= len(lines):
        return False
    head, body, tail = lines[k - 1].rstrip(), lines[k], lines[k + 1].strip()
    if body.rstrip().endswith((",", *_OPENS)) or body.lstrip().startswith(("#", *_CLOSES)):
        return False
    if len(body) > LINE_LENGTH:
        return False
    if k == first and head.lstrip().startswith(("def ", "async def ", "class ")):
        if _top_level_commas(body) < 1:
            return False  # black adds a trailing comma to a lone parameter, then explodes it
        if not re.fullmatch(r"\)(?: -> .+)?:(?: \.\.\.)?", tail):
            return False
    else:
        if not _SUBSCRIPT_OR_CALL.match(head) or not re.fullmatch(r"[)\]],?", tail):
            return False
        if k == first:
            if _NO_HUG.match(head) or " = " in _STRING_BODY.sub('""', head) or ": " in head:
                return False  # optional parentheses: black chooses by length
            if tail.endswith(","):
                return False
        elif not nested:
            return False
    return len(head + body.strip() + tail) > LINE_LENGTH


_SUBSCRIPT_OR_CALL = re.compile(r"\s*[\w.]+(?:=[\w.]+)?[(\[]$")


def _top_level_commas(line: str) -> int:
    """Commas outside brackets and strings in one line."""
    depth = count = 0
    for char in _STRING_BODY.sub('""', line.lstrip().lstrip(")]}")):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            count += 1
    return count


def _close(stack: list[list[int]]) -> bool:
    one_stays, items = stack.pop()
    return items > 1 or bool(one_stays)


def _one_item_stays(line: str) -> bool:
    """black keeps an exploded bracket with one item and a trailing comma for a call or a
    list/dict/set display, and joins it back for a tuple (the comma makes the tuple) or a
    subscript."""
    after_name = bool(_CALL_OPEN.match(line[:-1] + "("))
    return (line.endswith("(") and after_name) or (line.endswith("[") and not after_name) \
        or line.endswith("{")


def _string_lines(strings: list[ast.expr], lines: list[str]) -> set[int]:
    """Line numbers black cannot split because they continue a multi-line string that the
    line itself opens with (``\"\"\"text``) or that ends the line (``text\"\"\"``)."""
    inside: set[int] = set()
    for node in strings:
        end = node.end_lineno or node.lineno
        if not isinstance(node, ast.Constant) or end == node.lineno:
            continue
        inside.update(range(node.lineno + 1, end))
        if not lines[node.lineno - 1].encode("utf-8")[: node.col_offset].strip():
            inside.add(node.lineno)  # the string starts the line: nothing before it to split
        if len(lines[end - 1].encode("utf-8")) == node.end_col_offset:
            inside.add(end)  # nothing after the closing quotes (docstrings: checked on their own)
    return inside


def _docstrings_ok(blocks: list[list[ast.stmt]], lines: list[str]) -> bool:
    """Every string in a position black treats as a docstring (the first statement of the
    module or of any block: a superset of black's rule) is already in black's form."""
    for block in blocks:
        first = block[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        node = first.value
        end = node.end_lineno or node.lineno
        opening = lines[node.lineno - 1]
        indent = opening[: node.col_offset]
        start = node.col_offset + opening[node.col_offset:].startswith('r"""')  # a raw docstring
        if indent.strip() or len(indent) % 4 or not opening[start:].startswith('"""'):
            return False  # not a plain triple-quoted docstring on its own line
        closing = lines[end - 1]
        if not closing.endswith('"""') or len(closing.encode("utf-8")) != node.end_col_offset:
            return False
        if end == node.lineno:
            body = opening[start + 3: -3]
            if not body or body != body.strip():
                return False
            body_lines = [body]
        else:
            body_lines = [opening[start + 3:], *lines[node.lineno: end - 1], closing[:-3]]
            if not _fixed_docstring(body_lines, indent):
                return False
            if len(body_lines[-1]) + 3 > LINE_LENGTH:
                return False  # black would move the closing quotes to a line of their own
        body = "\n".join(body_lines)
        if body.startswith('"') or body.endswith(('"', "\\")):
            return False  # black pads these
    return True


def _fixed_docstring(body_lines: list[str], indent: str) -> bool:
    """black's PEP 257 re-indentation (strip the first line, re-indent the rest by their
    common indentation) leaves these lines as they are."""
    first, rest = body_lines[0], body_lines[1:]
    if first != first.strip() and first.strip():
        return False
    if not first.strip() and first:
        return False
    common = min((len(line) - len(line.lstrip()) for line in rest if line.strip()), default=None)
    if common is not None and common != len(indent):
        return False
    for i, line in enumerate(rest):
        last = i == len(rest) - 1
        if line.strip():
            continue
        if line != (indent if last else ""):
            return False  # an empty middle line is "", the closing line is the indent
    return True
