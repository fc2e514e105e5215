"""Make a synthetic ACP inputs directory N times the size of the pinned one (for benchmarks).

Every ``$def`` is kept, and duplicated N-1 times as ``<Name>X<i>``; every ``$ref`` inside a
copy points to the same copy's defs, so each copy is a complete, self-contained replica of
the type graph. Copies drop ``x-method``/``x-side`` (meta.json lists each method once, so the
method table, guards and requirement tests stay the same; the models grow N times). The
roster's schema pin and a copy of the project's ``schema/`` folder with a lock re-pinned to
the new bytes are written next to it, so ``acpgen --project DEST/proj`` runs on it.

Run: ``.venv/bin/python bench/synth_schema.py 4 /tmp/acp-x4`` (inputs from $ACPGEN_INPUTS,
else schema/inputs).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REF = "#/$defs/"


def _rename_refs(node: Any, suffix: str, names: set[str]) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(REF) and value[len(REF):] in names:
                out[key] = REF + value[len(REF):] + suffix
            else:
                out[key] = _rename_refs(value, suffix, names)
        return out
    if isinstance(node, list):
        return [_rename_refs(item, suffix, names) for item in node]
    return node


def scaled_schema(schema: dict[str, Any], factor: int) -> dict[str, Any]:
    defs = schema["$defs"]
    names = set(defs)
    scaled = dict(defs)
    for i in range(2, factor + 1):
        suffix = f"X{i}"
        for name, body in defs.items():
            clone = _rename_refs(copy.deepcopy(body), suffix, names)
            for key in ("x-method", "x-side"):
                clone.pop(key, None)
            scaled[name + suffix] = clone
    return {**schema, "$defs": scaled}


def make(factor: int, source: Path, dest: Path) -> Path:
    """Write DEST/inputs (the scaled inputs) and DEST/proj (a project pinned to them)."""
    inputs = dest / "inputs"
    shutil.rmtree(dest, ignore_errors=True)
    for rel in ("schema/v1/meta.json", "roster/requirements.md"):
        (inputs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, inputs / rel)
    schema = json.loads((source / "schema/v1/schema.json").read_bytes())
    blob = (json.dumps(scaled_schema(schema, factor), indent=2) + "\n").encode()
    (inputs / "schema/v1/schema.json").write_bytes(blob)
    roster = inputs / "roster/requirements.md"
    sha = hashlib.sha256(blob).hexdigest()
    roster.write_text(re.sub(r"stable schema sha256 [0-9a-f]{64}", f"stable schema sha256 {sha}",
                             roster.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    project = dest / "proj"
    (project / "schema").mkdir(parents=True)
    for item in (ROOT / "schema").iterdir():
        if item.is_file():
            shutil.copyfile(item, project / "schema" / item.name)
    stable_only(project)  # the scaled inputs are v1 stable's; bench/bench_surfaces.py has the rest
    return project


def stable_only(project: Path) -> None:
    """Rewrite the project's lock to build v1 stable alone (no [generate.surfaces], no
    surface pins): the size this benchmark scales and compares is v1 stable's."""
    from dataclasses import replace

    from acpgen.inputs.lock import load_lock, write_lock

    lock = load_lock(project)
    write_lock(replace(lock, surfaces={}, files={n: f for n, f in lock.files.items() if n in lock.surface_table[0].pinned()}))


def main() -> None:
    factor, dest = int(sys.argv[1]), Path(sys.argv[2])
    source = Path(os.environ.get("ACPGEN_INPUTS", ROOT / "schema" / "inputs")).resolve()
    project = make(factor, source, dest)
    print(f"{project} (inputs {dest / 'inputs'}); pin it with: acpgen lock --update "
          f"--project {project} --inputs {dest / 'inputs'}")


if __name__ == "__main__":
    main()
