"""The SDK's own release on a schema bump: its version raised and a CHANGELOG.md entry.

A project opts in with ``[tool.acpgen] bump-sdk-version = true`` in its ``pyproject.toml``
(``acpgen skeleton`` writes it). ``acpgen bump`` then raises ``[project] version`` by the
release the change needs from the SDK's current version, with the 0.x rules
(:func:`acpgen.evolve.semver.sdk_level`: the wire's level, and a removed def breaks the SDK's
API since its generated class is gone) and puts an entry at the top of ``CHANGELOG.md`` in the Keep a Changelog
format (https://keepachangelog.com/en/1.1.0/): ``Added``, ``Changed`` and ``Removed``
sections, each listing the changes by the side they concern (client, agent, both), breaking
ones marked so, each with what the SDK's user changes.

Only the ``version = "..."`` line of ``[project]`` is rewritten; the rest of the file keeps
its bytes. Every string from the schemas reaches the changelog escaped as Markdown text.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import tomllib
from pathlib import Path

from acpgen.errors import AcpgenError
from acpgen.evolve.advice import where
from acpgen.evolve.bump import BumpPlan
from acpgen.evolve.changes import Change
from acpgen.evolve.diff import SchemaDiff
from acpgen.evolve.impact import Impact
from acpgen.evolve.release import ReleaseView
from acpgen.evolve.report import advice_for
from acpgen.evolve.semver import Version, parse_version, raise_version, required_bump, sdk_level

OPT_IN = "bump-sdk-version"
CHANGELOG = "CHANGELOG.md"
HEAD = ("# Changelog\n\nAll notable changes to this project are documented in this file.\n\n"
        "The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),\n"
        "and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).\n")
_PROJECT_VERSION = re.compile(r'^(version\s*=\s*)"([^"\n]*)"', re.MULTILINE)


@dataclasses.dataclass(frozen=True)
class SdkRelease:
    old: Version
    new: Version
    bump: str  # major | minor | patch | none


def _opted_in(root: Path) -> tuple[Path, str, dict[str, object]] | None:
    path = root / "pyproject.toml"
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise AcpgenError(str(path), f"cannot read: {exc}") from None
    tool = data.get("tool", {}).get("acpgen", {})
    if not isinstance(tool, dict) or tool.get(OPT_IN) is not True:
        return None
    return path, text, data


def _raise_in_text(text: str, new: Version) -> str:
    """``text`` with the version line of its ``[project]`` table replaced."""
    start = re.search(r"^\[project\]\s*$", text, re.MULTILINE)
    if start is None:
        raise AcpgenError("pyproject.toml", "[project] table not found")
    end = re.search(r"^\[", text[start.end():], re.MULTILINE)
    stop = start.end() + (end.start() if end else len(text) - start.end())
    table = text[start.end():stop]
    if not _PROJECT_VERSION.search(table):
        raise AcpgenError("pyproject.toml", '[project] has no static version = "..." to raise')
    table = _PROJECT_VERSION.sub(lambda m: f'{m.group(1)}"{new}"', table, count=1)
    return text[:start.end()] + table + text[stop:]


def _md(text: str) -> str:
    text = " ".join(text.split())
    for ch in "\\`*_[]<>|#":
        text = text.replace(ch, "\\" + ch)
    return text


def _section(c: Change) -> str:
    if c.kind.endswith("_ADDED") or c.kind in ("ENUM_OPENED", "OBJECT_OPENED"):
        return "Added"
    if c.kind.endswith("_REMOVED"):
        return "Removed"
    return "Changed"


def _sides(c: Change, diff: SchemaDiff) -> str:
    """The side(s) a change concerns: those it breaks, else those that write or read it."""
    broken = {s for s in ("client", "agent") if getattr(c, s) in ("breaking", "unproven")}
    if broken:
        found = broken
    elif c.kind.startswith("METHOD_"):
        methods = {m.wire: m for m in (*diff.old.methods, *diff.new.methods)}
        m = methods.get(c.subject)
        found = set(m.sender | m.handler) if m is not None else {"client", "agent"}
    elif c.kind.startswith("CAPABILITY_"):
        found = {c.subject.split("Capabilities", 1)[0]} & {"client", "agent"} or {"client", "agent"}
    else:
        side = diff.new if c.kind.endswith("_ADDED") else diff.old
        writers, readers = side.flows.of(c.subject, c.pointer)
        found = set(writers | readers) & {"client", "agent"}
    return "Both sides" if found >= {"client", "agent"} or not found else (
        "Client" if "client" in found else "Agent")


_LEVEL_MEANS = {
    "breaking": "a proven break or a change acpgen cannot prove compatible",
    "feature": "compatible, and the wire gains something: a member, variant, method or capability",
    "fix": "documentation, annotations or rewrites that accept the same values",
}


def _coordinates(upstream: dict[str, str]) -> str:
    """Where pinned bytes come from upstream, as the lock records it."""
    tag, commit = upstream.get("tag"), upstream.get("commit")
    if tag:
        return f"upstream {tag}"
    if commit and commit != "unknown":
        return f"upstream commit {commit[:12]}"
    return "upstream release unknown: bump --upstream-tag records it"


def inputs_line(plan: BumpPlan) -> str:
    """What the bump replaced, by the pinned names it keeps and the upstream releases of the
    bytes (never the file the new bytes were given as, which the bump moved onto the pin)."""
    old, new = plan.project.lock.files, plan.new_project.lock.files
    parts = []
    for name in ("schema", "meta"):
        if old[name].sha256 == new[name].sha256:
            parts.append(f"{_md(old[name].path)} unchanged")
        else:
            parts.append(f"{_md(old[name].path)} from {old[name].sha256[:12]} "
                         f"({_md(_coordinates(old[name].upstream))}) to {new[name].sha256[:12]} "
                         f"({_md(_coordinates(new[name].upstream))})")
    return "; ".join(parts)


def _release_words(level: str, bump: str, current: Version | None) -> str:
    """The change's level, what it means, and the SDK release it needs, with the 0.x rule
    spelt out when that is what decided."""
    semver = {"breaking": "major", "feature": "minor", "fix": "patch"}.get(level, "no")
    text = f"The change is a {level} ({_LEVEL_MEANS.get(level, level)}): a {semver} release"
    if current is None or current.major != 0 or semver == bump:
        return text + (f" of the SDK from {current}." if current else " of the SDK.")
    rule = ("in 0.0.z every release is a patch" if current.minor == 0 else
            "in 0.y.z a breaking change needs a minor release and anything else a patch")
    return (f"{text} by semantic versioning's 1.x rules; from {current} a {bump} release of "
            f"the SDK, by the 0.x rule (as Cargo and npm's caret read it: {rule}).")


def changelog_entry(diff: SchemaDiff, impact: Impact, release: ReleaseView, version: Version,
                    level: str, bump: str, today: datetime.date, inputs: str | None = None,
                    current: Version | None = None) -> str:
    """``inputs``: what was replaced (:func:`inputs_line`); the two sides' labels otherwise."""
    todo = advice_for(diff, impact)
    replaced = inputs or (f"{_md(diff.old.label)} ({diff.old.sha256[:12]}) -> "
                          f"{_md(diff.new.label)} ({diff.new.sha256[:12]})")
    lines = [f"## [{version}] - {today.isoformat()}", "",
             f"Schema bump ({release.direction}): {replaced}.", "",
             _release_words(level, bump, current)]
    grouped: dict[str, dict[str, list[str]]] = {}
    for c in diff.semantic:
        mark = "**BREAKING** " if c.breaking or c.unproven else ""
        line = f"- {mark}`{c.kind}` {_md(where(c))}: {_md(c.detail)}. Do: {_md(todo[id(c)])}."
        grouped.setdefault(_section(c), {}).setdefault(_sides(c, diff), []).append(line)
    if diff.annotations:
        grouped.setdefault("Changed", {}).setdefault("Both sides", []).append(
            f"- {len(diff.annotations)} annotation-only change(s) (documentation; no wire change).")
    for section in ("Added", "Changed", "Removed"):
        if section not in grouped:
            continue
        lines += ["", f"### {section}"]
        for side in ("Client", "Agent", "Both sides"):
            if side in grouped[section]:
                lines += ["", f"#### {side}", "", *grouped[section][side]]
    return "\n".join(lines) + "\n"


def insert_entry(existing: str | None, entry: str) -> str:
    """The changelog with ``entry`` first (after the head and an ``[Unreleased]`` section)."""
    if not existing:
        return HEAD + "\n" + entry
    m = re.search(r"^## \[(?!Unreleased\])", existing, re.MULTILINE)
    if m is None:
        return existing.rstrip("\n") + "\n\n" + entry
    return existing[:m.start()] + entry + "\n" + existing[m.start():]


def with_sdk_release(plan: BumpPlan, release: ReleaseView,
                     today: datetime.date | None = None) -> tuple[BumpPlan, SdkRelease | None]:
    """``plan`` with the SDK's version raised and its changelog entry, when the project opts
    in (else unchanged)."""
    root = plan.project.root
    found = _opted_in(root)
    if found is None:
        return plan, None
    path, text, data = found
    project = data.get("project", {})
    current = parse_version(str(project.get("version", ""))) if isinstance(project, dict) else None
    if current is None:
        raise AcpgenError(str(path), '[project] version is not a semver version ("X.Y.Z")')
    level = sdk_level(plan.diff.changes, release.gates_breaking)
    bump = required_bump(level, current)
    if bump == "none":
        return plan, SdkRelease(current, current, "none")
    new = raise_version(current, bump)
    day = today or datetime.datetime.now(datetime.UTC).date()
    log = root / CHANGELOG
    try:
        existing = log.read_text(encoding="utf-8") if log.is_file() else None
    except (OSError, UnicodeDecodeError) as exc:
        raise AcpgenError(str(log), f"cannot read: {exc}") from None
    entry = changelog_entry(plan.diff, plan.impact, release, new, level, bump, day,
                            inputs=inputs_line(plan), current=current)
    texts = {**plan.texts, path: _raise_in_text(text, new), log: insert_entry(existing, entry)}
    return dataclasses.replace(plan, texts=texts), SdkRelease(current, new, bump)
