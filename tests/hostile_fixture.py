"""Test helper: a small schema + meta.json with one string at every site where the ACP inputs
can hold a string, and the in-process pipeline (IR -> emitters -> black) for it.

The fixture is tiny (a dozen defs) so that a property-based test can generate, format,
compile and import it in a fraction of a second. Every site is a parameter of
:func:`fixture`; ``SITES`` names them and says where each value can be read back.
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from acpgen.emit import methods as methods_emitter
from acpgen.emit import models as models_emitter
from acpgen.emit import schema as schema_emitter
from acpgen.emit.render import render
from acpgen.emit.runtime import InitializeNames, RuntimeData, SessionMethodNames, check_error_codes
from acpgen.inputs.json_limits import check_json_limits
from acpgen.inputs.roster import Roster
from acpgen.ir.build import build_ir
from acpgen.ir.types import SchemaIR
from acpgen.load.capabilities import EMPTY
from acpgen.model.generation import GenerationModel, GenOptions

SCHEMA = "schema/v1/schema.json"
META = "schema/v1/meta.json"
PACKAGE = "hostile_pkg"
# What schema.py tells the runtime of a schema with initialize and session/cancel: fixed here
# (the hostile schema has neither; these tests read the method table and the models).
RUNTIME_NAMES = RuntimeData(
    supported_versions=(1,),
    initialize=InitializeNames(
        wire="initialize", request_version="protocol_version", client_capabilities="client_capabilities",
        response_version="protocol_version", agent_capabilities="agent_capabilities",
        auth_methods="auth_methods", agent_info="agent_info", capabilities_type="AgentCapabilities",
        info_type="Implementation", info_required=False,
    ),
    cancel=SessionMethodNames("session/cancel", "session_id"),
    permission=SessionMethodNames("session/request_permission", "session_id", {"outcome": {"outcome": "cancelled"}}),
)
_COUNTER = itertools.count()

# The eight ErrorCode titles the runtime needs (it refuses a schema without them).
NEEDED_CODES = [
    (-32700, "Parse error"), (-32600, "Invalid request"), (-32601, "Method not found"),
    (-32602, "Invalid params"), (-32603, "Internal error"), (-32800, "Request cancelled"),
    (-32000, "Authentication required"), (-32002, "Resource not found"),
]

SITES = (
    "def_name", "def_description", "property_name", "property_description", "title",
    "enum_value", "enum_description", "const", "default", "pattern", "method_name",
    "error_code_title", "capability_name",
)


def fixture(**site: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(schema, meta) with ``site[name]`` at each site given (a plain value elsewhere).

    ``enum_value`` is a list of distinct strings; every other site takes one string.
    """
    def_name = site.get("def_name", "Probe")
    prop = site.get("property_name", "probeValue")
    cap = site.get("capability_name", "probeCapability")
    enum_values = site.get("enum_value", ["alpha", "beta"])
    probe_props: dict[str, Any] = {
        prop: {"type": "string", "description": site.get("property_description", "A value.")},
        "fixed": {"type": "string", "const": site.get("const", "fixed")},
        "withDefault": {"type": "string", "default": site.get("default", "d")},
        "kind": {"$ref": "#/$defs/ProbeKind"},
        "matching": {"type": "string", "pattern": site.get("pattern", "^a+$")},
    }
    defs: dict[str, Any] = {
        "AgentCapabilities": {
            "type": "object",
            "properties": {cap: {"type": "boolean", "default": False}},
        },
        "ClientCapabilities": {"type": "object", "properties": {}},
        # What schema.py names for the runtime's guards (every ACP schema has it).
        "AuthMethod": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        def_name: {
            "type": "object",
            "description": site.get("def_description", "The probe."),
            "properties": probe_props,
            "required": ["fixed"],
        },
        "ProbeKind": {
            "oneOf": [
                {"type": "string", "const": v, "description": site.get("enum_description", "One kind.")}
                for v in enum_values
            ],
        },
        "ProbeUnion": {
            "anyOf": [
                {"title": site.get("title", "Words"), "type": "object",
                 "properties": {"words": {"type": "string"}}, "required": ["words"]},
                {"title": "Number", "type": "integer"},
            ],
        },
        "ErrorCode": {
            "anyOf": [{"type": "integer", "const": code, "title": title} for code, title in NEEDED_CODES]
            + [{"type": "integer", "const": 1, "title": site.get("error_code_title", "Probe error")}],
        },
        "RequestId": {"anyOf": [{"title": "Number", "type": "integer"}, {"title": "Str", "type": "string"}]},
    }
    wire = site.get("method_name", "probe/run")
    methods = [("ProbeRun", wire, "agent", True), ("ClientAsk", "client/ask", "client", True),
               ("AgentNote", "agent/note", "agent", False), ("ClientNote", "client/note", "client", False)]
    for stem, method, side, is_request in methods:
        defs[f"{stem}Params"] = {"type": "object", "x-method": method, "x-side": side,
                                 "properties": {"sessionId": {"type": "string"}}}
        envelope: dict[str, Any] = {
            "type": "object",
            "required": ["id", "method", "params"] if is_request else ["method", "params"],
            "properties": {"method": {"type": "string"}, "params": {"$ref": f"#/$defs/{stem}Params"}},
        }
        if is_request:
            envelope["properties"]["id"] = {"$ref": "#/$defs/RequestId"}
            defs[f"{stem}Result"] = {"type": "object", "x-method": method, "x-side": side, "properties": {}}
            defs[f"{stem}ResponseEnvelope"] = {
                "type": "object",
                "properties": {"id": {"$ref": "#/$defs/RequestId"}, "result": {"$ref": f"#/$defs/{stem}Result"}},
            }
        defs[f"{stem}Envelope"] = envelope
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "hostile", "$defs": defs}
    meta = {"version": 1, "agentMethods": {"probe_run": wire, "agent_note": "agent/note"},
            "clientMethods": {"client_ask": "client/ask", "client_note": "client/note"},
            "protocolMethods": {}}
    return copy.deepcopy(schema), copy.deepcopy(meta)


def build(schema: dict[str, Any], meta: dict[str, Any]) -> SchemaIR:
    """The input stages acpgen runs on parsed JSON (limits, then the IR)."""
    check_json_limits(schema, SCHEMA)
    check_json_limits(meta, META)
    return build_ir(schema, meta, SCHEMA, META)


def generation_model(ir: SchemaIR, schema: dict[str, Any]) -> GenerationModel:
    roster = Roster("r1", "repo", "0" * 40, "0" * 64, {}, ())
    return GenerationModel(
        ir=ir, roster=roster, roster_where="roster/requirements.md", capabilities=EMPTY,
        options=GenOptions(package=PACKAGE), pinned_inputs=(),
        manifests=(), conformance=None,
    )


def emit_unformatted(ir: SchemaIR, schema: dict[str, Any], *, only_models: bool = False) -> dict[str, str]:
    """models.py and methods.py from the real emitters, plus the generated checks (the
    capability table), before black. (The runtime's error codes are fixed Python, checked
    against the schema's ErrorCode by the runtime emitter; a title shapes only the name of
    its member in models.py.)"""
    model = generation_model(ir, schema)
    if only_models:
        return models_emitter.emit(model)
    sources = {**models_emitter.emit(model), **methods_emitter.emit(model)}
    # schema.py, which methods.py reads: its method table and envelopes from the hostile
    # schema; the runtime's member names (initialize, cancel: not in this schema) fixed.
    sources[f"{PACKAGE}/schema.py"] = schema_emitter.schema_text(model, RUNTIME_NAMES)
    check_error_codes(ir)
    sources["tests/_acp_target.py"] = render(
        "tests/_acp_target.py.jinja", package=PACKAGE,
        capabilities={c.qualified: c.kind for c in ir.capabilities},
    )
    return sources


def load_package(files: dict[str, str], root: Path) -> dict[str, ModuleType]:
    """Write the package under a fresh name and import its models and methods modules."""
    name = f"{PACKAGE}_{next(_COUNTER)}"
    pkg = root / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    # The shipped modules models.py, schema.py and methods.py import (copied verbatim into
    # every package).
    runtime = Path(__file__).resolve().parents[1] / "acpgen" / "shipped" / "runtime"
    for fixed in ("errors.py", "model_base.py", "envelopes.py", "contract.py", "method_table.py"):
        (pkg / fixed).write_bytes((runtime / fixed).read_bytes())
    for rel, text in files.items():
        if rel.startswith(f"{PACKAGE}/"):
            body = text.replace(f"from {PACKAGE}.", f"from {name}.").replace(f"from {PACKAGE} ", f"from {name} ")
            (pkg / rel.split("/", 1)[1]).write_text(body, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        return {mod: importlib.import_module(f"{name}.{mod}") for mod in ("models", "methods")
                if f"{PACKAGE}/{mod}.py" in files}
    finally:
        sys.path.remove(str(root))
        for key in [k for k in sys.modules if k == name or k.startswith(f"{name}.")]:
            del sys.modules[key]
