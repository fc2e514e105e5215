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
