"""The checks every remote request passes: origin, bearer token, unguessable ids, listen address.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
Nothing here logs a header's value: tokens and cookies never reach a log.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from collections.abc import Hashable
from urllib.parse import urlsplit

from .options import ServerOptions

__all__ = [
    "ANONYMOUS",
    "bearer_token",
    "is_loopback_host",
    "new_connection_id",
    "origin_allowed",
    "principal_of",
    "quiet_header_logs",
]

ANONYMOUS: Hashable = ("anonymous",)  # the principal of every request when there is no token hook
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})


def new_connection_id() -> str:
    """256 random bits (the RFD's ``Acp-Connection-Id``): not guessable, not a counter."""
    return secrets.token_urlsafe(32)


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or address, IPv6 with or without brackets) is this machine."""
    host = host.strip("[]").lower()
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str | None, options: ServerOptions) -> bool:
    """A request without ``Origin`` (a program, not a web page) passes; a page's origin passes
    when it is on this machine or in ``options.allowed_origins`` (``"*"``: any)."""
    if origin is None:
        return True
    allowed = options.allowed_origins
    if "*" in allowed or origin in allowed:
        return True
    try:
        host = urlsplit(origin).hostname
    except ValueError:
        return False
    return host is not None and is_loopback_host(host)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def principal_of(authorization: str | None, options: ServerOptions) -> Hashable | None:
    """Who a request comes from: :data:`ANONYMOUS` without a token hook, else what the hook
    returns for the request's bearer token (None: refused)."""
    if options.token_check is None:
        return ANONYMOUS
    return await options.token_check(bearer_token(authorization))


# The remote libraries' loggers whose DEBUG records print header values (Authorization,
# Cookie, Set-Cookie): HTTP/2 header decoding, the HTTP client's frames, WebSocket handshakes.
_HEADER_LOGGERS = (
    "hpack.hpack",
    "hpack.table",
    "httpcore2.http11",
    "httpcore2.http2",
    "websockets.client",
    "websockets.server",
)


class _NoHeaderDebug(logging.Filter):
    """Drops the DEBUG records of a logger that prints headers (its other records pass)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


_FILTER = _NoHeaderDebug()


def quiet_header_logs() -> None:
    """Keep tokens and cookies out of every log, even at DEBUG (idempotent)."""
    for name in _HEADER_LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)  # a second add of the same filter is a no-op
