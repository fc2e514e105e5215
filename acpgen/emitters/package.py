"""The package skeleton: ``__init__.py`` and ``_pins.py`` (what the code was generated from)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acpgen.render import render

if TYPE_CHECKING:
    from acpgen.emitters import GenOptions
    from acpgen.project import Project


def emit(project: Project, options: GenOptions) -> dict[str, str]:
    pins = {name: f.sha256 for name, f in sorted(project.lock.files.items())}
    ctx: dict[str, Any] = {
        "package": options.package,
        "protocol_version": project.ir.protocol_version,
        "roster_revision": project.roster.revision,
        "pins": pins,
        "upstream_commit": project.roster.commit,
    }
    return {
        f"{options.package}/__init__.py": render("package/__init__.py.jinja", **ctx),
        f"{options.package}/_pins.py": render("package/_pins.py.jinja", **ctx),
        f"{options.package}/py.typed": "",
    }
