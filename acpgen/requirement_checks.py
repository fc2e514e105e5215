"""Which requirements the generator can check itself, and with which checks.

A check is a call to a function of the generated ``_acp_checks.py`` with literal arguments
computed here, at generation time, from the roster (and later the gating manifest). The
function asserts them on the generated code at test time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acpgen.derived_claims import DerivedClaims, derived_claims

if TYPE_CHECKING:
    from acpgen.project import Project


@dataclass(frozen=True)
class Call:
    """``_acp_checks.<func>(**args)`` in a generated test."""

    func: str
    args: tuple[tuple[str, Any], ...]


def call(func: str, **args: Any) -> Call:
    return Call(func, tuple(args.items()))


def planned_calls(project: Project) -> dict[str, list[Call]]:
    """Requirement ID -> the checks of its real test (IDs without checks are stubs)."""
    plan: dict[str, list[Call]] = {}
    for claims in derived_claims(project.roster, project.lock.files["roster"].path):
        plan[claims.requirement.id] = derived_calls(claims)
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
    return calls
