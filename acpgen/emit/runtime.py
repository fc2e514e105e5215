"""The runtime of the generated package: JSON-RPC over NDJSON, typed sides, examples.

``errors.py``, ``framing.py``, ``rpc.py``, ``transports/`` (the fixed runtime) and ``examples/``
(written against the package face, importing it relatively) are copied verbatim from
``acpgen/shipped/runtime/`` (:mod:`acpgen.emit.shipped`); this emitter checks that what they
hard-code is the schema's (the ``ErrorCode`` codes, the cancel-request method) and refuses a
schema that disagrees. The façade (``interfaces.py``, ``connection.py``, ``launch.py``,
``remote.py``: typed signatures that delegate to the shipped runtime) is rendered from templates, and
:func:`runtime_data` is what ``schema.py`` tells the runtime (the member names of the
initialize exchange, the cancel and permission methods, the leniency markers).

The runtime's own tests go to ``runtime_tests/`` beside the requirement tests (not inside them:
``pytest {tests_dir}`` collects exactly one test per roster requirement): shipped verbatim, with
the ``_package.py`` rendered here naming the package. It is a package, so pytest puts the output directory
(and with it the generated package) on ``sys.path``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acpgen.emit.models_plan import type_node
from acpgen.emit.render import export_sort_key, render_plan
from acpgen.emit.shipped import RUNTIME_TESTS_DIR
from acpgen.emit.type_tree import Kind, ListOf, Prim, TypeNode, nodes, qualified
from acpgen.errors import AcpgenError
from acpgen.ir.types import Method, SchemaIR, Shape
from acpgen.shipped.runtime import errors as runtime_errors

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


# Wire names the runtime treats specially; each is checked against the method table.
INITIALIZE = "initialize"
SESSION_CANCEL = "session/cancel"
REQUEST_PERMISSION = "session/request_permission"

# Rendered modules (template -> path inside the package).
_PACKAGE_TEMPLATES = {
    "interfaces.py": "runtime/interfaces.py.jinja",
    "connection.py": "runtime/connection.py.jinja",
    "launch.py": "runtime/launch.py.jinja",
    "remote.py": "runtime/remote.py.jinja",
}
_TEST_TEMPLATES = {"_package.py": "runtime/tests/_package.py.jinja"}
# What the runtime tests take from the package, by module (in import order; "": the package).
TEST_FACE = (
    ("", ("errors", "extensions", "guards", "methods", "models", "rpc")),
    ("connection", ("AgentSideConnection", "ClientSideConnection")),
    ("examples.echo_agent", ("EchoAgent",)),
    ("handshake", ("LATEST_PROTOCOL_VERSION", "SUPPORTED_PROTOCOL_VERSIONS", "ProtocolVersionError", "negotiate_version")),
    ("interfaces", ("Agent", "Client")),
    ("launch", ("connect_in_memory", "connect_to_agent", "run_agent")),
    ("rpc", ("RpcError",)),
)



@dataclass(frozen=True)
class SideView:
    role: str  # the side whose handler this is
    peer: str
    cls: str
    connection: str
    methods: tuple[Method, ...]  # what this side handles
    outbound: tuple[Method, ...]  # what this side sends (the peer's methods)


def check_error_codes(ir: SchemaIR) -> None:
    """The runtime's error codes must be the schema's ``ErrorCode`` members (value and title)."""
    definition = ir.defs.get("ErrorCode")
    if definition is None or not definition.enum_members:
        raise AcpgenError(ir.schema_where, "the runtime needs $defs/ErrorCode with its listed codes")
    schema_codes = {int(m.value): m.title or "" for m in definition.enum_members}
    for code, title in runtime_errors.ERROR_MESSAGES.items():
        if schema_codes.get(code) != title:
            raise AcpgenError(
                ir.schema_where,
                f"$defs/ErrorCode lacks {code} {title!r} (by value and title), which the runtime"
                " (acpgen/shipped/runtime/errors.py) answers with",
            )


def _method(ir: SchemaIR, wire: str) -> Method:
    method = ir.method(wire)
    if method is None:
        raise AcpgenError(ir.schema_where, f"the runtime needs the method {wire!r} in the method table")
    return method


def _wire(ir: SchemaIR, def_name: str, *wires: str) -> str:
    """The first of ``wires`` the def declares: v1 names the initialize members after the side
    (``clientCapabilities``, ``agentInfo``), v2 plainly (``capabilities``, ``info``)."""
    definition = ir.defs.get(def_name)
    for wire in wires:
        if definition is not None and definition.property(wire) is not None:
            return wire
    raise AcpgenError(ir.schema_where, f"the runtime needs $defs/{def_name}/properties/"
                      + " or ".join(wires))


def _py(ir: SchemaIR, def_name: str, *wires: str) -> str:
    wire = _wire(ir, def_name, *wires)
    prop = ir.defs[def_name].property(wire)
    assert prop is not None
    return prop.py_name


# Parameter names of the outbound-call methods themselves: a params member by one of these
# names leaves its method without the keyword form (the params model still works).
_CALL_NAMES = frozenset({"self", "params", "fields"})


@dataclass(frozen=True)
class KeywordArg:
    name: str  # the member's Python name
    type: TypeNode  # its type tree (models_plan.type_node), names qualified with models.
    required: bool  # else the keyword defaults to None, which means "omitted"
    nullable: bool  # null is a value of the member


def _annotations(tree: TypeNode) -> set[str]:
    """The rendering shapes of a keyword's type that need more than ``models.X`` names:
    "field" (a constrained primitive or array: ``Annotated[..., Field(...)]``) or "union"
    (a union rendered with pydantic markers of the models module)."""
    found: set[str] = set()
    for node in nodes(tree):
        if isinstance(node, (Prim, ListOf)) and node.kw:
            found.add("field")
        if node.k in (Kind.LTR, Kind.DISC, Kind.TAGGED):
            found.add("union")
    return found


def keyword_args(ir: SchemaIR, params: str) -> list[KeywordArg] | None:
    """The keyword form of an outbound call: one argument per member of its params object;
    None when the params are not an object (a union) or a member name is taken."""
    definition = ir.defs.get(params)
    if definition is None or definition.shape != Shape.OBJECT or not definition.properties:
        return None
    if any(p.py_name in _CALL_NAMES for p in definition.properties):
        return None
    args = [
        KeywordArg(p.py_name, qualified(type_node(p.type, ir.schema_where)), p.required,
                   p.nullable and p.type.kind != "any")
        for p in definition.properties
    ]
    if any("union" in _annotations(a.type) for a in args):
        return None  # its markers live in models.py: the params model is the way to call it
    return args


def _ref(ir: SchemaIR, def_name: str, *wires: str) -> str:
    wire = _wire(ir, def_name, *wires)
    definition = ir.defs.get(def_name)
    prop = definition.property(wire) if definition else None
    if prop is None or prop.type.kind != "ref" or not prop.type.name:
        raise AcpgenError(ir.schema_where, f"the runtime needs $defs/{def_name}/properties/{wire} to be a $ref")
    return prop.type.name


def _cancelled_permission(ir: SchemaIR, permission: Method) -> dict[str, Any]:
    """The wire value of a ``cancelled`` permission response, checked against the schema."""
    response = ir.defs.get(permission.result or "")
    outcome = response.property("outcome") if response else None
    union = ir.defs.get(outcome.type.name or "") if outcome and outcome.type.kind == "ref" else None
    if union is None or not union.discriminator or not any(v.tag == "cancelled" for v in union.variants):
        raise AcpgenError(ir.schema_where, f"{permission.result}.outcome has no 'cancelled' variant")
    return {"outcome": {union.discriminator: "cancelled"}}


@dataclass(frozen=True)
class InitializeNames:
    """The initialize exchange as the runtime reads and writes it (v1 names the members after
    the side, ``clientCapabilities``; v2 plainly, ``capabilities``)."""

    wire: str
    request_version: str  # Python names of the members
    client_capabilities: str
    response_version: str
    agent_capabilities: str
    auth_methods: str
    agent_info: str  # the default Agent.initialize answers it from a class attribute
    capabilities_type: str  # the defs of the agent's capabilities and info
    info_type: str
    info_required: bool  # v2 requires the agent's info in the response; v1 lets it be omitted


@dataclass(frozen=True)
class SessionMethodNames:
    """A session method the runtime sends or answers itself (session/cancel,
    session/request_permission): its wire name, the Python name of its session id, and for the
    permission request the wire value (JSON) it answers for a cancelled turn."""

    wire: str
    session_id: str
    cancelled_result: dict[str, Any] | None = None


@dataclass(frozen=True)
class RuntimeData:
    """What ``schema.py`` tells the shipped runtime: the member names it reads and writes, the
    supported versions, each checked against the schema."""

    supported_versions: tuple[int, ...]
    initialize: InitializeNames
    cancel: SessionMethodNames
    permission: SessionMethodNames


def runtime_data(ir: SchemaIR) -> RuntimeData:
    initialize = _method(ir, INITIALIZE)
    cancel = _method(ir, SESSION_CANCEL)
    permission = _method(ir, REQUEST_PERMISSION)
    result = initialize.result or ""
    info = ir.defs[result].property(_wire(ir, result, "agentInfo", "info"))
    return RuntimeData(
        supported_versions=(ir.protocol_version,),
        initialize=InitializeNames(
            wire=initialize.wire,
            request_version=_py(ir, initialize.params, "protocolVersion"),
            client_capabilities=_py(ir, initialize.params, "clientCapabilities", "capabilities"),
            response_version=_py(ir, result, "protocolVersion"),
            agent_capabilities=_py(ir, result, "agentCapabilities", "capabilities"),
            auth_methods=_py(ir, result, "authMethods"),
            agent_info=_py(ir, result, "agentInfo", "info"),
            capabilities_type=_ref(ir, result, "agentCapabilities", "capabilities"),
            info_type=_ref(ir, result, "agentInfo", "info"),
            info_required=info is not None and info.required,
        ),
        cancel=SessionMethodNames(cancel.wire, _py(ir, cancel.params, "sessionId")),
        permission=SessionMethodNames(permission.wire, _py(ir, permission.params, "sessionId"),
                                      _cancelled_permission(ir, permission)),
    )


@dataclass(frozen=True)
class FacadePlan:
    """What the façade's templates (``interfaces.py``, ``connection.py``, ``launch.py``,
    ``remote.py``) and
    the runtime tests' ``_package.py`` are rendered from."""

    package: str
    tests_dir: str
    protocol_version: int
    initialize: InitializeNames
    sides: tuple[SideView, SideView]  # the agent's, then the client's
    keywords: dict[str, list[KeywordArg] | None]  # params def -> its keyword form, if any
    keyword_fields: bool  # a keyword's type is Annotated[..., Field(...)]: connection.py imports them

    @property
    def agent_side(self) -> SideView:
        return self.sides[0]

    @property
    def client_side(self) -> SideView:
        return self.sides[1]


def facade_plan(model: GenerationModel) -> FacadePlan:
    ir = model.ir
    # A method either side handles (x-side "both": mcp/message) is on both interfaces.
    agent_methods = tuple(m for m in ir.methods if m.side in ("agent", "both"))
    client_methods = tuple(m for m in ir.methods if m.side in ("client", "both"))
    protocol = [m for m in ir.methods if m.side == "protocol" and m.kind == "notification"]
    # From errors.py, not the engine: importing rpc.py would import asyncio on every cold run.
    cancel_request = runtime_errors.CANCEL_REQUEST_METHOD
    if len(protocol) != 1 or protocol[0].wire != cancel_request:
        raise AcpgenError(
            ir.schema_where,
            "expected exactly one protocol-level (cancel request) notification, "
            f"{cancel_request!r} (acpgen/shipped/runtime/rpc.py)",
        )
    check_error_codes(ir)
    keywords = {m.params: keyword_args(ir, m.params) for m in ir.methods}
    return FacadePlan(
        package=model.options.package,
        tests_dir=model.options.tests_dir,
        protocol_version=ir.protocol_version,
        initialize=runtime_data(ir).initialize,
        sides=(
            SideView("agent", "client", "Agent", "AgentSideConnection", agent_methods, client_methods),
            SideView("client", "agent", "Client", "ClientSideConnection", client_methods, agent_methods),
        ),
        keywords=keywords,
        keyword_fields=any("field" in _annotations(a.type) for args in keywords.values() for a in args or ()),
    )


def emit(model: GenerationModel) -> dict[str, str]:
    plan = facade_plan(model)
    # The façade's templates read the sides also by name (agent_side, client_side).
    sides = {"agent_side": plan.agent_side, "client_side": plan.client_side}
    files = {
        f"{model.options.package}/{rel}": render_plan(template, plan, **sides)
        for rel, template in _PACKAGE_TEMPLATES.items()
    }
    exports = sorted({"PACKAGE", "package", *(n for _, names in TEST_FACE for n in names)}, key=export_sort_key)
    files.update({f"{RUNTIME_TESTS_DIR}/{rel}": render_plan(template, plan, face=TEST_FACE, exports=exports)
                  for rel, template in _TEST_TEMPLATES.items()})
    return files
