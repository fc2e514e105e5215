"""Which methods create or take up a session is schema data (``schema.py``'s ``SESSION_SCOPES``),
not literals in the transports.

* the rows of each surface: a request whose result carries a string ``sessionId`` creates
  one (the schema says it); the manifest's ``[[takes_up_session]]`` says which take one up;
* a bad ``[[takes_up_session]]`` entry is one line naming the manifest and the entry;
* no module of ``transports/`` holds a method's wire name as a literal (an AST scan), shown
  to fail on a literal planted into a copy.
"""

from __future__ import annotations

import ast
import importlib
import shutil
from pathlib import Path

import pytest
from conftest import generated_dir, load_real_project

from acpgen.emit.runtime import session_scopes
from acpgen.emit.shipped import SHIPPED_DIR
from acpgen.errors import AcpgenError
from acpgen.load.capabilities import parse_manifest

GENERATED = generated_dir()
TRANSPORTS = SHIPPED_DIR / "runtime" / "transports"


def _scopes(package: str) -> dict[str, tuple[bool, bool]]:
    schema = importlib.import_module(f"{package}.schema")
    return {wire: (s.creates, s.takes_up) for wire, s in schema.SESSION_SCOPES.items()}


def test_each_surface_renders_which_methods_create_or_take_up_a_session() -> None:
    new, takes_up, fork = (True, False), (False, True), (True, True)
    assert _scopes("acp_v1") == {"session/new": new, "session/load": takes_up,
                                 "session/resume": takes_up}
    assert _scopes("acp_v2") == {"session/new": new, "session/resume": takes_up}
    # The unstable surfaces: fork makes a session out of one it takes up; nes/start makes one.
    assert _scopes("acp_v1_unstable") == {"session/new": new, "session/load": takes_up,
                                          "session/fork": fork, "session/resume": takes_up,
                                          "nes/start": new}
    assert _scopes("acp_v2_unstable") == {"session/new": new, "session/fork": fork,
                                          "session/resume": takes_up, "nes/start": new}


def test_a_request_whose_result_names_a_session_creates_one_without_a_manifest_row() -> None:
    project = load_real_project()
    rows = session_scopes(project.ir, {})
    assert [(r.wire, r.creates, r.takes_up) for r in rows] == [("session/new", True, False)]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('method = "session/lod"\nreason = "x"', "takes_up_session #1: unknown method 'session/lod'"),
        ('method = "session/new"\nreason = "x"',
         "takes_up_session #1: 'session/new' is no request whose params carry a sessionId"),
        ('method = "session/cancel"\nreason = "x"',
         "takes_up_session #1: 'session/cancel' is no request whose params carry a sessionId"),
        ('method = "session/load"', "takes_up_session #1: needs exactly the keys method and reason"),
        ('method = "session/load"\nreason = "  "', "needs exactly the keys method and reason (not empty)"),
    ],
)
def test_a_bad_takes_up_session_entry_is_one_line_naming_it(entry: str, message: str) -> None:
    project = load_real_project()
    root = Path(__file__).resolve().parents[1]
    blob = (root / "schema" / "capabilities.toml").read_text(encoding="utf-8")
    before = blob.split("\n[[takes_up_session]]")[0]
    with pytest.raises(AcpgenError) as caught:
        parse_manifest(project.ir, project.roster, before + f"\n[[takes_up_session]]\n{entry}\n")
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.where == "schema/capabilities.toml"


def test_a_method_listed_twice_is_refused() -> None:
    project = load_real_project()
    root = Path(__file__).resolve().parents[1]
    blob = (root / "schema" / "capabilities.toml").read_text(encoding="utf-8")
    twice = blob + '\n[[takes_up_session]]\nmethod = "session/load"\nreason = "again"\n'
    with pytest.raises(AcpgenError, match="'session/load' is listed twice"):
        parse_manifest(project.ir, project.roster, twice)


# -- no method-name literal in a transport --------------------------------------------------------


def _wire_names() -> frozenset[str]:
    names = set()
    for package in ("acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable"):
        names |= set(importlib.import_module(f"{package}.schema").METHODS)
    return frozenset(names)


def method_literals(root: Path, names: frozenset[str]) -> list[str]:
    """``file:line: 'wire'`` for every string literal of ``root``'s modules that is a method's
    wire name (docstrings left out: they may name methods to explain)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value in names and id(node) not in docstrings:
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {node.value!r}")
    return found


def test_no_transport_names_a_method() -> None:
    names = _wire_names()
    assert {"initialize", "session/new", "session/load"} <= names
    assert method_literals(TRANSPORTS, names) == []


@pytest.mark.parametrize(
    ("module", "planted"),
    [("http/server.py", 'OPENING = "initialize"'), ("endpoint.py", 'MADE = ("session/new",)'),
     ("ws/client.py", 'def f(m: str) -> bool:\n    return m == "session/resume"')],
)
def test_the_literal_scan_fails_on_a_planted_method_name(tmp_path: Path, module: str, planted: str) -> None:
    copy = tmp_path / "transports"
    shutil.copytree(TRANSPORTS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / module
    path.write_text(path.read_text(encoding="utf-8") + "\n" + planted + "\n", encoding="utf-8")
    found = method_literals(copy, _wire_names())
    assert len(found) == 1 and found[0].startswith(module), found
