"""Stage 4: format emitted Python with black (pinned; its version is in MANIFEST.json)."""

from __future__ import annotations

import black

from acpgen.errors import AcpgenError

LINE_LENGTH = 100
_MODE = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion.PY311})


def format_python(relpath: str, source: str) -> str:
    try:
        # fast=True skips black's AST-equivalence re-parse: we own the input, and
        # `acpgen check` plus the test suite import every generated module anyway.
        return black.format_file_contents(source, fast=True, mode=_MODE)
    except black.NothingChanged:
        return source
    except Exception as exc:  # noqa: BLE001 - black raises several unrelated types for bad input
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AcpgenError(relpath, f"formatter (black) rejected the emitted code: {first}") from None


def format_tree(files: dict[str, str]) -> dict[str, str]:
    return {p: format_python(p, s) if p.endswith(".py") else s for p, s in files.items()}
