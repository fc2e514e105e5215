"""v1 and v2 on one connection (docs/surfaces.md, "v1 and v2 on one connection"): the generated
router (``acp_v2.versions.AgentProtocolRouter``) and the negotiating client
(``connect_in_memory_negotiating``), with generated peers on both sides, in memory (full
NDJSON framing over a socket pair); and the version error where a plain client of one version
meets an agent of the other. The same with the official SDKs: tests/test_interop_negotiation.py.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from typing import Any

import pytest
from conftest import generated_dir


def _import(name: str) -> Any:
    generated_dir()
    return importlib.import_module(name)


def _run(coro: Any) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, 30)

    return asyncio.run(bounded())


def v2_echo_agent() -> Any:
    """An echo agent written with the generated ``acp_v2`` package."""
    acp = _import("acp_v2")
    models = acp.models

    class V2Echo(acp.Agent):  # type: ignore[misc,name-defined]
        info = models.Implementation(name="v2-echo", version="0")
        capabilities = models.AgentCapabilities(session=models.SessionCapabilities())

        async def session_new(self, params: Any) -> Any:
            return models.NewSessionResponse(session_id="v2-session")

        async def session_prompt(self, params: Any) -> Any:
            text = "".join(getattr(b, "text", "") for b in params.prompt)
            await self.connection.session_update(
                session_id=params.session_id,
                update=models.SessionUpdateAgentMessageChunk(
                    message_id="m-1", content=models.ContentBlockText(text=f"v2: {text}")))
            return models.PromptResponse()

    return V2Echo()


def recording_client(acp: Any) -> Any:
    class Recording(acp.Client):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self.texts: list[str] = []

        async def session_update(self, params: Any) -> None:
            self.texts.append(getattr(getattr(params.update, "content", None), "text", ""))

    return Recording()


def router() -> Any:
    v1, versions = _import("acp_v1"), _import("acp_v2.versions")
    echo = _import("acp_v1.examples.echo_agent").EchoAgent
    assert issubclass(echo, v1.Agent)
    return versions.AgentProtocolRouter(v1=echo, v2=v2_echo_agent)


def v2_initialize() -> Any:
    models = _import("acp_v2").models
    return models.InitializeRequest(protocol_version=2, info=models.Implementation(name="t", version="0"))


async def _prompt_v1(conn: Any, v1: Any) -> str:
    session = await conn.session_new(cwd="/tmp", mcp_servers=[])
    response = await conn.session_prompt(session_id=session.session_id,
                                         prompt=[v1.models.ContentBlockText(text="hello")])
    return str(getattr(response.stop_reason, "value", response.stop_reason))


def test_the_router_serves_a_v1_client_with_the_v1_agent() -> None:
    v1, negotiation = _import("acp_v1"), _import("acp_v2.negotiation")

    async def body() -> None:
        client = recording_client(v1)
        async with negotiation.route_in_memory(router(), v1.ClientSideConnection, client) as (routing, conn):
            init = await conn.initialize(protocol_version=1, client_capabilities=v1.models.ClientCapabilities())
            assert init.protocol_version == 1 and conn.protocol_version == 1
            routed = await routing
            assert routed.protocol_version == 1
            assert type(routed.connection) is v1.AgentSideConnection
            assert await _prompt_v1(conn, v1) == "end_turn"
            assert "hello" in "".join(client.texts)
            # The v1 path is a plain v1 connection: its guards refuse what the client lacks.
            with pytest.raises(v1.AcpGuardError):
                await routed.connection.fs_read_text_file(session_id="s", path="/etc/hosts")

    _run(body())


def test_the_router_serves_a_v2_client_with_the_v2_agent() -> None:
    v2, negotiation = _import("acp_v2"), _import("acp_v2.negotiation")

    async def body() -> None:
        client = recording_client(v2)
        async with negotiation.route_in_memory(router(), v2.ClientSideConnection, client) as (routing, conn):
            init = await conn.initialize(v2_initialize())
            assert init.protocol_version == 2 and init.info.name == "v2-echo"
            assert (await routing).protocol_version == 2
            session = await conn.session_new(cwd="/tmp", mcp_servers=[])
            await conn.session_prompt(session_id=session.session_id,
                                      prompt=[v2.models.ContentBlockText(text="hi")])
            assert client.texts == ["v2: hi"]

    _run(body())


def test_the_router_answers_an_unknown_version_with_its_latest() -> None:
    negotiation = _import("acp_v2.negotiation")
    served = router()
    assert served.supported_versions == frozenset({1, 2})
    assert [served.choose(v) for v in (1, 2, 3, 0, None)] == [1, 2, 2, 2, 2]
    frames = {b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}': 1,
              b'{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"protocolVersion":1}}': None,
              b'{"method":"initialize","params":{"protocolVersion":true}}': None,
              b"not json": None, None: None}
    for frame, asked in frames.items():
        assert negotiation._asked_version(frame) == asked, frame
    with pytest.raises(ValueError, match="served twice"):
        negotiation.ProtocolRouter(*served.routes.values(), next(iter(served.routes.values())))


def test_a_frame_larger_than_the_limit_first_is_refused_as_on_a_plain_connection() -> None:
    """The router looks at no more than one frame's limit before it hands the bytes on."""
    negotiation = _import("acp_v2.negotiation")

    async def body() -> None:
        reader = asyncio.StreamReader()
        reader.feed_data(b"x" * 300 + b"\n{}\n")
        reader.feed_eof()
        head, frame = await negotiation._first_frame(reader, 100)
        assert frame is None and len(head) <= 300 + 4
        replay = negotiation._Reader(head, reader)
        rest = b""
        while chunk := await replay.read(7):
            rest += chunk
        assert rest == b"x" * 300 + b"\n{}\n"

    _run(body())


def _serve_v1(v1: Any) -> Any:
    echo = _import("acp_v1.examples.echo_agent").EchoAgent

    def serve(reader: Any, writer: Any) -> Any:
        end = v1.AgentSideConnection(echo(), reader, writer)
        end.start()
        return end

    return serve


def test_the_negotiating_client_falls_back_to_v1_with_a_v1_only_agent() -> None:
    v1, v2, versions = _import("acp_v1"), _import("acp_v2"), _import("acp_v2.versions")

    async def body() -> None:
        client = recording_client(v1)
        async with versions.connect_in_memory_negotiating(
                _serve_v1(v1), v2_initialize(), v1=client, v2=recording_client(v2)) as agreed:
            assert agreed.protocol_version == 1 and agreed.v2 is None
            assert agreed.v1 is agreed.connection and isinstance(agreed.v1, v1.ClientSideConnection)
            assert isinstance(agreed.initialize_response, v1.models.InitializeResponse)
            assert agreed.v1.protocol_version == 1
            assert await _prompt_v1(agreed.v1, v1) == "end_turn"
            assert "hello" in "".join(client.texts)

    _run(body())


def test_the_negotiating_client_keeps_v2_with_an_agent_that_answers_2() -> None:
    v1, v2, versions = _import("acp_v1"), _import("acp_v2"), _import("acp_v2.versions")

    def serve(reader: Any, writer: Any) -> Any:
        end = v2.AgentSideConnection(v2_echo_agent(), reader, writer)
        end.start()
        return end

    async def body() -> None:
        client = recording_client(v2)
        for agent in (serve, router().accept):
            client.texts.clear()
            async with versions.connect_in_memory_negotiating(
                    agent, v2_initialize(), v1=recording_client(v1), v2=client) as agreed:
                assert agreed.protocol_version == 2 and agreed.v1 is None
                assert isinstance(agreed.v2, v2.ClientSideConnection)
                assert agreed.initialize_response.info.name == "v2-echo"
                session = await agreed.v2.session_new(cwd="/tmp", mcp_servers=[])
                await agreed.v2.session_prompt(session_id=session.session_id,
                                               prompt=[v2.models.ContentBlockText(text="hi")])
                assert client.texts == ["v2: hi"]

    _run(body())


def test_an_answer_neither_version_speaks_is_a_version_error() -> None:
    v1, v2, versions = _import("acp_v1"), _import("acp_v2"), _import("acp_v2.versions")

    def serve(reader: Any, writer: Any) -> Any:
        async def answer() -> None:
            request = json.loads(await reader.readline())
            writer.write(json.dumps({"jsonrpc": "2.0", "id": request["id"],
                                     "result": {"protocolVersion": 3}}).encode() + b"\n")
            await writer.drain()
        return answer()

    async def body() -> None:
        with pytest.raises(versions.ProtocolVersionError) as caught:
            async with versions.connect_in_memory_negotiating(
                    serve, v2_initialize(), v1=recording_client(v1), v2=recording_client(v2)):
                pass
        assert str(caught.value) == ("agent answered protocol version 3; this client asked for 2 "
                                     "and supports [1, 2]: connection closed")

    _run(body())


def test_a_plain_v2_client_meeting_a_v1_agent_gets_a_version_error() -> None:
    """Not MalformedResponse: the answer's version is read before its shape."""
    v1, v2 = _import("acp_v1"), _import("acp_v2")
    echo = _import("acp_v1.examples.echo_agent").EchoAgent

    async def body() -> None:
        pairing = _import("acp_v1.transports.in_memory").pair_in_memory
        async with pairing(v1.AgentSideConnection, v2.ClientSideConnection, echo(), recording_client(v2),
                           max_frame_bytes=1 << 20) as (_agent, conn):
            with pytest.raises(v2.ProtocolVersionError) as caught:
                await conn.initialize(v2_initialize())
        assert re.fullmatch(r"agent answered protocol version 1; this client asked for 2 and "
                            r"supports \[2\]: connection closed", str(caught.value))

    _run(body())


def test_a_plain_v1_client_meeting_a_v2_agent_gets_a_version_error() -> None:
    """Not -32602 "info required": the v2 agent answers its own version, as the protocol says,
    and the v1 client closes naming both."""
    v1, v2 = _import("acp_v1"), _import("acp_v2")

    async def body() -> None:
        pairing = _import("acp_v1.transports.in_memory").pair_in_memory
        async with pairing(v2.AgentSideConnection, v1.ClientSideConnection, v2_echo_agent(),
                           recording_client(v1), max_frame_bytes=1 << 20) as (agent, conn):
            with pytest.raises(v1.ProtocolVersionError) as caught:
                await conn.initialize(protocol_version=1, client_capabilities=v1.models.ClientCapabilities())
            assert agent.protocol_version == 2
        assert str(caught.value) == ("agent answered protocol version 2; this client asked for 1 "
                                     "and supports [1]: connection closed")

    _run(body())


def test_the_facade_exists_only_where_both_versions_are_generated() -> None:
    from acpgen.emit import versions as emitter
    from acpgen.load.project import load_project
    from acpgen.model.generation import surface_models
    from acpgen.output.generate import options_for
    from tests.conftest import PROJECT_ROOT

    project = load_project(PROJECT_ROOT)
    model, *others = surface_models(project, options_for(project))
    surfaces = tuple(others)
    assert emitter.pairs(model, surfaces) == [("acp_v1", "acp_v2"), ("acp_v1_unstable", "acp_v2_unstable")]
    only_v2 = tuple(s for s in surfaces if s.options.package == "acp_v2")
    assert emitter.pairs(model, only_v2) == [("acp_v1", "acp_v2")]
    assert emitter.pairs(model, ()) == []
    unstable_v2 = tuple(s for s in surfaces if s.options.package == "acp_v2_unstable")
    assert emitter.pairs(model, unstable_v2) == [("acp_v1", "acp_v2_unstable")]
