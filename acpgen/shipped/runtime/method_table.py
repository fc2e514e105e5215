"""Reading the method table: look a wire name up, validate params and results into models.

The table itself is rendered into ``schema.py``; ``methods.py`` is its typed face, which
re-exports what follows and adds the per-method ``parse_params`` / ``parse_result`` overloads.

Method table
    ``METHODS`` maps every stable wire name to a :class:`MethodSpec`: wire name, Python name,
    handling side (``side``: agent | client | protocol), sending side (``sender``: client |
    agent | both), kind (request | notification), params and result model (a class or a
    type alias; parse through ``pydantic.TypeAdapter``), the targets of its capability gates
    (``schema/capabilities.toml``; enforced by ``guards.py``) and the roster requirement IDs
    that bind it.

    ``lookup(wire)`` returns the spec; a name starting with ``_`` is an extension method and
    returns an :class:`ExtensionMethod` (ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES); any other
    unknown name raises :class:`MethodNotFoundError` (``.code == -32601``).
    ``parse_params(wire, data)`` / ``parse_result(wire, data)`` return the typed models
    (extension params and results are returned as the plain JSON they are); bad data raises
    :class:`InvalidParamsError` (``.code == -32602``, the pydantic error chained).

Envelope types (JSON-RPC 2.0 message shape), all with ``extra="forbid"``, from
``envelopes.py``: ``JsonRpcRequest``, ``JsonRpcNotification``, ``JsonRpcSuccessResponse``,
``JsonRpcErrorResponse``, ``JsonRpcResponse`` (``result`` XOR ``error``), ``JsonRpcErrorObject``.

    Typed, per method (``schema.py``): ``<Stem>RequestMessage`` / ``<Stem>NotificationMessage``
    have ``method: Literal["<wire>"]`` and ``params: <its params model>``, and
    ``<Stem>ResponseMessage`` has ``result: <its result model>`` (``MethodSpec.message`` and
    ``MethodSpec.response`` name them). The unions ``RequestsToAgent``, ``RequestsToClient``,
    ``NotificationsToAgent`` and ``NotificationsToClient`` are discriminated on ``method``,
    so one method's name never validates with another method's params.
    ``parse_message(data)`` picks the right envelope for any incoming message.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, TypeAlias

from pydantic import BaseModel, TypeAdapter, ValidationError

from .contract import ExtensionMethod, MethodSpec
from .envelopes import is_extension_method, parse_envelope
from .errors import InvalidParamsError, InvalidRequestError, MethodNotFoundError
from .schema import METHODS

__all__ = ["AnyMessage", "lookup", "method", "parse_message", "parse_params", "parse_result"]


def lookup(wire: str) -> MethodSpec | ExtensionMethod:
    """The spec of ``wire``; raises :class:`MethodNotFoundError` (-32601) for unknown names."""
    spec = METHODS.get(wire)
    if spec is not None:
        return spec
    if is_extension_method(wire):
        return ExtensionMethod(wire)
    raise MethodNotFoundError(f"Method not found: {wire!r}", data={"method": wire})


def method(wire: str) -> MethodSpec:
    """The spec of a stable method; extension and unknown names raise :class:`MethodNotFoundError`."""
    spec = lookup(wire)
    if isinstance(spec, ExtensionMethod):
        message = f"{wire!r} is an extension method: it has no stable spec"
        raise MethodNotFoundError(message, data={"method": wire})
    return spec


@cache
def _adapter(wire: str, which: Literal["params", "result"]) -> TypeAdapter[Any]:
    spec = METHODS[wire]
    return TypeAdapter(spec.params if which == "params" else spec.result)


def _validate(wire: str, which: Literal["params", "result"], data: Any) -> Any:
    try:
        return _adapter(wire, which).validate_python(data)
    except ValidationError as exc:
        message = f"Invalid {which} for {wire}: {exc.error_count()} error(s)"
        raise InvalidParamsError(message, data={"method": wire}) from exc


def parse_params(wire: str, data: Any) -> Any:
    """Validate ``data`` as the params of ``wire`` and return the typed model.

    Unknown method: :class:`MethodNotFoundError`. Extension method: ``data`` unchanged.
    Bad params: :class:`InvalidParamsError`.
    """
    spec = lookup(wire)
    if isinstance(spec, ExtensionMethod):
        return data
    return _validate(wire, "params", data)


def parse_result(wire: str, data: Any) -> Any:
    """Validate ``data`` as the result of request ``wire`` and return the typed model.

    A notification has no result: :class:`InvalidRequestError`.
    """
    spec = lookup(wire)
    if isinstance(spec, ExtensionMethod):
        return data
    if spec.kind != "request":
        message = f"{wire} is a notification: it has no result"
        raise InvalidRequestError(message, data={"method": wire})
    return _validate(wire, "result", data)


AnyMessage: TypeAlias = BaseModel
"""What :func:`parse_message` returns: a typed envelope (per method, extension, or response)."""


def parse_message(data: Any) -> AnyMessage:
    """Parse one incoming JSON-RPC message (already decoded from JSON) into its typed envelope.

    A request or notification for a stable method validates as that method's envelope (so its
    params are typed); an extension method as :class:`ExtensionRequestMessage` /
    :class:`ExtensionNotificationMessage`; a response as :data:`JsonRpcResponse` (the result
    is typed later with :func:`parse_result`, once the request it answers is known).
    Raises :class:`MethodNotFoundError`, :class:`InvalidRequestError` or
    :class:`InvalidParamsError`.
    """
    return parse_envelope(data, lookup)
