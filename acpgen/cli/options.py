"""The run options, built once at the CLI edge: the flags, the environment and the defaults.

This is the one module of acpgen's command line that reads the environment
(``tests/test_architecture.py`` fails on any other ``os.environ`` / ``os.getenv`` under
``acpgen/``, the pytest plugin's own entry point aside). The stages receive what they need as
arguments: the inputs directory as an :class:`~acpgen.inputs.lock.InputsChoice`, the
templates directory through :func:`acpgen.emit.render.use_templates`, the cache folder
through :func:`acpgen.disk_cache.use_cache` (called by the ``acpgen`` group for every command). The lock, read when
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
# Where acpgen keeps its on-disk memos (acpgen/disk_cache.py): $ACPGEN_CACHE_DIR, else
# $XDG_CACHE_HOME/acpgen, else ~/.cache/acpgen; $ACPGEN_NO_CACHE=1 turns them off (a fresh CI
# runner, the benchmarks' cold runs). Never a byte of output depends on it.
ENV_CACHE_DIR = "ACPGEN_CACHE_DIR"
ENV_NO_CACHE = "ACPGEN_NO_CACHE"


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
    return RunOptions(project_dir=project_dir, inputs=choice,
                      templates=environ.get(ENV_TEMPLATES) or None)


def cache_root(environ: Mapping[str, str] = os.environ) -> Path | None:
    """``$ACPGEN_NO_CACHE`` (any value but empty or 0) beats ``$ACPGEN_CACHE_DIR`` beats
    ``$XDG_CACHE_HOME/acpgen`` beats ``~/.cache/acpgen``."""
    if environ.get(ENV_NO_CACHE, "") not in ("", "0"):
        return None
    explicit = environ.get(ENV_CACHE_DIR)
    if explicit:
        return Path(explicit)
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "acpgen"
