"""Stage 5, emit: the emitters. Each turns the generation model into source text via templates.

An emitter is a function ``(model) -> {relative path: text}``; paths are relative to the
output directory. Emitters never read files, format or write: that is stage 6 (output).
"""

from __future__ import annotations

from collections.abc import Callable

from acpgen.emit import (
    builders,
    conformance,
    methods,
    models,
    package,
    python_sdk,
    requirement_stubs,
    runtime,
    schema,
    shipped,
    trace,
)
from acpgen.model.generation import GenerationModel

Emitter = Callable[[GenerationModel], dict[str, str]]

EMITTERS: tuple[Emitter, ...] = (
    package.emit, models.emit, builders.emit, schema.emit, methods.emit, requirement_stubs.emit, runtime.emit,
    conformance.emit, shipped.emit, trace.emit,
)

# An output profile's emitters (``acpgen generate --profile NAME``), by profile name: its tree
# is what they write, nothing else (acpgen.model.profiles).
PROFILE_EMITTERS: dict[str, tuple[Emitter, ...]] = {
    "python-sdk": (python_sdk.emit,),
}
