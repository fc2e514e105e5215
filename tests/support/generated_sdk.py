"""The generated package written into a temporary directory and importable while in use.

For tests that use the SDK as a person would (import it, type-check files against it): the
sources come from this checkout's emitters (the real pinned inputs), never from the
committed ``generated/``; the package's modules already imported are set aside and restored.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from acpgen.model.generation import surface_models
from acpgen.output.generate import emit_sources, options_for

PACKAGE = "acp_v1"


@contextlib.contextmanager
def importable_sdk(project: Any, root: Path, *, only_package: bool = False) -> Iterator[Path]:
    """Write the generated tree (or only the package) under ``root``; put it first on
    ``sys.path`` until the block ends."""
    for rel, text in emit_sources(surface_models(project, options_for(project))).items():
        if only_package and not rel.startswith(PACKAGE + "/"):
            continue
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    saved = {k: v for k, v in sys.modules.items() if k == PACKAGE or k.startswith(PACKAGE + ".")}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        for name in [k for k in sys.modules if k == PACKAGE or k.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        sys.modules.update(saved)
