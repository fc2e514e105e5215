"""The generation model of a project's roster surface, for tests of one emitter."""

from __future__ import annotations

from typing import Any

from acpgen.model.generation import GenerationModel, GenOptions, surface_model


def generation_model(project: Any, options: GenOptions) -> GenerationModel:
    """The model the generator builds for the roster's surface (``project.primary``)."""
    return surface_model(project, project.primary, options)
