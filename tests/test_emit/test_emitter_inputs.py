"""Emitters see the generation model and nothing else (docs/architecture.md).

Read from the source: no module of ``acpgen/emit/`` imports the loaded project, the
readers of the pinned inputs or a later stage, and the generation model carries no raw
schema for an emitter to fall back on.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from acpgen.model.generation import GenerationModel

EMIT = Path(__file__).resolve().parents[2] / "acpgen" / "emit"
# What an emitter may not reach: files and the raw schema (project, input readers), or the
# stages after it (format, write, check) and the command line.
FORBIDDEN = ("acpgen.load.project", "acpgen.inputs.pinned", "acpgen.inputs.lock", "acpgen.inputs.metaschema",
             "acpgen.output", "acpgen.cli", "acpgen.evolve", "acpgen.skeleton")


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_no_emitter_imports_the_project_the_input_readers_or_a_later_stage() -> None:
    modules = sorted(EMIT.glob("*.py"))
    assert any(p.name == "models.py" for p in modules)
    offenders = {
        p.name: sorted(m for m in _imported(p) if m.startswith(FORBIDDEN))
        for p in modules
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_the_generation_model_carries_no_raw_schema() -> None:
    names = {f.name for f in dataclasses.fields(GenerationModel)}
    assert "ir" in names and "options" in names
    assert not {n for n in names if "raw" in n or n in ("schema", "project", "defs")}
