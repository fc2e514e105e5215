# Edit acpgen/shipped/runtime/handlers.py, not this file: acpgen generate writes it.
"""What every handler (an ``Agent`` or a ``Client``) has, whatever the method table says.

``interfaces.py`` (rendered) declares one typed method per ACP method on top of
:class:`HandlerBase`; :class:`Handler` is what the connections (``sides.py``) need of a handler.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from .rpc import RpcError

__all__ = ["Handler", "HandlerBase", "not_handled"]

# Requests that a handler nobody overrode answers with -32602 (invalid params), not -32601:
# the roster wants -32602 for an elicitation in a mode the client did not advertise
# (ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS), and a client that did not override
# the handler supports no mode. Every other request answers "method not found".
INVALID_PARAMS_BY_DEFAULT: Final = frozenset({"elicitation/create"})


def not_handled(method: str) -> RpcError:
    """The error a request answers when its handler was not overridden."""
    if method in INVALID_PARAMS_BY_DEFAULT:
        return RpcError.invalid_params({"method": method, "reason": "no mode of it is supported"})
    return RpcError.method_not_found(method)


class Handler(Protocol):
    """What a connection calls on its handler beside the ACP methods."""

    def on_connect(self, connection: Any) -> None: ...

    async def ext_method(self, method: str, params: Any) -> Any: ...

    async def ext_notification(self, method: str, params: Any) -> None: ...


class HandlerBase:
    """The defaults: keep the connection, refuse extension requests, ignore extension
    notifications."""

    connection: Any

    def on_connect(self, connection: Any) -> None:
        """Called once with the connection, to call the peer from your handlers; keeps it as
        ``self.connection``."""
        self.connection = connection

    async def ext_method(self, method: str, params: Any) -> Any:
        """Handle an extension request (a method name starting with ``_``)."""
        raise RpcError.method_not_found(method)

    async def ext_notification(self, method: str, params: Any) -> None:
        """Handle an extension notification (a method name starting with ``_``)."""
