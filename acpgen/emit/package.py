"""The package skeleton: ``__init__.py`` and ``_pins.py`` (what the code was generated from)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acpgen.emit.render import render

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


def emit(model: GenerationModel) -> dict[str, str]:
    pins = {i.name: i.sha256 for i in model.pinned_inputs}
    ctx: dict[str, Any] = {
        "package": model.options.package,
        "protocol_version": model.ir.protocol_version,
        "roster_revision": model.roster.revision,
        "pins": pins,
        "upstream_commit": model.roster.commit,
    }
    return {
        f"{model.options.package}/__init__.py": render("package/__init__.py.jinja", **ctx),
        f"{model.options.package}/_pins.py": render("package/_pins.py.jinja", **ctx),
        f"{model.options.package}/py.typed": "",
    }
