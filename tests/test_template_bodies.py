"""Templates render data and signatures only: no function body in a rendered file holds logic.

Every Python file of the generated tree that a template renders (its origin in
``MANIFEST.json`` is ``templates/...``) is parsed, and each function or method body must be,
after its docstring, nothing, ``...``/``pass``, or one delegation: a ``return``, ``await``,
``raise`` or call statement of a call whose arguments are names, dotted names, literals, or
(one level deep) such calls. A body of several calls whose arguments are all literals is a
list of data too (a requirement test's checks). Anything else (a branch, a loop, a
comprehension, an assignment, two statements) is behaviour, which belongs in a shipped
module (``acpgen/shipped/``). The skeleton's templates are not in the tree: they write files
the user owns and edits, once.

The share of template lines without Jinja is printed (``-s``): what a template holds beyond
what it renders from the inputs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.origins import file_origins

from tests.conftest import PROJECT_ROOT, tree_now

TEMPLATES = PROJECT_ROOT / "templates"
_JINJA = re.compile(r"\{\{|\{%|\{#|\}\}|%\}|#\}")  # as tests/test_architecture.py counts it


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) and _literal(v) for k, v in zip(node.keys, node.values, strict=True))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _literal(node.operand)
    return False


def _dotted(node: ast.expr) -> bool:
    """``name``, ``a.b.c``, ``self.x``, ``super().x``."""
    while isinstance(node, ast.Attribute):
        node = node.value
    if isinstance(node, ast.Call):  # super().method
        return isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and not node.keywords
    return isinstance(node, ast.Name)


def _simple(node: ast.expr) -> bool:
    if isinstance(node, ast.Starred):
        return _simple(node.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_simple(e) for e in node.elts)
    return _literal(node) or _dotted(node)


def _delegation(node: ast.expr | None, nested: bool = False) -> bool:
    if isinstance(node, ast.Await):
        node = node.value
    if isinstance(node, ast.Tuple) and not nested:  # a pair of delegations
        return all(_delegation(e, nested) for e in node.elts)
    if not isinstance(node, ast.Call) or not _dotted(node.func):
        return False
    values = [*node.args, *(k.value for k in node.keywords)]
    return all(_simple(v) or (not nested and _delegation(v, nested=True)) for v in values)


def _body_ok(body: list[ast.stmt]) -> bool:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring
    if not body:
        return True
    calls = [s.value for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]
    if len(calls) == len(body) and all(_dotted(c.func) and all(_literal(a) for a in [*c.args, *(k.value for k in c.keywords)])
                                       for c in calls):
        return True  # a list of calls with literal arguments: data
    if len(body) != 1:
        return False
    (stmt,) = body
    if isinstance(stmt, ast.Pass):
        return True
    if isinstance(stmt, ast.Expr):
        return (isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis) or _delegation(stmt.value)
    if isinstance(stmt, ast.Return):
        return stmt.value is None or _simple(stmt.value) or _delegation(stmt.value)
    if isinstance(stmt, ast.Raise):
        return stmt.cause is None and _delegation(stmt.exc)
    return False


def logic_in(source: str) -> list[str]:
    """``name:line`` of every function or method whose body is more than a delegation."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _body_ok(node.body):
            found.append(f"{node.name}:{node.lineno}")
    return found


def _rendered() -> dict[str, tuple[str, str]]:
    """Every rendered Python file of the tree and of each output profile's tree: path ->
    (its template, its text)."""
    from acpgen.model.profiles import PROFILES
    from acpgen.output.generate import build_tree, options_for
    from tests.conftest import load_real_project

    files = tree_now()
    found = {rel: (origin, files[rel].decode("utf-8")) for rel, origin in file_origins(files).items()
             if origin.startswith("templates/") and rel.endswith(".py")}
    project = load_real_project()
    for name in PROFILES:
        tree = build_tree(project, options_for(project, profile=name), proven=False)
        found.update({f"--profile {name}: {rel}": (origin, tree[rel].decode("utf-8"))
                      for rel, origin in file_origins(tree).items()
                      if origin.startswith("templates/") and rel.endswith(".py")})
    return found


def test_no_rendered_function_holds_logic() -> None:
    rendered = _rendered()
    offenders = [f"{rel} (from {origin}): {where}"
                 for rel, (origin, text) in sorted(rendered.items()) for where in logic_in(text)]
    assert offenders == []
    # Every Python template of the tree is held to it (the skeleton's write the user's files).
    python_templates = {p.relative_to(PROJECT_ROOT).as_posix() for p in TEMPLATES.rglob("*.py.jinja")}
    covered = {origin for origin, _ in rendered.values()}
    assert python_templates - covered == {p for p in python_templates if p.startswith("templates/skeleton/")}


@pytest.mark.parametrize(
    ("source", "logic"),
    [
        ("def f(x):\n    return g(x)\n", False),
        ("async def f(self, p):\n    '''Doc.'''\n    return await self.send_request('w', p)\n", False),
        ("def f(self, c):\n    super().on_connect(c)\n", False),
        ("def f():\n    raise E.not_found('w')\n", False),
        ("def f(a, b):\n    return m.X(a=a, **given(b=b))\n", False),
        ("def f(a):\n    return g(a), h(a)\n", False),
        ("def f():\n    check(a=1, b=[2, 3])\n    check(c='x')\n", False),
        ("def f(x): ...\n", False),
        # Logic: what connection.py.jinja, interfaces.py.jinja and builders.py.jinja held.
        ("def f(self, r, v):\n    if r.wire != 'x':\n        return v\n    return g(v)\n", True),
        ("def f(self, c):\n    self.connection = c\n", True),
        ("def f(**m):\n    return {k: v for k, v in m.items() if v is not None}\n", True),
        ("def f(a):\n    s = g(a)\n    return s, h(a)\n", True),
        ("def f(a):\n    return g(globals()['t'](a))\n", True),
        ("def f(a):\n    return g(a + 1)\n", True),
        ("def f():\n    check(a=x)\n    check(b=1)\n", True),
    ],
)
def test_the_body_rule_tells_delegation_from_logic(source: str, logic: bool) -> None:
    assert bool(logic_in(source)) is logic


def jinja_free_share(root: Path) -> tuple[int, int]:
    """(lines holding no Jinja construct, all lines) over every template under ``root``."""
    free = total = 0
    for path in sorted(root.rglob("*.jinja")):
        lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        total += len(lines)
        free += sum(1 for line in lines if not _JINJA.search(line))
    return free, total


def test_report_the_share_of_jinja_free_template_lines() -> None:
    free, total = jinja_free_share(TEMPLATES)
    code_free, code_total = jinja_free_share(TEMPLATES)  # recomputed below without the skeleton
    skeleton_free, skeleton_total = jinja_free_share(TEMPLATES / "skeleton")
    code_free, code_total = code_free - skeleton_free, code_total - skeleton_total
    print(f"Jinja-free template lines: {free}/{total} = {free / total:.1%}; "
          f"without the skeleton's: {code_free}/{code_total} = {code_free / code_total:.1%}")
    assert 0 < free < total
