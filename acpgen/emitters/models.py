"""The typed message models: ``{package}/models.py``, one class/enum/alias per ``$def``.

Engine decision (measured on this 2-core machine, 2026-11-30; see bench/README.md):
datamodel-code-generator 0.89.0 driven in-process over the whole schema costs ~2.1 s
(importing its parser/model packages alone ~1.0-1.3 s, ``parse_raw`` ~0.8 s, rendering and
formatting the rest), which by itself exceeds the budget of ``acpgen generate`` (<= 0.5x the
plain CLI, ~1.85 s) and ``acpgen check`` (< 2 s). Its output also needs post-processing to meet
the naming contract (positional names such as ``SessionUpdate10``) and to get discriminated
unions with catch-all and untagged branches, which it cannot express. So the IR, which
already resolved every shape, drives our own templates (``templates/models/``) directly;
datamodel-code-generator is not on the generate path. The IR is the single source of names:
class names are ``$def`` names and attributes are ``Property.py_name``; no regex renames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpgen.models_plan import int_formats, plan_models, py_literal
from acpgen.render import render

if TYPE_CHECKING:
    from acpgen.emitters import GenOptions
    from acpgen.project import Project


def emit(project: Project, options: GenOptions) -> dict[str, str]:
    blocks = plan_models(project.ir, project.schema)
    public = sorted(b.name for b in blocks if b.public)
    text = render(
        "models/models.py.jinja",
        package=options.package,
        protocol_version=project.ir.protocol_version,
        blocks=blocks,
        public=public,
        int_formats=int_formats(),
        lit=py_literal,
    )
    return {f"{options.package}/models.py": text}
