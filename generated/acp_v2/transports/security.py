# Edit acpgen/shipped/runtime/transports/security.py, not this file: acpgen generate writes it.
"""The checks every remote request passes: origin, host, bearer token, unguessable ids,
listen address; and who a peer is, for the fairness limits.

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
    "host_allowed",
    "host_name",
    "is_loopback_host",
    "new_connection_id",
    "origin_allowed",
    "peer_key",
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
    # An origin is scheme://host[:port] and nothing else (RFC 6454): one with user info
    # ("http://evil.example:80@localhost"), a path or a query is no browser's, refused.
    try:
        parts = urlsplit(origin)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or "@" in parts.netloc:
        return False
    if parts.path or parts.query or parts.fragment or parts.hostname is None:
        return False
    return is_loopback_host(parts.hostname)


def host_name(host: str) -> str:
    """The name of a ``Host`` header (or ``:authority``), without its port, lower case:
    ``[::1]:8765`` is ``::1``, ``Example.org.:80`` is ``example.org``."""
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 literal: [addr] or [addr]:port
        return host[1:].partition("]")[0]
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        host = name
    return host.rstrip(".") if host not in ("", ".") else host


def host_allowed(host: str | None, local_address: str | None, options: ServerOptions) -> bool:
    """Whether a request naming ``host`` (its Host header) that reached ``local_address`` (the
    server's own address it came in on; None: unknown, a Unix socket) may be served.

    A request that reached a loopback address must name this machine (or a name of
    ``options.allowed_hosts``): a page whose name was rebound to 127.0.0.1 (DNS rebinding)
    still names its own host. Elsewhere, ``allowed_hosts`` is checked when it is set. A
    request without Host (HTTP/1.0) passes where any name would."""
    allowed = options.allowed_hosts
    if "*" in allowed:
        return True
    loopback = local_address is not None and is_loopback_host(local_address)
    if host is None or not host.strip():
        return not loopback and not allowed
    name = host_name(host)
    if name in allowed or is_loopback_host(name):
        return True
    return not loopback and not allowed


def peer_key(address: str | None) -> str | None:
    """What the per-peer share counts connections by: the peer's IP address, an IPv6 peer by
    its /64 (one host is commonly given a whole /64), an IPv4-mapped one as IPv4. None for
    a peer without an IP address (a Unix socket): no per-peer share applies."""
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


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
