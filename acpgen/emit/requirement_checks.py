"""Which requirements the generator can check itself, and with which checks.

A check is a call to a function of the generated ``_acp_checks.py`` with literal arguments
computed here, at generation time, from the roster (and later the gating manifest). The
function asserts them on the generated code at test time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acpgen.errors import AcpgenError
from acpgen.load.capabilities import Manifest
from acpgen.model.derived_claims import DerivedClaims, derived_claims

if TYPE_CHECKING:
    from acpgen.inputs.roster import Requirement
    from acpgen.model.generation import GenerationModel


@dataclass(frozen=True)
class Call:
    """``_acp_checks.<func>(**args)`` in a generated test."""

    func: str
    args: tuple[tuple[str, Any], ...]


def call(func: str, **args: Any) -> Call:
    return Call(func, tuple(args.items()))


def planned_calls(model: GenerationModel) -> dict[str, list[Call]]:
    """Requirement ID -> the checks of its real test (IDs without checks are stubs)."""
    plan: dict[str, list[Call]] = {}
    where = model.roster_where
    for claims in derived_claims(model.roster, where):
        plan[claims.requirement.id] = derived_calls(claims)
    for req in model.roster.requirements:
        if req.id in JSONRPC_SHAPE:
            plan.setdefault(req.id, []).extend(JSONRPC_SHAPE[req.id](req, f"{where}:{req.line}"))
    for req_id, calls in gate_calls(model.capabilities).items():
        plan.setdefault(req_id, []).extend(calls)
    return plan


def gate_calls(manifest: Manifest) -> dict[str, list[Call]]:
    """Every gate, path rule and initialize-first rule of the manifest, by requirement ID."""
    plan: dict[str, list[Call]] = {}
    for gate in manifest.gates:
        for req_id in gate.requirements:
            plan.setdefault(req_id, []).append(
                call(
                    "check_gate",
                    method=gate.method,
                    sender=gate.sender,
                    message=gate.message,
                    select=list(gate.select),
                    equals=gate.equals,
                    capability=gate.qualified_capability,
                    kind=gate.kind,
                    condition=gate.condition,
                    requirement=req_id,
                )
            )
    for rule in manifest.absolute_paths:
        for req_id in rule.requirements:
            plan.setdefault(req_id, []).append(
                call(
                    "check_absolute_path",
                    method=rule.method,
                    sender=rule.sender,
                    message=rule.message,
                    select=list(rule.select),
                    requirement=req_id,
                )
            )
    for sender, ids in sorted(manifest.initialize_first.items()):
        for req_id in ids:
            plan.setdefault(req_id, []).append(
                call(
                    "check_initialize_first",
                    sender=sender,
                    exempt=sorted(manifest.exempt_before_initialize),
                    requirement=req_id,
                )
            )
    return plan


def derived_calls(claims: DerivedClaims) -> list[Call]:
    calls = [
        call("check_members", name=m.type_name, required=list(m.required), declared=list(m.declared))
        for m in claims.members
    ]
    calls += [call("check_shape", name=s.type_name, keyword=s.keyword) for s in claims.shapes]
    calls += [
        call(
            "check_variants",
            name=v.type_name,
            discriminator=v.discriminator,
            tags=list(v.tags),
            untagged=v.untagged,
        )
        for v in claims.variants
    ]
    calls += [call("check_enum", name=e.type_name, values=list(e.values)) for e in claims.enums]
    for c in claims.codes:
        calls.append(call("check_codes", name=c.type_name, codes=[list(pair) for pair in c.codes]))
        # "an Error object with integer code and string message": the object whose members
        # the same requirement states, typed by the codes' type.
        for m in claims.members:
            if "code" in m.declared and "message" in m.declared:
                calls.append(call("check_error_object", name=m.type_name, code_type=c.type_name))
    if claims.extension_names is not None:
        calls.append(call("check_extension_methods", prefix=claims.extension_names.prefix))
    return calls


# ---- JSON-RPC 2.0: the requirements about message shape, checked on the generated envelopes.
# Requirements about behaviour (replying with the same id, not replying to notifications,
# concise messages) stay stubs: an SDK's runtime must show them.

_EXACT_VERSION_RE = re.compile(r'MUST be exactly "(?P<version>[^"]+)"')


def _version(req: Requirement, where: str) -> list[Call]:
    m = _EXACT_VERSION_RE.search(req.text)
    if not m:
        raise AcpgenError(where, f'{req.id}: no \'MUST be exactly "<version>"\' in the text')
    return [call("check_jsonrpc_version", version=m["version"])]


def _ids(req: Requirement, where: str) -> list[Call]:
    # "MUST contain a String, Number, or NULL value": no booleans, objects or arrays.
    return [call("check_jsonrpc_ids", accept=["req-1", "", 7, 0, -3, None],
                 reject=[True, False, {}, [], ["req-1"]])]


def _no_fraction(req: Requirement, where: str) -> list[Call]:
    return [call("check_jsonrpc_ids", accept=[1, -1, 0], reject=[1.5, -0.25])]


def _reserved_prefix(req: Requirement, where: str) -> list[Call]:
    # "begin with the word rpc followed by a period character"
    return [call("check_jsonrpc_reserved_prefix", prefix="rpc.")]


def _error_code_integer(req: Requirement, where: str) -> list[Call]:
    return [call("check_jsonrpc_error_object", required=["code"],
                 accept_codes=[-32700, -32000, 0, 1, 42], reject_codes=[1.5, "-32603", True, None])]


def _error_contains(req: Requirement, where: str) -> list[Call]:
    return [
        call("check_jsonrpc_error_member"),
        call("check_jsonrpc_error_object", required=["code", "message"], accept_codes=[-32603],
             reject_codes=[]),
    ]


JSONRPC_SHAPE: dict[str, Callable[[Requirement, str], list[Call]]] = {
    "ACP-V1-JSONRPC-VERSION-MEMBER": _version,
    "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED": _reserved_prefix,
    "ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED": lambda req, where: [call("check_jsonrpc_params_omitted")],
    "ACP-V1-JSONRPC-ID-TYPE": _ids,
    "ACP-V1-JSONRPC-ID-NO-FRACTION": _no_fraction,
    "ACP-V1-JSONRPC-PARAMS-STRUCTURED": lambda req, where: [
        call("check_jsonrpc_params_structured", reject=["text", 0, 1.5, True])
    ],
    "ACP-V1-JSONRPC-RESULT-ON-SUCCESS": lambda req, where: [call("check_jsonrpc_result_on_success")],
    "ACP-V1-JSONRPC-ERROR-MEMBER-ON-ERROR": lambda req, where: [call("check_jsonrpc_error_member")],
    "ACP-V1-JSONRPC-RESULT-XOR-ERROR": lambda req, where: [call("check_jsonrpc_result_xor_error")],
    "ACP-V1-JSONRPC-ERROR-CODE-INTEGER": _error_code_integer,
    "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR": _error_contains,
}
