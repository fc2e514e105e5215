"""The method table: its rows (in ``schema.py``) and its typed face, ``methods.py``.

The data comes from the IR's method table (wire name, Python name, handling side, params and
result defs), the gating manifest (gates per method) and the roster (the schema-derived
requirements on each method's params and result). :func:`method_table` is what
``templates/schema/schema.py.jinja`` lays the table out from (``acpgen.emit.schema``);
:func:`emit` renders the face, ``templates/methods/methods.py.jinja``: the per-method
``parse_params`` / ``parse_result`` overloads, delegating to the shipped ``method_table.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from acpgen.emit.render import export_sort_key, plan_fields, render
from acpgen.errors import AcpgenError
from acpgen.ir.naming import pascal
from acpgen.load.capabilities import Manifest

if TYPE_CHECKING:
    from acpgen.ir.types import Method
    from acpgen.model.generation import GenerationModel

TEMPLATE = "methods/methods.py.jinja"


def class_stem(py_name: str) -> str:
    """``session_set_mode`` -> ``SessionSetMode`` (the stem of the envelope class names)."""
    return pascal(py_name)


def method_requirements(model: GenerationModel, manifest: Manifest, m: Method) -> list[str]:
    """IDs that bind this method: its gates and paths, and the roster items derived from its types."""
    ids = {r for g in manifest.gates if g.method == m.wire for r in g.requirements}
    ids |= {r for p in manifest.absolute_paths if p.method == m.wire for r in p.requirements}
    pointers = {f"/$defs/{m.params}"} | ({f"/$defs/{m.result}"} if m.result else set())
    ids |= {
        r.id
        for r in model.roster.requirements
        if r.source.kind == "schema" and r.source.selector in pointers
    }
    return sorted(ids)


@dataclass(frozen=True)
class MethodRow:
    """One method of the table, with the names of its envelope classes."""

    wire: str
    py_name: str
    side: str  # the side that handles it: agent | client | protocol | both
    sender: str
    kind: str  # request | notification
    params: str
    result: str | None
    stem: str  # the stem of its envelope class names
    message_class: str
    response_class: str | None  # requests only
    gates: list[str]  # the targets of its capability gates
    requirements: list[str]  # the requirement IDs that bind it


def method_rows(model: GenerationModel, manifest: Manifest) -> list[MethodRow]:
    rows = []
    for m in sorted(model.ir.methods, key=lambda m: m.wire):
        stem = class_stem(m.py_name)
        rows.append(MethodRow(
            wire=m.wire, py_name=m.py_name, side=m.side, sender=m.sender, kind=m.kind,
            params=m.params, result=m.result, stem=stem,
            message_class=f"{stem}{'Request' if m.kind == 'request' else 'Notification'}Message",
            response_class=f"{stem}ResponseMessage" if m.kind == "request" else None,
            gates=sorted({g.target for g in manifest.gates if g.method == m.wire}),
            requirements=method_requirements(model, manifest, m),
        ))
    return rows


# methods.py's own names (the face of the table); the envelope classes and unions come from
# schema.py and are re-exported.
_EXPORTS = (
    "INVALID_PARAMS", "INVALID_REQUEST", "JSONRPC_VERSION", "METHODS", "METHOD_NOT_FOUND",
    "PARSE_ERROR", "AnyMessage", "ExtensionMethod", "ExtensionNotificationMessage",
    "ExtensionRequestMessage", "InvalidParamsError", "InvalidRequestError", "JsonRpcError",
    "JsonRpcErrorObject", "JsonRpcErrorResponse", "JsonRpcNotification", "JsonRpcRequest",
    "JsonRpcResponse", "JsonRpcSuccessResponse", "MethodName", "MethodNotFoundError",
    "MethodSpec", "MethodToAgent", "MethodToClient", "NotificationsToAgent",
    "NotificationsToClient", "RequestsToAgent", "RequestsToClient", "is_extension_method",
    "lookup", "method", "parse_message", "parse_params", "parse_result",
)
# What methods.py re-exports of the shipped modules, by module (in import order).
_REEXPORTS = (
    ("contract", ("ExtensionMethod", "MethodSpec")),
    ("envelopes", (
        "JSONRPC_VERSION", "ExtensionNotificationMessage", "ExtensionRequestMessage", "JsonRpcErrorObject",
        "JsonRpcErrorResponse", "JsonRpcNotification", "JsonRpcRequest", "JsonRpcResponse",
        "JsonRpcSuccessResponse", "is_extension_method",
    )),
    # The one error hierarchy of the package (errors.py): what parse_* raise is what the
    # runtime answers on the wire, with the same codes (the schema's ErrorCode).
    ("errors", (
        "INVALID_PARAMS", "INVALID_REQUEST", "METHOD_NOT_FOUND", "PARSE_ERROR", "InvalidParamsError",
        "InvalidRequestError", "MethodNotFoundError",
    )),
)  # then (in the template) errors.RpcError as JsonRpcError and method_table's names
# What methods.py takes from schema.py beside the envelope classes.
_FROM_SCHEMA = (
    "METHODS", "MethodName", "MethodToAgent", "MethodToClient", "NotificationsToAgent",
    "NotificationsToClient", "RequestsToAgent", "RequestsToClient",
)

# Names schema.py and methods.py define or import (a class by one of these names would shadow it).
_MODULE_IMPORTS = (
    "Annotated", "Any", "BaseModel", "ConfigDict", "Field", "Final", "Literal", "StrictInt",
    "StrictStr", "TypeAdapter", "TypeAlias", "ValidationError", "MappingProxyType", "cache",
    "dataclass", "overload", "RequestId", "Mapping", "field", "method_table",
    "CapabilityPath", "Gate", "Handshake", "PathRule", "SessionMethod", "Side",
    "AgentCapabilities", "AuthMethod", "ClientCapabilities", "PROTOCOL_VERSION",
    "ROSTER_REVISION", "UPSTREAM_COMMIT", "INPUT_SHA256", "SUPPORTED_PROTOCOL_VERSIONS",
    "LATEST_PROTOCOL_VERSION", "INITIALIZE", "CANCEL", "PERMISSION", "CANCELLED_PERMISSION",
    "AgentCapabilityPath", "ClientCapabilityPath", "GATES", "ABSOLUTE_PATHS",
    "INITIALIZE_EXEMPT", "INITIALIZE_FIRST", "UNADVERTISED", "CAPABILITY_PATHS",
)
# Models schema.py re-exports by name (the runtime reads them through the schema contract).
REEXPORTED_MODELS = ("AgentCapabilities", "AuthMethod", "ClientCapabilities", "RequestId")



def envelope_classes(methods: list[MethodRow]) -> set[str]:
    names = {row.message_class for row in methods}
    return names | {row.response_class for row in methods if row.response_class}


@dataclass(frozen=True)
class MethodTable:
    """What schema.py's method table and methods.py's face are rendered from."""

    package: str
    protocol_version: int
    methods: list[MethodRow]  # by wire name
    requests: list[MethodRow]
    handled_by: dict[str, list[MethodRow]]  # side -> what it handles (protocol methods: both)
    sent_by: dict[str, list[MethodRow]]  # side -> what it sends
    face_models: list[str]  # the models the face's overloads name
    models: list[str]  # the models the table names (the re-exported ones are imported by name)
    schema_names: list[str]  # what methods.py takes from schema.py
    exports: list[str]  # methods.py's __all__


def method_table(model: GenerationModel, manifest: Manifest) -> MethodTable:
    methods = method_rows(model, manifest)
    # Envelope classes live beside the imported defs and the module's own names: refuse a
    # method whose class name is taken (or shared with another method), naming both.
    taken = {name: f"$defs/{name}" for name in model.ir.defs}
    taken.update({name: "a name methods.py defines" for name in (*_EXPORTS, *_MODULE_IMPORTS)})
    for row in methods:
        for cls in (row.message_class, row.response_class):
            if cls is None:
                continue
            if cls in taken:
                raise AcpgenError(model.ir.meta_where, f"method {row.wire!r}: its envelope class {cls} "
                                  f"collides with {taken[cls]}")
            taken[cls] = f"the envelope of method {row.wire!r}"
    requests = [row for row in methods if row.kind == "request"]
    return MethodTable(
        package=model.options.package,
        protocol_version=model.ir.protocol_version,
        methods=methods,
        requests=requests,
        handled_by={side: [row for row in methods if row.side in (side, "protocol")] for side in ("agent", "client")},
        sent_by={side: [row for row in methods if row.sender in (side, "both")] for side in ("agent", "client")},
        face_models=sorted({row.params for row in methods} | {row.result for row in requests if row.result}),
        models=sorted(({row.params for row in methods} | {row.result for row in methods if row.result})
                      - set(REEXPORTED_MODELS)),
        schema_names=sorted({*_FROM_SCHEMA, *envelope_classes(methods)}, key=export_sort_key),
        exports=sorted(set(_EXPORTS) | envelope_classes(methods), key=export_sort_key),
    )


def emit(model: GenerationModel) -> dict[str, str]:
    table = method_table(model, model.capabilities)
    fields = plan_fields(table)
    del fields["face_models"]
    fields["models"] = table.face_models  # methods.py names the models of its face
    reexports = [(module, sorted(names, key=export_sort_key)) for module, names in _REEXPORTS]
    return {f"{model.options.package}/methods.py": render(TEMPLATE, reexports=reexports, **fields)}
