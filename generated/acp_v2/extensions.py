# Edit acpgen/shipped/runtime/extensions.py, not this file: acpgen generate writes it.
"""Extension methods: ``_``-prefixed requests and notifications with typed params and results.

Copied verbatim into every generated package by acpgen.

A handler (an ``Agent`` or ``Client`` subclass) offers one by decorating an async method::

    class MyAgent(Agent):
        @extension_request("_acme/echo", params=EchoParams, result=EchoResult)
        async def echo(self, params: EchoParams) -> EchoResult: ...

The connection validates the params into ``params`` (a pydantic model or any type pydantic
validates; invalid params answer -32602), calls the method, and sends its result through
``result`` (a value that does not fit answers -32603), under the same rules as the protocol
methods: an ``RpcError`` raised is answered as it is, any other exception as -32603,
cancellation as -32800. An extension the handler does not declare still reaches its
``ext_method`` / ``ext_notification``. The peer's side is ``connection.call_extension(method,
params, result=Type)`` (and ``notify_extension``): params given as a model are serialised
once, by wire names; outbound extension calls pass the capability guards like every call
(before ``initialize`` completes, they are refused).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

__all__ = [
    "Extension",
    "check_extension_name",
    "declared_extensions",
    "extension_notification",
    "extension_request",
]

_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])
_MARK = "__acp_extension__"


@dataclass(frozen=True)
class Extension:
    """One declared extension method of a handler."""

    method: str  # the wire name, starting with "_"
    kind: Literal["request", "notification"]
    params: Any  # the type its params are validated into; None: the JSON as it came
    result: Any  # the type its result is dumped from; None: JSON as returned
    attr: str = ""  # the handler's attribute (filled in by declared_extensions)


def check_extension_name(method: str) -> None:
    """Refuse a name that is not an extension's (ACP reserves the others)."""
    if not isinstance(method, str) or not method.startswith("_"):
        raise ValueError(f"extension method names start with '_': {method!r}")


def extension_request(method: str, *, params: Any = None, result: Any = None) -> Callable[[_F], _F]:
    """Declare the decorated handler method as the extension request ``method``."""
    check_extension_name(method)

    def mark(func: _F) -> _F:
        setattr(func, _MARK, Extension(method, "request", params, result))
        return func

    return mark


def extension_notification(method: str, *, params: Any = None) -> Callable[[_F], _F]:
    """Declare the decorated handler method as the extension notification ``method``."""
    check_extension_name(method)

    def mark(func: _F) -> _F:
        setattr(func, _MARK, Extension(method, "notification", params, None))
        return func

    return mark


def declared_extensions(handler: object) -> dict[str, Extension]:
    """The extensions ``handler``'s class declares, by wire name (a subclass's wins)."""
    found: dict[str, Extension] = {}
    for cls in reversed(type(handler).__mro__):
        for attr, value in vars(cls).items():
            ext = getattr(value, _MARK, None)
            if isinstance(ext, Extension):
                found[ext.method] = Extension(ext.method, ext.kind, ext.params, ext.result, attr)
    return found
