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
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .roster_table import Roster

ROSTER_IN_INPUTS = Path("roster") / "requirements.md"
# The same names as acpgen.inputs.lock's (repeated: this package imports nothing from acpgen).
LOCK_RELPATH = Path("schema") / "acp.lock"
ENV_INPUTS = "ACPGEN_INPUTS"


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
    pinned = _pinned_roster(rootpath)
    if pinned is not None:
        return pinned
    env = os.environ.get(ENV_INPUTS)
    return RosterSource(Path(env) / ROSTER_IN_INPUTS, "$ACPGEN_INPUTS") if env else None


def _pinned_roster(rootpath: Path) -> RosterSource | None:
    """The roster ``schema/acp.lock`` (at or above ``rootpath``) pins, with its hash.

    Read with tomllib rather than acpgen's lock loader, so that the plugin keeps working where
    it is vendored without acpgen. Same precedence as acpgen: ``$ACPGEN_INPUTS`` (relative to
    the working directory), else the lock's ``inputs`` (relative to the project root).
    """
    start = rootpath.resolve()
    for root in (start, *start.parents):
        lock_path = root / LOCK_RELPATH
        if lock_path.is_file():
            break
    else:
        return None
    try:
        lock = tomllib.loads(lock_path.read_text(encoding="utf-8"))
        entry = lock["files"]["roster"]
        rel, sha256 = str(entry["path"]), str(entry["sha256"]).lower()
        env = os.environ.get(ENV_INPUTS)
        inputs = Path(env).absolute() if env else root / str(lock.get("inputs", "schema/inputs"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return None  # an unreadable lock: never break an unrelated run (acpgen verify says why)
    return RosterSource(inputs / rel, "acpgen lock", sha256)


def load(source: RosterSource) -> Roster:
    from .roster_table import RosterError, parse_roster  # parsed only when something needs it

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
    except RosterError as exc:
        raise RosterUnavailable(f"ACP roster {exc}") from None
