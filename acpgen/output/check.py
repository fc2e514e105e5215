"""``acpgen check``: regenerate in memory and compare byte for byte with the committed tree.

Like Kubernetes' verify-codegen, but the diagnosis says *why* the tree differs, using the
committed ``MANIFEST.json`` as the witness of the last real ``generate``:

* generator drift: the installed acpgen or a tool that shapes the bytes (black, jinja2) is
  not the version MANIFEST.json records;
* hand edits: a committed file no longer has the SHA-256 MANIFEST.json records for it;
* files added (or deleted) by hand: on disk but not in MANIFEST.json (or the reverse);
* options changed: the tree was generated with other ``[generate]`` options (``--package``,
  ``tests_dir``) than the check runs with, e.g. ``acpgen check --package other`` or an
  edited ``[generate]`` table in the lock;
* input changed: MANIFEST.json records other input hashes than the inputs have now: the lock
  was updated, or a hand-reviewed manifest (``schema/capabilities.toml``) was edited, without
  regenerating;
* stale output: none of the above, so the generator or its templates changed since the
  last ``generate``.

Tool caches inside the tree (``__pycache__``, directories with a CACHEDIR.TAG such as
``.mypy_cache``) are not part of it (:func:`acpgen.output.writer.read_tree`).

The check does not run the import proof (:mod:`acpgen.output.proof`): it proves the
committed bytes equal what the pinned inputs and the generator produce; importability is a
function of those bytes, ``generate`` proved it before writing them, and the test suite
imports the generated package anyway.

Input drift (the input bytes differ from the lock) never gets here: loading the project
refuses it with exit 2, as ``acpgen verify`` does; :func:`error_json` renders that case.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import acpgen
from acpgen.errors import AcpgenError, InputDriftError
from acpgen.load.project import Project
from acpgen.model.generation import GenOptions
from acpgen.output.generate import (
    MANIFEST_NAME,
    build_tree,
    hosted,
    models_for,
    options_for,
    options_record,
    output_dir,
    recorded_inputs,
    tool_versions,
)
from acpgen.output.writer import read_tree

MAX_DIFF_LINES = 200  # whole diff: enough to see the problem, short enough to read in CI logs
MAX_FILE_DIFF_LINES = 60  # per file, so that one rewritten file cannot hide all the others
MAX_LINE_CHARS = 240
GENERATOR = "acpgen"


@dataclass
class CheckReport:
    out: str
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # on disk, not produced by the generator
    missing: list[str] = field(default_factory=list)  # produced, not on disk
    hand_edited: list[str] = field(default_factory=list)
    hand_added: list[str] = field(default_factory=list)
    hand_deleted: list[str] = field(default_factory=list)
    tool_drift: dict[str, dict[str, str | None]] = field(default_factory=dict)
    inputs_changed: dict[str, dict[str, str | None]] = field(default_factory=dict)
    options_changed: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> recorded/current
    manifest_problem: str | None = None
    # Each file's origin (template, shipped file or emitter), from the regenerated MANIFEST.json.
    origins: dict[str, str] = field(default_factory=dict)
    # origin -> the differing files it makes, for each origin whose bytes changed since the
    # last generate (MANIFEST.json's ``sources`` hashes, recorded against current).
    sources_changed: dict[str, list[str]] = field(default_factory=dict)
    diff: list[str] = field(default_factory=list)
    diff_truncated: bool = False
    # Every surface the check covers: name -> package, the roster's surface first.
    surfaces: dict[str, str] = field(default_factory=dict)
    # Whether the origins (templates/, acpgen/...) are files of this project (acpgen's own
    # checkout) or of the installed acpgen (a skeleton, an SDK's project), where no one edits them.
    sources_here: bool = True

    def by_surface(self) -> dict[str, dict[str, Any]]:
        """Per surface: its package and the files of it that differ (a surface is clean when
        none does; files outside every package are the roster surface's: its tests and kit)."""
        packages = {pkg: name for name, pkg in self.surfaces.items()}
        roster_surface = next(iter(self.surfaces), None)
        found: dict[str, dict[str, Any]] = {
            name: {"package": pkg, "changed": [], "missing": [], "added": []} for name, pkg in self.surfaces.items()
        }
        for label, paths in (("changed", self.changed), ("missing", self.missing), ("added", self.added)):
            for rel in paths:
                name = packages.get(rel.split("/", 1)[0], roster_surface)
                if name in found:
                    found[name][label].append(rel)
        return found

    @property
    def clean(self) -> bool:
        return not (self.changed or self.added or self.missing)

    @property
    def causes(self) -> list[dict[str, Any]]:
        """Why the tree differs, most fundamental first; empty when clean."""
        if self.clean:
            return []
        found: list[dict[str, Any]] = []
        if self.manifest_problem:
            found.append({"kind": "no_manifest", "detail": self.manifest_problem})
        if self.tool_drift:
            found.append({"kind": "generator_drift", "tools": self.tool_drift})
        if self.options_changed:
            found.append({"kind": "options_changed", "options": self.options_changed})
        if self.inputs_changed:
            found.append({"kind": "input_changed", "inputs": self.inputs_changed})
        if self.sources_changed:
            found.append({"kind": "source_changed", "sources": self.sources_changed})
        for kind, paths in (("hand_edited", self.hand_edited), ("hand_added", self.hand_added),
                            ("hand_deleted", self.hand_deleted)):
            if paths:
                found.append({"kind": kind, "files": paths})
        if not found:
            stale = sorted({self.origins[rel] for rel in self.changed + self.missing if rel in self.origins})
            found.append({"kind": "stale_output", "origins": stale,
                          "detail": "acpgen's code changed since the last generate"
                          + (f" (the files come from {', '.join(stale)}, unchanged themselves)" if stale else "")})
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "status": "clean" if self.clean else "drift",
            "exit_code": 0 if self.clean else 1,
            "out": self.out,
            "changed": self.changed,
            "added": self.added,
            "missing": self.missing,
            "causes": self.causes,
            "hand_edited": self.hand_edited,
            "hand_added": self.hand_added,
            "hand_deleted": self.hand_deleted,
            "generator_drift": self.tool_drift,
            "inputs_changed": self.inputs_changed,
            "options_changed": self.options_changed,
            "sources_changed": self.sources_changed,
            "origins": {rel: self.origins[rel] for rel in (*self.changed, *self.missing, *self.added)
                        if rel in self.origins},
            "diff": "".join(self.diff),
            "diff_truncated": self.diff_truncated,
            "surfaces": self.by_surface(),
            "sources_in_project": self.sources_here,
        }


def error_json(exc: AcpgenError) -> dict[str, Any]:
    """The ``--json`` report when the check cannot run: input drift or bad input (exit 2)."""
    doc: dict[str, Any] = {
        "status": "input_drift" if isinstance(exc, InputDriftError) else "error",
        "exit_code": exc.exit_code,
        "error": str(exc),
    }
    if isinstance(exc, InputDriftError):
        doc["input_drift"] = list(exc.lines)
    return doc


def check(project: Project, out: str | None = None, package: str | None = None,
          profile: str | None = None) -> CheckReport:
    target = output_dir(project, out)
    options = options_for(project, package, profile)
    expected = build_tree(project, options, proven=False)  # equal bytes carry generate's proof
    # A profile's tree may sit in its host package (its other modules are not the tree's).
    actual = hosted(target, expected) if options.profile is not None else read_tree(target)
    surfaces = ({options.profile.surface: options.package} if options.profile is not None else
                {s.name: package for s, package in zip(project.surfaces, options.packages, strict=True)})
    report = CheckReport(out=str(Path(out or project.lock.out)), surfaces=surfaces)
    report.changed = sorted(p for p in expected if p in actual and actual[p] != expected[p])
    report.missing = sorted(p for p in expected if p not in actual)
    report.added = sorted(p for p in actual if p not in expected)
    if not report.clean:  # the diagnosis is only worth its cost when there is something to explain
        report.sources_here = (project.root / "templates").is_dir()
        _diagnose(report, project, options, actual)
        _diagnose_sources(report, expected, actual)
        _diff(report, expected, actual)
    return report


def _recorded_manifest(report: CheckReport, actual: dict[str, bytes]) -> dict[str, Any]:
    if MANIFEST_NAME not in actual:
        report.manifest_problem = f"{report.out}/{MANIFEST_NAME} is missing (never generated, or deleted)"
        return {}
    try:
        doc = json.loads(actual[MANIFEST_NAME])
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        report.manifest_problem = f"{report.out}/{MANIFEST_NAME} is not a JSON object (edited by hand?)"
        return {}
    return doc


def _section(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key)
    return value if isinstance(value, dict) else {}


def _diagnose(report: CheckReport, project: Project, options: GenOptions, actual: dict[str, bytes]) -> None:
    """Compare the committed tree with its own MANIFEST.json to tell the causes apart."""
    recorded = _recorded_manifest(report, actual)
    if not recorded:
        return
    hashes = _section(recorded, "files")
    for rel, data in sorted(actual.items()):
        if rel == MANIFEST_NAME:
            continue
        if rel not in hashes:
            if rel in report.added:
                report.hand_added.append(rel)
        elif hashlib.sha256(data).hexdigest() != hashes[rel]:
            report.hand_edited.append(rel)
    report.hand_deleted = sorted(rel for rel in hashes if rel not in actual)

    tools = _section(recorded, "tools")
    installed = {GENERATOR: acpgen.__version__, **tool_versions()}
    recorded_versions = {GENERATOR: _section(recorded, "generator").get("version"), **tools}
    for name, now in installed.items():
        if recorded_versions.get(name) != now:
            report.tool_drift[name] = {"recorded": recorded_versions.get(name), "installed": now}

    recorded_options = _section(recorded, "options")
    for name, now in sorted(options_record(options).items()):
        if recorded_options.get(name) != now:
            report.options_changed[name] = {"recorded": recorded_options.get(name), "current": now}

    inputs = _section(recorded, "inputs")
    current = {i.name: i for i in recorded_inputs(models_for(project, options))}
    for name in sorted(set(current) | set(inputs)):
        entry = inputs.get(name)
        was = entry.get("sha256") if isinstance(entry, dict) else None
        held = current.get(name)
        if was != (held.sha256 if held else None):
            path = held.path if held else (entry.get("path") if isinstance(entry, dict) else None)
            report.inputs_changed[name] = {"path": path, "recorded": was,
                                           "current": held.sha256 if held else None}


def _manifest_of(tree: dict[str, bytes]) -> dict[str, Any]:
    try:
        doc = json.loads(tree.get(MANIFEST_NAME, b"{}"))
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def _diagnose_sources(report: CheckReport, expected: dict[str, bytes], actual: dict[str, bytes]) -> None:
    """Name each differing file's origin, and the origins whose bytes changed since the last
    generate (a template edit is named as such, not as stale output)."""
    now = _manifest_of(expected)
    report.origins = {rel: o for rel, o in _section(now, "origins").items() if isinstance(o, str) and o}
    was_hashes = _section(_manifest_of(actual), "sources")
    now_hashes = _section(now, "sources")
    for rel in (*report.changed, *report.missing):
        origin = report.origins.get(rel)
        if rel in report.hand_edited or origin is None or origin not in was_hashes:
            continue
        if was_hashes[origin] != now_hashes.get(origin):
            report.sources_changed.setdefault(origin, []).append(rel)
    if MANIFEST_NAME in report.changed:  # an edit that changes no output still changes its hash
        for origin in sorted(set(was_hashes) & set(now_hashes)):
            if was_hashes[origin] != now_hashes[origin]:
                report.sources_changed.setdefault(origin, [])


def _diff_order(rel: str) -> tuple[bool, str]:
    return (rel == MANIFEST_NAME, rel)  # the manifest's diff is a consequence: show it last


def _clip(line: str) -> str:
    """One diff line, cut so that a minified or binary-ish line cannot flood the log."""
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f"... ({len(line) - MAX_LINE_CHARS} more chars)\n"


def _diff(report: CheckReport, expected: dict[str, bytes], actual: dict[str, bytes]) -> None:
    lines: list[str] = []
    truncated = False
    for rel in sorted(set(report.changed) | set(report.missing) | set(report.added), key=_diff_order):
        try:
            old = actual.get(rel, b"").decode("utf-8").splitlines(keepends=True)
            new = expected.get(rel, b"").decode("utf-8").splitlines(keepends=True)
        except UnicodeDecodeError:
            lines.append(f"Binary file {report.out}/{rel} differs\n")
            continue
        chunk = [_clip(ln) for ln in difflib.unified_diff(
            old, new, f"{report.out}/{rel} (committed)", f"{report.out}/{rel} (generated)", n=2
        )]
        if len(chunk) > MAX_FILE_DIFF_LINES:
            omitted = len(chunk) - MAX_FILE_DIFF_LINES
            chunk = chunk[:MAX_FILE_DIFF_LINES] + [f"... ({omitted} more diff lines for {rel})\n"]
            truncated = True
        lines.extend(chunk)
    report.diff_truncated = truncated or len(lines) > MAX_DIFF_LINES
    report.diff = [ln if ln.endswith("\n") else ln + "\n" for ln in lines[:MAX_DIFF_LINES]]
