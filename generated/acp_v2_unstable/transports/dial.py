# Edit acpgen/shipped/runtime/transports/dial.py, not this file: acpgen generate writes it.
"""A client's connection to a remote agent, what both profiles share: the URL's scheme picks the
profile, the headers, cookies and TLS settings go to it, and the started connection end.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

:func:`connect_to_remote_agent` takes the connection class (the façade, ``remote.py``,
passes the package's typed ``ClientSideConnection``). Each profile is a module of its own
(``ws/client.py``, ``http/client.py``), named in :data:`SCHEMES` and imported only when a URL
of its scheme is dialled: its libraries are the optional ``remote`` extra.

Cookies the server sets are kept and sent back for the connection's life (the RFD requires
it: a load balancer may route by them); pass the same ``cookies`` dict to the next
:func:`connect_to_remote_agent` to come back to the same server. Nothing reconnects by
itself: when the connection drops, calls fail with ``ConnectionClosed``, and the
application connects again and resumes its sessions with ``session/load``.
"""

from __future__ import annotations

import contextlib
import importlib
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any, Protocol, TypedDict, TypeVar

from ..recording import Record, TraceWriter
from ..rpc import DEFAULT_MAX_FRAME_BYTES
from ..transport import End
from .channel import MessageChannel
from .security import quiet_header_logs

__all__ = [
    "SCHEMES",
    "Dial",
    "DialSettings",
    "Link",
    "RemoteRefused",
    "connect_to_remote_agent",
    "keep_cookies",
    "ssl_context",
    "started",
]

# A URL's scheme -> the profile's module (relative to this package), which defines
# ``connect(end, handler, dial)``: an async context manager yielding the started end.
SCHEMES = {
    "ws": ".ws.client",
    "wss": ".ws.client",
    "http": ".http.client",
    "https": ".http.client",
    "unix": ".unix",
}

_E = TypeVar("_E", bound=End)

quiet_header_logs()  # no token or cookie in any log, at any level


class RemoteRefused(ConnectionError):
    """The server answered a request of the transport with an HTTP error status."""

    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"HTTP {status} for {what}")
        self.status = status


def _headers(token: str | None, headers: dict[str, str] | None) -> dict[str, str]:
    merged = dict(headers or {})
    if token is not None:
        merged["Authorization"] = f"Bearer {token}"
    return merged


def keep_cookies(cookies: dict[str, str], set_cookie: list[str]) -> None:
    for line in set_cookie:
        jar: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            jar.load(line)
        cookies.update({name: morsel.value for name, morsel in jar.items()})


def ssl_context(verify: Any) -> ssl.SSLContext:
    """``verify`` as httpx2 takes it (a context, a CA bundle path, or False) for websockets."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if verify is False:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context(cafile=verify)


@dataclass(frozen=True)
class Dial:
    """Where and how to connect: what every profile takes from connect_to_remote_agent."""

    url: str
    headers: dict[str, str]
    jar: dict[str, str]  # the caller's cookies, updated in place
    verify: Any
    limit: int
    open_timeout: float
    record: Record = None  # a file to write the connection's trace to

    def trace(self, transport: str) -> TraceWriter | None:
        """The trace file of a profile that sees whole frames (``record=``), or None; the
        profile closes it. (One that carries a byte stream records the stream instead.)"""
        if self.record is None:
            return None
        header = {"recorder": "runtime", "role": "client", "transport": transport}
        return TraceWriter(self.record, header)


class DialSettings(TypedDict, total=False):
    """How :func:`connect_to_remote_agent` connects (documented there)."""

    token: str | None  # sent as Authorization: Bearer
    headers: dict[str, str] | None  # sent on every request
    cookies: dict[str, str] | None  # the server's cookies, kept in this dict you hold
    verify: Any  # TLS verification: True, a CA bundle path, an ssl.SSLContext, or False
    max_frame_bytes: int
    open_timeout: float
    record: Record  # a file to write the connection's trace to


class Link(Protocol):
    """A profile's link under the engine: the outbox the channel writes to, and its close."""

    def offer(self, frame: bytes) -> bool: ...

    async def put(self, frame: bytes) -> None: ...

    async def close(self) -> None: ...


def connect_to_remote_agent(
    end: Callable[..., _E],
    client: Any,
    url: str,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    cookies: dict[str, str] | None = None,
    verify: Any = True,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    open_timeout: float = 10.0,
    record: Record = None,
) -> contextlib.AbstractAsyncContextManager[_E]:
    """Connect ``client`` to the agent at ``url`` and yield the started connection
    (``end(client, channel, None, max_frame_bytes=...)``).

    ``ws://``/``wss://`` speak WebSocket, ``http://``/``https://`` Streamable HTTP (HTTP/2:
    prior knowledge on ``http://``, ALPN on ``https://``). ``token`` is sent as
    ``Authorization: Bearer``; ``headers`` on every request; ``cookies`` (a dict you keep)
    holds the server's cookies, updated as they are set, so that a reconnect with the same
    dict comes back to the same server. ``verify``: TLS verification (``True``, a CA bundle
    path or an ``ssl.SSLContext``). ``record``: a file to write the connection's trace to
    (every frame both ways, docs/traces.md). On exit the connection ends (HTTP: ``DELETE``).
    A URL of no scheme in :data:`SCHEMES` raises ValueError at once.
    """
    dial = Dial(
        url,
        _headers(token, headers),
        cookies if cookies is not None else {},
        verify,
        max_frame_bytes,
        open_timeout,
        record,
    )
    scheme = url.partition(":")[0].lower()
    module = SCHEMES.get(scheme)
    if module is None:
        known = ", ".join(f"{name}:" for name in SCHEMES)
        raise ValueError(f"not a URL of a known scheme ({known}): {url!r}")
    return _connect(module, end, client, dial)


@contextlib.asynccontextmanager
async def _connect(
    module: str, end: Callable[..., _E], client: Any, dial: Dial
) -> AsyncIterator[_E]:
    profile = importlib.import_module(module, __package__)  # the `remote` extra, when used
    async with profile.connect(end, client, dial) as side:
        yield side


@contextlib.asynccontextmanager
async def started(
    end: Callable[..., _E], client: Any, channel: MessageChannel, link: Link, limit: int
) -> AsyncIterator[_E]:
    """The connection end on ``channel``, started; on exit closed, then its link."""
    side = end(client, channel, None, max_frame_bytes=limit)
    side.start()
    try:
        yield side
    finally:
        await side.close()
        await link.close()
