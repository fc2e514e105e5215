"""Find and load the requirement roster for the pytest plugin.

SDK authors run the plugin in their own repositories, where only the roster exists, so the
roster is looked up in this order: ``--acp-roster=PATH``, the ini option ``acp_roster``
(relative to the ini file), then acpgen's own lock (``schema/acp.lock`` at or above the
rootdir, inputs taken from ``$ACPGEN_INPUTS`` or the lock, the roster hash checked against
the lock), then ``$ACPGEN_INPUTS/roster/requirements.md``.

An explicitly configured roster that cannot be read is an error at once. A roster found
implicitly is only loaded when something needs it (a marker, ``--acp-coverage``,
``--acp-require``), so unrelated pytest runs never pay for it and never fail because of it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acpgen.inputs.roster import Roster

ROSTER_IN_INPUTS = Path("roster") / "requirements.md"


class RosterUnavailable(Exception):
    """No roster could be loaded; the message says why (one line)."""


@dataclass(frozen=True)
class RosterSource:
    path: Path
    how: str  # "--acp-roster", "ini acp_roster", "acpgen lock", "$ACPGEN_INPUTS"
    sha256: str | None = None  # the hash the roster must have (when pinned by a lock)


def explicit_source(option: str | None, ini: str, ini_dir: Path, invocation_dir: Path) -> RosterSource | None:
    if option:
        path = Path(option)
        return RosterSource(path if path.is_absolute() else invocation_dir / path, "--acp-roster")
    if ini.strip():
        path = Path(ini.strip())
        return RosterSource(path if path.is_absolute() else ini_dir / path, "ini acp_roster")
    return None


def implicit_source(rootpath: Path) -> RosterSource | None:
    """The roster an acpgen project pins, else the one under ``$ACPGEN_INPUTS``; or None."""
    try:
        from acpgen.errors import AcpgenError
        from acpgen.inputs.lock import ENV_INPUTS, find_project_root, load_lock, resolve_inputs_dir
    except ImportError:  # the plugin module vendored without the rest of acpgen
        env = os.environ.get("ACPGEN_INPUTS")
        return RosterSource(Path(env) / ROSTER_IN_INPUTS, "$ACPGEN_INPUTS") if env else None
    try:
        lock = load_lock(find_project_root(rootpath))
        pinned = lock.files["roster"]
        return RosterSource(resolve_inputs_dir(lock, None) / pinned.path, "acpgen lock", pinned.sha256)
    except (AcpgenError, OSError, ValueError):
        pass  # not an acpgen project (or an unreadable one): never break an unrelated run
    env = os.environ.get(ENV_INPUTS)
    return RosterSource(Path(env) / ROSTER_IN_INPUTS, "$ACPGEN_INPUTS") if env else None


def load(source: RosterSource) -> Roster:
    from acpgen.errors import AcpgenError
    from acpgen.inputs.roster import parse_roster

    try:
        blob = source.path.read_bytes()
    except OSError as exc:
        raise RosterUnavailable(f"ACP roster {source.path} (from {source.how}): {exc.strerror}") from None
    if source.sha256 is not None:
        actual = hashlib.sha256(blob).hexdigest()
        if actual != source.sha256:
            raise RosterUnavailable(
                f"ACP roster {source.path} (from {source.how}) has sha256 {actual}, "
                f"the lock pins {source.sha256}"
            )
    try:
        return parse_roster(blob.decode("utf-8"), str(source.path))
    except UnicodeDecodeError as exc:
        raise RosterUnavailable(f"ACP roster {source.path}: not UTF-8 at byte {exc.start}") from None
    except AcpgenError as exc:
        raise RosterUnavailable(f"ACP roster {exc}") from None
