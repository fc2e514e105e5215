# Edit templates/runtime/tests/_package.py.jinja, not this file: acpgen generate writes it.
"""The generated package the runtime tests drive: the one place its name appears here.

The tests beside it are copied verbatim from acpgen/shipped/runtime/runtime_tests/.
"""

import acp_v1 as package
from acp_v1 import errors, extensions, guards, methods, models, rpc
from acp_v1.connection import AgentSideConnection, ClientSideConnection
from acp_v1.examples.echo_agent import EchoAgent
from acp_v1.handshake import (
    LATEST_PROTOCOL_VERSION,
    SUPPORTED_PROTOCOL_VERSIONS,
    ProtocolVersionError,
    negotiate_version,
)
from acp_v1.interfaces import Agent, Client
from acp_v1.launch import connect_in_memory, connect_to_agent, run_agent
from acp_v1.rpc import RpcError

PACKAGE = "acp_v1"

__all__ = [
    "LATEST_PROTOCOL_VERSION",
    "PACKAGE",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "Agent",
    "AgentSideConnection",
    "Client",
    "ClientSideConnection",
    "EchoAgent",
    "ProtocolVersionError",
    "RpcError",
    "connect_in_memory",
    "connect_to_agent",
    "errors",
    "extensions",
    "guards",
    "methods",
    "models",
    "negotiate_version",
    "package",
    "rpc",
    "run_agent",
]
