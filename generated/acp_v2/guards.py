# Edit acpgen/shipped/runtime/guards.py, not this file: acpgen generate writes it.
r"""ACP capability guards: refuse, before anything is sent, what the peer did not advertise.

The gate data it reads is rendered from schema/capabilities.toml into ``schema.py``.

A guard refuses an outbound call that the peer's negotiated capabilities do not allow, before
anything is sent: it raises, and the wrapped function is never called. Every refusal is an
:class:`AcpGuardError` whose message names the method, the capability path (or the member)
and the roster requirement IDs (also on the exception: ``.method``, ``.requirements``).

Errors
    ``AcpGuardError``           base of every refusal
    ``CapabilityError``         a gate refused the call (``.capability`` is the dotted path,
                                e.g. ``agentCapabilities.sessionCapabilities.resume``, or
                                None for a call that no capability allows; ``.target``)
    ``NotInitializedError``     (a ``CapabilityError``) initialize has not completed
    ``PathNotAbsoluteError``    a path member is not absolute (``.member``, ``.value``)

Negotiated state: the guards read it through two small Protocols. The object is the first
argument of a decorated function (``self`` for a method):

    class AgentPeer(Protocol):      # a client's view of its agent
        peer_capabilities: AgentCapabilities | Mapping | None   # None: initialize not completed
        peer_auth_methods: Sequence[AuthMethod | Mapping] | None  # from the initialize response

    class ClientPeer(Protocol):     # an agent's view of its client
        peer_capabilities: ClientCapabilities | Mapping | None  # from the initialize request

(read-only properties; plain attributes satisfy them). Capabilities and payloads may be the
generated models or plain wire-name JSON mappings.

Decorators (sync or async; signature, typing (ParamSpec) and coroutine-ness are kept)
    ``@client_call(method)``        on a client's outbound call; ``self`` is an AgentPeer and
                                    the params are the first argument after it (or ``params=``)
    ``@agent_call(method)``         the same for an agent's outbound call (``self``: ClientPeer)
    ``@agent_result(method)``       on an agent's handler: checks the result it returns
                                    before the runtime sends it (boolean config options in
                                    session/new, load, resume and set_config_option results;
                                    terminal auth methods in the initialize result)
    ``@client_result(method)``      the same for a client's handler
    ``@requires_agent_capability(path, method=None)`` / ``@requires_client_capability(...)``
                                    one capability only, e.g.
                                    ``@requires_agent_capability("sessionCapabilities.resume")``

    A call decorated with ``*_call`` checks, in order: initialize completed (all methods but
    ``INITIALIZE_EXEMPT``), the method's own gate, every gate on a feature of its params
    (prompt content types, MCP transports, additionalDirectories, elicitation mode, boolean
    config options in session/update, terminal auth method ids, which no capability allows),
    and absolute paths. Method names are ``Literal`` types (``MethodToAgent`` /
    ``MethodToClient`` from the package's ``schema``); a runtime routing by a ``str`` checks
    ``name in METHODS`` first, or casts.

Plain checks (raise on refusal, return None otherwise), for runtimes that route every
outbound message through one place. A receiver runs the same check on an incoming message
against its OWN advertised capabilities (e.g. a client given elicitation/create in a mode it
did not advertise) and answers with the error's ``code`` (-32602, or -32601 for a method it did
not advertise at all): the package's connections do, before any handler (``sides.py``), through
    ``received_refusal(sender, message, method, payload, own_capabilities, own_auth_methods)``
    (the refusal, or None; ``paths=False`` leaves the absolute-path rules out)
    ``check_client_call(method, params, agent_capabilities, auth_methods=None)``
    ``check_agent_call(method, params, client_capabilities)``
    ``check_agent_result(method, result, client_capabilities)``
    ``check_client_result(method, result, agent_capabilities)``
    ``agent_capability_advertised(capabilities, path)`` / ``client_capability_advertised(...)``
    ``is_absolute_path(text)``: POSIX ``/...`` or Windows ``C:\...`` / ``\\server\share...``,
    decided by the path's form, never by the local OS (the peer may run on another host).

Data: ``GATES`` (every gate, with its requirement IDs), ``ABSOLUTE_PATHS``,
``INITIALIZE_EXEMPT``, ``INITIALIZE_FIRST`` (IDs per sender), ``gates_for(method)``.
"""

import functools
import inspect
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any, Concatenate, Final, Literal, ParamSpec, Protocol, TypeAlias, TypeVar, cast

from pydantic import BaseModel

from .contract import Gate, PathRule, Side
from .schema import (
    ABSOLUTE_PATHS,
    GATES,
    INITIALIZE_EXEMPT,
    INITIALIZE_FIRST,
    UNADVERTISED,
    AgentCapabilities,
    AgentCapabilityPath,
    AuthMethod,
    ClientCapabilities,
    ClientCapabilityPath,
    MethodToAgent,
    MethodToClient,
)
from .schema import CAPABILITY_PATHS as _CAPABILITY_PATHS

# ---- Errors --------------------------------------------------------------------------------


class AcpGuardError(Exception):
    """An outbound call refused by a guard; nothing was sent.

    ``code`` is the JSON-RPC error a receiver answers with when it runs the same check on an
    incoming message against its own advertised capabilities: -32602 (Invalid params), or
    -32601 (Method not found) for a method the receiver did not advertise at all.
    """

    code: int = -32602

    def __init__(self, method: str, message: str, requirements: Sequence[str]) -> None:
        self.method = method
        self.reason = message  # what was refused and why, without the sender's wording
        self.requirements = tuple(requirements)
        ids = ", ".join(self.requirements)
        super().__init__(f"{method} refused: {message} [{ids}]; nothing was sent")


class CapabilityError(AcpGuardError):
    """The peer did not advertise the capability the call needs (or none allows it)."""

    def __init__(
        self,
        method: str,
        message: str,
        requirements: Sequence[str],
        capability: str | None,
        target: str | None = None,
    ) -> None:
        self.capability = capability
        self.target = target or method
        if capability is not None and self.target == method:
            self.code = -32601  # the whole method is gated: unadvertised means not there
        super().__init__(method, message, requirements)


class NotInitializedError(CapabilityError):
    """The call was made before initialize completed (no peer capabilities yet)."""


class PathNotAbsoluteError(AcpGuardError):
    """A path member of the call is not an absolute path."""

    def __init__(
        self, method: str, member: str, value: object, requirements: Sequence[str]
    ) -> None:
        self.member = member
        self.value = value
        super().__init__(
            method,
            f"{member} {value!r} is not an absolute path (POSIX /... or Windows C:\\... or "
            f"\\\\server\\share...)",
            requirements,
        )


# ---- Negotiated state ----------------------------------------------------------------------


class AgentPeer(Protocol):
    """A client's view of its agent, from the initialize response."""

    @property
    def peer_capabilities(self) -> AgentCapabilities | Mapping[str, Any] | None:
        """The agent's capabilities; None until initialize has completed."""

    @property
    def peer_auth_methods(self) -> Sequence[AuthMethod | Mapping[str, Any]] | None:
        """The auth methods the agent advertised; None if unknown."""


class ClientPeer(Protocol):
    """An agent's view of its client, from the initialize request."""

    @property
    def peer_capabilities(self) -> ClientCapabilities | Mapping[str, Any] | None:
        """The client's capabilities; None until initialize has been received."""


_KIND_TEXT: Final[Mapping[str, str]] = {
    "boolean": "true",
    "object": "an object, present and non-null",
}
_PEER: Final[Mapping[Side, str]] = {"client": "agent", "agent": "client"}


_Rules: TypeAlias = tuple[tuple[Gate, ...], tuple[PathRule, ...]]


def _rules() -> dict[tuple[str, str, str], _Rules]:
    keys = {(g.sender, g.message, g.method) for g in GATES}
    keys |= {(p.sender, p.message, p.method) for p in ABSOLUTE_PATHS}
    rules: dict[tuple[str, str, str], _Rules] = {}
    for key in sorted(keys):
        gates = tuple(g for g in GATES if (g.sender, g.message, g.method) == key)
        paths = tuple(p for p in ABSOLUTE_PATHS if (p.sender, p.message, p.method) == key)
        rules[key] = (gates, paths)
    return rules


# (sender, message, method) -> the gates and path rules that apply, in manifest order.
_RULES: Final = _rules()


def gates_for(method: str, sender: Side | None = None) -> tuple[Gate, ...]:
    """Every gate on ``method`` (optionally only those on what ``sender`` sends)."""
    return tuple(g for g in GATES if g.method == method and sender in (None, g.sender))


# ---- Reading capabilities and payloads -----------------------------------------------------


def _as_json(node: object) -> object:
    """A generated model as its wire JSON; anything else unchanged."""
    if isinstance(node, BaseModel):
        return node.model_dump(mode="json", by_alias=True)
    return node


def _capability_value(
    capabilities: object, wire_path: tuple[str, ...], py_path: tuple[str, ...]
) -> object:
    node = capabilities
    for wire, attr in zip(wire_path, py_path, strict=True):
        if node is None:
            return None
        node = node.get(wire) if isinstance(node, Mapping) else getattr(node, attr, None)
    return node


def _advertised(value: object, kind: str) -> bool:
    # Omitted, null and false are all "not advertised" (ACP-V1-INIT-OMITTED-UNSUPPORTED).
    return value is True if kind == "boolean" else value is not None


def _capability_advertised(capabilities: object, qualified: str) -> bool:
    kind, wire_path, py_path = _CAPABILITY_PATHS[qualified]
    return _advertised(_capability_value(capabilities, wire_path, py_path), kind)


def agent_capability_advertised(
    capabilities: AgentCapabilities | Mapping[str, Any] | None, path: AgentCapabilityPath
) -> bool:
    """Whether ``agentCapabilities.<path>`` is advertised (true, or an object present)."""
    return _capability_advertised(capabilities, "agentCapabilities." + path)


def client_capability_advertised(
    capabilities: ClientCapabilities | Mapping[str, Any] | None, path: ClientCapabilityPath
) -> bool:
    """Whether ``clientCapabilities.<path>`` is advertised (true, or an object present)."""
    return _capability_advertised(capabilities, "clientCapabilities." + path)


def _select(node: object, steps: tuple[str, ...]) -> Iterator[object]:
    """Every value at ``steps`` in a JSON payload ("[]" walks an array)."""
    node = _as_json(node)
    if not steps:
        yield node
        return
    step, rest = steps[0], steps[1:]
    if step == "[]":
        if isinstance(node, (list, tuple)):
            for item in node:
                yield from _select(item, rest)
    elif isinstance(node, Mapping) and step in node:
        yield from _select(node[step], rest)


def _present(value: object) -> bool:
    # Omitted, null and empty are equivalent on the wire (e.g. additionalDirectories).
    return value is not None and value != [] and value != {} and value != ""


def _applies(gate: Gate, payload: object) -> bool:
    if not gate.select:
        return True
    values = list(_select(payload, gate.select))
    if gate.equals is not None:
        return any(v == gate.equals for v in values)
    return any(_present(v) for v in values)


_WINDOWS_DRIVE: Final = re.compile(r"[A-Za-z]:[\\/]")
_WINDOWS_UNC: Final = re.compile(r"\\\\[^\\/]+[\\/][^\\/]+")


def is_absolute_path(text: object) -> bool:
    r"""Absolute by its form: POSIX ``/...``, Windows ``C:\...`` / ``C:/...`` or ``\\server\share``.

    Never ``os.path.isabs``: the peer may run on another host and operating system. A Windows
    drive-relative ``C:foo`` or root-relative ``\foo`` path is not absolute.
    """
    if not isinstance(text, str) or not text:
        return False
    return text.startswith("/") or bool(_WINDOWS_DRIVE.match(text) or _WINDOWS_UNC.match(text))


def _terminal_auth_ids(auth_methods: Sequence[object] | None) -> set[str]:
    ids: set[str] = set()
    for method in auth_methods or ():
        data = _as_json(method)
        if not isinstance(data, Mapping) or data.get("type") != "terminal":
            continue
        if isinstance(data.get("id"), str):
            ids.add(data["id"])
    return ids


def _never_applies(gate: Gate, payload: object, auth_methods: Sequence[object] | None) -> bool:
    if gate.condition == "advertised-terminal-auth-method":
        terminal = _terminal_auth_ids(auth_methods)
        return any(v in terminal for v in _select(payload, gate.select))
    # The manifest validator forbids any other condition.
    raise AssertionError(f"unknown gate condition {gate.condition!r}")


def _refuse_gate(gate: Gate, payload: object) -> CapabilityError:
    where = gate.target.partition(" ")[2]
    if gate.kind == "never":
        values = ", ".join(repr(v) for v in _select(payload, gate.select))
        return CapabilityError(
            gate.method,
            f"{where} {values} is an advertised terminal auth method, which is never passed "
            f"to {gate.method}",
            gate.requirements,
            None,
            gate.target,
        )
    needs = f"{gate.capability} ({_KIND_TEXT[gate.kind]})"
    peer = _PEER[gate.sender]
    what = f"{where} needs {needs}" if where else f"needs {needs}"
    return CapabilityError(
        gate.method,
        f"{what}, which the {peer} did not advertise",
        gate.requirements,
        gate.capability,
        gate.target,
    )


# ---- Plain checks --------------------------------------------------------------------------


def _check(
    sender: Side,
    message: Literal["params", "result"],
    method: str,
    payload: object,
    capabilities: object,
    auth_methods: Sequence[object] | None = None,
    paths: bool = True,
) -> None:
    if capabilities is None and message == "params" and method not in INITIALIZE_EXEMPT:
        ids = set(INITIALIZE_FIRST.get(sender, ()))
        ids.update(r for g in gates_for(method, sender) for r in g.requirements)
        raise NotInitializedError(
            method,
            f"initialize has not completed (no {_PEER[sender]} capabilities yet)",
            sorted(ids),
            None,
        )
    gates, paths_rules = _RULES.get((sender, message, method), ((), ()))
    if gates or paths_rules:
        payload = _as_json(payload)  # once: every selector below walks plain JSON
    for gate in gates:
        if gate.kind == "never":
            if _never_applies(gate, payload, auth_methods):
                raise _refuse_gate(gate, payload)
            continue
        if not _applies(gate, payload):
            continue
        if gate.capability is None or _capability_advertised(capabilities, gate.capability):
            continue
        raise _refuse_gate(gate, payload)
    for rule in paths_rules if paths else ():
        for value in _select(payload, rule.select):
            if value is not None and not is_absolute_path(value):
                target = rule.target.partition(" ")[2]
                raise PathNotAbsoluteError(method, target, value, rule.requirements)


def received_refusal(
    sender: Side,
    message: Literal["params", "result"],
    method: str,
    payload: object,
    own_capabilities: object,
    own_auth_methods: Sequence[object] | None = None,
    *,
    paths: bool = True,
) -> AcpGuardError | None:
    """The receiving side's check: the refusal of what ``sender`` sent (``method``'s params
    or result, as wire JSON) against what the receiver itself advertised, or None to accept.

    The same gates as the send path, read from the other end: ``own_capabilities`` is what
    the receiver advertised in ``initialize`` (None: not yet initialized, which refuses every
    message but ``INITIALIZE_EXEMPT``), ``own_auth_methods`` the auth methods it advertised
    (an agent). ``paths=False`` leaves the absolute-path rules out. A method no gate names
    is accepted (extension methods included, once initialized).
    """
    try:
        _check(sender, message, method, payload, own_capabilities, own_auth_methods, paths)
    except AcpGuardError as exc:
        return exc
    return None


def check_client_call(
    method: MethodToAgent,
    params: object,
    agent_capabilities: AgentCapabilities | Mapping[str, Any] | None,
    auth_methods: Sequence[AuthMethod | Mapping[str, Any]] | None = None,
) -> None:
    """Refuse (raise) a request or notification the client may not send to this agent."""
    _check("client", "params", method, params, agent_capabilities, auth_methods)


def check_agent_call(
    method: MethodToClient,
    params: object,
    client_capabilities: ClientCapabilities | Mapping[str, Any] | None,
) -> None:
    """Refuse (raise) a request or notification the agent may not send to this client."""
    _check("agent", "params", method, params, client_capabilities)


def check_agent_result(
    method: MethodToAgent,
    result: object,
    client_capabilities: ClientCapabilities | Mapping[str, Any] | None,
) -> None:
    """Refuse (raise) a result the agent may not send to this client (e.g. boolean config options)."""
    _check("agent", "result", method, result, client_capabilities)


def check_client_result(
    method: MethodToClient,
    result: object,
    agent_capabilities: AgentCapabilities | Mapping[str, Any] | None,
) -> None:
    """Refuse (raise) a result the client may not send to this agent."""
    _check("client", "result", method, result, agent_capabilities)


# ---- Decorators ----------------------------------------------------------------------------

_P = ParamSpec("_P")
_R = TypeVar("_R")
_A = TypeVar("_A", bound=AgentPeer)
_C = TypeVar("_C", bound=ClientPeer)
_S = TypeVar("_S")


# Decorator types are Protocols with a generic __call__ so that the decorated function's own
# parameters (_P) and return type (_R) are bound when it is decorated, not when the factory
# (e.g. ``client_call("session/new")``) is called.
class Decorator(Protocol):
    """Keeps the decorated callable's exact type; its first argument is any object."""

    def __call__(
        self, func: Callable[Concatenate[_S, _P], _R], /
    ) -> Callable[Concatenate[_S, _P], _R]: ...


class AgentPeerDecorator(Protocol):
    """Keeps the decorated callable's exact type; its first argument must be an AgentPeer."""

    def __call__(
        self, func: Callable[Concatenate[_A, _P], _R], /
    ) -> Callable[Concatenate[_A, _P], _R]: ...


class ClientPeerDecorator(Protocol):
    """Keeps the decorated callable's exact type; its first argument must be a ClientPeer."""

    def __call__(
        self, func: Callable[Concatenate[_C, _P], _R], /
    ) -> Callable[Concatenate[_C, _P], _R]: ...


def _params_of(method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> object:
    if args:
        return args[0]
    if "params" in kwargs:
        return kwargs["params"]
    selects = any(g.select and g.message == "params" for g in gates_for(method))
    if selects or any(r.method == method for r in ABSOLUTE_PATHS):
        raise TypeError(f"guarded {method} call: pass its params as the first argument or params=")
    return None


def _before(check: Callable[[Any, tuple[Any, ...], dict[str, Any]], None]) -> Decorator:
    """Run ``check(state, args, kwargs)`` before the call; sync and async alike."""

    def decorate(func: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(state: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Any:
                check(state, args, kwargs)
                return await cast(Callable[..., Awaitable[Any]], func)(state, *args, **kwargs)

            return cast(Callable[Concatenate[_S, _P], _R], async_wrapper)

        @functools.wraps(func)
        def wrapper(state: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            check(state, args, kwargs)
            return func(state, *args, **kwargs)

        return wrapper

    return decorate


def _after(check: Callable[[Any, object], None]) -> Decorator:
    """Run ``check(state, result)`` on what the call returns, before the caller sends it."""

    def decorate(func: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(state: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Any:
                result = await cast(Callable[..., Awaitable[Any]], func)(state, *args, **kwargs)
                check(state, result)
                return result

            return cast(Callable[Concatenate[_S, _P], _R], async_wrapper)

        @functools.wraps(func)
        def wrapper(state: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            result = func(state, *args, **kwargs)
            check(state, result)
            return result

        return wrapper

    return decorate


def client_call(method: MethodToAgent) -> AgentPeerDecorator:
    """Guard a client's outbound ``method`` call against the agent's capabilities."""

    def check(state: AgentPeer, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        params = _params_of(method, args, kwargs)
        # getattr: a state object that never learned auth methods simply has none to check.
        auth_methods = getattr(state, "peer_auth_methods", None)
        check_client_call(method, params, state.peer_capabilities, auth_methods)

    return _before(check)


def agent_call(method: MethodToClient) -> ClientPeerDecorator:
    """Guard an agent's outbound ``method`` call against the client's capabilities."""

    def check(state: ClientPeer, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        check_agent_call(method, _params_of(method, args, kwargs), state.peer_capabilities)

    return _before(check)


def agent_result(method: MethodToAgent) -> ClientPeerDecorator:
    """Guard what an agent's ``method`` handler returns against the client's capabilities."""

    def check(state: ClientPeer, result: object) -> None:
        check_agent_result(method, result, state.peer_capabilities)

    return _after(check)


def client_result(method: MethodToClient) -> AgentPeerDecorator:
    """Guard what a client's ``method`` handler returns against the agent's capabilities."""

    def check(state: AgentPeer, result: object) -> None:
        check_client_result(method, result, state.peer_capabilities)

    return _after(check)


def _requires(
    sender: Side, qualified: str, method: str | None
) -> Callable[[Any, tuple[Any, ...], dict[str, Any]], None]:
    cited = [g for g in GATES if g.sender == sender and g.capability == qualified]
    if method is not None:
        cited = [g for g in cited if g.method == method] or cited
    ids = sorted({r for g in cited for r in g.requirements}) or list(UNADVERTISED)
    methods = sorted({g.method for g in cited if not g.select})
    kind = _CAPABILITY_PATHS[qualified][0]

    def check(state: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        name = method or (methods[0] if len(methods) == 1 else "call")
        capabilities = state.peer_capabilities
        if capabilities is None:
            raise NotInitializedError(
                name,
                f"initialize has not completed (no {_PEER[sender]} capabilities yet)",
                sorted({*INITIALIZE_FIRST.get(sender, ()), *ids}),
                qualified,
            )
        if not _capability_advertised(capabilities, qualified):
            raise CapabilityError(
                name,
                f"needs {qualified} ({_KIND_TEXT[kind]}), which the {_PEER[sender]} did not advertise",
                ids,
                qualified,
            )

    return check


def requires_agent_capability(
    path: AgentCapabilityPath, *, method: MethodToAgent | None = None
) -> AgentPeerDecorator:
    """Guard a client call on one agent capability, e.g. ``"sessionCapabilities.resume"``."""
    return _before(_requires("client", "agentCapabilities." + path, method))


def requires_client_capability(
    path: ClientCapabilityPath, *, method: MethodToClient | None = None
) -> ClientPeerDecorator:
    """Guard an agent call on one client capability, e.g. ``"fs.readTextFile"``."""
    return _before(_requires("agent", "clientCapabilities." + path, method))


__all__ = [
    "ABSOLUTE_PATHS",
    "GATES",
    "INITIALIZE_EXEMPT",
    "INITIALIZE_FIRST",
    "UNADVERTISED",
    "AcpGuardError",
    "AgentCapabilityPath",
    "AgentPeer",
    "AgentPeerDecorator",
    "CapabilityError",
    "ClientCapabilityPath",
    "ClientPeer",
    "ClientPeerDecorator",
    "Decorator",
    "Gate",
    "NotInitializedError",
    "PathNotAbsoluteError",
    "PathRule",
    "agent_call",
    "agent_capability_advertised",
    "agent_result",
    "check_agent_call",
    "check_agent_result",
    "check_client_call",
    "check_client_result",
    "client_call",
    "client_capability_advertised",
    "client_result",
    "gates_for",
    "is_absolute_path",
    "received_refusal",
    "requires_agent_capability",
    "requires_client_capability",
]
