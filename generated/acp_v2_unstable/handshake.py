# Edit acpgen/shipped/runtime/handshake.py, not this file: acpgen generate writes it.
"""Protocol version negotiation for the ``initialize`` handshake, and the default answer.

The client sends the latest version it supports. The agent answers with that version when it
supports it, otherwise with its own latest; a client that does not support the answered
version closes the connection (ACP-V1-INIT-AGENT-SAME-VERSION, ACP-V1-INIT-AGENT-LATEST-VERSION,
ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION). The versions are the schema's (``schema.py``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from .schema import INITIALIZE, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS

__all__ = [
    "LATEST_PROTOCOL_VERSION",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "ProtocolVersionError",
    "default_initialize",
    "explicit_defaults",
    "negotiate_version",
]

_R = TypeVar("_R")


class ProtocolVersionError(ConnectionError):
    """The agent answered a protocol version this client does not support."""

    def __init__(self, requested: int, answered: int, supported: frozenset[int]) -> None:
        self.requested = requested
        self.answered = answered
        self.supported = supported
        answer = f"agent answered protocol version {answered}"
        ask = f"this client asked for {requested} and supports {sorted(supported)}"
        super().__init__(f"{answer}; {ask}: connection closed")


def negotiate_version(
    requested: int, supported: frozenset[int] = SUPPORTED_PROTOCOL_VERSIONS
) -> int:
    """The version an agent answers: the requested one if supported, else its latest."""
    return requested if requested in supported else max(supported)


def default_initialize(agent: object, params: Any, response: type[_R]) -> _R:
    """What ``Agent.initialize`` answers unless overridden: the negotiated protocol version and
    the agent's class attributes (capabilities, auth methods, info; an optional info left None
    is omitted, not null)."""
    names = INITIALIZE
    members: dict[str, Any] = {
        names.response_version: negotiate_version(int(getattr(params, names.request_version))),
        names.agent_capabilities: getattr(agent, names.agent_capabilities),
        names.auth_methods: list(getattr(agent, names.auth_methods)),
    }
    info = getattr(agent, names.agent_info)
    if names.info_required or info is not None:
        members[names.agent_info] = info
    return response(**members)


_M = TypeVar("_M", bound=BaseModel)


def explicit_defaults(value: _M) -> _M:
    """``value`` with every member left at a default other than None marked as given, nested
    models too: sent (dumped with ``exclude_unset``), it states each of them. A client built
    with ``ClientCapabilities()`` then says it does not support fs and terminal instead of
    sending ``{}`` (ACP-V1-INIT-CLIENT-SPECIFY-CAPABILITIES: "The Client SHOULD specify
    whether it supports the following capabilities")."""
    update: dict[str, Any] = {}
    for name in type(value).model_fields:
        current = getattr(value, name)
        if isinstance(current, BaseModel):
            update[name] = explicit_defaults(current)
        elif current is not None and name not in value.model_fields_set:
            update[name] = current
    return value.model_copy(update=update)
