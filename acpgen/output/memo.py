"""A memo of the whole generated tree, so an unchanged project is not generated again.

Generation is a pure function of: the verified input bytes, the project as loaded (the lock
and the hash of each hand-reviewed manifest), the options, the generator's own code and
templates, the versions of the tools that shape the bytes (black, jinja2) and Python. The
memo is keyed by the SHA-256 of all of them, computed on every run from the bytes
themselves (never from timestamps), and lives in the user's cache folder beside black's
(:mod:`acpgen.disk_cache`): an entry exists only if this machine built it, carries the SHA-256
of its content, and a damaged entry is ignored. An entry is not a proof that the tree
imports (``check`` memoises what it builds without proving it): every caller that writes
a tree proves it, memo hit or not (:mod:`acpgen.output.proof`, memoised by the bytes). A fresh CI runner starts without one, so
its ``acpgen check`` always generates from scratch; ``ACPGEN_NO_CACHE=1`` does the same
anywhere.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import acpgen
from acpgen import disk_cache
from acpgen.emit.render import templates_dir
from acpgen.inputs.lock import dump_lock
from acpgen.load.project import Project
from acpgen.model.generation import GenOptions
from acpgen.output.work_stats import STATS

KIND = "tree"
MAX_TREES = 8  # a whole tree is ~1 MB; a few recent generations are what a workflow revisits
# black and jinja2 shape the bytes; pydantic is kept in the key so that a new pydantic
# rebuilds (the generation proves patterns with pydantic-core's engine: acpgen.ir.patterns).
TOOLS = ("black", "jinja2", "pydantic")


def _folder_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def generator_digest() -> str:
    """SHA-256 of the generator: every file of the acpgen package and of its templates."""
    digest = hashlib.sha256()
    package = Path(acpgen.__file__).resolve().parent
    templates = templates_dir()
    roots = [package] + ([] if package in templates.parents else [templates])
    for root in roots:
        for path in _folder_files(root):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def tree_key(project: Project, options: GenOptions) -> str:
    digest = hashlib.sha256()
    parts = [
        f"acpgen {acpgen.__version__}",
        f"python {sys.executable} {sys.version}",
        *(f"{tool} {disk_cache.installed_version(tool)}" for tool in TOOLS),
        f"generator {generator_digest()}",
        f"options {options.package} {options.tests_dir} {options.surfaces} {options.profile}",
    ]
    for name, blob in sorted(project.inputs.data.items()):
        parts.append(f"input {name} {hashlib.sha256(blob).hexdigest()}")
    # The project as loaded, not the files of a folder: the lock, and each hand-reviewed
    # manifest by the hash of the bytes that were parsed (a project built in memory, such as
    # a skeleton, has no folder yet).
    parts.append(f"lock {hashlib.sha256(dump_lock(project.lock).encode('utf-8')).hexdigest()}")
    for surface in project.surfaces:
        parts.append(f"surface {surface.name} {surface.package} {surface.capabilities_sha256}")
    parts.append(f"conformance {project.conformance_sha256}")
    if options.profile is not None:  # its manifest is read when the tree is built: its bytes too
        manifest = project.root / options.profile.manifest
        blob = manifest.read_bytes() if manifest.is_file() else b""
        parts.append(f"profile manifest {hashlib.sha256(blob).hexdigest()}")
    digest.update("\n".join(parts).encode("utf-8"))
    return digest.hexdigest()


def load(key: str) -> dict[str, bytes] | None:
    text = disk_cache.load(disk_cache.cache_dir(KIND), key)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not all(isinstance(v, str) for v in doc.values()):
        return None
    STATS.memo_hits.append(key)
    return {rel: data.encode("utf-8") for rel, data in doc.items()}


def store(key: str, files: dict[str, bytes]) -> None:
    directory = disk_cache.cache_dir(KIND)
    if directory is None:
        return
    try:
        doc = {rel: data.decode("utf-8") for rel, data in files.items()}
    except UnicodeDecodeError:
        return  # not text: not memoised
    disk_cache.store(directory, key, json.dumps(doc, sort_keys=True), limit=MAX_TREES)
