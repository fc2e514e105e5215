# Edit acpgen/shipped/runtime/contract.py, not this file: acpgen generate writes it.
"""The contract between the rendered bottom of a generated package and its shipped middle.

A generated package is a one-way stack (docs/architecture.md, "The generated package"):

* bottom, rendered from the inputs, data only: ``models.py`` (the schema's types) and
  ``schema.py`` (the method table, routes, gates, leniency markers, pins and the few member
  names the runtime reads), written in the types of this module and ``model_base.py``;
* middle, shipped verbatim from ``acpgen/shipped/runtime/``: all behaviour. It reads the
  bottom only through ``schema.py``, and only the names ``schema.pyi`` (the typed stub beside
  this module in acpgen, never copied) declares, so every shipped module type-checks where it
  is written, under ``mypy --strict``; in a generated tree mypy checks it against the real
  ``schema.py`` instead;
* top, rendered: the typed façade (``__init__.py``, ``interfaces.py``, ``connection.py``,
  ``launch.py``, ``methods.py``), signatures that delegate to the middle.

Imports run downwards only, and no private name (``_x``) crosses a layer
(``tests/test_package_layers.py``). This module is the contract's vocabulary: the shapes of
the rows ``schema.py`` holds. It imports nothing of the package.
"""

from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from pydantic import BaseModel

Side: TypeAlias = Literal["client", "agent"]

# A capability's kind, its path in wire names and as attributes of the generated models.
CapabilityPath: TypeAlias = tuple[Literal["boolean", "object"], tuple[str, ...], tuple[str, ...]]

EXTENSION_REQUIREMENT: Final = "ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES"


@dataclass(frozen=True)
class Gate:
    """``sender`` may send ``target`` only if its peer advertised ``capability``."""

    target: str
    method: str
    sender: Side
    message: Literal["params", "result"]
    select: tuple[str, ...]  # wire-name steps into the message, "[]" walks an array
    equals: str | None  # the gate applies when a selected value equals this; None: is present
    capability: str | None  # dotted path in the peer's capabilities; None: never allowed
    wire_path: tuple[str, ...]  # the capability path in wire names
    py_path: tuple[str, ...]  # the same path as attributes of the generated models
    kind: Literal["boolean", "object", "never"]
    condition: str | None  # kind "never": the named check that decides it applies
    requirements: tuple[str, ...]


@dataclass(frozen=True)
class PathRule:
    """A string member that must hold an absolute path."""

    target: str
    method: str
    sender: Side
    message: Literal["params", "result"]
    select: tuple[str, ...]
    requirements: tuple[str, ...]


@dataclass(frozen=True)
class MethodSpec:
    """One stable ACP method: a row of the method table (``schema.METHODS``)."""

    wire: str
    py_name: str
    side: Literal["agent", "client", "protocol", "both"]  # the side that handles it
    sender: Literal["client", "agent", "both"]  # the side that sends it
    kind: Literal["request", "notification"]
    params: Any  # the params model: a class or a type alias
    result: Any  # the result model, None for a notification
    message: type[BaseModel]  # the typed request / notification envelope
    response: type[BaseModel] | None  # the typed success response envelope
    gates: tuple[str, ...]  # targets of its capability gates (see guards.GATES)
    requirements: tuple[str, ...]  # roster IDs that bind it
    extension: bool = field(default=False, init=False)

    @property
    def is_request(self) -> bool:
        return self.kind == "request"


@dataclass(frozen=True)
class ExtensionMethod:
    """A method whose name starts with ``_``: params and result are arbitrary JSON."""

    wire: str
    extension: bool = field(default=True, init=False)
    requirements: tuple[str, ...] = (EXTENSION_REQUIREMENT,)


@dataclass(frozen=True)
class Handshake:
    """The Python member names of the ``initialize`` exchange, which the runtime reads and
    writes (v1 names some after the side, ``clientCapabilities``; v2 plainly, ``capabilities``)."""

    wire: str
    request_version: str  # InitializeRequest: the version the client asks for
    client_capabilities: str  # InitializeRequest: what the client advertises
    response_version: str  # InitializeResponse: the version the agent answers
    agent_capabilities: str  # InitializeResponse: what the agent advertises
    auth_methods: str  # InitializeResponse
    agent_info: str  # InitializeResponse: the agent's name and version
    info_required: bool  # whether the response must carry agent_info (v2) or may omit it (v1)


@dataclass(frozen=True)
class SessionMethod:
    """A method the runtime handles itself for one session (cancel, permission requests)."""

    wire: str
    session_id: str  # the Python name of its params' session id member
