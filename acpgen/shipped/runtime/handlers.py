"""What every handler (an ``Agent`` or a ``Client``) has, whatever the method table says.

``interfaces.py`` (rendered) declares one typed method per ACP method on top of
:class:`HandlerBase`; :class:`Handler` is what the connections (``sides.py``) need of a handler.
"""

from __future__ import annotations

from typing import Any, Protocol

from .rpc import RpcError

__all__ = ["Handler", "HandlerBase"]


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
