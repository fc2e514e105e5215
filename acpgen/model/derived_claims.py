"""Structural claims stated by the roster's ``derived`` requirements, parsed from their text.

A derived requirement ends with ``Derived structure (generated from the pinned schema):``
followed by ``|``-separated entries, each ``/$defs/X: required [...]; declared properties
[...]`` or ``/$defs/X: oneOf`` (``anyOf``, ``schema``). The prose before it names the
variants of unions, the values of StopReason and the predefined error codes. These claims
become tests that assert them on the generated code (not on the schema), so the generated
code is checked against what the roster says independently of the schema reader.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from acpgen.errors import AcpgenError
from acpgen.inputs.roster import Requirement, Roster

STRUCTURE_MARK = "Derived structure (generated from the pinned schema):"

_MEMBERS_RE = re.compile(
    r"^/\$defs/(?P<name>\w+): required (?P<required>none|\[[^\]]*\]); "
    r"declared properties (?P<declared>none|\[[^\]]*\])$"
)
_SHAPE_RE = re.compile(r"^/\$defs/(?P<name>\w+): (?P<keyword>oneOf|anyOf|schema)$")
_WORD_LIST = r"[a-z_]+(?:, [a-z_]+)*,? or [a-z_]+|[a-z_]+(?:, [a-z_]+)+"
# "ContentBlock MUST be exactly one of the stable variants discriminated by type (a, b, c)"
# "update MUST be exactly one SessionUpdate variant discriminated by sessionUpdate (a, b)"
_DISCRIMINATED_RE = re.compile(
    r"(?P<name>[A-Z]\w+)(?: MUST be exactly one of the stable variants| variant) "
    r"discriminated by (?P<disc>\w+) \((?P<tags>[a-z_]+(?:, [a-z_]+)+)\)"
)
# "every ToolCallContent MUST be exactly one of content, diff or terminal."
_PLAIN_VARIANTS_RE = re.compile(r"(?P<name>[A-Z]\w+) MUST be exactly one of (?P<tags>" + _WORD_LIST + r")\.")
# "a RequestPermissionOutcome variant (cancelled or selected with optionId)"
_PAREN_VARIANTS_RE = re.compile(r"(?P<name>[A-Z]\w+) variant \((?P<tags>" + _WORD_LIST + r")\b")
# "a CreateElicitationRequest object with an explicit mode (form or url, ..."
_EXPLICIT_RE = re.compile(
    r"(?P<name>[A-Z]\w+) object with an explicit (?P<disc>\w+) \((?P<tags>[a-z_]+(?: or [a-z_]+)+)\b"
)
# "a CreateElicitationResponse object whose action is accept, decline or cancel"
_WHOSE_RE = re.compile(r"(?P<name>[A-Z]\w+) object whose (?P<disc>\w+) is (?P<tags>" + _WORD_LIST + r")\b")
# "Every McpServer entry MUST be exactly one of the stable variants: stdio (no type, ...), ..."
_DESCRIBED_VARIANTS_RE = re.compile(
    r"(?P<name>[A-Z]\w+)(?: entry| advertised in \w+)? MUST be exactly one of the stable "
    r"variants: (?P<body>.*?)\.(?: |$)"
)
_DESCRIBED_ITEM_RE = re.compile(r"(?P<label>[a-z_]+) \((?P<detail>[^()]*)\)")
_TAG_IN_DETAIL_RE = re.compile(r'(?P<disc>\w+): "(?P<tag>[^"]+)"')
# "one of the stable StopReason values (end_turn, max_tokens, ...)"
_ENUM_RE = re.compile(r"one of the stable (?P<name>[A-Z]\w+) values \((?P<values>[a-z_]+(?:, [a-z_]+)+)\)")
# "the predefined codes MUST keep their stable meanings: -32700 parse error, ..."
_CODES_RE = re.compile(r"predefined codes MUST keep their stable meanings: (?P<body>.*?)\.(?: |$)")
_CODE_ITEM_RE = re.compile(r"(?P<code>-?\d+) (?P<meaning>[a-z][a-z ]*[a-z])")
# "Extension requests and notifications MUST use method names beginning with _ and ..."
_EXTENSION_RE = re.compile(r"MUST use method names beginning with (?P<prefix>\S+) ")


@dataclass(frozen=True)
class MembersClaim:
    """``/$defs/X: required [...]; declared properties [...]`` (wire names, roster order)."""

    type_name: str
    required: tuple[str, ...]
    declared: tuple[str, ...]


@dataclass(frozen=True)
class ShapeClaim:
    """``/$defs/X: oneOf`` / ``anyOf`` / ``schema``: the type exists and is a union / any."""

    type_name: str
    keyword: str


@dataclass(frozen=True)
class VariantsClaim:
    """A union's variants: the discriminator tags, and the variant (if any) with no tag.

    ``discriminator`` is None when the roster does not name the member.
    ``untagged`` is the label of the variant that may omit the discriminator (McpServer's
    ``stdio``, AuthMethod's ``agent``); it may also appear in ``tags`` when it may carry one.
    """

    type_name: str
    discriminator: str | None
    tags: tuple[str, ...]
    untagged: str | None = None


@dataclass(frozen=True)
class EnumClaim:
    type_name: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class CodesClaim:
    """Predefined error codes with their meanings (``-32700 parse error``)."""

    type_name: str
    codes: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class ExtensionNamesClaim:
    """Extension methods: names beginning with ``prefix``, arbitrary JSON params."""

    prefix: str


@dataclass(frozen=True)
class DerivedClaims:
    requirement: Requirement
    members: tuple[MembersClaim, ...] = ()
    shapes: tuple[ShapeClaim, ...] = ()
    variants: tuple[VariantsClaim, ...] = ()
    enums: tuple[EnumClaim, ...] = ()
    codes: tuple[CodesClaim, ...] = ()
    extension_names: ExtensionNamesClaim | None = None


def derived_claims(roster: Roster, where: str = "roster/requirements.md") -> list[DerivedClaims]:
    """The claims of every ``derived`` requirement, in roster order."""
    return [parse_claims(req, where) for req in roster.requirements if req.kind == "derived"]


def parse_claims(req: Requirement, where: str = "roster/requirements.md") -> DerivedClaims:
    loc = f"{where}:{req.line}"
    prose, sep, structure = req.text.partition(STRUCTURE_MARK)
    if not sep:
        raise AcpgenError(loc, f"{req.id}: derived requirement without '{STRUCTURE_MARK}'")
    members: list[MembersClaim] = []
    shapes: list[ShapeClaim] = []
    for entry in (part.strip() for part in structure.split(" | ")):
        entry = entry.rstrip("|").strip()
        if not entry:
            continue
        if m := _MEMBERS_RE.match(entry):
            members.append(
                MembersClaim(m["name"], _names(loc, req.id, m["required"]), _names(loc, req.id, m["declared"]))
            )
        elif m := _SHAPE_RE.match(entry):
            shapes.append(ShapeClaim(m["name"], m["keyword"]))
        else:
            raise AcpgenError(loc, f"{req.id}: unrecognised derived structure entry {entry!r}")
    if not members and not shapes:
        raise AcpgenError(loc, f"{req.id}: derived structure states nothing")
    variants = _variants(prose)
    enums = [EnumClaim(m["name"], _split_words(m["values"])) for m in _ENUM_RE.finditer(prose)]
    codes: list[CodesClaim] = []
    if m := _CODES_RE.search(prose):
        items = tuple((int(c["code"]), c["meaning"]) for c in _CODE_ITEM_RE.finditer(m["body"]))
        if not items:
            raise AcpgenError(loc, f"{req.id}: no error codes in {m['body']!r}")
        error_code = next((s.type_name for s in shapes if s.type_name.endswith("Code")), "ErrorCode")
        codes.append(CodesClaim(error_code, items))
    ext = _EXTENSION_RE.search(prose)
    return DerivedClaims(
        requirement=req,
        members=tuple(members),
        shapes=tuple(shapes),
        variants=tuple(variants),
        enums=tuple(enums),
        codes=tuple(codes),
        extension_names=ExtensionNamesClaim(ext["prefix"]) if ext else None,
    )


def _names(loc: str, req_id: str, text: str) -> tuple[str, ...]:
    if text == "none":
        return ()
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise AcpgenError(loc, f"{req_id}: malformed member list {text}") from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise AcpgenError(loc, f"{req_id}: member list is not a list of names: {text}")
    return tuple(value)


def _split_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r",? or |, ", text) if w)


def _variants(prose: str) -> list[VariantsClaim]:
    found: dict[str, VariantsClaim] = {}
    for m in _DISCRIMINATED_RE.finditer(prose):
        found.setdefault(m["name"], VariantsClaim(m["name"], m["disc"], _split_words(m["tags"])))
    for m in _DESCRIBED_VARIANTS_RE.finditer(prose):
        disc: str | None = None
        tags: list[str] = []
        untagged: str | None = None
        for item in _DESCRIBED_ITEM_RE.finditer(m["body"]):
            detail = item["detail"]
            if detail.startswith("no ") or " no " in detail:
                untagged = item["label"]
            for tag in _TAG_IN_DETAIL_RE.finditer(detail):
                disc = tag["disc"]
                tags.append(tag["tag"])
        if tags:
            found.setdefault(m["name"], VariantsClaim(m["name"], disc, tuple(tags), untagged))
    for regex in (_EXPLICIT_RE, _WHOSE_RE):
        for m in regex.finditer(prose):
            found.setdefault(m["name"], VariantsClaim(m["name"], m["disc"], _split_words(m["tags"])))
    for regex in (_PLAIN_VARIANTS_RE, _PAREN_VARIANTS_RE):
        for m in regex.finditer(prose):
            found.setdefault(m["name"], VariantsClaim(m["name"], None, _split_words(m["tags"])))
    return list(found.values())
