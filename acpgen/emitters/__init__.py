"""Stage 3: emitters. Each turns the IR (and roster, manifests) into source text via templates.

An emitter is a function ``(project, options) -> {relative path: text}``; paths are relative
to the output directory. Emitters never format or write: that is stages 4 and 5.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from acpgen.project import Project


@dataclass(frozen=True)
class GenOptions:
    package: str = "acp_v1"
    tests_dir: str = "tests"  # relative to the output directory


Emitter = Callable[[Project, GenOptions], dict[str, str]]


def all_emitters() -> list[Emitter]:
    # Imported here so that a broken emitter module fails generation, not `acpgen verify`.
    from acpgen.emitters import guards, methods, models, package, runtime, test_stubs

    return [package.emit, models.emit, methods.emit, guards.emit, test_stubs.emit, runtime.emit]
