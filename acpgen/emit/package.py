"""The package skeleton: ``__init__.py`` and ``_pins.py`` (what the code was generated from)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from acpgen.emit.render import render_plan

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


@dataclass(frozen=True)
class PackagePlan:
    """What ``templates/package/`` writes."""

    package: str
    protocol_version: int
    roster_revision: str
    pins: dict[str, str]  # input name -> SHA-256
    upstream_commit: str


def emit(model: GenerationModel) -> dict[str, str]:
    plan = PackagePlan(
        package=model.options.package,
        protocol_version=model.ir.protocol_version,
        roster_revision=model.roster.revision,
        pins={i.name: i.sha256 for i in model.pinned_inputs},
        upstream_commit=model.roster.commit,
    )
    return {
        f"{model.options.package}/__init__.py": render_plan("package/__init__.py.jinja", plan),
        f"{model.options.package}/_pins.py": render_plan("package/_pins.py.jinja", plan),
        f"{model.options.package}/py.typed": "",
    }
