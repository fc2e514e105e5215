"""What could have failed a check, and how a check with none of it ends: "not exercised".

Both sides' registries (``agent_kit``, ``checks_client``) declare, for every check, the
observation that could have failed it; :func:`judged` wraps the check so that finding nothing
wrong passes only when at least one such observation was made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .outcome import not_exercised


class Consulting(Protocol):
    """A kit counting the scenario steps or messages the running check read."""

    consulted: int


@dataclass(frozen=True)
class Observation:
    """What could have failed a check: ``count(kit)`` such observations were made in the runs.

    A check that found nothing wrong passes only when at least one was made; otherwise it is
    reported "not exercised" (a skip saying which observation was missing), never passed.
    """

    what: str
    count: Callable[[Any], int]


# A check declared without an observation of its own reads scenario steps or counts what it
# judged (``kit.consulted``): it passes only when it read or judged one; a step that did not
# happen already skips it with why.
STEPS = Observation("scenario step or message this check reads", lambda kit: kit.consulted)


def judged(func: Callable[[Any], None], observes: Observation) -> Callable[[Any], None]:
    """``func`` reporting "not exercised" instead of a pass when ``observes`` counts none."""

    def run(kit: Consulting) -> None:
        kit.consulted = 0
        func(kit)
        if observes.count(kit) == 0:
            raise not_exercised(observes.what)

    return run


def register(
    checks: dict[str, Callable[[Any], None]],
    observed: dict[str, Observation],
    req_id: str,
    func: Callable[[Any], None],
    observes: Observation,
) -> None:
    """``func`` as ``req_id``'s check in ``checks``, judged by ``observes`` (kept in ``observed``)."""
    assert req_id not in checks, req_id
    checks[req_id] = judged(func, observes)
    observed[req_id] = observes
