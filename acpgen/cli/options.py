"""The run options, built once at the CLI edge: the flags, the environment and the defaults.

This is the one module of acpgen that reads the environment (``tests/test_architecture.py``
fails on any other ``os.environ`` / ``os.getenv`` under ``acpgen/``, :mod:`acpgen.disk_cache`
aside: where this machine keeps its caches is no option of a run). The stages receive what
they need as arguments: the inputs directory as an :class:`~acpgen.inputs.lock.InputsChoice`,
the templates directory through :func:`acpgen.emit.render.use_templates`. The lock, read when
the project loads, supplies what neither names (``inputs``, ``[generate]``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from acpgen.inputs.lock import ENV_INPUTS, InputsChoice

# $ACPGEN_TEMPLATES: render from this templates directory instead of the installed one (a test
# and debugging hook: tests break a copy of the templates to prove bad output is never
# half-applied; docs/ci.md). Checked when a template is first needed.
ENV_TEMPLATES = "ACPGEN_TEMPLATES"


@dataclass(frozen=True)
class RunOptions:
    project_dir: Path | None  # --project (None: search upwards from the working directory)
    # --inputs, else $ACPGEN_INPUTS (None: the lock's `inputs`, relative to the project)
    inputs: InputsChoice | None
    templates: str | None  # $ACPGEN_TEMPLATES (None: the installed templates)


def run_options(project_dir: Path | None, inputs: str | None,
                environ: Mapping[str, str] = os.environ) -> RunOptions:
    """``--inputs`` beats ``$ACPGEN_INPUTS`` beats the lock (an empty value counts as unset)."""
    env_inputs = environ.get(ENV_INPUTS)
    choice = (InputsChoice(inputs, "--inputs") if inputs
              else InputsChoice(env_inputs, f"${ENV_INPUTS}") if env_inputs else None)
    return RunOptions(project_dir=project_dir, inputs=choice, templates=environ.get(ENV_TEMPLATES) or None)
