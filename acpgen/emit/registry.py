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
