"""Roster impact of a schema diff: which requirements concern each change.

A requirement concerns a change when (each link is reported as a reason):

``source``      its Source is the schema pointer of the changed def (``/$defs/ToolCall``);
``claim``       one of its derived structural claims is about the changed def;
``text``        its text names the changed type (multi-word CamelCase names only, e.g.
                ``ToolCall``: one-word names like ``Plan`` or ``Error`` are ordinary English
                words, so they are linked through sources and claims only), the changed
                method's wire name (``session/update``), or the changed capability's path
                (``sessionCapabilities.resume``, ``loadSession``);
``method``      its text names a method whose params or result *is* the changed def;
``gate``        the gating manifest (``schema/capabilities.toml``) ties it to the changed
                capability.

Besides requirements, each def change lists its *carriers*: the union variants
(``SessionUpdate[tool_call]``) and properties (``RequestPermissionRequest.toolCall``) that hold
the def, and the methods that carry it on the wire. Finally every derived claim of the roster is
re-checked against NEW, and those that no longer hold are listed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.evolve.changes import Change
from acpgen.evolve.diff import SchemaDiff, SchemaSide
from acpgen.evolve.methods import Flows
from acpgen.evolve.normal import normalise, ref_name
from acpgen.inputs.roster import Requirement, Roster
from acpgen.ir.build import build_ir
from acpgen.ir.envelopes import refs_in
from acpgen.load.capabilities import MANIFEST_RELPATH
from acpgen.load.project import Project
from acpgen.model.claim_verdicts import claim_verdicts
from acpgen.model.derived_claims import DerivedClaims, derived_claims

_MULTI_HUMP = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
_REQ_ID = re.compile(r"ACP-V1-[A-Z0-9]+(?:-[A-Z0-9]+)+")
_MAX_CARRIERS = 8


@dataclass(frozen=True)
class ChangeImpact:
    change: Change
    requirements: dict[str, tuple[str, ...]]  # requirement id -> reasons
    carriers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "requirements": {k: list(v) for k, v in sorted(self.requirements.items())},
            "carriers": list(self.carriers),
        }


@dataclass(frozen=True)
class BrokenClaim:
    requirement: str
    claim: str
    problem: str

    def to_json(self) -> dict[str, str]:
        return {"requirement": self.requirement, "claim": self.claim, "problem": self.problem}


@dataclass(frozen=True)
class Impact:
    changes: tuple[ChangeImpact, ...]
    claims_checked: int  # structural claims re-checked
    requirements_checked: int  # the derived requirements they come from
    broken_claims: tuple[BrokenClaim, ...]
    gates_source: str | None  # where capability gates came from, or None if there are none
    notes: tuple[str, ...] = field(default=())

    @property
    def requirement_ids(self) -> list[str]:
        return sorted({rid for c in self.changes for rid in c.requirements})


# -- gates --------------------------------------------------------------------------------


def load_gate_entries(project: Project) -> tuple[list[Any], str | None, str | None]:
    """The gating manifest's entries as plain data (none when the project has no manifest).

    The manifest was parsed and validated once, when the project loaded.
    Returns (entries, source, note-on-failure).
    """
    if project.capabilities is None:
        return [], None, None
    return [g.to_json() for g in project.capabilities.gates], MANIFEST_RELPATH, None


def tagged_gates(project: Project) -> tuple[tuple[str, str, str], ...]:
    """(tag member, value, capability) of every gate that selects a tagged value
    (``select = "configOptions[].type"``, ``equals = "boolean"``): what the diff must not send
    to a peer that cannot have advertised the capability."""
    if project.capabilities is None:
        return ()
    return tuple(sorted({(g.select[-1], g.equals, _qualified(g.capability))
                         for g in project.capabilities.gates
                         if g.select and g.equals and g.capability is not None}))


def _qualified(cap: Any) -> str:
    return f"{cap.root}Capabilities.{cap.path}"


def _strings(node: Any) -> Iterable[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _strings(v)


def _gate_requirements(entries: list[Any], qualified: str) -> set[str]:
    found: set[str] = set()
    for entry in entries:
        strings = list(_strings(entry))
        if qualified in strings:
            found.update(m for s in strings for m in _REQ_ID.findall(s))
    return found


# -- matching -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One structural claim of a derived requirement, in the roster's own words."""

    requirement: str
    name: str  # the def it is about
    kind: str  # members | oneOf | anyOf | schema | enum
    text: str
    required: tuple[str, ...] = ()
    declared: tuple[str, ...] = ()
    values: tuple[str, ...] = ()


def roster_claims(roster: Roster) -> list[Claim]:
    """The structural claims of every derived requirement (parsed by acpgen.model.derived_claims).

    They link changed defs to requirements; whether each still holds against NEW is decided
    by :func:`acpgen.model.claim_verdicts.claim_verdicts`, the same verdicts the generated
    requirement tests are marked with.
    """
    out: list[Claim] = []
    for dc in derived_claims(roster):
        out.extend(_claims_of(dc))
    return out


def _claims_of(dc: DerivedClaims) -> list[Claim]:
    rid = dc.requirement.id
    out = [
        Claim(rid, m.type_name, "members",
              f"/$defs/{m.type_name}: required {list(m.required) or 'none'}; "
              f"declared properties {list(m.declared) or 'none'}", m.required, m.declared)
        for m in dc.members
    ]
    out += [Claim(rid, s.type_name, s.keyword, f"/$defs/{s.type_name}: {s.keyword}") for s in dc.shapes]
    out += [Claim(rid, e.type_name, "enum", f"{e.type_name} values {list(e.values)}", values=e.values)
            for e in dc.enums]
    return out


def check_claim(claim: Claim, schema: dict[str, Any]) -> str | None:
    """Why ``claim`` does not hold for NEW (None if it holds).

    Member lists are compared as sets: the order members are declared in is not structure.
    """
    pointer = f"/$defs/{claim.name}"
    node = schema.get("$defs", {}).get(claim.name)
    if not isinstance(node, dict):
        return f"{pointer} no longer exists"
    if claim.kind in ("oneOf", "anyOf"):
        return None if claim.kind in node else f"{pointer} is no longer a {claim.kind} union"
    if claim.kind == "schema":
        present = [k for k in ("properties", "oneOf", "anyOf") if k in node]
        return f"{pointer} now declares {', '.join(present)}" if present else None
    if claim.kind == "enum":
        have = {str(v) for v in normalise(node).a.get("~values", ())}
        gone = [v for v in claim.values if v not in have]
        return f"{pointer}: values {gone} no longer exist" if gone else None
    problems: list[str] = []
    for label, claimed, actual in (("required", set(claim.required), set(node.get("required", []))),
                                   ("declared properties", set(claim.declared),
                                    set(node.get("properties", {})))):
        if claimed != actual:
            gone, extra = sorted(claimed - actual), sorted(actual - claimed)
            parts = ([f"missing {gone}"] if gone else []) + ([f"new {extra}"] if extra else [])
            problems.append(f"{label}: {'; '.join(parts)}")
    return f"{pointer}: " + ", ".join(problems) if problems else None


def _broken_claims(claims: list[Claim], roster: Roster, new: SchemaSide) -> tuple[int, list[BrokenClaim]]:
    """How many claims were checked, and those that no longer hold against NEW.

    When the generator can model NEW, the verdicts are the ones the generated requirement
    tests are marked with (:mod:`acpgen.model.claim_verdicts`), so the report and the tests
    name the same requirements; otherwise (no generated code can exist for NEW) the raw
    schema is checked with :func:`check_claim`.
    """
    try:
        ir = build_ir(new.schema, new.meta, new.label, new.meta_label)
    except AcpgenError:
        return len(claims), [BrokenClaim(c.requirement, c.text, problem) for c in claims
                             if (problem := check_claim(c, new.schema))]
    verdicts = claim_verdicts(roster, ir)
    return len(verdicts), [BrokenClaim(v.requirement, v.claim, v.problem) for v in verdicts if v.problem]


class _Index:
    def __init__(self, roster: Roster, claims: list[Claim]) -> None:
        self.reqs = roster.requirements
        self.claims_by_def: dict[str, set[str]] = {}
        for c in claims:
            self.claims_by_def.setdefault(c.name, set()).add(c.requirement)

    def for_def(self, name: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        pointer = f"/$defs/{name}"
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])") if _MULTI_HUMP.match(name) else None
        for r in self.reqs:
            if r.source.kind == "schema" and r.source.selector == pointer:
                out.setdefault(r.id, set()).add("source")
            if word and word.search(_prose(r)):
                out.setdefault(r.id, set()).add("text")
        for rid in self.claims_by_def.get(name, ()):
            out.setdefault(rid, set()).add("claim")
        return out

    def mentioning(self, token: str, reason: str) -> dict[str, set[str]]:
        pattern = re.compile(rf"(?<![\w/.$]){re.escape(token)}(?![\w/])")
        return {r.id: {reason} for r in self.reqs if pattern.search(_prose(r))}


def _prose(r: Requirement) -> str:
    """Requirement text without the derived-structure tail (claims are matched separately)."""
    return r.text.split("Derived structure (generated", 1)[0]


def _merge(into: dict[str, set[str]], more: dict[str, set[str]]) -> None:
    for k, v in more.items():
        into.setdefault(k, set()).update(v)


def _holders(side: SchemaSide) -> dict[str, tuple[list[str], list[str]]]:
    """def -> (union branches built on it, properties that hold it), for one side."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for owner, node in side.schema.get("$defs", {}).items():
        norm = normalise(node)
        for key, (_, branch) in norm.variants.items():
            target = ref_name(normalise(branch).raw.get("$ref"))
            if target:
                out.setdefault(target, ([], []))[0].append(f"{owner}[{key}]")
        declared = norm.a.get("properties", {})
        for wire, schema in (declared.items() if isinstance(declared, dict) else ()):
            for target in refs_in(schema):
                out.setdefault(target, ([], []))[1].append(f"{owner}.{wire}")
    return out


def _carriers(name: str, holders: dict[str, tuple[list[str], list[str]]], flows: Flows) -> list[str]:
    """Union branches built on the def, properties that hold it, methods that carry it."""
    variants, props = holders.get(name, ([], []))
    methods = sorted(flows.carriers.get(name, ()))
    out = sorted(variants) + sorted(props)[:_MAX_CARRIERS]
    if len(props) > _MAX_CARRIERS:
        out.append(f"... {len(props) - _MAX_CARRIERS} more properties")
    return out + [f"method {m}" for m in methods]


def _def_name(change: Change) -> str | None:
    if change.kind.startswith(("METHOD_", "CAPABILITY_")) or change.subject.startswith("("):
        return None
    return change.subject.split("[", 1)[0]


def compute_impact(diff: SchemaDiff, roster: Roster, gate_entries: list[Any] | None = None,
                   gates_source: str | None = None, notes: tuple[str, ...] = ()) -> Impact:
    claims = roster_claims(roster)
    index = _Index(roster, claims)
    old, new = diff.old, diff.new
    entries = gate_entries or []
    results: list[ChangeImpact] = []
    carrier_cache: dict[tuple[str, int], list[str]] = {}
    flows = {id(old): old.flows, id(new): new.flows}
    holders: dict[int, dict[str, tuple[list[str], list[str]]]] = {}
    for change in diff.semantic:
        reqs: dict[str, set[str]] = {}
        carriers: list[str] = []
        name = _def_name(change)
        if name is not None:
            _merge(reqs, index.for_def(name))
            side = new if change.kind == "DEF_ADDED" or name not in old.schema.get("$defs", {}) else old
            for m in side.methods:
                if name in (m.params, m.result):
                    _merge(reqs, index.mentioning(m.wire, "method"))
            key = (name, id(side))
            if key not in carrier_cache:
                if id(side) not in holders:
                    holders[id(side)] = _holders(side)
                carrier_cache[key] = _carriers(name, holders[id(side)], flows[id(side)])
            carriers = carrier_cache[key]
        elif change.kind.startswith("METHOD_"):
            _merge(reqs, index.mentioning(change.subject, "text"))
            method = old.method(change.subject) or new.method(change.subject)
            for def_name in filter(None, (method.params, method.result) if method else ()):
                _merge(reqs, {k: v & {"source", "claim"} for k, v in index.for_def(def_name).items()
                              if v & {"source", "claim"}})
        elif change.kind.startswith("CAPABILITY_"):
            qualified = change.subject
            path = qualified.split(".", 1)[1]
            _merge(reqs, index.mentioning(qualified, "text"))
            # A dotted or camelCase path is specific enough to find in prose; "terminal" is not.
            if "." in path or path != path.lower():
                _merge(reqs, index.mentioning(path, "text"))
            for rid in _gate_requirements(entries, qualified):
                reqs.setdefault(rid, set()).add("gate")
        results.append(ChangeImpact(change, {k: tuple(sorted(v)) for k, v in sorted(reqs.items())},
                                    tuple(carriers)))
    checked, broken = _broken_claims(claims, roster, diff.new)
    return Impact(tuple(results), checked, len({c.requirement for c in claims}), tuple(broken),
                  gates_source, notes)
