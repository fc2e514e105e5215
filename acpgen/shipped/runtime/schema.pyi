"""What the shipped runtime reads from the rendered ``schema.py``: the contract's typed stub.

Never copied into a generated package: it stands, where the shipped code is written, for the
``schema.py`` acpgen renders beside it there, so that the shipped modules type-check in place
under ``mypy --strict``. The rendered module declares every name below with the same or a
narrower type (a ``Literal`` of the schema's method names where this says ``str``, the
generated model classes where this says a model); ``tests/test_package_layers.py`` checks the
names, and ``mypy --strict`` over a generated tree checks the shipped code against the real
module. Read ``contract.py`` for the layers and the shapes of the rows.
"""

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from pydantic import BaseModel

from .contract import (
    CapabilityPath,
    Gate,
    Handshake,
    MethodSpec,
    PathRule,
    SessionMethod,
    Side,
)

# ---- pins: what the package was generated from
PROTOCOL_VERSION: Final[int]
LATEST_PROTOCOL_VERSION: Final[int]
SUPPORTED_PROTOCOL_VERSIONS: Final[frozenset[int]]

# ---- the models the runtime names (classes of models.py, re-exported)
class AgentCapabilities(BaseModel): ...
class ClientCapabilities(BaseModel): ...

AuthMethod: TypeAlias = BaseModel
RequestId: TypeAlias = int | str | None

# ---- the method table
MethodToAgent: TypeAlias = str  # a Literal of the methods the client sends
MethodToClient: TypeAlias = str  # a Literal of the methods the agent sends
METHODS: Final[Mapping[str, MethodSpec]]

# ---- the member names the runtime reads and writes
INITIALIZE: Final[Handshake]
CANCEL: Final[SessionMethod]
PERMISSION: Final[SessionMethod]
CANCELLED_PERMISSION: Final[Mapping[str, Any]]  # the wire result answering a cancelled permission

# ---- capability gates (schema/capabilities.toml)
AgentCapabilityPath: TypeAlias = str  # a Literal of the dotted paths in agentCapabilities
ClientCapabilityPath: TypeAlias = str  # a Literal of the dotted paths in clientCapabilities
GATES: Final[tuple[Gate, ...]]
ABSOLUTE_PATHS: Final[tuple[PathRule, ...]]
INITIALIZE_EXEMPT: Final[frozenset[str]]
INITIALIZE_FIRST: Final[Mapping[Side, tuple[str, ...]]]
UNADVERTISED: Final[tuple[str, ...]]
CAPABILITY_PATHS: Final[Mapping[str, CapabilityPath]]
