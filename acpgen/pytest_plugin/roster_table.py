"""The requirement roster: a parser for the plain-text table in ``roster/requirements.md``.

The format is described in the inputs' PROVENANCE.md ("Roster format"). A row starts with
``| N | ID |`` on its own line and may wrap over several lines. The requirement text of
derived items may itself contain ``|``, so cells are taken by position from both ends.

It lives with the pytest plugin, which reads the roster with it, and imports nothing from
acpgen: ``acpgen skeleton`` ships the plugin's folder verbatim (``acpgen/emit/shipped.py``),
where acpgen is not installed; acpgen's stages read it as :mod:`acpgen.inputs.roster`. Its
errors are :class:`RosterError`; callers inside acpgen turn them into ``AcpgenError`` (exit 2).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any


class RosterError(ValueError):
    """A roster that does not parse: ``where`` is ``<file>`` or ``<file>:<line>``."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = " ".join(message.split())  # one line, always
        super().__init__(f"{where}: {self.message}")


KEYWORDS = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY")
ROLES = ("agent", "client", "both")
RESPONSIBILITIES = ("sdk", "shared", "application")
KINDS = ("imported", "derived", "incorporated", "prose-imported")

_HEADER_RE = re.compile(
    r"revision (?P<revision>\S+?)\. Pinned (?P<repository>\S+) commit (?P<commit>[0-9a-f]{40}); "
    r"stable schema sha256 (?P<sha>[0-9a-f]{64})\."
)
_COUNTS_RE = re.compile(r"^Requirements: (?P<total>\d+) — (?P<counts>.*)$")
_ROW_START_RE = re.compile(r"^\| (?P<num>\d+) \| (?P<id>[^|]*?) \|\s*(?P<rest>.*)$")
_ID_RE = re.compile(r"^ACP-V1-[A-Z0-9]+(?:-[A-Z0-9]+)+$")
_APPLIES_RE = re.compile(r"\s*\(Applies when: (?P<cond>.*)\)\s*$", re.DOTALL)
_PAGE_SRC_RE = re.compile(r"^(?P<page>\S+\.mdx) (?P<lines>L\d+(?:-L\d+)?)$")
_SCHEMA_SRC_RE = re.compile(r"^(?P<file>\S+\.json) (?P<pointer>/\S*)$")
_ANCHOR_SRC_RE = re.compile(r"^(?P<page>\S+\.html) (?P<anchor>#\S+)$")


@dataclass(frozen=True)
class Source:
    """Where a requirement comes from: a docs page and lines, a schema pointer, or an anchor."""

    kind: str  # "page" | "schema" | "jsonrpc"
    document: str
    selector: str  # "L96", "/$defs/ToolCall", "#request_object"

    def __str__(self) -> str:
        return f"{self.document} {self.selector}"


@dataclass(frozen=True)
class Requirement:
    number: int
    id: str
    keyword: str
    role: str
    responsibility: str
    kind: str
    text: str
    applicability: str | None
    source: Source
    line: int  # 1-based line in the roster where the row starts

    @property
    def section(self) -> str:
        return self.id.split("-")[2]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["source"] = str(self.source)
        del data["line"]
        return data


@dataclass(frozen=True)
class Roster:
    revision: str
    repository: str
    commit: str
    schema_sha256: str
    counts: dict[str, int]
    requirements: tuple[Requirement, ...]

    def by_id(self) -> dict[str, Requirement]:
        return {r.id: r for r in self.requirements}


def parse_roster(text: str, where: str = "roster/requirements.md") -> Roster:
    lines = text.split("\n")
    if len(lines) < 4:
        raise RosterError(where, "too short: expected two header lines and a table")
    header = _HEADER_RE.search(lines[0])
    if not header:
        raise RosterError(f"{where}:1", "header does not give revision, commit and schema sha256")
    counts = _parse_counts(lines[1], f"{where}:2")
    if not lines[2].startswith("| # | ID | Keyword |") or not lines[3].startswith("|---"):
        raise RosterError(f"{where}:3", "table header missing")

    rows: list[tuple[int, list[str]]] = []
    for lineno, line in enumerate(lines[4:], start=5):
        if _ROW_START_RE.match(line):
            rows.append((lineno, [line]))
        elif line.strip():
            if not rows:
                raise RosterError(f"{where}:{lineno}", "text before the first row")
            rows[-1][1].append(line)

    reqs = [_parse_row(where, lineno, chunk) for lineno, chunk in rows]
    _cross_check(where, reqs, counts)
    return Roster(
        revision=header["revision"],
        repository=header["repository"],
        commit=header["commit"],
        schema_sha256=header["sha"],
        counts=counts,
        requirements=tuple(reqs),
    )


def _parse_counts(line: str, where: str) -> dict[str, int]:
    match = _COUNTS_RE.match(line.strip())
    if not match:
        raise RosterError(where, "second header line does not give the counts per keyword")
    counts: dict[str, int] = {}
    for part in match["counts"].split(","):
        key, _, value = part.strip().rpartition(": ")
        if key not in KEYWORDS or not value.isdigit():
            raise RosterError(where, f"bad count {part.strip()!r}")
        counts[key] = int(value)
    if sum(counts.values()) != int(match["total"]):
        raise RosterError(where, f"counts add up to {sum(counts.values())}, not {match['total']}")
    return counts


def _parse_row(where: str, lineno: int, chunk: list[str]) -> Requirement:
    loc = f"{where}:{lineno}"
    start = _ROW_START_RE.match(chunk[0])
    assert start  # the caller only starts a row on a matching line
    req_id = start["id"].strip()
    # Wrapped continuation lines join with one space: the table wraps only between words.
    body = " ".join(part.strip() for part in [start["rest"], *chunk[1:]] if part.strip())
    if not body.endswith("|"):
        raise RosterError(loc, f"row {start['num']} ({req_id}) does not end with '|'")
    body = body[:-1].rstrip()
    left = [c.strip() for c in body.split("|", 4)]
    if len(left) < 5:
        raise RosterError(loc, f"row {start['num']} ({req_id}) has too few columns")
    keyword, role, responsibility, kind, tail = left
    text, sep, source_text = tail.rpartition("|")
    if not sep:
        raise RosterError(loc, f"row {start['num']} ({req_id}) has no Source column")
    text = text.strip()
    for value, allowed, column in (
        (keyword, KEYWORDS, "keyword"),
        (role, ROLES, "role"),
        (responsibility, RESPONSIBILITIES, "responsibility"),
        (kind, KINDS, "kind"),
    ):
        if value not in allowed:
            raise RosterError(loc, f"{req_id}: unknown {column} {value!r}")
    if not _ID_RE.match(req_id):
        raise RosterError(loc, f"malformed requirement ID {req_id!r}")
    applies = _APPLIES_RE.search(text)
    applicability = None
    if applies:
        applicability = applies["cond"].strip()
        text = text[: applies.start()].rstrip()
    if not text:
        raise RosterError(loc, f"{req_id}: empty requirement text")
    return Requirement(
        number=int(start["num"]),
        id=req_id,
        keyword=keyword,
        role=role,
        responsibility=responsibility,
        kind=kind,
        text=text,
        applicability=applicability,
        source=_parse_source(loc, req_id, source_text.strip()),
        line=lineno,
    )


def _parse_source(loc: str, req_id: str, text: str) -> Source:
    if m := _PAGE_SRC_RE.match(text):
        return Source("page", m["page"], m["lines"])
    if m := _SCHEMA_SRC_RE.match(text):
        return Source("schema", m["file"], m["pointer"])
    if m := _ANCHOR_SRC_RE.match(text):
        return Source("jsonrpc", m["page"], m["anchor"])
    raise RosterError(loc, f"{req_id}: unrecognised source {text!r}")


def _cross_check(where: str, reqs: list[Requirement], counts: dict[str, int]) -> None:
    seen: dict[str, Requirement] = {}
    for expected, req in enumerate(reqs, start=1):
        if req.number != expected:
            raise RosterError(
                f"{where}:{req.line}",
                f"row numbered {req.number} where {expected} was expected (rows must run 1..N)",
            )
        if req.id in seen:
            raise RosterError(
                f"{where}:{req.line}",
                f"duplicate ID {req.id} (first at line {seen[req.id].line})",
            )
        seen[req.id] = req
    actual = Counter(r.keyword for r in reqs)
    for keyword in KEYWORDS:
        if actual.get(keyword, 0) != counts.get(keyword, 0):
            raise RosterError(
                f"{where}:2",
                f"header says {keyword}: {counts.get(keyword, 0)} but the table has "
                f"{actual.get(keyword, 0)}",
            )
