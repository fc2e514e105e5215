"""``python -m acpgen.emit.precompile``: the package build step that precompiles every template
(:mod:`acpgen.emit.precompiled`). ``hatch_build.py`` runs it on ``pip install``/wheel builds;
the generate benchmark runs it as it byte-compiles the package."""

from __future__ import annotations

from pathlib import Path

from acpgen.emit import precompiled
from acpgen.emit.render import environment, templates_dir


def run(out: Path | None = None, templates: Path | None = None) -> int:
    """Precompile the templates (default: the installed ones) into ``out`` (default: the
    package's ``_precompiled``); the number of templates."""
    source = templates or templates_dir()
    return precompiled.build(environment(str(source)), source, out)


def main() -> None:
    count = run()
    print(f"precompiled {count} templates into {precompiled.DIRECTORY}")


if __name__ == "__main__":
    main()
