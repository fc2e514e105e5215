"""The SHA-256 of each file a generated tree was made from, so ``check`` can name the one that
changed since the last ``generate``.

``MANIFEST.json`` records, beside each generated file, its origin (the template, the shipped
file it copies, or the emitter module that writes it; :mod:`acpgen.emit.provenance`). Here each
template and shipped file among them gets the hash of its bytes as this acpgen holds them
(``sources``). A template edited
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
SHIPPED_PREFIX = "acpgen/shipped/"


def source_path(origin: str) -> Path | None:
    """Where this acpgen holds ``origin`` (a path as the manifest records it), if it is a
    template or a shipped file. An emitter module that writes a file itself is acpgen's code
    like any other: hashing it would make every refactoring of it a drift; a change there is
    "stale output"."""
    if origin.startswith(TEMPLATES_PREFIX):
        return templates_dir() / origin.removeprefix(TEMPLATES_PREFIX)
    if origin.startswith(SHIPPED_PREFIX):
        return Path(acpgen.__file__).resolve().parent / origin.removeprefix("acpgen/")
    return None


def source_hashes(origins: Iterable[str]) -> dict[str, str]:
    hashes = {}
    for origin in sorted(set(origins)):
        path = source_path(origin)
        if path is not None and path.is_file():
            hashes[origin] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes
