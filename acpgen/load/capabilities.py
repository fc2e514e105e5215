"""The gating manifest ``schema/capabilities.toml``: load it and validate it against the inputs.

The schema says which types belong to which method, not which peer capability must have been
advertised before a call is allowed; the roster says that in prose. The project owns a
hand-reviewed manifest that states each gate as data, and this module proves every entry
against the pinned inputs: the method is in the IR's method table, the capability path is in
the IR's capability tree with the same kind, the selector resolves through the schema's
types, and every requirement ID is in the roster. Any violation is one
:class:`~acpgen.errors.AcpgenError` naming the file and the entry (exit 2).

``load_project`` parses it once (:func:`parse_manifest`), so a bad manifest fails every command;
the parsed :class:`Manifest` travels in the generation model, nothing reads the file again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.inputs import toml_manifest
from acpgen.inputs.roster import Roster
from acpgen.ir.naming import method_py_name
from acpgen.ir.types import Capability, Definition, Method, SchemaIR, Shape, TypeExpr

MANIFEST_RELPATH = "schema/capabilities.toml"

SIDES = ("client", "agent")
MESSAGES = ("params", "result")
KINDS = ("boolean", "object", "never")
# Named checks for kind = "never"; each is implemented by templates/guards/.
CONDITIONS = ("advertised-terminal-auth-method",)
# The capabilities object a sender must check is its peer's.
PEER_ROOT = {"client": "agent", "agent": "client"}
ROOT_PREFIX = {"agent": "agentCapabilities", "client": "clientCapabilities"}

_GATE_KEYS = {"method", "sender", "in", "select", "equals", "capability", "kind", "condition",
              "requirements", "note"}
_PATH_KEYS = {"method", "sender", "in", "select", "requirements", "note"}
_TOP_KEYS = {"initialize_first", "unadvertised", "gate", "absolute_path", "not_a_gate", "ungated",
             "takes_up_session"}


@dataclass(frozen=True)
class Gate:
    """One gate: ``sender`` may send ``target`` only if its peer advertised ``capability``."""

    method: str
    sender: str  # client | agent
    message: str  # params | result
    select: tuple[str, ...]  # wire-name steps, "[]" walks an array; () gates the whole method
    equals: str | None
    capability: Capability | None  # None for kind "never"
    kind: str  # boolean | object | never
    condition: str | None
    requirements: tuple[str, ...]
    note: str | None = None

    @property
    def target(self) -> str:
        if not self.select:
            return self.method
        path = ".".join(self.select).replace(".[]", "[]")
        return f"{self.method} {self.message}.{path}" + (f"={self.equals}" if self.equals else "")

    @property
    def qualified_capability(self) -> str | None:
        return self.capability.qualified if self.capability else None

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "sender": self.sender,
            "capability": self.qualified_capability,
            "kind": self.kind,
            "requirements": list(self.requirements),
            "method": self.method,
            "in": self.message,
            "select": format_select(self.select) or None,
            "equals": self.equals,
            "condition": self.condition,
        }


@dataclass(frozen=True)
class PathRule:
    """A string member that must hold an absolute path when ``sender`` sends ``method``."""

    method: str
    sender: str
    message: str
    select: tuple[str, ...]
    requirements: tuple[str, ...]

    @property
    def target(self) -> str:
        return f"{self.method} {self.message}.{format_select(self.select)}"


@dataclass(frozen=True)
class Manifest:
    gates: tuple[Gate, ...]
    absolute_paths: tuple[PathRule, ...]
    exempt_before_initialize: tuple[str, ...]
    initialize_first: dict[str, tuple[str, ...]]  # sender -> requirement IDs
    not_a_gate: dict[str, str]  # requirement ID -> reason
    unadvertised: tuple[str, ...] = ()  # IDs: what a peer did not advertise is unsupported
    # [[ungated]]: method -> why no capability gates it (every method of a surface manifest is
    # either gated or listed here, so a new method is reviewed, not silently ungated)
    ungated: dict[str, str] = field(default_factory=dict)
    # [[takes_up_session]]: method -> why its params' sessionId names a session the sender
    # takes up (load, resume) rather than one it holds: the schema cannot say it, the remote
    # transports route by it (schema.py's SESSION_SCOPES, acpgen/emit/runtime.py)
    takes_up_session: dict[str, str] = field(default_factory=dict)

    def cited(self) -> set[str]:
        ids = {r for g in self.gates for r in g.requirements}
        ids |= {r for p in self.absolute_paths for r in p.requirements}
        ids |= {r for rs in self.initialize_first.values() for r in rs}
        return ids | set(self.unadvertised)


_STEP_RE = re.compile(r"([^\[\].]*)((?:\[\])*)")


def format_select(steps: tuple[str, ...]) -> str:
    return ".".join(steps).replace(".[]", "[]")


def parse_select(text: str) -> tuple[str, ...]:
    """``prompt[].type`` -> ``("prompt", "[]", "type")``."""
    steps: list[str] = []
    for part in text.split("."):
        match = _STEP_RE.fullmatch(part)
        if match is None or not match.group(1):
            raise ValueError(f"bad selector step {part!r} in {text!r}")
        steps.append(match.group(1))
        steps.extend("[]" for _ in range(len(match.group(2)) // 2))
    return tuple(steps)


# ---- loading --------------------------------------------------------------------------------


EMPTY = Manifest((), (), (), {}, {})


def read_manifest(path: Path, relpath: str = MANIFEST_RELPATH) -> bytes | None:
    """The manifest's bytes, or None when the project has none (it may opt out of gating)."""
    return toml_manifest.read_optional(path, relpath)


def parse_manifest(
    ir: SchemaIR, roster: Roster, blob: bytes | str, relpath: str = MANIFEST_RELPATH,
    *, classify_every_method: bool = False,
) -> Manifest:
    """Parse and validate manifest bytes against the inputs (once, when the project loads).

    ``roster``: the IDs a gate may cite (v1 stable's roster, also for the other surfaces,
    whose gates carry v1's rules over). ``classify_every_method``: every method of the surface
    must be gated or listed in ``[[ungated]]`` with its reason (the surface manifests)."""
    data = toml_manifest.load_toml(relpath, blob)
    manifest = _Validator(ir, roster, relpath, uncited_with_note=classify_every_method).manifest(data)
    if classify_every_method:
        gated = {g.method for g in manifest.gates} | set(manifest.exempt_before_initialize)
        for m in ir.methods:
            if m.wire not in gated and m.wire not in manifest.ungated:
                raise AcpgenError(relpath, f"method {m.wire!r} is neither gated ([[gate]]) nor "
                                  "listed in [[ungated]] with a reason")
    return manifest


class _Validator:
    def __init__(self, ir: SchemaIR, roster: Roster, relpath: str = MANIFEST_RELPATH,
                 uncited_with_note: bool = False) -> None:
        self.ir: SchemaIR = ir
        # A surface the roster does not describe may gate with `requirements = []` and a
        # `note` that says where the rule comes from (its schema's own text).
        self.uncited_with_note = uncited_with_note
        self.ids = {r.id for r in roster.requirements}
        self.roles = {r.id: r.role for r in roster.requirements}
        self.relpath = relpath

    def fail(self, entry: str, message: str) -> AcpgenError:
        return AcpgenError(self.relpath, f"{entry}: {message}")

    def unknown_method(self, entry: str, wire: str) -> AcpgenError:
        """A method the manifest names but the table lacks. When meta.json still lists it under
        the same key with another wire name, the input renamed it: that input is blamed, at
        the entry that renamed it; otherwise the manifest is."""
        key = method_py_name(wire)
        renamed = next((m for m in self.ir.methods if m.meta_pointer.rsplit("/", 1)[-1] == key), None)
        if renamed is not None:
            return AcpgenError(self.ir.meta_where, f"{renamed.meta_pointer}: renames method {wire!r} to "
                               f"{renamed.wire!r}, which {self.relpath} ({entry}) still names; review "
                               "the manifest for the new name")
        return self.fail(entry, f"unknown method {wire!r} (not in the schema's method table)")

    def manifest(self, data: dict[str, Any]) -> Manifest:
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            raise self.fail("top level", f"unknown table {unknown[0]!r} (expected one of {sorted(_TOP_KEYS)})")
        gates = tuple(self.gate(i, e) for i, e in enumerate(self.array(data, "gate"), 1))
        seen: dict[tuple[str, str, str], int] = {}
        for i, g in enumerate(gates, 1):
            key = (g.target, g.sender, g.message)
            if key in seen:
                raise self.fail(f"gate #{i} ({g.target})", f"duplicates gate #{seen[key]}")
            seen[key] = i
        paths = tuple(self.path_rule(i, e) for i, e in enumerate(self.array(data, "absolute_path"), 1))
        exempt, first = self.initialize_first(data.get("initialize_first", {}))
        not_a_gate: dict[str, str] = {}
        for i, e in enumerate(self.array(data, "not_a_gate"), 1):
            entry = f"not_a_gate #{i}"
            if not isinstance(e, dict) or set(e) != {"requirement", "reason"}:
                raise self.fail(entry, "needs exactly the keys requirement and reason")
            not_a_gate[self.requirement_ids(entry, [e["requirement"]])[0]] = str(e["reason"])
        unadvertised = data.get("unadvertised", {"requirements": None})
        if not isinstance(unadvertised, dict) or set(unadvertised) != {"requirements"}:
            raise self.fail("unadvertised", "must be a table with exactly the key requirements")
        ids = unadvertised["requirements"]
        ungated: dict[str, str] = {}
        for i, e in enumerate(self.array(data, "ungated"), 1):
            entry = f"ungated #{i}"
            if not isinstance(e, dict) or set(e) != {"method", "reason"} or not str(e["reason"]).strip():
                raise self.fail(entry, "needs exactly the keys method and reason (not empty)")
            if self.ir.method(str(e["method"])) is None:
                raise self.unknown_method(entry, str(e["method"]))
            if str(e["method"]) in ungated:
                raise self.fail(entry, f"{e['method']!r} is listed twice")
            ungated[str(e["method"])] = str(e["reason"])
        for g in gates:
            if g.method in ungated and not g.select:
                raise self.fail("ungated", f"{g.method!r} is gated whole by a [[gate]]")
        return Manifest(gates, paths, exempt, first, not_a_gate,
                        self.requirement_ids("unadvertised", ids) if ids is not None else (), ungated,
                        self.takes_up_session(self.array(data, "takes_up_session")))

    def takes_up_session(self, entries: list[Any]) -> dict[str, str]:
        """``[[takes_up_session]]``: requests whose params carry the ``sessionId`` they take up."""
        found: dict[str, str] = {}
        for i, e in enumerate(entries, 1):
            entry = f"takes_up_session #{i}"
            if not isinstance(e, dict) or set(e) != {"method", "reason"} or not str(e["reason"]).strip():
                raise self.fail(entry, "needs exactly the keys method and reason (not empty)")
            wire = str(e["method"])
            method = self.ir.method(wire)
            if method is None:
                raise self.unknown_method(entry, wire)
            params = self.ir.defs.get(method.params or "")
            member = params.property("sessionId") if params is not None else None
            if method.kind != "request" or member is None:
                raise self.fail(entry, f"{wire!r} is no request whose params carry a sessionId")
            if wire in found:
                raise self.fail(entry, f"{wire!r} is listed twice")
            found[wire] = str(e["reason"])
        return found

    def array(self, data: dict[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(key, f"must be an array of tables ([[{key}]])")
        return value

    # -- entries --

    def common(self, entry: str, e: dict[str, Any], allowed: set[str]) -> tuple[Method, str, str, tuple[str, ...]]:
        unknown = sorted(set(e) - allowed)
        if unknown:
            raise self.fail(entry, f"unknown key {unknown[0]!r}")
        for key in ("method", "sender", "requirements"):
            if key not in e:
                raise self.fail(entry, f"missing key {key!r}")
        method = self.ir.method(str(e["method"]))
        if method is None:
            raise self.unknown_method(entry, str(e["method"]))
        sender = e["sender"]
        if sender not in SIDES:
            raise self.fail(entry, f"sender must be 'client' or 'agent', not {sender!r}")
        message = e.get("in", "params")
        if message not in MESSAGES:
            raise self.fail(entry, f"'in' must be 'params' or 'result', not {message!r}")
        if message == "params" and method.sender not in (sender, "both"):
            raise self.fail(entry, f"{method.wire} is sent by the {method.sender}, not the {sender}")
        if message == "result":
            if method.result is None:
                raise self.fail(entry, f"{method.wire} is a notification: it has no result")
            if method.side != sender:
                raise self.fail(entry, f"the result of {method.wire} is sent by the {method.side}, not the {sender}")
        select: tuple[str, ...] = ()
        if "select" in e:
            try:
                select = parse_select(str(e["select"]))
            except ValueError as exc:
                raise self.fail(entry, str(exc)) from None
        return method, sender, message, select

    def label(self, kind: str, i: int, e: Any) -> str:
        if isinstance(e, dict) and "method" in e:
            extra = f" {e['select']}" if "select" in e else ""
            extra += f"={e['equals']}" if "equals" in e else ""
            return f"{kind} #{i} ({e['method']}{extra})"
        return f"{kind} #{i}"

    def gate(self, i: int, e: Any) -> Gate:
        entry = self.label("gate", i, e)
        if not isinstance(e, dict):
            raise self.fail(entry, "must be a table")
        method, sender, message, select = self.common(entry, e, _GATE_KEYS)
        kind = e.get("kind")
        if kind not in KINDS:
            raise self.fail(entry, f"kind must be one of {list(KINDS)}, not {kind!r}")
        capability: Capability | None = None
        condition = e.get("condition")
        if kind == "never":
            if "capability" in e:
                raise self.fail(entry, "kind 'never' takes no capability")
            if condition not in CONDITIONS:
                raise self.fail(entry, f"kind 'never' needs a condition, one of {list(CONDITIONS)}")
            if not select:
                raise self.fail(entry, "kind 'never' needs a select")
        else:
            if condition is not None:
                raise self.fail(entry, "only kind 'never' takes a condition")
            capability = self.capability(entry, sender, e.get("capability"), kind)
        equals = e.get("equals")
        if equals is not None and not select:
            raise self.fail(entry, "'equals' needs a 'select'")
        if select:
            start = method.params if message == "params" else str(method.result)
            values, _ = self.resolve(entry, start, select)
            if equals is not None and equals not in values:
                raise self.fail(entry, f"{equals!r} is not a value {format_select(select)} can take "
                                       f"(schema allows {sorted(map(str, values))})")
        note = e.get("note")
        if e["requirements"] == [] and self.uncited_with_note and isinstance(note, str) and note.strip():
            reqs: tuple[str, ...] = ()
        else:
            reqs = self.requirement_ids(entry, e["requirements"], sender)
        return Gate(method.wire, sender, message, select, equals, capability, kind, condition, reqs,
                    str(note) if note is not None else None)

    def path_rule(self, i: int, e: Any) -> PathRule:
        entry = self.label("absolute_path", i, e)
        if not isinstance(e, dict):
            raise self.fail(entry, "must be a table")
        method, sender, message, select = self.common(entry, e, _PATH_KEYS)
        if not select:
            raise self.fail(entry, "needs a select naming a string member")
        start = method.params if message == "params" else str(method.result)
        _, finals = self.resolve(entry, start, select)
        if not any(t.kind == "primitive" and t.name == "string" for t in finals):
            raise self.fail(entry, f"{format_select(select)} is not a string member")
        if e["requirements"] == [] and self.uncited_with_note and str(e.get("note", "")).strip():
            return PathRule(method.wire, sender, message, select, ())
        return PathRule(method.wire, sender, message, select, self.requirement_ids(entry, e["requirements"], sender))

    def initialize_first(self, table: Any) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
        entry = "initialize_first"
        if not isinstance(table, dict):
            raise self.fail(entry, "must be a table")
        unknown = sorted(set(table) - {"exempt", "client", "agent"})
        if unknown:
            raise self.fail(entry, f"unknown key {unknown[0]!r}")
        exempt = table.get("exempt", [])
        if not isinstance(exempt, list):
            raise self.fail(entry, "exempt must be a list of method names")
        for wire in exempt:
            if self.ir.method(str(wire)) is None:
                raise self.unknown_method(entry, wire)
        first = {side: self.requirement_ids(f"{entry}.{side}", table[side], side) for side in SIDES if side in table}
        return tuple(sorted(map(str, exempt))), first

    # -- checks against the inputs --

    def requirement_ids(self, entry: str, ids: Any, sender: str | None = None) -> tuple[str, ...]:
        """Known roster IDs; with ``sender``, each must bind that side (its role or "both")."""
        if not isinstance(ids, list) or not ids or not all(isinstance(x, str) for x in ids):
            raise self.fail(entry, "requirements must be a non-empty list of roster IDs")
        for rid in ids:
            if rid not in self.ids:
                raise self.fail(entry, f"unknown requirement ID {rid!r} (not in the roster)")
            role = self.roles[rid]
            if sender is not None and role not in (sender, "both"):
                raise self.fail(entry, f"requirement {rid} binds the {role}, not the sender ({sender})")
        return tuple(sorted(set(ids)))

    def capability(self, entry: str, sender: str, path: Any, kind: str) -> Capability:
        if not isinstance(path, str) or not path:
            raise self.fail(entry, "missing key 'capability'")
        prefix, _, rest = path.partition(".")
        root = PEER_ROOT[sender]
        if prefix not in ROOT_PREFIX.values():
            raise self.fail(entry, f"capability {path!r} must start with agentCapabilities. or clientCapabilities.")
        if prefix != ROOT_PREFIX[root]:
            raise self.fail(entry, f"capability {path!r}: the {sender} must check its peer's "
                                   f"{ROOT_PREFIX[root]}, not {prefix}")
        cap = self.ir.capability(root, rest)
        if cap is None:
            raise self.fail(entry, f"unknown capability path {path!r} (not in the schema's {prefix} tree)")
        if cap.kind != kind:
            raise self.fail(entry, f"capability {path!r} is {cap.kind} in the schema, not {kind}")
        return cap

    def resolve(self, entry: str, start: str, steps: tuple[str, ...]) -> tuple[set[Any], list[TypeExpr]]:
        """Walk ``steps`` through the schema's types from def ``start``.

        Returns the values the last step can take (discriminator tags, consts, enum members)
        and the types it resolves to. A step that matches nothing is an error.
        """
        positions = [TypeExpr("ref", name=start)]
        values: set[Any] = set()
        self.last_owners: set[tuple[str, str]] = set()  # (def, member) the last step named
        for n, step in enumerate(steps):
            where = format_select(steps[: n + 1])
            nxt: list[TypeExpr] = []
            values = set()
            if step != "[]":  # "x[]" still names member x
                self.last_owners = set()
            for t in self.flatten(positions):
                if step == "[]":
                    if t.kind == "array" and t.items is not None:
                        nxt.append(t.items)
                    continue
                if t.kind != "ref" or t.name not in self.ir.defs:
                    continue
                for d in self.object_defs(self.ir.defs[t.name]):
                    if d.discriminator == step:
                        values |= {v.tag for v in d.variants if v.tag is not None}
                        nxt.append(TypeExpr("primitive", name="string"))
                    prop = d.property(step)
                    if prop is not None:
                        nxt.append(prop.type)
                        values |= self.constants(prop.type)
                        self.last_owners.add((d.name, step))
                    for v in d.variants:
                        for p in v.properties:
                            if p.wire_name == step:
                                nxt.append(p.type)
                                values |= self.constants(p.type)
            if not nxt:
                raise self.fail(entry, f"selector step {where!r} does not resolve in the schema (from {start})")
            positions = nxt
        return values, self.flatten(positions)

    def flatten(self, types: list[TypeExpr]) -> list[TypeExpr]:
        """Unions and aliases opened up, so a step sees every concrete branch."""
        out: list[TypeExpr] = []
        stack = list(types)
        seen: set[str] = set()
        while stack:
            t = stack.pop(0)
            if t.kind == "union":
                stack.extend(t.variants)
                continue
            if t.kind == "ref" and t.name in self.ir.defs:
                d = self.ir.defs[t.name]
                if d.shape == Shape.PRIMITIVE and d.primitive is not None:
                    stack.append(d.primitive)
                    continue
                if d.shape == Shape.UNION and not d.properties:
                    if t.name in seen:
                        continue
                    seen.add(t.name)
                    stack.extend(TypeExpr("ref", name=v.ref) if v.ref else (v.inline or TypeExpr("any"))
                                 for v in d.variants)
                    continue
            out.append(t)
        return out

    def object_defs(self, d: Definition) -> list[Definition]:
        """``d`` and the defs of its variants: members may be declared on either."""
        found = [d]
        for v in d.variants:
            if v.ref and v.ref in self.ir.defs:
                found.extend(self.object_defs(self.ir.defs[v.ref]))
        return found

    def constants(self, t: TypeExpr) -> set[Any]:
        if t.kind == "const":
            return {t.value}
        if t.kind == "ref" and t.name in self.ir.defs:
            d = self.ir.defs[t.name]
            return {m.value for m in d.enum_members}
        return set()


# ---- `acpgen verify` warning ---------------------------------------------------------------

# "States a capability gate": a MUST or MUST NOT whose text is about a capability, what a peer
# advertised or left out ("not present", "omitted"), and that restricts a call: it forbids
# (MUST NOT), or it makes the call conditional ("only", "unless", "before", "verify",
# "check"). Keeping it this plain makes every warning explainable by reading the
# requirement; reviewed false positives go in
# [[not_a_gate]] with their reason.
_ABOUT_CAPABILITY = re.compile(r"capabilit|advertis|not present|omitted", re.IGNORECASE)
_RESTRICTS = re.compile(r"\b(only|unless|before|verify|check)\b", re.IGNORECASE)


def states_gate(keyword: str, text: str) -> bool:
    if keyword not in ("MUST", "MUST NOT"):
        return False
    if not _ABOUT_CAPABILITY.search(text):
        return False
    return keyword == "MUST NOT" or bool(_RESTRICTS.search(text))


def uncited_gate_warnings(roster: Roster, manifest: Manifest | None) -> list[str]:
    """Roster requirements that state a capability gate but that no manifest entry cites."""
    if manifest is None:
        # Allowed (a project may opt out of gating), but never silently.
        return [f"{MANIFEST_RELPATH}: not found; the generated guards enforce no capability gate"] + \
            gate_warnings(roster, EMPTY)
    return gate_warnings(roster, manifest)


def gate_warnings(roster: Roster, manifest: Manifest) -> list[str]:
    cited = manifest.cited() | set(manifest.not_a_gate)
    return [
        f"{MANIFEST_RELPATH}: {r.id} ({r.keyword}, {r.role}) states a capability gate but no "
        f"entry cites it"
        for r in roster.requirements
        if states_gate(r.keyword, r.text) and r.id not in cited
    ]
