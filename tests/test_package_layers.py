"""Every generated package is a one-way stack (docs/architecture.md, "The generated package").

The layers, lowest first:

* ``contract``: the shipped modules the rendered data is written in (``contract.py``,
  ``model_base.py``); they import nothing else of the package;
* ``bottom``: the rendered data, ``models.py`` and ``schema.py``;
* ``middle``: every other shipped module of the package and its ``transports/`` (all
  behaviour: every transport takes the connection class it runs, none names the façade);
* ``top``: every other rendered module (the typed façade, ``remote.py`` included);
* ``consumer``: the shipped code written on top of the package (``examples/``, ``contrib/``
  against the façade; ``trace/`` and the ``conformance/`` checks it uses).

An import may only run down (or stay in its layer); the middle reads the bottom only through
``schema.py`` and only the names the contract's stub (``acpgen/shipped/runtime/schema.pyi``)
declares; no private name (``_x``) crosses a layer; the package's import graph has no cycle
(``TYPE_CHECKING`` and function-level imports included). The scan reads the tree this
checkout generates now, and is shown to fail on planted violations in a copy of it.
"""

from __future__ import annotations

import ast
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from acpgen.emit.shipped import SHIPMENTS, SHIPPED_DIR, shipped_files
from tests.conftest import generated_dir

RANK = {"contract": 0, "bottom": 1, "middle": 2, "top": 3, "consumer": 4}
CONTRACT = frozenset({"contract", "model_base"})
BOTTOM = frozenset({"models", "schema"})
# Shipped subpackages written on top of the package: the examples and contrib (against its
# face), and the trace tools with the kit's transcript checks they judge with (docs/traces.md).
CONSUMERS = ("examples", "contrib", "trace", "conformance")
STUB = SHIPPED_DIR / "runtime" / "schema.pyi"


def _shipped_runtime() -> frozenset[str]:
    """The dotted module names shipped verbatim into the middle layer (``sides``,
    ``transports.http.server``, ...): the package's own modules and its transports."""
    names = set()
    for shipment in SHIPMENTS:
        source = shipment.source
        if source == "runtime" or source.startswith("runtime/transports"):
            prefix = [*source.split("/")[1:]]
            for name in shipped_files(shipment):
                stem = name.removesuffix(".py")
                names.add(".".join(prefix if stem == "__init__" else [*prefix, stem]))
    return frozenset(names)


def layer(module: str, shipped: frozenset[str]) -> str:
    """The layer of ``module`` (dotted, relative to the package: ``sides``, ``examples.client``)."""
    if module.split(".")[0] in CONSUMERS:
        return "consumer"
    if module in shipped:
        return "contract" if module in CONTRACT else "middle"
    return "bottom" if module in BOTTOM else "top"


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    names: tuple[str, ...]  # the names taken (``from x import a, b``), or () for a module import
    line: int


def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _resolve(target: str, known: set[str]) -> str | None:
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def scan(package: Path) -> list[Edge]:
    """Every import between modules of ``package`` (the package itself is the module "")."""
    modules = _modules(package)
    known = set(modules)
    edges = []
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                    base = [*anchor, *(node.module.split(".") if node.module else [])]
                elif node.module and node.module.split(".")[0] == package.name:
                    base = node.module.split(".")[1:]
                else:
                    continue
                base_name = ".".join(p for p in base if p)
                for alias in node.names:
                    sub = _resolve(".".join(p for p in (base_name, alias.name) if p), known)
                    if sub is not None and sub != base_name:  # ``from . import guards``: a module
                        edges.append(Edge(name, sub, (), node.lineno))
                    else:
                        edges.append(Edge(name, base_name, (alias.name,), node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == package.name:
                        target = _resolve(".".join(alias.name.split(".")[1:]), known) or ""
                        edges.append(Edge(name, target, (), node.lineno))
    return [e for e in edges if e.importer != e.imported]


def _stub_names() -> frozenset[str]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
    return frozenset(names)


def _private_attributes(path: Path) -> list[tuple[int, str]]:
    """``x._name`` anywhere in a module (a private name reached through an object)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append((node.lineno, node.attr))
    return found


def _cycle(edges: list[Edge]) -> list[str] | None:
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.importer, set()).add(e.imported)
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt] if nxt in path else [node, nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def violations(package: Path, shipped: frozenset[str] | None = None) -> list[str]:
    """Every import of ``package`` that breaks the stack, one line each."""
    shipped = _shipped_runtime() if shipped is None else shipped
    stub = _stub_names()
    modules = _modules(package)
    edges = scan(package)
    problems = []
    for e in edges:
        src, dst = layer(e.importer, shipped), layer(e.imported, shipped)
        where = f"{package.name}/{modules[e.importer].relative_to(package)}:{e.line}"
        if RANK[dst] > RANK[src]:
            problems.append(f"{where}: {src} {e.importer!r} imports {dst} {e.imported!r} (upwards)")
        elif src == "middle" and dst == "bottom":
            if e.imported != "schema" or not e.names:
                problems.append(f"{where}: middle {e.importer!r} imports {e.imported!r} outside the contract "
                                "(only names of schema.py that schema.pyi declares)")
            else:
                extra = sorted(set(e.names) - stub)
                if extra:
                    problems.append(f"{where}: middle {e.importer!r} takes {extra} from schema.py, "
                                    "which the contract's stub (schema.pyi) does not declare")
        if src != dst:
            private = [n for n in e.names if n.startswith("_")]
            if private:
                problems.append(f"{where}: private {private} crosses from {dst} {e.imported!r} to {src} {e.importer!r}")
    for name, path in modules.items():
        if layer(name, shipped) == "top":
            for line, attr in _private_attributes(path):
                problems.append(f"{package.name}/{path.relative_to(package)}:{line}: the façade reaches "
                                f"the private {attr!r}")
    cycle = _cycle(edges)
    if cycle:
        problems.append(f"{package.name}: import cycle {' -> '.join(cycle)}")
    return problems


def pair_counts(package: Path, shipped: frozenset[str] | None = None) -> Counter[tuple[str, str]]:
    """How many (importer, imported) module pairs run between each two layers."""
    shipped = _shipped_runtime() if shipped is None else shipped
    pairs = {(e.importer, e.imported) for e in scan(package)}
    return Counter((layer(a, shipped), layer(b, shipped)) for a, b in pairs)


def _packages() -> list[Path]:
    root = generated_dir()
    return sorted(p.parent for p in root.glob("*/schema.py"))


def test_every_generated_package_is_a_one_way_stack() -> None:
    packages = _packages()
    assert [p.name for p in packages] == ["acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable"]
    for package in packages:
        assert violations(package) == [], package.name
        counts = pair_counts(package)
        # The seam is used in the allowed direction (the stack is not vacuous) ...
        assert counts[("middle", "bottom")] > 0 and counts[("top", "middle")] > 0
        assert counts[("bottom", "contract")] > 0
        # ... and in no other.
        assert not [k for k in counts if RANK[k[1]] > RANK[k[0]]], counts


def test_every_name_of_the_contract_stub_is_in_each_rendered_schema() -> None:
    for package in _packages():
        tree = ast.parse((package / "schema.py").read_text(encoding="utf-8"))
        defined = {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        assert _stub_names() - defined == set(), package.name


def test_every_transport_is_in_the_middle_and_the_facade_stubs_are_gone() -> None:
    shipped = _shipped_runtime()
    transports = sorted(m for m in shipped if m.split(".")[0] == "transports")
    # stdio, the spawned peer, in memory, both remote profiles (server and client each).
    for module in ("transports.stdio", "transports.spawn", "transports.in_memory",
                   "transports.http.server", "transports.http.client",
                   "transports.ws.server", "transports.ws.client"):
        assert module in transports
    assert {layer(m, shipped) for m in transports} == {"middle"}
    # The shipped code type-checks against the contract's stub of schema.py alone: no stub of
    # a façade module (connection.pyi, interfaces.pyi) stands in for a rendered one.
    assert sorted(p.name for p in (SHIPPED_DIR / "runtime").rglob("*.pyi")) == ["schema.pyi"]
    for package in _packages():
        assert not (package / "remote").exists(), package.name  # remote.py is the façade's


def _copy(tmp_path: Path) -> Path:
    package = tmp_path / "acp_v1"
    shutil.copytree(generated_dir() / "acp_v1", package, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def _plant(path: Path, line: str) -> None:
    text = path.read_text(encoding="utf-8")
    head, sep, rest = text.partition("\nfrom __future__ import annotations\n")
    if not sep:  # no future import: after the docstring
        head, sep, rest = text.partition('"""\n\n')
    path.write_text(head + sep + line + "\n" + rest, encoding="utf-8")


@pytest.mark.parametrize(
    ("module", "line", "expected"),
    [
        # Today's (before the stack) edges, each planted back into a copy of the tree.
        ("sides.py", "from .interfaces import Agent", "imports top 'interfaces' (upwards)"),
        ("sides.py", "from .models import ClientCapabilities", "outside the contract"),
        ("guards.py", "from .schema import MethodName", "does not declare"),
        ("connection.py", "from acp_v1.sides import _params", "private ['_params'] crosses"),
        ("schema.py", "from acp_v1.lenient import validate_lenient", "bottom 'schema' imports middle 'lenient'"),
        ("models.py", "from acp_v1 import guards", "bottom 'models' imports middle 'guards'"),
        ("interfaces.py", "from acp_v1 import launch", "import cycle"),
        # A transport taking the façade's classes instead of being handed one.
        ("transports/http/server.py", "from ...connection import AgentSideConnection",
         "middle 'transports.http.server' imports top 'connection' (upwards)"),
        ("transports/ws/client.py", "from acp_v1.interfaces import Client",
         "middle 'transports.ws.client' imports top 'interfaces' (upwards)"),
        ("transports/stdio.py", "from ..remote import agent_app",
         "middle 'transports.stdio' imports top 'remote' (upwards)"),
    ],
)
def test_the_scan_fails_on_a_planted_violation(tmp_path: Path, module: str, line: str, expected: str) -> None:
    package = _copy(tmp_path)
    assert violations(package) == []
    _plant(package / module, line)
    found = violations(package)
    assert any(expected in v for v in found), found


def test_the_scan_fails_on_the_facade_reaching_a_private_attribute(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    path = package / "connection.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("await self.send_request(", "await self._call(", 1), encoding="utf-8")
    assert any("the façade reaches the private '_call'" in v for v in violations(package))
