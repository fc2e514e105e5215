# Edit acpgen/shipped/runtime/runtime_tests/test_observability.py, not this file: acpgen generate writes it.
"""Observability: a logger per connection, OpenTelemetry spans per request when asked.

Copied verbatim into every generated project by acpgen (``observability.py``). The spans are
checked with a stand-in ``opentelemetry.trace`` module (the API's names, recording what is
opened), so the test needs no OpenTelemetry install; without one, ``trace=True`` warns.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from ._package import PACKAGE, Agent, Client, connect_in_memory, models
from .helpers import run


class _Agent(Agent):
    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")


def test_each_connection_logs_to_its_own_logger(caplog: pytest.LogCaptureFixture) -> None:
    async def body() -> tuple[str, str]:
        async with connect_in_memory(_Agent(), Client()) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            await client_end.session_new(cwd="/", mcp_servers=[])
            return agent_end.logger.name, client_end.logger.name

    with caplog.at_level(logging.DEBUG, logger=PACKAGE):
        agent_name, client_name = run(body())
    assert agent_name != client_name
    assert agent_name.startswith(f"{PACKAGE}.connection.agent.")
    assert client_name.startswith(f"{PACKAGE}.connection.client.")
    handled = [r.getMessage() for r in caplog.records if r.name == agent_name]
    sent = [r.getMessage() for r in caplog.records if r.name == client_name]
    assert "agent: handling session/new" in handled
    assert "client: sending session/new" in sent


class _Tracer:
    def __init__(self) -> None:
        self.spans: list[tuple[str, str, dict[str, Any]]] = []

    @contextlib.contextmanager
    def start_as_current_span(self, name: str, kind: Any, attributes: Any) -> Iterator[None]:
        self.spans.append((name, kind, dict(attributes)))
        yield


@pytest.fixture()
def fake_otel(monkeypatch: pytest.MonkeyPatch) -> _Tracer:
    tracer = _Tracer()
    trace = types.ModuleType("opentelemetry.trace")
    trace.get_tracer = lambda name: tracer  # type: ignore[attr-defined]
    trace.SpanKind = types.SimpleNamespace(CLIENT="client", SERVER="server")  # type: ignore[attr-defined]
    root = types.ModuleType("opentelemetry")
    root.trace = trace  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "opentelemetry", root)
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", trace)
    return tracer


def test_trace_opens_a_span_per_request_sent_and_handled(fake_otel: _Tracer) -> None:
    async def body() -> None:
        async with connect_in_memory(_Agent(), Client()) as (agent_end, client_end):
            agent_end._tracer = agent_end._tracer or _traced(agent_end)
            client_end._tracer = client_end._tracer or _traced(client_end)
            await client_end.initialize(protocol_version=1)
            await client_end.session_new(cwd="/", mcp_servers=[])

    run(body())
    names = [(name, kind) for name, kind, _ in fake_otel.spans]
    assert ("acp.client session/new", "client") in names
    assert ("acp.agent session/new", "server") in names
    assert all(
        a == {"rpc.system": "jsonrpc", "rpc.method": n.split()[1]} for n, _, a in fake_otel.spans
    )


def _traced(end: Any) -> Any:
    from importlib import import_module

    observability = import_module(f"{PACKAGE}.observability")
    return observability.request_tracer(True, PACKAGE, end.logger)


def test_tracing_is_off_by_default_and_warns_without_opentelemetry(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # import fails
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", None)

    async def body() -> tuple[Any, Any]:
        async with connect_in_memory(_Agent(), Client()) as (agent_end, _):
            traced = type(agent_end)(_Agent(), agent_end.rpc._transport, None, trace=True)
            return agent_end._tracer, traced._tracer

    with caplog.at_level(logging.WARNING, logger=PACKAGE):
        default, asked = run(body())
    assert default is None and asked is None
    assert any("opentelemetry-api is not installed" in r.getMessage() for r in caplog.records)
