"""The v1 and v2 façade (``{v2 package}/versions.py``): emitted only when the output has both.

A v2 package gets it when the output also holds a v1 package to pair it with: the v1 package
of the same stability (``v2-unstable`` with ``v1-unstable``), else the v1 stable package (the
tree's main package, always there). It is signatures only, delegating to the shipped
``negotiation.py`` (the router, the negotiating client); a package never names another one
unless both are generated (docs/surfaces.md, "v1 and v2 on one connection").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpgen.emit.render import render
from acpgen.inputs.surfaces import surface_spec

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


def _unstable(model: GenerationModel, names: dict[str, str]) -> bool:
    """Whether ``model`` is an unstable surface's (the roster's, not listed, is stable)."""
    package = model.options.package
    return package in names and surface_spec(names[package], package).unstable


def pairs(model: GenerationModel, surfaces: tuple[GenerationModel, ...]) -> list[tuple[str, str]]:
    """(v1 package, v2 package) for each v2 surface of the output: ``model`` is the roster's
    surface (v1 stable), ``surfaces`` the others."""
    names = {package: name for name, package in model.options.surfaces}
    v1: dict[bool, str] = {}
    for m in (*surfaces, model):  # the roster's last: it is the stable v1 whatever the lock says
        if m.ir.protocol_version == 1:
            v1[_unstable(m, names)] = m.options.package
    return [(v1.get(_unstable(s, names), model.options.package), s.options.package)
            for s in surfaces if s.ir.protocol_version == 2]


def emit(model: GenerationModel, surfaces: tuple[GenerationModel, ...]) -> dict[str, str]:
    return {f"{v2}/versions.py": render("versions/versions.py.jinja", v1=v1, v2=v2)
            for v1, v2 in pairs(model, surfaces)}
