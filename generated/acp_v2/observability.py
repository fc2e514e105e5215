# Edit acpgen/shipped/runtime/observability.py, not this file: acpgen generate writes it.
"""Observability: one standard ``logging`` logger per connection, optional OpenTelemetry spans.

Copied verbatim into every generated package by acpgen.

* Each connection logs to its own logger, ``<package>.connection.<role>.<n>`` (``n`` counts
  the connections of the process), a child of ``<package>.connection.<role>`` and so of the
  package's logger: configure ``logging.getLogger("<package>")`` for all of them, the role's
  for one side, or one connection's through ``connection.logger``. The connection's own
  logger is not registered with ``logging.getLogger`` (which keeps every logger for the
  life of the process): a server that has seen a million connections keeps no logger for
  any of the closed ones. At DEBUG level every request sent or handled is logged with its
  method and outcome; nothing is formatted when DEBUG is off.
* ``trace=True`` on a connection opens an OpenTelemetry span per request, sent
  (``acp.client <method>``/``acp.agent <method>``, kind CLIENT) and handled (kind SERVER),
  with ``rpc.system=jsonrpc`` and ``rpc.method``, when the ``opentelemetry-api`` package is
  installed (without it: a warning, no spans). Off by default; off, a request costs one
  ``is None`` test.
"""

from __future__ import annotations

import importlib
import itertools
import logging
from typing import Any

__all__ = ["connection_logger", "request_tracer"]

_COUNTER = itertools.count(1)


class _ConnectionLogger(logging.Logger):
    """A logger that lives as long as its connection, below a registered parent."""

    def isEnabledFor(self, level: int) -> bool:
        # Not cached here: logging clears the caches of registered loggers only, so a cached
        # answer would miss a level set later on the package's logger. With no level of its
        # own, this logger's answer is its (registered) parent's, whose cache logging keeps
        # right: asked on every message, one call instead of three.
        if self.disabled:
            return False
        parent = self.parent
        if self.level == logging.NOTSET and parent is not None and not parent.disabled:
            return parent.isEnabledFor(level)
        if self.manager.disable >= level:
            return False
        return level >= self.getEffectiveLevel()


def connection_logger(package: str, role: str) -> logging.Logger:
    """A new logger for one connection of ``role`` ("agent" or "client")."""
    logger = _ConnectionLogger(f"{package}.connection.{role}.{next(_COUNTER)}")
    logger.parent = logging.getLogger(f"{package}.connection.{role}")
    return logger


def request_tracer(enabled: bool, package: str, log: logging.Logger) -> Any:
    """An OpenTelemetry tracer when ``enabled`` and the API is installed; else None."""
    if not enabled:
        return None
    try:  # imported by name: an optional dependency, absent from most installs
        trace = importlib.import_module("opentelemetry.trace")
    except ImportError:
        log.warning("trace=True, but opentelemetry-api is not installed: no spans")
        return None
    return trace.get_tracer(package)


def span_kind(outbound: bool) -> Any:
    kinds = importlib.import_module("opentelemetry.trace").SpanKind
    return kinds.CLIENT if outbound else kinds.SERVER
