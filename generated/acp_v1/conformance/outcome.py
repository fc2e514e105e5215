# Edit acpgen/shipped/conformance/outcome.py, not this file: acpgen generate writes it.
"""How a check ends when it does not pass: failed (with what was observed) or skipped (why)."""

from __future__ import annotations


class CheckFailed(AssertionError):
    """The implementation under test did not keep the requirement; the message says what it did."""


class CheckSkipped(Exception):
    """The requirement does not apply to this run (not advertised, never exercised, ...)."""


def fail(message: str) -> CheckFailed:
    return CheckFailed(message)


def skip(message: str) -> CheckSkipped:
    return CheckSkipped(message)


NOT_CHECKABLE = "not checkable on the wire"  # how a requirement no observation can fail says so


def not_checkable(reason: str) -> CheckSkipped:
    """A requirement no wire observation can fail on its own: reported with why, never passed."""
    return CheckSkipped(f"{NOT_CHECKABLE}: {reason}")
