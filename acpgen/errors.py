"""Errors that reach the user as one line naming the file and the problem."""

from __future__ import annotations

# Exit codes are part of the CLI contract (README "Exit codes").
EXIT_DRIFT = 1
EXIT_BAD_INPUT = 2


class AcpgenError(Exception):
    """Bad input or a refused operation.

    ``where`` is the file (and optionally line or entry) the problem is in; the CLI prints
    ``acpgen: error: <where>: <message>`` on one line and exits with ``exit_code``.
    """

    def __init__(self, where: str, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        self.where = where
        self.message = _one_line(message)
        self.exit_code = exit_code
        super().__init__(f"{where}: {self.message}")


def _one_line(message: str) -> str:
    """Line breaks (every kind Python's ``splitlines`` knows) become one space; other spacing
    is kept, so a name quoted in the message is shown as it is."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip()) or message.strip()


class InputDriftError(AcpgenError):
    """One or more pinned inputs do not match the lock (one line per file)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        # Set by the CLI when the lock is acpgen's built-in one (no project of the user's).
        self.outside_project = False
        super().__init__("schema/acp.lock", "; ".join(lines))


def json_pointer(*segments: object) -> str:
    """An RFC 6901 pointer (``/$defs/Foo/properties/bar``) for an error line: ``~`` and ``/``
    escaped, and any non-printable character shown as a Python escape so the line stays one
    line whatever a name holds."""
    out = []
    for segment in segments:
        text = str(segment).replace("~", "~0").replace("/", "~1")
        out.append("".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text))
    return "/" + "/".join(out) if out else ""
