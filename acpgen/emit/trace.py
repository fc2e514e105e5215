"""The trace judge's requirement wording, ``{package}/trace/requirements.py``.

The trace package itself (recorder, judge, picture) is fixed Python shipped verbatim
(:mod:`acpgen.emit.shipped`); only the roster's wording, which its reports quote, varies
with the inputs. A surface without a roster gets an empty table (its judge says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpgen.emit.render import render

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


def emit(model: GenerationModel) -> dict[str, str]:
    return {
        f"{model.options.package}/trace/requirements.py": render(
            "trace/requirements.py.jinja",
            roster_revision=model.roster.revision,
            requirements=model.roster.requirements,
        )
    }
