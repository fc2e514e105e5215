"""The escaping layer (acpgen/emit/escape.py): every template uses it, and each escaping
function writes any string so that Python (after black) reads back exactly that string."""

from __future__ import annotations

import inspect
from pathlib import Path

import black
import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import nodes

from acpgen.emit import escape, render

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
# Templates whose output is not Python (the skeleton's README, pyproject.toml, CI YAML): they
# take only the skeleton's validated options.
NOT_PYTHON = ("skeleton/",)

# Strings that break naive escaping: quotes of every kind, backslashes, every line break
# Python or Unicode knows, NUL and control characters, bidi controls, lone surrogates.
NASTY = st.one_of(
    st.text(alphabet=st.characters(exclude_categories=("Cs",))),  # JSON input has no lone
    # surrogates: acpgen.inputs.json_limits refuses them
    st.text(alphabet=st.sampled_from(list('"\'\\\n\r\t\x00\x0b\x0c\x1c\x85\u2028\u2029\u202e a{}%#'))),
)


def _python_templates() -> list[Path]:
    return [p for p in sorted(TEMPLATES.rglob("*.jinja"))
            if not p.relative_to(TEMPLATES).as_posix().startswith(NOT_PYTHON)]


def _unsafe_interpolations(path: Path) -> list[str]:
    """Every ``{{ }}`` (and ``~`` operand) that reads a value without the escaping layer."""
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    source = path.read_text(encoding="utf-8")
    tree = env.parse(source)
    macros = {m.name for m in tree.find_all(nodes.Macro)}
    for imp in tree.find_all(nodes.FromImport):
        macros |= {n if isinstance(n, str) else n[1] for n in imp.names}
    # Template-built text, per scope (a macro's parameters and {% set %} names, or the
    # top level's {% set %} names); a loop variable is never template-built.
    scope_of: dict[int, set[str]] = {}

    def scopes(node: nodes.Node, built: set[str]) -> None:
        if isinstance(node, nodes.Macro):
            built = {a.name for a in node.args}
            for a in [*node.find_all(nodes.Assign), *node.find_all(nodes.AssignBlock)]:
                built |= {t.name for t in [a.target, *a.target.find_all(nodes.Name)]
                          if isinstance(t, nodes.Name)}
        scope_of[id(node)] = built
        for child in node.iter_child_nodes():
            scopes(child, built)

    top: set[str] = set()
    for a in [*tree.find_all(nodes.Assign), *tree.find_all(nodes.AssignBlock)]:
        top |= {t.name for t in [a.target, *a.target.find_all(nodes.Name)] if isinstance(t, nodes.Name)}
    scopes(tree, top)
    built: set[str] = set()

    def escaped(e: nodes.Node) -> bool:
        return (isinstance(e, nodes.Filter) and e.name in escape.ESCAPING_FILTERS) or (
            isinstance(e, nodes.Call) and isinstance(e.node, nodes.Name)
            and e.node.name in escape.ESCAPING_GLOBALS)

    def safe(e: nodes.Node) -> bool:
        if isinstance(e, nodes.Const) or escaped(e):
            return True
        if isinstance(e, nodes.Filter):
            return e.name in ("length", "count") or (e.node is not None and safe(e.node))
        if isinstance(e, nodes.Call) and isinstance(e.node, nodes.Name):
            if e.node.name in render.LAYOUT_HELPERS:  # layout only: every argument must be safe
                return all(safe(a) for a in e.args) and all(safe(k.value) for k in e.kwargs)
            return e.node.name in macros
        if isinstance(e, nodes.CondExpr):
            return safe(e.expr1) and (e.expr2 is None or safe(e.expr2))
        if isinstance(e, nodes.Concat):
            return all(safe(x) for x in e.nodes)
        if isinstance(e, nodes.Name):
            return e.name in built or e.name in escape.VALIDATED_CONTEXT
        if isinstance(e, nodes.Getattr) and isinstance(e.node, nodes.Name):
            return e.node.name == "loop" or (e.node.name in built and e.attr in escape.LAYOUT_PARTS)
        return False

    under_escape: set[int] = set()
    for e in tree.find_all((nodes.Filter, nodes.Call)):
        if escaped(e):
            under_escape |= {id(n) for n in e.find_all(nodes.Concat)}
    lines = source.splitlines()
    bad = []
    for out in tree.find_all(nodes.Output):
        built = scope_of[id(out)]
        bad += [e for e in out.nodes if not isinstance(e, nodes.TemplateData) and not safe(e)]
    for concat in tree.find_all(nodes.Concat):
        built = scope_of[id(concat)]
        if id(concat) not in under_escape:
            bad += [x for x in concat.nodes if not safe(x)]
    return sorted({f"{path.name}:{e.lineno}: {lines[e.lineno - 1].strip()}" for e in bad})


def test_every_template_writes_values_through_the_escaping_layer() -> None:
    found = [line for p in _python_templates() for line in _unsafe_interpolations(p)]
    assert found == []


def test_the_scan_finds_a_raw_interpolation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py.jinja"
    bad.write_text('class {{ d.name }}:\n    """{{ d.description }}"""\n    x = {{ "a" ~ d.title }}\n'
                   'ok = {{ d.name | ident }} + {{ lit(d.title) }} + {{ ("a" ~ d.title) | pyrepr }}\n')
    found = _unsafe_interpolations(bad)
    assert [f.split(":")[1] for f in found] == ["1", "2", "3"]


def _black(source: str) -> str:
    return black.format_str(source, mode=black.Mode(line_length=100))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(NASTY)
def test_a_docstring_reads_back_exactly_after_black(text: str) -> None:
    # Planners hand ``doc`` a description in cleandoc's normal form (tabs expanded).
    expected = escape.doc_text(text) or ""
    source = f'class C:\n    """{escape.doc(expected)}"""\n'
    formatted = _black(source)
    namespace: dict[str, object] = {}
    exec(compile(formatted, "<doc>", "exec"), namespace)  # noqa: S102 - our own escaped docstring
    got = namespace["C"].__doc__  # type: ignore[attr-defined]
    assert inspect.cleandoc(got or "") == expected
    if not any(line.isspace() for line in text.split("\n")) and not any(
            ch.isspace() and ch not in " \n" for ch in text):
        assert expected == (inspect.cleandoc(text) or "")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(NASTY)
def test_a_literal_reads_back_exactly_and_stays_on_one_line(text: str) -> None:
    literal = escape.py_literal(text)
    assert "\n" not in literal and "\r" not in literal
    assert eval(compile(literal, "<lit>", "eval")) == text
    assert _black(f"x = {literal}\n") == f"x = {literal}\n"  # black's own spelling
    assert eval(compile(escape.regex(text), "<re>", "eval")) == text


@settings(max_examples=300, deadline=None, database=None)
@given(NASTY)
def test_a_comment_cannot_end(text: str) -> None:
    source = f"x = 1  # {escape.comment(text)}\n"
    assert len(source.splitlines()) == 1
    assert compile(source, "<c>", "exec") is not None
    assert [line for line in source.split("\n") if line] == [source.rstrip("\n")]


def test_identifiers_numbers_and_json_values() -> None:
    assert escape.ident("session_new") == "session_new"
    for bad in ("None", "class", "a b", "x\n", "é", "", "1a", 3):
        with pytest.raises(escape.EscapeError):
            escape.ident(bad)
    assert escape.num(3) == "3" and escape.num(-0.5) == "-0.5"
    for bad_num in (float("nan"), float("inf"), True, "1"):
        with pytest.raises(escape.EscapeError):
            escape.num(bad_num)
    value = {"z": [1, None, True, "é\n"], "a": {"": 2.5}}
    literal = escape.py_literal(value)
    assert eval(literal) == value
    assert list(eval(literal)) == ["z", "a"]


def test_a_trailing_quote_is_escaped_once() -> None:
    # docstring_text used to escape a description ending in a quote twice.
    for text in ('ends with "', 'ends with """', '"starts', 'a ""quoted"" word', 'back\\"'):
        namespace: dict[str, object] = {}
        exec(_black(f'class C:\n    """{escape.doc(text)}"""\n'), namespace)  # noqa: S102
        assert namespace["C"].__doc__ == text  # type: ignore[attr-defined]
