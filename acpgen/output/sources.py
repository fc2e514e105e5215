"""The SHA-256 of each file a generated tree was made from, so ``check`` can name the one that
changed since the last ``generate``.

``MANIFEST.json`` records, beside each generated file, its origin (the template, the shipped
file it copies, or the emitter module that writes it; :mod:`acpgen.emit.provenance`). Here each
origin gets the hash of its bytes as this acpgen holds them (``sources``). A template edited
since the last ``generate`` then shows as that template's hash changing, not as "stale output".
The hashes are of content only: a checkout and an installed wheel record the same ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import acpgen
from acpgen.emit.render import templates_dir

TEMPLATES_PREFIX = "templates/"
PACKAGE_PREFIX = "acpgen/"


def source_path(origin: str) -> Path | None:
    """Where this acpgen holds ``origin`` (a path as the manifest records it), if anywhere."""
    if origin.startswith(TEMPLATES_PREFIX):
        return templates_dir() / origin.removeprefix(TEMPLATES_PREFIX)
    if origin.startswith(PACKAGE_PREFIX):
        return Path(acpgen.__file__).resolve().parent / origin.removeprefix(PACKAGE_PREFIX)
    return None


def source_hashes(origins: Iterable[str]) -> dict[str, str]:
    hashes = {}
    for origin in sorted(set(origins)):
        path = source_path(origin)
        if path is not None and path.is_file():
            hashes[origin] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes
