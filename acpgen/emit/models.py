"""The typed message models: ``{package}/models.py``, one class/enum/alias per ``$def``.

Engine decision (measured 2026-11-30 on this shared 2-core machine, CPU seconds):

- datamodel-code-generator 0.89.0 in-process on the whole schema costs ~2.1 s; importing
  just its parser and pydantic-v2 model packages costs 0.8 s and ``parse_raw`` ~0.8 s more.
  The budget for the whole ``acpgen generate`` is ~1.85 s (0.5x the plain CLI) and
  ``acpgen check`` must stay under 2 s, with black alone needing ~0.5 s to import. Even
  per-def type resolution through its ``DataTypeManager`` pays the 0.8 s import.
- Its output would also need rework to meet the contract: positional names
  (``SessionUpdate10``), no catch-all / untagged branches in discriminated unions, integer
  formats it does not know (uint16/32/64 become plain ``int``), optional members that
  accept null.

So datamodel-code-generator is not on the generate path. The IR (which already classified
every shape, tag and name) feeds ``acpgen.emit.models_plan``, whose plain-data blocks are
rendered by our templates (``templates/models/``): ~0.1 s. The templates lay lines out the
way black does, so black (still the formatter of record) finds nothing to change: ~1.0 s on
this module instead of ~2.2 s on raw template output. datamodel-code-generator remains an
independent reference in the tests only: ``tests/test_models_dmcg.py`` parses the schema
with its Python API and checks objects (members, Python/wire names, required, defaults) and
enums (values, member names, open-enum constants); unions are checked by behaviour in
``tests/test_fidelity.py``. The decision and its measurements: docs/architecture.md.

Names come from the IR only: class names are ``$def`` names, attributes are
``Property.py_name``; no regex renames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpgen.emit.models_plan import HELPER_NAMES, int_formats, plan_models
from acpgen.emit.render import render

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


def emit(model: GenerationModel) -> dict[str, str]:
    blocks = plan_models(model.ir)
    formats = int_formats(model.ir)
    public = sorted({b.name for b in blocks if b.public} | HELPER_NAMES | {f.name for f in formats})
    text = render(
        "models/models.py.jinja",
        package=model.options.package,
        protocol_version=model.ir.protocol_version,
        blocks=blocks,
        public=public,
        int_formats=formats,
        profile=None,  # acpgen's own face (a profile renders this template too: emit/python_sdk.py)
    )
    return {f"{model.options.package}/models.py": text}
