# Edit acpgen/shipped/runtime/transports/paths.py, not this file: acpgen generate writes it.
"""What a request to any other path than the endpoint's is answered: 404, naming the endpoint.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

starlette's own answer to an unknown path was a bare 404 over HTTP and, on a WebSocket
upgrade, a close before the handshake, which hypercorn sends as 403: a client pointed at
``ws://host:port/`` read it as an authorization failure. Both profiles now get 404 with a
one-line hint that names the path the endpoint is at (under the mount point, if any).
"""

from __future__ import annotations

from typing import Any

from .endpoint import refusal
from .extra import missing_extra
from .http.bodies import after_body
from .options import ServerOptions

try:
    from starlette.responses import Response
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["not_found"]


def not_found(options: ServerOptions) -> Any:
    """The ASGI app answering every request that no route of the endpoint matched."""
    endpoint_path = options.path

    async def app(scope: Any, receive: Any, send: Any) -> None:
        where = f"{scope.get('root_path', '')}{endpoint_path}"
        response: Response = refusal(404, f"no ACP endpoint at this path: it is {where}")
        if scope["type"] == "websocket":
            # The ASGI "websocket.http.response" extension (hypercorn, uvicorn): an HTTP answer
            # instead of the handshake; a server without it can only close.
            if "websocket.http.response" in scope.get("extensions", {}):
                await send(
                    {
                        "type": "websocket.http.response.start",
                        "status": 404,
                        "headers": response.raw_headers,
                    }
                )
                await send({"type": "websocket.http.response.body", "body": response.body})
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] == "http":
            await after_body(response, options)(scope, receive, send)  # its body: bodies.py

    return app
