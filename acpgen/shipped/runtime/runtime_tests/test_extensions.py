"""Extension methods: typed ``_``-prefixed requests and notifications, both directions.

Copied verbatim into every generated project by acpgen (``extensions.py``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from ._package import Agent, Client, RpcError, connect_in_memory, extensions, guards, models
from .helpers import run

WIRE_NAMES = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)


class Echo(BaseModel):
    model_config = WIRE_NAMES

    text: str
    repeat_count: int = 1


class Echoed(BaseModel):
    model_config = WIRE_NAMES

    joined_text: str


class _Agent(Agent):
    def __init__(self) -> None:
        self.seen: list[Any] = []
        self.noted = asyncio.Event()

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")

    @extensions.extension_request("_acme/echo", params=Echo, result=Echoed)
    async def echo(self, params: Echo) -> Echoed:
        self.seen.append(params)
        return Echoed(joined_text=params.text * params.repeat_count)

    @extensions.extension_request("_acme/fail")
    async def fail(self, params: Any) -> Any:
        if params == {"how": "rpc"}:
            raise RpcError(-32000, "nope", {"why": "policy"})
        raise RuntimeError("boom")

    @extensions.extension_request("_acme/bad_result", result=Echoed)
    async def bad_result(self, params: Any) -> Any:
        return 42

    @extensions.extension_notification("_acme/note", params=Echo)
    async def note(self, params: Echo) -> None:
        self.seen.append(params)
        self.noted.set()


def _exchange(body: Any) -> Any:
    agent = _Agent()

    async def run_body() -> Any:
        async with connect_in_memory(agent, Client()) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            return await body(agent, agent_end, client_end)

    return run(run_body())


def test_a_typed_extension_request_round_trips_by_wire_names() -> None:
    async def body(agent: _Agent, _: Any, client_end: Any) -> Any:
        echoed = await client_end.call_extension(
            "_acme/echo", Echo(text="ab", repeat_count=2), result=Echoed
        )
        raw = await client_end.call_extension("_acme/echo", {"text": "x", "repeatCount": 3})
        return echoed, raw, agent.seen

    echoed, raw, seen = _exchange(body)
    assert isinstance(echoed, Echoed) and echoed.joined_text == "abab"
    assert raw == {"joinedText": "xxx"}  # no result type: the JSON as answered
    assert [s.repeat_count for s in seen] == [2, 3]


def test_extension_errors_follow_the_protocol_rules() -> None:
    async def body(_: Any, __: Any, client_end: Any) -> list[Any]:
        codes = []
        for method, params in [
            ("_acme/echo", {"text": 5}),  # invalid params
            ("_acme/fail", {"how": "rpc"}),  # an RpcError, as raised
            ("_acme/fail", {"how": "crash"}),  # any other exception
            ("_acme/bad_result", {}),  # a result that is not the declared type
            ("_acme/unknown", {}),  # not declared: ext_method, which answers -32601
        ]:
            with pytest.raises(RpcError) as caught:
                await client_end.call_extension(method, params)
            codes.append((caught.value.code, caught.value.data))
        return codes

    codes = _exchange(body)
    assert [c for c, _ in codes] == [-32602, -32000, -32603, -32603, -32601]
    assert codes[1][1] == {"why": "policy"}


def test_a_typed_extension_notification_is_delivered() -> None:
    async def body(agent: _Agent, _: Any, client_end: Any) -> Any:
        await client_end.notify_extension("_acme/note", Echo(text="hi"))
        await agent.noted.wait()
        return agent.seen

    (seen,) = _exchange(body)
    assert seen == Echo(text="hi")


def test_extension_calls_pass_the_guards_and_need_an_underscore() -> None:
    async def body() -> None:
        async with connect_in_memory(_Agent(), Client()) as (_, client_end):
            with pytest.raises(guards.AcpGuardError):  # before initialize: nothing is sent
                await client_end.call_extension("_acme/echo", {"text": "x"})
            await client_end.initialize(protocol_version=1)
            with pytest.raises(ValueError):
                await client_end.call_extension("acme/echo", {"text": "x"})
            with pytest.raises(ValueError):
                await client_end.notify_extension("session/x", None)

    run(body())
    with pytest.raises(ValueError):
        extensions.extension_request("no_underscore")
