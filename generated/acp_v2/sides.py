"""What both ends of a typed ACP connection share: routes, wire conversion, dispatch, lifecycle.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/sides.py``).
``connection.py`` (rendered from the method table) builds :class:`AgentSideConnection` and
:class:`ClientSideConnection` on :class:`_Side`, with one typed method per outbound call.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from typing import Any, ClassVar, TypeVar

from pydantic import TypeAdapter, ValidationError

from . import guards, methods, models
from .errors import MalformedResponse
from .handshake import SUPPORTED_PROTOCOL_VERSIONS
from .interfaces import Agent, Client
from .lenient import validate_lenient
from .lenient_markers import MARKERS
from .methods import MethodSpec as Route  # a method's entry: wire, py_name, kind, params, result
from .omit import omit_unadvertised
from .rpc import DEFAULT_MAX_FRAME_BYTES, Connection, RpcError

__all__ = ["AGENT_ROUTES", "CLIENT_ROUTES", "Route", "from_peer", "from_wire", "to_wire"]

logger = logging.getLogger(__name__)


# The methods each side handles (schema: ``x-side``), from the method table.
# A method either side handles (x-side "both": v1 unstable's mcp/message) is routed on both.
AGENT_ROUTES: dict[str, Route] = {
    w: s for w, s in methods.METHODS.items() if s.side in ("agent", "both")
}
CLIENT_ROUTES: dict[str, Route] = {
    w: s for w, s in methods.METHODS.items() if s.side in ("client", "both")
}


@functools.cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    return TypeAdapter(model)


def to_wire(value: Any, model: Any) -> Any:
    """A model instance as its JSON value: wire names, unset optional members left out."""
    if value is None or model is None:
        return value
    return _adapter(model).dump_python(value, mode="json", by_alias=True, exclude_unset=True)


def from_wire(data: Any, model: Any) -> Any:
    """Validate a JSON value into ``model``, by wire names only (names must match exactly)."""
    return _adapter(model).validate_python(data, by_alias=True, by_name=False)


_P = TypeVar("_P")


def _params(model: type[_P], params: _P | None, fields: dict[str, Any]) -> _P:
    """The params of an outbound call: the model given, or one built from keyword arguments
    (None for a member that is not required means "omitted")."""
    if params is not None:
        if fields:
            raise TypeError("pass the params model or keyword arguments, not both")
        return params
    declared: dict[str, Any] = getattr(model, "model_fields", {})
    kept: dict[str, Any] = {}
    for k, v in fields.items():
        if v is not None or (k in declared and declared[k].is_required()):
            kept[k] = v
    return model(**kept)


def from_peer(data: Any, model: Any) -> Any:
    """Validate what the peer sent into ``model``: strictly, except where the schema's
    ``x-deserialize-*`` markers allow leniency (``lenient.py``), which is logged."""
    return validate_lenient(_adapter(model), model, data, MARKERS)


def _validation_data(exc: ValidationError) -> Any:
    # Without the input: a 10 MB frame must not come back inside its own error.
    errors = exc.json(include_url=False, include_context=False, include_input=False)
    return {"errors": json.loads(errors)}


class _Side:
    """What both ends share: inbound dispatch, typed outbound calls, lifecycle."""

    inbound_routes: ClassVar[dict[str, Route]] = {}
    outbound_routes: ClassVar[dict[str, Route]] = {}
    role: ClassVar[str] = ""

    def __init__(
        self,
        handler: Any,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    ) -> None:
        self.handler = handler
        self.rpc = Connection(reader, writer, self, max_frame_bytes=max_frame_bytes, name=self.role)
        handler.on_connect(self)

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        self.rpc.start()

    async def close(self) -> None:
        await self.rpc.close()

    async def wait_closed(self) -> None:
        await self.rpc.wait_closed()

    async def __aenter__(self) -> Any:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- inbound (rpc.Dispatcher) ------------------------------------------------------

    async def handle_request(self, method: str, params: Any) -> Any:
        route = self.inbound_routes.get(method)
        if route is None or route.kind != "request":
            if method.startswith("_"):
                return await self.handler.ext_method(method, params)
            raise RpcError.method_not_found(method)
        value = self._parse_params(route, params)
        result = self._omit(route, "result", await self._dispatch(route, value))
        try:
            self._check_result(route, result)
        except guards.AcpGuardError as exc:
            logger.warning("%s: refused to answer %s: %s", self.role, route.wire, exc)
            raise RpcError.internal_error({"details": str(exc)[:500]}) from exc
        try:
            return to_wire(result, route.result)
        except Exception as exc:  # the handler returned the wrong type
            details = f"invalid {route.wire} result: {exc}"[:500]
            raise RpcError.internal_error({"details": details}) from exc

    async def handle_notification(self, method: str, params: Any) -> None:
        route = self.inbound_routes.get(method)
        if route is None or route.kind != "notification":
            if method.startswith("_"):
                await self.handler.ext_notification(method, params)
            else:
                logger.debug("%s: ignored unknown notification %s", self.role, method)
            return
        try:
            value = self._parse_params(route, params)
        except RpcError as exc:
            logger.warning("%s: dropped invalid %s: %s", self.role, method, exc.data)
            return
        await self._dispatch(route, value)

    def _parse_params(self, route: Route, params: Any) -> Any:
        try:
            return from_peer({} if params is None else params, route.params)
        except ValidationError as exc:
            raise RpcError.invalid_params(_validation_data(exc)) from None

    async def _dispatch(self, route: Route, value: Any) -> Any:
        result = await getattr(self.handler, route.py_name)(value)
        if route.kind != "request" or not (result is None or isinstance(result, dict)):
            return result
        # Wire-shaped results are welcome (None: an empty result); they are validated like
        # the models, so a handler cannot answer what the schema does not allow.
        try:
            return from_wire({} if result is None else result, route.result)
        except ValidationError as exc:
            logger.warning("%s: invalid %s result from the handler", self.role, route.wire)
            raise RpcError.internal_error(_validation_data(exc)) from None

    # -- outbound ----------------------------------------------------------------------

    @property
    def peer_capabilities(self) -> Any:
        """The capabilities the peer advertised in ``initialize``; None before it completed."""
        return None

    def _advertised(self, capability: str) -> bool:
        """Whether the peer advertised ``capability`` (a qualified path, e.g. ``clientCapabilities.fs``)."""
        root, _, path = capability.partition(".")
        # The guards type both as they know them (a Literal of paths, the capabilities models).
        known: Any = path
        peer: Any = self.peer_capabilities
        if root == "agentCapabilities":
            return guards.agent_capability_advertised(peer, known)
        return guards.client_capability_advertised(peer, known)

    def _omit(self, route: Route, message: str, value: Any) -> Any:
        """``value`` without the items the peer cannot take where the spec says to omit them
        (``omit.py``: boolean config options, terminal auth methods), each logged."""
        sender: Any = self.role  # "agent" or "client": the guards' Side
        gates = [g for g in guards.gates_for(route.wire, sender) if g.message == message]
        if not gates or self.peer_capabilities is None:
            return value
        model = route.result if message == "result" else route.params
        where = f"{self.role}: {route.wire} {message}"
        wire, omitted = omit_unadvertised(to_wire(value, model), gates, self._advertised, where)
        return from_wire(wire, model) if omitted else value

    def _check_outbound(self, route: Route, params: Any) -> None:
        """Raise (``guards.AcpGuardError``) before sending what the peer did not advertise."""
        raise NotImplementedError

    def _check_result(self, route: Route, result: Any) -> None:
        """Raise (``guards.AcpGuardError``) before answering what the peer did not advertise."""
        raise NotImplementedError

    async def _call(self, wire: str, params: Any) -> Any:
        route = self.outbound_routes[wire]
        if isinstance(params, dict):  # wire-shaped params: validated into the model first
            params = from_wire(params, route.params)
        params = self._before_request(route, params)
        self._check_outbound(route, params)
        raw = await self.rpc.request(wire, to_wire(params, route.params))
        # A null result is read as an empty object: other SDKs answer null for "nothing".
        try:
            result = from_peer({} if raw is None else raw, route.result)
        except ValidationError as exc:
            raise MalformedResponse(f"invalid {wire} result", _validation_data(exc)) from None
        await self._after_response(route, params, result)
        return result

    async def _send(self, wire: str, params: Any) -> None:
        route = self.outbound_routes[wire]
        if isinstance(params, dict):
            params = from_wire(params, route.params)
        params = self._omit(route, "params", params)
        self._check_outbound(route, params)
        try:
            await self.rpc.notify(wire, to_wire(params, route.params))
        finally:
            self._after_notification(route, params)

    def _before_request(self, route: Route, params: Any) -> Any:
        return params

    async def _after_response(self, route: Route, params: Any, result: Any) -> None:
        return None

    def _after_notification(self, route: Route, params: Any) -> None:
        return None

    async def call_extension(self, method: str, params: Any = None) -> Any:
        """Send an extension request (method names start with ``_``)."""
        if not method.startswith("_"):
            raise ValueError("extension method names start with '_'")
        return await self.rpc.request(method, params)

    async def notify_extension(self, method: str, params: Any = None) -> None:
        """Send an extension notification (method names start with ``_``)."""
        if not method.startswith("_"):
            raise ValueError("extension method names start with '_'")
        await self.rpc.notify(method, params)


class _AgentEnd(_Side):
    """The agent's end, but for what the method table decides (``connection.AgentSideConnection``)."""

    inbound_routes: ClassVar[dict[str, Route]] = AGENT_ROUTES
    outbound_routes: ClassVar[dict[str, Route]] = CLIENT_ROUTES
    role: ClassVar[str] = "agent"

    def __init__(
        self,
        agent: Agent,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    ) -> None:
        self.client_capabilities: models.ClientCapabilities | None = None
        self.protocol_version: int | None = None
        super().__init__(agent, reader, writer, max_frame_bytes=max_frame_bytes)

    @property
    def peer_capabilities(self) -> models.ClientCapabilities | None:
        return self.client_capabilities

    def _check_outbound(self, route: Route, params: Any) -> None:
        method: Any = route.wire  # one of the client's methods (the guards' Literal type)
        guards.check_agent_call(method, params, self.client_capabilities)

    def _check_result(self, route: Route, result: Any) -> None:
        method: Any = route.wire
        guards.check_agent_result(method, result, self.client_capabilities)


class _ClientEnd(_Side):
    """The client's end, but for what the method table decides (``connection.ClientSideConnection``)."""

    inbound_routes: ClassVar[dict[str, Route]] = CLIENT_ROUTES
    outbound_routes: ClassVar[dict[str, Route]] = AGENT_ROUTES
    role: ClassVar[str] = "client"

    def __init__(
        self,
        client: Client,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        supported_versions: frozenset[int] = SUPPORTED_PROTOCOL_VERSIONS,
    ) -> None:
        self.supported_versions = supported_versions
        self.agent_capabilities: models.AgentCapabilities | None = None
        self.agent_auth_methods: Any = None
        self.protocol_version: int | None = None
        # session id -> one future per pending session/request_permission of that session
        self._pending_permissions: dict[str, set[asyncio.Future[None]]] = {}
        super().__init__(client, reader, writer, max_frame_bytes=max_frame_bytes)

    @property
    def peer_capabilities(self) -> models.AgentCapabilities | None:
        return self.agent_capabilities

    @property
    def peer_auth_methods(self) -> Any:
        return self.agent_auth_methods

    def _check_outbound(self, route: Route, params: Any) -> None:
        method: Any = route.wire  # one of the agent's methods (the guards' Literal type)
        guards.check_client_call(method, params, self.agent_capabilities, self.agent_auth_methods)

    def _check_result(self, route: Route, result: Any) -> None:
        method: Any = route.wire
        guards.check_client_result(method, result, self.agent_capabilities)
