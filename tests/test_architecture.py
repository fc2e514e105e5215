"""The package layout is the pipeline: no import cycles, commands imported directly.

The import graph is read from the source (every ``import``/``from`` statement, including
those under ``TYPE_CHECKING`` and inside functions), so a cycle hidden in a function body or
behind a type-checking guard still counts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ACPGEN = Path(__file__).resolve().parents[1] / "acpgen"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ACPGEN.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ACPGEN.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for target in targets:
            # The longest known module that the target names (a.b.c -> a.b if c is an attribute).
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target != "acpgen":
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.slow
def test_acpgen_has_no_import_cycle() -> None:
    graph = _graph()
    assert graph.get("acpgen.cli.main"), "the graph reader found nothing"
    assert _cycles(graph) == []


@pytest.mark.slow
def test_the_cli_imports_its_commands_directly() -> None:
    for path in (ACPGEN / "cli").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "__import__" not in source and "import_module" not in source, path.name
    graph = _graph()
    assert {"acpgen.cli.evolve", "acpgen.cli.skeleton"} <= graph["acpgen.cli.main"]


# The pipeline's stages, numbered as in their docstrings and docs/architecture.md.
STAGES = ("inputs", "ir", "load", "model", "emit", "output")
# Every top-level part of acpgen and its rank: a module imports only from lower ranks (or its
# own package). The base modules and the shipped code (which imports nothing of acpgen) are
# below everything; the commands beside the pipeline come after it.
RANKS = {
    "errors": 0, "disk_cache": 0, "shipped": 0,
    **{stage: number for number, stage in enumerate(STAGES, start=1)},
    # imports nothing of acpgen (its roster parser is acpgen.inputs.roster's); shipped to skeletons
    "pytest_plugin": 0,
    "evolve": 7, "skeleton": 7,
    "cli": 8, "__main__": 9,
}


def _part(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def _back_edges(graph: dict[str, set[str]], ranks: dict[str, int]) -> list[str]:
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items() for target in targets
        if _part(module) != _part(target) and ranks[_part(target)] >= ranks[_part(module)]
    )


def test_no_edge_runs_back_up_the_pipeline() -> None:
    graph = _graph()
    parts = {_part(m) for m in graph if m != "acpgen"}
    assert parts == set(RANKS), "place every part of acpgen in RANKS"
    assert _back_edges(graph, RANKS) == []


def test_the_back_edge_finder_finds_one() -> None:
    graph = {"acpgen.inputs.lock": {"acpgen.load.project"}, "acpgen.load.project": {"acpgen.inputs.lock"}}
    assert _back_edges(graph, RANKS) == ["acpgen.inputs.lock -> acpgen.load.project"]
    assert _back_edges({"acpgen.shipped.a": {"acpgen.errors"}}, RANKS) == ["acpgen.shipped.a -> acpgen.errors"]


def test_stage_numbers_agree_in_code_and_docs() -> None:
    table = (ACPGEN.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for number, stage in enumerate(STAGES, start=1):
        doc = ast.get_docstring(ast.parse((ACPGEN / stage / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert doc.startswith(f"Stage {number}, {stage}:"), stage
        assert f"| {number}. {stage} | `acpgen/{stage}/` |" in table, stage
    for path in ACPGEN.rglob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        for found in re.findall(r"^Stage (\d), (\w+):", doc):
            assert found == (str(STAGES.index(found[1]) + 1), found[1]), path


def test_each_stage_is_a_subpackage() -> None:
    stages = {p.name for p in ACPGEN.iterdir() if (p / "__init__.py").is_file()}
    assert {*STAGES, "evolve", "skeleton", "pytest_plugin", "cli", "shipped"} <= stages
    loose = sorted(p.name for p in ACPGEN.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "disk_cache.py", "errors.py"], loose


TEMPLATES = ACPGEN.parent / "templates"
MAX_JINJA_FREE_RUN = 40
_JINJA = re.compile(r"\{\{|\{%|\{#|\}\}|%\}|#\}")


def _longest_jinja_free_run(text: str) -> tuple[int, int]:
    """(length, first line) of the longest run of lines holding no Jinja tag or tag end (a
    tag spanning lines counts on its first and last line)."""
    best, start, run = 0, 0, 0
    for number, line in enumerate(text.split("\n"), start=1):
        run = 0 if _JINJA.search(line) else run + 1
        if run > best:
            best, start = run, number - run + 1
    return best, start


def test_templates_hold_only_what_varies() -> None:
    """Fixed code lives as real Python in acpgen/shipped/ and is copied verbatim; a template
    holds what varies with the inputs, so no run of more than 40 lines in it lacks a Jinja
    construct (a longer one is fixed Python wearing a template)."""
    heavy = []
    for path in sorted(TEMPLATES.rglob("*.jinja")):
        length, first = _longest_jinja_free_run(path.read_text(encoding="utf-8"))
        if length > MAX_JINJA_FREE_RUN:
            heavy.append(f"{path.relative_to(TEMPLATES)}: {length} lines from line {first}")
    assert heavy == []


def test_the_template_measure_finds_the_longest_run() -> None:
    text = "{# mark #}\na\nb\n{{ x }}\nc\nd\ne\n{% if y %}\n{% endif %}\nf\n"
    assert _longest_jinja_free_run(text) == (3, 5)
    assert _longest_jinja_free_run("{{ a\n }}\nb\n") == (2, 3)  # the closing line holds a tag end
    assert _longest_jinja_free_run("a\n" * 41 + "{{ b }}\n") == (41, 1)


# -- the environment is read at the edge ----------------------------------------------------

# Modules that may read the environment, each with the reason (reviewed).
ENVIRONMENT_READERS = {
    "acpgen/cli/options.py": "the CLI edge: flags and environment become the run's options",
    "acpgen/pytest_plugin/roster.py": "pytest's edge: the plugin runs inside pytest (vendored "
    "into skeletons without acpgen) and falls back to $ACPGEN_INPUTS as documented",
}
_ENV_NAMES = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def _environment_reads(source: str) -> list[int]:
    """Lines that read or change the process environment through ``os``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr in _ENV_NAMES
                and isinstance(node.value, ast.Name) and node.value.id == "os") or (isinstance(node, ast.ImportFrom) and node.module == "os"
              and any(a.name in _ENV_NAMES for a in node.names)):
            found.append(node.lineno)
    return sorted(found)


def test_only_the_edge_reads_the_environment() -> None:
    """No stage reads ``os.environ``: the CLI edge reads it once and passes options on. The
    shipped code is the generated package's (an SDK's processes), not acpgen's."""
    readers = {}
    for path in sorted(ACPGEN.rglob("*.py")):
        rel = path.relative_to(ACPGEN.parent).as_posix()
        if rel.startswith("acpgen/shipped/"):
            continue
        lines = _environment_reads(path.read_text(encoding="utf-8"))
        if lines:
            readers[rel] = lines
    assert set(readers) - set(ENVIRONMENT_READERS) == set(), readers
    assert set(ENVIRONMENT_READERS) - set(readers) == set(), "allowed but no longer reading: drop it"


def test_the_environment_scan_finds_every_form() -> None:
    source = ("import os\nfrom os import getenv\na = os.environ.get('X')\nb = os.getenv('Y')\n"
              "c = dict(os.environ)\nd = os.path.join('a')\n")
    assert _environment_reads(source) == [2, 3, 4, 5]
