"""Does each derived claim of the roster still hold for a schema (its IR)?

One verdict, used twice: ``acpgen diff``/``bump`` report the claims that no longer hold
against NEW, and the requirement-test emitter marks the tests of those requirements as
expected failures naming the roster revision and the schema it was written for. So the
report and the generated tests always name the same requirement IDs.

The verdicts mirror what the generated checks (``_acp_checks.py``) assert on the generated
code: members and required members as exact sets (a plain object), the variant tags of a
tagged union as an exact set, enum values as an exact set, a union/any shape. Where the IR
does not show a claim's subject plainly (members of a union of classes), the claim is held:
the generated test still checks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.inputs.roster import Roster
from acpgen.ir.types import Definition, SchemaIR, Shape
from acpgen.model.derived_claims import DerivedClaims, derived_claims

_UNION_SHAPES = (Shape.TAGGED_UNION, Shape.UNION, Shape.ENUM, Shape.OPEN_ENUM)


@dataclass(frozen=True)
class ClaimVerdict:
    requirement: str
    claim: str  # the claim in the roster's words, e.g. "/$defs/X: required [...]; ..."
    problem: str | None  # None: it holds


def claim_verdicts(roster: Roster, ir: SchemaIR, where: str = "roster/requirements.md") -> list[ClaimVerdict]:
    """Every structural claim of every derived requirement, in roster order, with its verdict."""
    out: list[ClaimVerdict] = []
    for claims in derived_claims(roster, where):
        out.extend(_verdicts(claims, ir))
    return out


def broken_requirements(roster: Roster, ir: SchemaIR, where: str = "roster/requirements.md") -> dict[str, list[str]]:
    """Requirement ID -> the problems of its claims that do not hold (roster order)."""
    broken: dict[str, list[str]] = {}
    for verdict in claim_verdicts(roster, ir, where):
        if verdict.problem is not None:
            broken.setdefault(verdict.requirement, []).append(verdict.problem)
    return broken


def _verdicts(claims: DerivedClaims, ir: SchemaIR) -> list[ClaimVerdict]:
    rid = claims.requirement.id
    out: list[ClaimVerdict] = []
    for m in claims.members:
        text = (f"/$defs/{m.type_name}: required {list(m.required) or 'none'}; "
                f"declared properties {list(m.declared) or 'none'}")
        out.append(ClaimVerdict(rid, text, _members(ir.defs.get(m.type_name), m.type_name,
                                                     set(m.required), set(m.declared))))
    for s in claims.shapes:
        out.append(ClaimVerdict(rid, f"/$defs/{s.type_name}: {s.keyword}",
                                _shape(ir.defs.get(s.type_name), s.type_name, s.keyword)))
    for v in claims.variants:
        out.append(ClaimVerdict(rid, f"{v.type_name} variants {list(v.tags)}",
                                _variants(ir.defs.get(v.type_name), v.type_name, set(v.tags), v.untagged)))
    for e in claims.enums:
        out.append(ClaimVerdict(rid, f"{e.type_name} values {list(e.values)}",
                                _enum(ir.defs.get(e.type_name), e.type_name, set(e.values))))
    return out


def _gone(name: str) -> str:
    return f"/$defs/{name} no longer exists"


def _difference(label: str, claimed: set[str], actual: set[str]) -> str | None:
    if claimed == actual:
        return None
    gone, extra = sorted(claimed - actual), sorted(actual - claimed)
    parts = ([f"missing {gone}"] if gone else []) + ([f"new {extra}"] if extra else [])
    return f"{label}: {'; '.join(parts)}"


def _members(d: Definition | None, name: str, required: set[str], declared: set[str]) -> str | None:
    if d is None:
        return _gone(name)
    if d.shape != Shape.OBJECT:
        return None  # a union of classes: the generated check looks at each class
    actual = {p.wire_name for p in d.properties}
    problems = [p for p in (
        _difference("declared properties", declared, actual),
        _difference("required", required, {p.wire_name for p in d.properties if p.required}),
    ) if p]
    return f"/$defs/{name}: " + ", ".join(problems) if problems else None


def _shape(d: Definition | None, name: str, keyword: str) -> str | None:
    if d is None:
        return _gone(name)
    if keyword == "schema":
        return None if d.shape == Shape.ANY else f"/$defs/{name} is no longer any JSON (now {d.shape})"
    return None if d.shape in _UNION_SHAPES else f"/$defs/{name} is no longer a {keyword} union (now {d.shape})"


def _variants(d: Definition | None, name: str, tags: set[str], untagged: str | None) -> str | None:
    if d is None:
        return _gone(name)
    if d.shape != Shape.TAGGED_UNION:
        return None  # told apart by what each branch accepts: the generated check decides
    actual = {str(v.tag) for v in d.variants if v.tag is not None and not v.catch_all}
    problem = _difference("variants", tags - ({untagged} if untagged else set()), actual - ({untagged} if untagged else set()))
    return f"{name} {problem}" if problem else None


def _enum(d: Definition | None, name: str, values: set[str]) -> str | None:
    if d is None:
        return _gone(name)
    problem = _difference("values", values, {str(m.value) for m in d.enum_members})
    return f"/$defs/{name}: {problem}" if problem else None
