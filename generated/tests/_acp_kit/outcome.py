# Edit acpgen/shipped/conformance/outcome.py, not this file: acpgen generate writes it.
"""How a check ends when it does not pass: failed (with what was observed) or skipped (why)."""

from __future__ import annotations

from typing import Self


class CheckFailed(AssertionError):
    """The implementation under test did not keep the requirement; the message says what it did."""


class CheckSkipped(Exception):
    """The requirement does not apply to this run (not advertised, never exercised, ...)."""


class CheckNoted(Exception):
    """The requirement was kept, with a note on something disputable the run showed (a pass)."""


def noted(message: str) -> CheckNoted:
    return CheckNoted(message)


def fail(message: str) -> CheckFailed:
    return CheckFailed(message)


def skip(message: str) -> CheckSkipped:
    return CheckSkipped(message)


NOT_CHECKABLE = "not checkable on the wire"  # how a requirement no observation can fail says so


def not_checkable(reason: str) -> CheckSkipped:
    """A requirement no wire observation can fail on its own: reported with why, never passed."""
    return CheckSkipped(f"{NOT_CHECKABLE}: {reason}")


NOT_EXERCISED = "not exercised"  # how a check without the observation that could fail it says so


def not_exercised(observation: str) -> CheckSkipped:
    """No observation that could have failed the check was made: reported so, never passed."""
    return CheckSkipped(f"{NOT_EXERCISED}: no {observation} was observed")


LISTED = 5  # observations a failure quotes; the rest are counted


class Findings:
    """Every observation that breaks one requirement: a check adds each and, leaving the
    ``with`` block, fails with all of them (the first ``LISTED`` quoted, the rest counted), so
    the first offence does not hide the others. A failure raised inside the block by code
    that stops at its first offence joins the list."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, message: str) -> None:
        if message not in self.items:
            self.items.append(message)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, _tb: object) -> None:
        if isinstance(exc, CheckFailed):
            self.add(str(exc))
        elif exc is not None:
            return
        if self.items:
            raise CheckFailed(summary(self.items)) from None


def summary(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    listed = "; ".join(f"({n}) {text}" for n, text in enumerate(items[:LISTED], start=1))
    more = f"; and {len(items) - LISTED} more" if len(items) > LISTED else ""
    return f"{len(items)} observations break it: {listed}{more}"
