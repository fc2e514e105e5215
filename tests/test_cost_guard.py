"""The cost guard: the runtime's cost per prompt round trip and per ``session/update``,
counted (calls, not seconds) for a fixed scripted exchange, held to committed budgets.

``tests/support/cost_exchange.py`` runs both ends of each generated package in this process
over an in-memory pipe and counts the Python-level calls and the calls into C, both ends
together; ``tests/cost_budgets.toml`` holds a budget per package and figure, each with its
reason. The counts do not depend on the machine's load or speed, so the guard holds on a busy
machine and in any test worker; timings stay in ``bench/``. Raising a budget is a reviewed
change (the file says how); a gain is locked in by lowering it.

A planted slowdown (one more decode per frame, one more validation per message) must fail
the guard, checked against the committed budgets.
"""

from __future__ import annotations

import math
import sys
import tomllib
from typing import Any

import pydantic
import pytest
from conftest import PROJECT_ROOT, generated_dir
from support.cost_exchange import Costs, measure

GENERATED = generated_dir()  # generated now into a temporary directory, importable
BUDGETS_FILE = PROJECT_ROOT / "tests" / "cost_budgets.toml"
BUDGETS: dict[str, Any] = tomllib.loads(BUDGETS_FILE.read_text(encoding="utf-8"))
PACKAGES = ("acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable")
FIGURES = (
    "round_trip_python_calls",
    "round_trip_c_calls",
    "update_python_calls",
    "update_c_calls",
)
VERSIONS = (f"{sys.version_info[0]}.{sys.version_info[1]}", pydantic.VERSION)
RELEVANT = VERSIONS == (BUDGETS["python"], BUDGETS["pydantic"])
needs_budget_versions = pytest.mark.skipif(
    not RELEVANT,
    reason=f"the budgets are counted on Python {BUDGETS['python']} with pydantic "
    f"{BUDGETS['pydantic']}; this is Python {VERSIONS[0]} with pydantic {VERSIONS[1]}",
)


def problems(costs: Costs, budgets: dict[str, Any] = BUDGETS) -> list[str]:
    """What the counts of ``costs`` break: a figure over its budget, or one so far under it
    that the budget no longer guards anything."""
    found = []
    for figure, value in costs.figures().items():
        entry = budgets[costs.package][figure]
        budget = entry["budget"]
        where = f"{costs.package} {figure}: {value:.2f}"
        if value > budget:
            found.append(
                f"{where} is over its budget {budget} ({BUDGETS_FILE.name}: raising it is a "
                f"reviewed change; `python bench/bench_cost.py --top {costs.package}` lists the "
                "calls per function)"
            )
        elif value < budget * (1 - budgets["slack_below"]):
            suggested = math.ceil(value * (1 + budgets["headroom"]))
            found.append(
                f"{where} is more than {budgets['slack_below']:.0%} under its budget {budget}: "
                f"lock the gain in ({BUDGETS_FILE.name}: budget = {suggested})"
            )
    return found


def test_every_budget_is_set_with_its_reason() -> None:
    assert set(PACKAGES) <= set(BUDGETS), "a generated package has no budgets"
    for package in PACKAGES:
        assert set(BUDGETS[package]) == set(FIGURES), package
        for figure in FIGURES:
            entry = BUDGETS[package][figure]
            assert isinstance(entry["budget"], int) and entry["budget"] > 0, (package, figure)
            assert entry["measured"] <= entry["budget"], (package, figure)
            assert len(entry["reason"]) > 20, f"{package} {figure}: a budget needs its reason"
    assert 0 < BUDGETS["headroom"] < BUDGETS["slack_below"] < 0.1


@needs_budget_versions
@pytest.mark.parametrize("package", PACKAGES)
def test_the_runtime_costs_stay_within_their_budgets(package: str) -> None:
    first = measure(package)
    second = measure(package)
    # Deterministic: the same counts twice in one process (and so in every worker).
    assert first.figures() == second.figures()
    assert problems(first) == []


def _decode_twice(package: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rpc = package.rpc
    decode = rpc.decode_frame

    def decode_frame(frame: bytes) -> Any:
        decode(frame)  # the planted slowdown: every frame parsed one more time
        return decode(frame)

    monkeypatch.setattr(rpc, "decode_frame", decode_frame)


def _validate_twice(package: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sides = package.sides
    validator = sides._validate  # every validation of the peer's messages goes through it

    def _validate(model: Any) -> Any:
        validate = validator(model)

        def twice(data: Any, **options: Any) -> Any:
            validate(data, **options)  # the planted slowdown: validated one more time
            return validate(data, **options)

        return twice

    monkeypatch.setattr(sides, "_validate", _validate)


@needs_budget_versions
@pytest.mark.parametrize("plant", [_decode_twice, _validate_twice], ids=["decode", "validate"])
def test_a_planted_slowdown_fails_the_guard(plant: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    costs = measure("acp_v1", hook=lambda package: plant(package, monkeypatch))
    found = problems(costs)
    over = {line.split(":")[0] for line in found if "over its budget" in line}
    # Both messages pay it: each update on the client, each round trip at both ends.
    assert "acp_v1 update_python_calls" in over, found
    assert "acp_v1 round_trip_python_calls" in over, found


def test_a_stale_budget_fails_the_guard() -> None:
    """A budget far above what is measured no longer guards anything: the guard says so."""
    costs = measure("acp_v1")
    stale = {**BUDGETS, "acp_v1": {f: dict(e) for f, e in BUDGETS["acp_v1"].items()}}
    stale["acp_v1"]["update_python_calls"]["budget"] = math.ceil(costs.update_python * 1.2)
    (line,) = problems(costs, stale)
    assert line.startswith("acp_v1 update_python_calls") and "lock the gain in" in line


def test_the_exchange_counts_what_it_runs() -> None:
    """More messages, more calls: the counts follow the script, each update is seen by the
    client's handler (the exchange raises otherwise), and the per-message figures do not
    depend on how many messages were counted."""
    small = measure("acp_v1", prompts=10, updates=50)
    large = measure("acp_v1", prompts=40, updates=200)
    assert large.round_trip.python > 3 * small.round_trip.python
    assert large.streamed.python > 3 * small.streamed.python
    assert abs(large.rt_python - small.rt_python) <= 1
    assert abs(large.update_python - small.update_python) <= 1

