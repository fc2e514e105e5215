"""The roster parser the plugin uses: acpgen's own, :mod:`acpgen.inputs.roster`.

The plugin's modules import each other relatively and otherwise only the standard library
and pytest, so ``acpgen skeleton`` can copy them verbatim into a project that has no acpgen.
There this module is replaced by a verbatim copy of ``acpgen/inputs/roster.py`` (which
imports nothing from acpgen for that reason); here it re-exports it.
"""

from __future__ import annotations

from acpgen.inputs.roster import Requirement, Roster, RosterError, parse_roster

__all__ = ["Requirement", "Roster", "RosterError", "parse_roster"]
