"""Reading a project's hand-reviewed TOML manifests (``schema/capabilities.toml``,
``schema/conformance.toml``): the bytes, then a table, with one-line errors naming the file.

What a manifest may say is each manifest's own business (``acpgen/model/``); this module
only turns optional bytes into TOML data the same way for all of them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError


def read_optional(path: Path, relpath: str) -> bytes | None:
    """The file's bytes, or None when the project has none (manifests are optional)."""
    if not path.is_file():
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AcpgenError(relpath, f"cannot read: {exc.strerror}") from None


def load_toml(relpath: str, blob: bytes | str) -> dict[str, Any]:
    """Manifest bytes (or text) as TOML data; refusals name ``relpath``."""
    if isinstance(blob, bytes):
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AcpgenError(relpath, f"not UTF-8 at byte {exc.start}") from None
    else:
        text = blob
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AcpgenError(relpath, f"not valid TOML: {exc}") from None
