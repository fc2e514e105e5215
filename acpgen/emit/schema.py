"""``schema.py``: the one module of data the shipped runtime reads, rendered from the inputs.

The bottom of the generated package beside ``models.py`` (docs/architecture.md, "The
generated package"): the pins, the method table (:func:`acpgen.emit.methods.method_table`),
the member names of the initialize exchange and the leniency markers
(:func:`acpgen.emit.runtime.runtime_data`) and the capability gates
(:func:`acpgen.emit.guards.guard_plan`) and the methods that create or take up a session
(:func:`acpgen.emit.runtime.session_scopes`), laid out by ``templates/schema/schema.py.jinja``
in the row types of the shipped ``contract.py``. What the runtime may read of it is the typed
stub ``acpgen/shipped/runtime/schema.pyi``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpgen.emit.guards import guard_plan
from acpgen.emit.methods import method_table
from acpgen.emit.render import render_plan
from acpgen.emit.runtime import RuntimeData, runtime_data, session_scopes

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel

TEMPLATE = "schema/schema.py.jinja"


def schema_text(model: GenerationModel, runtime: RuntimeData) -> str:
    """What the template lays out: the table, the gates, the pins, and ``runtime`` (what
    :func:`acpgen.emit.runtime.runtime_data` reads of the schema for the runtime)."""
    manifest = model.capabilities
    return render_plan(
        TEMPLATE, method_table(model, manifest), guard_plan(model, manifest), runtime,
        pins={i.name: i.sha256 for i in model.pinned_inputs},
        session_scopes=session_scopes(model.ir, manifest.takes_up_session),
        roster_revision=model.roster.revision,
        upstream_commit=model.roster.commit,
    )


def emit(model: GenerationModel) -> dict[str, str]:
    return {f"{model.options.package}/schema.py": schema_text(model, runtime_data(model.ir))}
