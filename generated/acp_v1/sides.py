# Edit acpgen/shipped/runtime/sides.py, not this file: acpgen generate writes it.
"""The two ends of a typed ACP connection: routes, wire conversion, dispatch, lifecycle.

:class:`AgentEnd` and :class:`ClientEnd` do everything an end does; ``connection.py``
(rendered from the method table) only adds one typed method per outbound call to them
(``AgentSideConnection``, ``ClientSideConnection``), each a call of :meth:`Side.send_request`
or :meth:`Side.send_notification`. What the runtime does itself: the agent's end answers the
negotiated protocol version whatever its handler answers and cancels a session's in-flight
requests on ``session/cancel``; the client's end asks for its latest version, closes the
connection when the agent answers one it does not support
(ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION), and answers every pending
``session/request_permission`` of a session with ``cancelled`` when it sends
``session/cancel`` (ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS).

Inbound messages are validated strictly, except where the schema marks leniency
(``lenient.py``); an answer leaves out what the peer cannot take where the spec says to omit
it (``omit.py``). Outbound calls pass the capability guards (``guards.check_*_call``) first:
a call the peer did not advertise, or one before ``initialize`` completed, raises
``guards.AcpGuardError`` and nothing is sent. Handler results pass ``guards.check_*_result``
before they are answered.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from types import SimpleNamespace
from typing import Any, ClassVar, TypeVar, cast, overload

from pydantic import BaseModel, TypeAdapter, ValidationError

from . import guards
from .contract import MethodSpec as Route  # a method's entry: wire, py_name, kind, params, result
from .errors import INVALID_REQUEST, MalformedResponse
from .extensions import Extension, check_extension_name, declared_extensions
from .handlers import Handler
from .handshake import (
    ProtocolVersionError,
    default_initialize,
    explicit_defaults,
    negotiate_version,
)
from .lenient import repair_lenient
from .observability import connection_logger, request_tracer, span_kind
from .outbound import OutboundPlan, PlannedRule, may_refuse, plan_rules
from .rpc import (
    DEFAULT_MAX_FRAME_BYTES,
    DEFAULT_MAX_QUEUED_BYTES,
    DEFAULT_MAX_QUEUED_PER_SESSION,
    DEFAULT_MAX_QUEUED_TOTAL,
    Connection,
    RpcError,
)
from .schema import (
    CANCEL,
    CANCELLED_PERMISSION,
    INITIALIZE,
    METHODS,
    PERMISSION,
    SUPPORTED_PROTOCOL_VERSIONS,
    AgentCapabilities,
    ClientCapabilities,
)
from .transport import FrameTransport

__all__ = [
    "AGENT_ROUTES",
    "CLIENT_ROUTES",
    "AgentEnd",
    "ClientEnd",
    "Route",
    "Side",
    "from_peer",
    "from_wire",
    "to_wire",
    "wire_version",
]

logger = logging.getLogger(__name__)
_PACKAGE = __name__.rpartition(".")[0]  # the generated package this module is copied into
_INITIALIZE = INITIALIZE.wire


def _wire_name(model: Any, member: str) -> str:
    """The wire name of ``model``'s member ``member`` (a Python name)."""
    field = model.model_fields[member]
    return str(field.serialization_alias or member)


# Where each side's own capabilities travel in the handshake (v1 "clientCapabilities" and
# "agentCapabilities", v2 "capabilities"): the receive guards check the peer against them.
_HANDSHAKE = METHODS[_INITIALIZE]
_CLIENT_CAPABILITIES = _wire_name(_HANDSHAKE.params, INITIALIZE.client_capabilities)
_AGENT_CAPABILITIES = _wire_name(_HANDSHAKE.result, INITIALIZE.agent_capabilities)
_AUTH_METHODS = _wire_name(_HANDSHAKE.result, INITIALIZE.auth_methods)


# The methods each side handles (schema: ``x-side``), from the method table.
# A method either side handles (x-side "both": v1 unstable's mcp/message) is routed on both.
AGENT_ROUTES: dict[str, Route] = {w: s for w, s in METHODS.items() if s.side in ("agent", "both")}
CLIENT_ROUTES: dict[str, Route] = {w: s for w, s in METHODS.items() if s.side in ("client", "both")}


@functools.cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    return TypeAdapter(model)


# pydantic-core's validator and serializer of each adapter, called directly on the hot path:
# TypeAdapter's validate_python and dump_python only pass their arguments on, through a
# Python frame of their own (and a model's own class validator would skip the adapter's
# checks of nothing). The same calls with the same arguments, one frame less per message.
@functools.cache
def _validate(model: Any) -> Any:
    return _adapter(model).validator.validate_python


@functools.cache
def _dump(model: Any) -> Any:
    return _adapter(model).serializer.to_python


def to_wire(value: Any, model: Any) -> Any:
    """A model instance as its JSON value: wire names, unset optional members left out."""
    if value is None or model is None:
        return value
    return _dump(model)(value, mode="json", by_alias=True, exclude_unset=True)


def from_wire(data: Any, model: Any) -> Any:
    """Validate a JSON value into ``model``, by wire names only (names must match exactly)."""
    return _validate(model)(data, by_alias=True, by_name=False)


_P = TypeVar("_P")
_R = TypeVar("_R")


def _params(model: type[_P], params: _P | None, fields: dict[str, Any]) -> _P:
    """The params of an outbound call: the model given, or one built from keyword arguments
    (None for a member that is not required means "omitted")."""
    if params is not None:
        if fields:
            raise TypeError("pass the params model or keyword arguments, not both")
        if params.__class__ is dict:
            # Wire-shaped params, positional through a typed method: validated into the model
            # (dumped as one, pydantic warned that it is no model). A class check, not a call:
            # this is every send's path (tests/cost_budgets.toml).
            return from_wire(params, model)  # type: ignore[no-any-return]
        return params
    for value in fields.values():
        if value is None:
            break
    else:  # the usual call: nothing to leave out
        return model(**fields)
    required = _required(model)  # type: ignore[arg-type]  # a class: hashable
    return model(**{k: v for k, v in fields.items() if v is not None or k in required})


@functools.cache
def _required(model: Any) -> frozenset[str]:
    declared: dict[str, Any] = getattr(model, "model_fields", {})
    return frozenset(name for name, field in declared.items() if field.is_required())


def from_peer(data: Any, model: Any) -> Any:
    """Validate what the peer sent into ``model``: strictly, except where the schema's
    ``x-deserialize-*`` markers allow leniency (``lenient.py``), which is logged."""
    try:  # validate_lenient's strict first pass, inline
        return _validate(model)(data, by_alias=True, by_name=False)
    except ValidationError as error:
        return repair_lenient(_adapter(model), model, data, error)


def wire_version(message: Any, model: Any, member: str) -> int | None:
    """The protocol version an ``initialize`` request or answer (``message``, wire JSON)
    carries in ``model``'s member ``member``, read before validation: another version's
    message need not fit this version's models. None when it carries no integer there.
    """
    if not isinstance(message, dict):
        return None
    fields: dict[str, Any] = getattr(model, "model_fields", {})
    field = fields.get(member)
    wire = None if field is None else field.serialization_alias or field.alias
    version = message.get(wire or member)
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def _advertises(capabilities: Any, qualified: str) -> bool:
    """Whether ``capabilities`` (either side's: a model or wire JSON) advertise ``qualified``."""
    root, _, path = qualified.partition(".")
    known: Any = path  # the guards type it as a Literal of the paths they know
    if root == "agentCapabilities":
        return guards.agent_capability_advertised(capabilities, known)
    return guards.client_capability_advertised(capabilities, known)


def _refusal_error(refusal: guards.AcpGuardError) -> RpcError:
    """The wire error for a message the receive guards refused (see ``_Side.admit``)."""
    code = INVALID_REQUEST if isinstance(refusal, guards.NotInitializedError) else refusal.code
    data: dict[str, Any] = {"reason": f"{refusal.method}: {refusal.reason}"[:500]}
    data["requirements"] = list(refusal.requirements)
    capability = getattr(refusal, "capability", None)
    if capability is not None:
        data["capability"] = capability
    return RpcError(code, None, data)


def _validation_data(exc: ValidationError) -> Any:
    # Without the input: a 10 MB frame must not come back inside its own error.
    errors = exc.json(include_url=False, include_context=False, include_input=False)
    return {"errors": json.loads(errors)}


class Side:
    """What both ends share: inbound dispatch, typed outbound calls, lifecycle."""

    inbound_routes: ClassVar[dict[str, Route]] = {}
    outbound_routes: ClassVar[dict[str, Route]] = {}
    role: ClassVar[str] = ""
    # The outbound methods whose calls run the hooks (_before_request, _before_result,
    # _after_response, _after_notification): the others skip them, a call or two less each.
    _hooked: ClassVar[frozenset[str]] = frozenset()
    # The inbound methods this end dispatches through its own _dispatch (the handshake,
    # cancellation, permissions); every other one goes straight to its handler.
    _special: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        handler: Handler,
        reader: asyncio.StreamReader | FrameTransport,
        writer: asyncio.StreamWriter | None,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        trace: bool = False,
        unsafe_accept_unadvertised: bool = False,
        max_queued_per_session: int = DEFAULT_MAX_QUEUED_PER_SESSION,
        max_queued_total: int = DEFAULT_MAX_QUEUED_TOTAL,
        max_queued_bytes: int = DEFAULT_MAX_QUEUED_BYTES,
    ) -> None:
        self.handler = handler
        # The receive guards' opt-out: True lets the peer's messages reach the handlers
        # whatever this side advertised (and before initialize). For tests of other peers.
        self.unsafe_accept_unadvertised = unsafe_accept_unadvertised
        # What this side advertised in initialize (wire JSON); None until then.
        self.own_capabilities: Any = None
        self.own_auth_methods: Any = None
        self._refusals_logged: set[tuple[str, str]] = set()
        # (method, message, paths checked) -> the receive rules that can still refuse, for
        # the own capabilities they were planned with (``_received_rules``).
        self._receive_rules: dict[tuple[str, str, bool], tuple[PlannedRule, ...]] = {}
        self._receive_rules_for: Any = None
        self._initializing: asyncio.Future[None] | None = None  # an initialize being answered
        # One logger per connection; spans only with trace=True (observability.py).
        self.logger = connection_logger(_PACKAGE, self.role)
        self._tracer = request_tracer(trace, _PACKAGE, self.logger)
        self._plan: OutboundPlan | None = None
        self._extensions = declared_extensions(handler)
        self._plan_for: Any = None
        self.rpc = Connection(
            reader,
            writer,
            self,
            max_frame_bytes=max_frame_bytes,
            name=self.role,
            max_queued_per_session=max_queued_per_session,
            max_queued_total=max_queued_total,
            max_queued_bytes=max_queued_bytes,
        )
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

    @property
    def peer_role(self) -> Any:
        return "client" if self.role == "agent" else "agent"

    async def _initialized(self, method: str) -> None:
        """Wait for an ``initialize`` being answered (a peer may write its requests right
        behind ``initialize``, as a file piped in does)."""
        if self._initializing is not None and method not in guards.INITIALIZE_EXEMPT:
            await asyncio.shield(self._initializing)

    def admit(self, method: str, params: Any, is_request: bool) -> RpcError | None:
        """The receive guards: refuse what this side did not advertise, or anything but
        ``initialize`` before it, before any handler runs (None: accepted).

        The same gates as the send path, checked against this side's own capabilities: a
        whole method gated is answered -32601 (method not found: not advertised means not
        there), gated content or a path that is not absolute -32602 (invalid params, as the
        roster prescribes for elicitation modes), a message before ``initialize`` -32600
        (invalid request: the roster names no code; nothing about the method or its params
        is wrong, the connection is not ready). Logged once per connection and kind.
        """
        if self.unsafe_accept_unadvertised:
            return None
        own = self.own_capabilities
        if own is not None:  # the everyday case: a planned scan
            rules = None
            if self._receive_rules_for is own:  # planned already (_received_rules), inline
                rules = self._receive_rules.get((method, "params", is_request))
            if rules is None:
                rules = self._received_rules(method, "params", is_request)
            if not rules or not may_refuse(rules, params):
                return None
        refusal = guards.received_refusal(
            self.peer_role,
            "params",
            method,
            params,
            self.own_capabilities,
            self.own_auth_methods,
            paths=is_request,  # a relative path does not cost a whole notification
        )
        if refusal is None:
            return None
        self._log_refusal(method, refusal)
        return _refusal_error(refusal)

    def _received_rules(self, method: str, message: str, paths: bool) -> tuple[PlannedRule, ...]:
        """The rules that can refuse the peer's ``method`` ``message`` given what this side
        advertised, planned once (``outbound.plan_rules``): only when one of them finds
        something does the full guard run, which decides and words the refusal."""
        if self._receive_rules_for is not self.own_capabilities:
            self._receive_rules = {}
            self._receive_rules_for = self.own_capabilities
        key = (method, message, paths)
        rules = self._receive_rules.get(key)
        if rules is None:
            row = (self.peer_role, message, method)
            gates = [g for g in guards.GATES if (g.sender, g.message, g.method) == row]
            rows = guards.ABSOLUTE_PATHS if paths else ()
            path_rules = [r for r in rows if (r.sender, r.message, r.method) == row]
            own = self.own_capabilities
            rules = plan_rules(gates, path_rules, lambda c: _advertises(own, c), False)
            self._receive_rules[key] = rules
        return rules

    def _log_refusal(self, method: str, refusal: guards.AcpGuardError) -> None:
        kind = (
            method,
            type(refusal).__name__ + ":" + str(getattr(refusal, "target", "")),
        )
        level = logging.DEBUG if kind in self._refusals_logged else logging.WARNING
        self._refusals_logged.add(kind)
        self.logger.log(
            level,
            "%s: refused %s from the %s: %s",
            self.role,
            method,
            self.peer_role,
            refusal.reason,
        )

    def _check_received_result(self, wire: str, raw: Any) -> None:
        """The receive guards on a result the peer answered to our call (``in = "result"``
        gates): one that breaks them fails the call with :class:`MalformedResponse`."""
        own = self.own_capabilities
        if self.unsafe_accept_unadvertised or own is None:
            return
        rules = None
        if self._receive_rules_for is own:  # planned already (_received_rules), inline
            rules = self._receive_rules.get((wire, "result", True))
        if rules is None:
            rules = self._received_rules(wire, "result", True)
        if not rules or not may_refuse(rules, raw):
            return
        refusal = guards.received_refusal(
            self.peer_role, "result", wire, raw, self.own_capabilities
        )
        if refusal is not None:
            self._log_refusal(wire, refusal)
            raise MalformedResponse(
                f"{wire} result refused: {refusal.reason}", _refusal_error(refusal).data
            )

    async def handle_request(self, method: str, params: Any, traced: bool = False) -> Any:
        if self._tracer is not None and not traced:
            with self._span(method, outbound=False):
                return await self.handle_request(method, params, True)
        if self.logger.isEnabledFor(logging.DEBUG):
            self.logger.debug("%s: handling %s", self.role, method)
        if not self.unsafe_accept_unadvertised:
            if self.own_capabilities is None:
                await self._initialized(method)
            refusal = self.admit(method, params, True)
            if refusal is not None:
                raise refusal
        if method == _INITIALIZE and self.role == "agent":
            return await self._initialize(method, params)
        return await self._answer(method, params)

    def _span(self, method: str, outbound: bool) -> Any:
        attributes = {"rpc.system": "jsonrpc", "rpc.method": method}
        name = f"acp.{self.role} {method}"
        kind = span_kind(outbound)
        return self._tracer.start_as_current_span(name, kind=kind, attributes=attributes)

    async def _initialize(self, method: str, params: Any) -> Any:
        """Answer ``initialize``; requests that arrive meanwhile wait for it (``_admit``)."""
        done = self._initializing = asyncio.get_running_loop().create_future()
        try:
            return await self._answer(method, params)
        finally:
            if not done.done():
                done.set_result(None)

    async def _answer(self, method: str, params: Any) -> Any:
        route = self.inbound_routes.get(method)
        if route is None or route.kind != "request":
            if method.startswith("_"):
                return await self._extension_request(method, params)
            raise RpcError.method_not_found(method)
        value = self._parse_params(route, params)
        if route.wire in self._special:
            result = await self._dispatch(route, value)
        else:
            result = await Side._dispatch(self, route, value)
        try:
            wire = to_wire(result, route.result)
        except Exception as exc:  # the handler returned the wrong type
            details = f"invalid {route.wire} result: {exc}"[:500]
            raise RpcError.internal_error({"details": details}) from exc
        try:
            sent = self._outbound(route, "result", result, wire)[0]
        except guards.AcpGuardError as exc:
            self.logger.warning("%s: refused to answer %s: %s", self.role, route.wire, exc)
            raise RpcError.internal_error({"details": str(exc)[:500]}) from exc
        if route.wire == _INITIALIZE and self.role == "agent" and isinstance(sent, dict):
            # What this agent advertised: the receive guards check the client against it.
            self.own_auth_methods = sent.get(_AUTH_METHODS)
            self.own_capabilities = sent.get(_AGENT_CAPABILITIES) or {}
        return sent

    async def handle_notification(self, method: str, params: Any) -> None:
        if not self.unsafe_accept_unadvertised:
            if self.own_capabilities is None:
                await self._initialized(method)
            if self.admit(method, params, False) is not None:
                return  # refused (logged): a notification is never answered
        route = self.inbound_routes.get(method)
        if route is None or route.kind != "notification":
            if method.startswith("_"):
                await self._extension_notification(method, params)
            else:
                self.logger.debug("%s: ignored unknown notification %s", self.role, method)
            return
        try:
            value = self._parse_params(route, params)
        except RpcError as exc:
            self.logger.warning("%s: dropped invalid %s: %s", self.role, method, exc.data)
            return
        if route.wire in self._special:
            await self._dispatch(route, value)
        else:  # a notification's dispatch is its handler's call
            await getattr(self.handler, route.py_name)(value)

    def _parse_params(self, route: Route, params: Any) -> Any:
        """The peer's params validated into the route's model (``from_peer``, inline)."""
        data = {} if params is None else params
        try:
            return _validate(route.params)(data, by_alias=True, by_name=False)
        except ValidationError as error:
            try:
                return repair_lenient(_adapter(route.params), route.params, data, error)
            except ValidationError as exc:
                return self._invalid_params(route, params, exc)

    def _invalid_params(self, route: Route, params: Any, error: ValidationError) -> Any:
        """What params that do not validate come to: -32602 (an end may read some itself)."""
        raise RpcError.invalid_params(_validation_data(error)) from None

    async def _dispatch(self, route: Route, value: Any) -> Any:
        result = await getattr(self.handler, route.py_name)(value)
        if route.kind != "request" or not (result is None or isinstance(result, dict)):
            return result
        # Wire-shaped results are welcome (None: an empty result); they are validated like
        # the models, so a handler cannot answer what the schema does not allow.
        try:
            return from_wire({} if result is None else result, route.result)
        except ValidationError as exc:
            self.logger.warning("%s: invalid %s result from the handler", self.role, route.wire)
            raise RpcError.internal_error(_validation_data(exc)) from None

    # -- outbound ----------------------------------------------------------------------

    @property
    def peer_capabilities(self) -> Any:
        """The capabilities the peer advertised in ``initialize``; None before it completed."""
        return None

    def _advertised(self, capability: str) -> bool:
        """Whether the peer advertised ``capability`` (a qualified path, e.g. ``clientCapabilities.fs``)."""
        return _advertises(self.peer_capabilities, capability)

    def _outbound_plan(self) -> OutboundPlan | None:
        """The send plan for the peer's current capabilities (None before ``initialize``)."""
        capabilities = self.peer_capabilities
        if capabilities is None:
            return None
        if self._plan_for is not capabilities:
            gates, paths = guards.GATES, guards.ABSOLUTE_PATHS
            self._plan = OutboundPlan(self.role, gates, paths, self._advertised)
            self._plan_for = capabilities
        return self._plan

    def _outbound(self, route: Route, message: str, value: Any, wire: Any) -> tuple[Any, Any]:
        """What goes on the wire for ``value`` (serialised once, as ``wire``): without the items
        the peer cannot take where the spec says to omit them (``omit.py``: boolean config
        options, terminal auth methods, each logged), after the capability guards, which raise
        ``guards.AcpGuardError``; and the value as sent."""
        capabilities = self.peer_capabilities
        if capabilities is None:
            plan = None
        elif self._plan_for is capabilities:  # _outbound_plan's cache, inline
            plan = self._plan
        else:
            plan = self._outbound_plan()
        check = True
        if plan is not None:
            where = f"{self.role}: {route.wire} {message}"
            wire, omitted, check = plan.apply(route.wire, message, wire, where)
            if omitted:
                value = from_wire(wire, route.result if message == "result" else route.params)
        if check:  # something in it may be refused: the guard decides, on the same JSON
            if message == "params":
                self._check_outbound(route, wire)
            else:
                self._check_result(route, wire)
        return wire, value

    def _check_outbound(self, route: Route, params: Any) -> None:
        """Raise (``guards.AcpGuardError``) before sending what the peer did not advertise."""
        raise NotImplementedError

    def _check_result(self, route: Route, result: Any) -> None:
        """Raise (``guards.AcpGuardError``) before answering what the peer did not advertise."""
        raise NotImplementedError

    async def send_request(
        self, wire: str, params: Any = None, fields: dict[str, Any] | None = None
    ) -> Any:
        """Send the request ``wire`` and return its validated result: ``params`` a model, wire
        JSON, or None with the model's members as ``fields`` (keyword arguments)."""
        route = self.outbound_routes[wire]
        if fields is not None:
            params = _params(route.params, params, fields)
        elif isinstance(params, dict):  # wire-shaped params: validated into the model first
            params = from_wire(params, route.params)
        hooked = wire in self._hooked
        if hooked:
            params = self._before_request(route, params)
        sent, params = self._outbound(route, "params", params, to_wire(params, route.params))
        if wire == _INITIALIZE and self.role == "client" and isinstance(sent, dict):
            # What this client advertises: the receive guards check the agent against it.
            self.own_capabilities = sent.get(_CLIENT_CAPABILITIES) or {}
        if self.logger.isEnabledFor(logging.DEBUG):
            self.logger.debug("%s: sending %s", self.role, wire)
        if self._tracer is None:
            raw = await self.rpc.request(wire, sent)
        else:
            with self._span(wire, outbound=True):
                raw = await self.rpc.request(wire, sent)
        if hooked:
            await self._before_result(route, params, raw)
        self._check_received_result(wire, raw)
        # A null result is read as an empty object: other SDKs answer null for "nothing".
        data = {} if raw is None else raw
        try:
            try:  # from_peer, inline
                result = _validate(route.result)(data, by_alias=True, by_name=False)
            except ValidationError as error:
                result = repair_lenient(_adapter(route.result), route.result, data, error)
        except ValidationError as exc:
            raise MalformedResponse(f"invalid {wire} result", _validation_data(exc)) from None
        if hooked:
            await self._after_response(route, params, result)
        return result

    async def send_notification(
        self, wire: str, params: Any = None, fields: dict[str, Any] | None = None
    ) -> None:
        """Send the notification ``wire``: ``params`` as for :meth:`send_request`."""
        route = self.outbound_routes[wire]
        if fields is not None:
            params = _params(route.params, params, fields)
        elif isinstance(params, dict):
            params = from_wire(params, route.params)
        sent, params = self._outbound(route, "params", params, to_wire(params, route.params))
        if wire not in self._hooked:
            await self.rpc.notify(wire, sent)
            return
        try:
            await self.rpc.notify(wire, sent)
        finally:
            self._after_notification(route, params)

    def _before_request(self, route: Route, params: Any) -> Any:
        return params

    async def _before_result(self, route: Route, params: Any, raw: Any) -> None:
        return None

    async def _after_response(self, route: Route, params: Any, result: Any) -> None:
        return None

    def _after_notification(self, route: Route, params: Any) -> None:
        return None

    # -- extension methods (extensions.py) ----------------------------------------------

    async def _extension_request(self, method: str, params: Any) -> Any:
        ext = self._extensions.get(method)
        if ext is None or ext.kind != "request":
            return await self.handler.ext_method(method, params)
        value = self._parse_extension(ext, params)
        result = await getattr(self.handler, ext.attr)(value)
        try:
            dump = _adapter(Any if ext.result is None else ext.result).dump_python
            # warnings="error": a value of another type raises instead of a warning.
            return dump(result, mode="json", by_alias=True, exclude_unset=True, warnings="error")
        except Exception as exc:  # the handler returned what its declared result is not
            details = f"invalid {method} result: {exc}"[:500]
            raise RpcError.internal_error({"details": details}) from exc

    async def _extension_notification(self, method: str, params: Any) -> None:
        ext = self._extensions.get(method)
        if ext is None or ext.kind != "notification":
            await self.handler.ext_notification(method, params)
            return
        try:
            value = self._parse_extension(ext, params)
        except RpcError as exc:
            self.logger.warning("%s: dropped invalid %s: %s", self.role, method, exc.data)
            return
        await getattr(self.handler, ext.attr)(value)

    def _parse_extension(self, ext: Extension, params: Any) -> Any:
        if ext.params is None:
            return params
        try:
            return from_wire({} if params is None else params, ext.params)
        except ValidationError as exc:
            raise RpcError.invalid_params(_validation_data(exc)) from None

    def _extension_wire(self, method: str, params: Any) -> Any:
        """An extension call's params as wire JSON (a model serialised once), after the
        capability guards (before ``initialize`` completes, nothing but it may be sent).
        """
        check_extension_name(method)
        wire = to_wire(params, type(params)) if isinstance(params, BaseModel) else params
        if self.peer_capabilities is None:
            # The guards read only the route's wire name: an extension has no route of its own.
            self._check_outbound(cast(Route, SimpleNamespace(wire=method)), wire)
        return wire

    @overload
    async def call_extension(self, method: str, params: Any = None, *, result: type[_R]) -> _R: ...

    @overload
    async def call_extension(self, method: str, params: Any = None) -> Any: ...

    async def call_extension(self, method: str, params: Any = None, *, result: Any = None) -> Any:
        """Send an extension request (its name starts with ``_``): ``params`` a model (sent by
        wire names) or JSON; the answer is validated into ``result`` when given."""
        raw = await self.rpc.request(method, self._extension_wire(method, params))
        if result is None:
            return raw
        try:
            return from_peer(raw, result)
        except ValidationError as exc:
            raise MalformedResponse(f"invalid {method} result", _validation_data(exc)) from None

    async def notify_extension(self, method: str, params: Any = None) -> None:
        """Send an extension notification (its name starts with ``_``)."""
        await self.rpc.notify(method, self._extension_wire(method, params))


class _OtherVersion:
    """An ``initialize`` of a protocol version this agent does not speak, which does not fit
    this version's request: only its version is read (``handshake.default_initialize``).
    """

    def __init__(self, protocol_version: int) -> None:
        self.protocol_version = protocol_version
        setattr(self, INITIALIZE.request_version, protocol_version)


class AgentEnd(Side):
    """The agent's end: dispatches to an ``Agent``, calls the client
    (``connection.AgentSideConnection`` adds the typed calls)."""

    inbound_routes: ClassVar[dict[str, Route]] = AGENT_ROUTES
    outbound_routes: ClassVar[dict[str, Route]] = CLIENT_ROUTES
    role: ClassVar[str] = "agent"
    _special: ClassVar[frozenset[str]] = frozenset({INITIALIZE.wire, CANCEL.wire})

    def __init__(
        self,
        agent: Handler,
        reader: asyncio.StreamReader | FrameTransport,
        writer: asyncio.StreamWriter | None,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        trace: bool = False,
        **options: Any,
    ) -> None:
        self.client_capabilities: ClientCapabilities | None = None
        self.protocol_version: int | None = None
        limit = max_frame_bytes
        super().__init__(agent, reader, writer, max_frame_bytes=limit, trace=trace, **options)

    @property
    def peer_capabilities(self) -> ClientCapabilities | None:
        return self.client_capabilities

    def _check_outbound(self, route: Route, params: Any) -> None:
        method: Any = route.wire  # one of the client's methods (the guards' Literal type)
        guards.check_agent_call(method, params, self.client_capabilities)

    def _check_result(self, route: Route, result: Any) -> None:
        method: Any = route.wire
        guards.check_agent_result(method, result, self.client_capabilities)

    def _invalid_params(self, route: Route, params: Any, error: ValidationError) -> Any:
        asked = None
        if route.wire == INITIALIZE.wire:
            asked = wire_version(params, route.params, INITIALIZE.request_version)
        if asked is None or asked in SUPPORTED_PROTOCOL_VERSIONS:
            return super()._invalid_params(route, params, error)
        # Another version's initialize need not fit this version's models (v1 has no
        # clientInfo, v2 requires it). The protocol's answer is this agent's latest version,
        # so the client can tell it is not understood and close: built from the agent's
        # declared capabilities, the handler is not called.
        return _OtherVersion(asked)

    async def _dispatch(self, route: Route, value: Any) -> Any:
        if isinstance(value, _OtherVersion):
            self.logger.warning(
                "agent: initialize asks for protocol version %d, which this agent does not "
                "speak (it speaks %s): answering version %d",
                value.protocol_version,
                sorted(SUPPORTED_PROTOCOL_VERSIONS),
                negotiate_version(value.protocol_version),
            )
            self.protocol_version = negotiate_version(value.protocol_version)
            return default_initialize(self.handler, value, route.result)
        if route.wire == CANCEL.wire:
            # The session's in-flight requests (its prompt) see it at once (cancellation.py).
            self.rpc.cancel_session(str(getattr(value, CANCEL.session_id)), route.wire)
        if route.wire != INITIALIZE.wire:
            return await super()._dispatch(route, value)
        # Version negotiation is the runtime's job, whatever the application answers.
        response = await super()._dispatch(route, value)
        negotiated = negotiate_version(int(getattr(value, INITIALIZE.request_version)))
        answered = INITIALIZE.response_version
        if response is not None and getattr(response, answered) != negotiated:
            response = response.model_copy(update={answered: negotiated})
        self.client_capabilities = getattr(value, INITIALIZE.client_capabilities)
        self.protocol_version = negotiated
        return response


class ClientEnd(Side):
    """The client's end: dispatches to a ``Client``, calls the agent
    (``connection.ClientSideConnection`` adds the typed calls)."""

    inbound_routes: ClassVar[dict[str, Route]] = CLIENT_ROUTES
    outbound_routes: ClassVar[dict[str, Route]] = AGENT_ROUTES
    role: ClassVar[str] = "client"
    _hooked: ClassVar[frozenset[str]] = frozenset({INITIALIZE.wire, CANCEL.wire})
    _special: ClassVar[frozenset[str]] = frozenset({PERMISSION.wire})

    def __init__(
        self,
        client: Handler,
        reader: asyncio.StreamReader | FrameTransport,
        writer: asyncio.StreamWriter | None,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        supported_versions: frozenset[int] = SUPPORTED_PROTOCOL_VERSIONS,
        trace: bool = False,
        **options: Any,
    ) -> None:
        self.supported_versions = supported_versions
        self.agent_capabilities: AgentCapabilities | None = None
        self.agent_auth_methods: Any = None
        self.protocol_version: int | None = None
        # session id -> one future per pending session/request_permission of that session
        self._pending_permissions: dict[str, set[asyncio.Future[None]]] = {}
        limit = max_frame_bytes
        super().__init__(client, reader, writer, max_frame_bytes=limit, trace=trace, **options)

    @property
    def peer_capabilities(self) -> AgentCapabilities | None:
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

    def _before_request(self, route: Route, params: Any) -> Any:
        if route.wire != INITIALIZE.wire:
            return params
        # The request carries the latest version this client supports, whatever was passed.
        latest = max(self.supported_versions)
        if getattr(params, INITIALIZE.request_version) != latest:
            logger.warning(
                "client: initialize asks for protocol version %d (the latest supported)",
                latest,
            )
            params = params.model_copy(update={INITIALIZE.request_version: latest})
        capabilities = getattr(params, INITIALIZE.client_capabilities)
        if isinstance(capabilities, BaseModel):  # stated in full, defaults included
            update = {INITIALIZE.client_capabilities: explicit_defaults(capabilities)}
            params = params.model_copy(update=update)
        return params

    async def _before_result(self, route: Route, params: Any, raw: Any) -> None:
        if route.wire != INITIALIZE.wire:
            return
        # Read before the answer is validated: another version's answer need not fit this
        # version's models, and "which version" is the error to report, not "malformed".
        answered = wire_version(raw, route.result, INITIALIZE.response_version)
        if answered is not None and answered not in self.supported_versions:
            await self.close()
            requested = int(getattr(params, INITIALIZE.request_version))
            raise ProtocolVersionError(requested, answered, self.supported_versions)

    def adopt_initialize(self, sent: Any, result: Any) -> Any:
        """Take an ``initialize`` exchanged before this end started (a negotiating client,
        ``negotiation.py``, reads the answer to choose the version): ``sent`` the request's
        wire params, ``result`` the answer's wire JSON, validated into this version's answer;
        the version, the agent's capabilities and what this client advertised (under this
        version's member name; nothing when another version's request named it otherwise:
        the receive guards then admit no optional call) are recorded."""
        if isinstance(sent, dict):
            self.own_capabilities = sent.get(_CLIENT_CAPABILITIES) or {}
        route = self.outbound_routes[INITIALIZE.wire]
        try:
            value = from_peer({} if result is None else result, route.result)
        except ValidationError as exc:
            raise MalformedResponse(f"invalid {route.wire} result", _validation_data(exc)) from None
        answered = int(getattr(value, INITIALIZE.response_version))
        if answered not in self.supported_versions:
            raise ProtocolVersionError(answered, answered, self.supported_versions)
        self._adopt(value)
        return value

    def _adopt(self, result: Any) -> None:
        self.protocol_version = int(getattr(result, INITIALIZE.response_version))
        self.agent_capabilities = getattr(result, INITIALIZE.agent_capabilities)
        self.agent_auth_methods = getattr(result, INITIALIZE.auth_methods)

    async def _after_response(self, route: Route, params: Any, result: Any) -> None:
        if route.wire != INITIALIZE.wire:
            return
        answered = int(getattr(result, INITIALIZE.response_version))
        if answered not in self.supported_versions:
            await self.close()
            requested = int(getattr(params, INITIALIZE.request_version))
            raise ProtocolVersionError(requested, answered, self.supported_versions)
        self._adopt(result)

    def _after_notification(self, route: Route, params: Any) -> None:
        if route.wire == CANCEL.wire:
            # The agent cannot finish aborting the turn while a permission request is open.
            session_id = str(getattr(params, CANCEL.session_id))
            for waiter in self._pending_permissions.pop(session_id, set()):
                if not waiter.done():
                    waiter.set_result(None)

    async def _dispatch(self, route: Route, value: Any) -> Any:
        if route.wire != PERMISSION.wire:
            return await super()._dispatch(route, value)
        session_id = str(getattr(value, PERMISSION.session_id))
        cancelled: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending_permissions.setdefault(session_id, set()).add(cancelled)
        answer = asyncio.ensure_future(super()._dispatch(route, value))
        try:
            await asyncio.wait({answer, cancelled}, return_when=asyncio.FIRST_COMPLETED)
            if cancelled.done():
                return from_wire(CANCELLED_PERMISSION, route.result)
            return answer.result()
        finally:
            waiters = self._pending_permissions.get(session_id)
            if waiters is not None:
                waiters.discard(cancelled)
                if not waiters:
                    self._pending_permissions.pop(session_id, None)
            if not answer.done():
                answer.cancel()
            if not cancelled.done():
                cancelled.cancel()
