"""The requirement roster, as the stages read it: the parser is the pytest plugin's.

The parser (:mod:`acpgen.pytest_plugin.roster_table`) imports nothing from acpgen, so that the
plugin's folder ships verbatim into a skeleton; the stages import it from here.
"""

from __future__ import annotations

from acpgen.pytest_plugin.roster_table import (
    KEYWORDS,
    KINDS,
    RESPONSIBILITIES,
    ROLES,
    Requirement,
    Roster,
    RosterError,
    Source,
    parse_roster,
)

__all__ = [
    "KEYWORDS",
    "KINDS",
    "RESPONSIBILITIES",
    "ROLES",
    "Requirement",
    "Roster",
    "RosterError",
    "Source",
    "parse_roster",
]
