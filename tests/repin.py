"""Test helper: a throw-away project whose lock pins whatever bytes an inputs copy holds.

Bad-input tests need the broken bytes to get past the hash check so that the parser or the
IR builder is what refuses them; this re-pins the copy (and the roster header's schema hash)
exactly as `acpgen lock --update` would, without going through the code under test.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import replace
from pathlib import Path

from acpgen.inputs.lock import LOCK_RELPATH, PinnedFile, dump_lock, load_lock

ROSTER = "roster/requirements.md"
SCHEMA = "schema/v1/schema.json"


def make_project(src_root: Path, dest: Path, inputs: Path, *, all_surfaces: bool = False) -> Path:
    """Copy the project's schema/ dir to ``dest`` and point its lock at ``inputs``.

    The copy generates v1 stable alone unless ``all_surfaces``: a test that breaks v1's
    inputs gains nothing from generating the three other surfaces (four times the cost);
    their files stay pinned and verified."""
    (dest / "schema").mkdir(parents=True, exist_ok=True)
    for item in (src_root / "schema").iterdir():
        if item.is_file():
            shutil.copyfile(item, dest / "schema" / item.name)
    repin(dest, inputs, all_surfaces=all_surfaces)
    return dest


def repin(project: Path, inputs: Path, *, fix_roster_header: bool = True, all_surfaces: bool = True) -> None:
    lock = load_lock(project)
    if not all_surfaces:
        lock = replace(lock, surfaces={})
    if fix_roster_header:
        schema_sha = hashlib.sha256((inputs / SCHEMA).read_bytes()).hexdigest()
        roster = inputs / ROSTER
        text = roster.read_bytes().decode("utf-8", "replace")
        text = re.sub(r"stable schema sha256 [0-9a-f]{64}", f"stable schema sha256 {schema_sha}", text, count=1)
        roster.write_bytes(text.encode("utf-8"))
    files = {}
    for name, f in lock.files.items():
        blob = (inputs / f.path).read_bytes()
        files[name] = PinnedFile(name, f.path, hashlib.sha256(blob).hexdigest(), len(blob), f.upstream)
    new = lock.with_files(files)
    (project / LOCK_RELPATH).write_text(dump_lock(new).replace(f'inputs = "{lock.inputs}"', f'inputs = "{inputs}"'))
