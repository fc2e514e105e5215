"""The send path: one serialisation per message, and a plan that never skips a refusal.

Copied verbatim into every generated project by acpgen. The plan (``outbound.py``) decides,
per method and capability set, when the capability guard need not run; these tests build,
for every gate and path rule of the package's guards, payloads that the guard refuses and
payloads it accepts, and check that the plan sends every refused one to the guard.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

import pydantic
import pytest

from ._package import PACKAGE, Agent, Client, connect_in_memory, guards, models
from .helpers import run

outbound = importlib.import_module(f"{PACKAGE}.outbound")
sides = importlib.import_module(f"{PACKAGE}.sides")  # where the send path lives

LEAVES = ("relative/dir", "/abs/dir", "C:\\dir", "", None, "x")


def _nest(steps: tuple[str, ...], leaf: Any) -> Any:
    if not steps:
        return leaf
    inner = _nest(steps[1:], leaf)
    return [inner] if steps[0] == "[]" else {steps[0]: inner}


def _capabilities(sender: str, advertised: bool) -> dict[str, Any]:
    caps: dict[str, Any] = {}
    if not advertised:
        return caps
    for gate in guards.GATES:
        if gate.sender != sender or gate.capability is None:
            continue
        node = caps
        for step in gate.wire_path[:-1]:
            node = node.setdefault(step, {})
        node[gate.wire_path[-1]] = True if gate.kind == "boolean" else {}
    return caps


def _guard_refuses(sender: str, message: str, method: str, wire: Any, caps: Any) -> bool:
    check: Any = {
        ("agent", "params"): guards.check_agent_call,
        ("agent", "result"): guards.check_agent_result,
        ("client", "params"): guards.check_client_call,
        ("client", "result"): guards.check_client_result,
    }[(sender, message)]
    try:
        check(method, wire, caps)
    except guards.AcpGuardError:
        return True
    return False


def test_the_plan_sends_every_payload_the_guard_refuses_to_the_guard() -> None:
    skipped = refused = 0
    for sender in ("agent", "client"):
        for advertised in (False, True):
            caps = _capabilities(sender, advertised)
            root = "clientCapabilities" if sender == "agent" else "agentCapabilities"

            def is_advertised(path: str, caps: Any = caps, root: str = root) -> bool:
                check: Any = (
                    guards.client_capability_advertised
                    if root == "clientCapabilities"
                    else guards.agent_capability_advertised
                )
                return bool(check(caps, path.partition(".")[2]))

            plan = outbound.OutboundPlan(sender, guards.GATES, guards.ABSOLUTE_PATHS, is_advertised)
            rules: list[Any] = [*guards.GATES, *guards.ABSOLUTE_PATHS]
            for rule in (r for r in rules if r.sender == sender):
                leaves = [*LEAVES, getattr(rule, "equals", None)]
                for leaf in leaves:
                    wire = _nest(rule.select, leaf) if rule.select else {}
                    sent, _, check = plan.apply(
                        rule.method, rule.message, copy.deepcopy(wire), "test"
                    )
                    if _guard_refuses(sender, rule.message, rule.method, sent, caps):
                        refused += 1
                        assert check, (sender, advertised, rule, leaf)
                    elif not check:
                        skipped += 1
    # Both happen: the guard does refuse these payloads, and the plan does spare it work.
    assert refused > 20 and skipped > 20


class _Agent(Agent):
    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")


class _Client(Client):
    def __init__(self) -> None:
        self.updates: list[Any] = []

    async def session_update(self, params: models.SessionNotification) -> None:
        self.updates.append(params.update)


def test_a_notification_is_serialised_once_and_the_guard_dumps_no_model(monkeypatch: Any) -> None:
    to_wire_calls = dumps = 0
    real_to_wire = sides.to_wire
    real_dump = pydantic.BaseModel.model_dump

    def counting_to_wire(value: Any, model: Any) -> Any:
        nonlocal to_wire_calls
        to_wire_calls += 1
        return real_to_wire(value, model)

    def counting_dump(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal dumps
        dumps += 1
        return real_dump(self, *args, **kwargs)

    client = _Client()

    async def body() -> None:
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            monkeypatch.setattr(sides, "to_wire", counting_to_wire)
            monkeypatch.setattr(pydantic.BaseModel, "model_dump", counting_dump)
            for n in range(10):
                await agent_end.session_update(
                    session_id="s1",
                    update=models.SessionUpdateAgentMessageChunk(
                        content=models.ContentBlockText(text=f"chunk {n}")
                    ),
                )
            monkeypatch.undo()
            await client_end.session_new(cwd="/", mcp_servers=[])  # all ten delivered before

    run(body())
    assert to_wire_calls == 10 and dumps == 0
    assert [u.content.text for u in client.updates] == [f"chunk {n}" for n in range(10)]


# Wire-shaped params given positionally are validated into the model before they are sent:
# dumped as they were, pydantic warned (PydanticSerializationUnexpectedValue) on every run.
# pydantic's serialization warnings are UserWarnings; only they are errors here (a ResourceWarning
# that the collector raises for another test's socket during this one is not this test's).
@pytest.mark.filterwarnings("error::UserWarning")
def test_a_boolean_option_in_a_session_update_is_left_out_for_a_client_without_it() -> None:
    client = _Client()
    options = [
        {"id": "fast", "name": "Fast", "type": "boolean", "currentValue": True},
        {"id": "m", "name": "M", "type": "select", "currentValue": "a", "options": []},
    ]

    async def body() -> None:
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            update = {"sessionUpdate": "config_option_update", "configOptions": options}
            wire: Any = {"sessionId": "s1", "update": update}  # wire-shaped params
            await agent_end.session_update(wire)
            await client_end.session_new(cwd="/", mcp_servers=[])

    run(body())
    (update,) = client.updates
    sent = update.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert [o["id"] for o in sent["configOptions"]] == ["m"]
