"""``acpgen bump``: move the project to a new schema, all or nothing.

Where the new files must be
    The lock records every input as a path *relative to the inputs directory* (``schema/inputs``
    in a project made by acpgen). So ``--schema`` (and ``--meta`` / ``--roster``) must name
    files inside the inputs directory, e.g. ``schema/inputs/schema/v1/schema.next.json``. A
    file outside it is refused (exit 2): put it in the inputs directory first.

The pinned names stay
    The new bytes take the place of the ones they replace: ``--schema``'s file is moved onto the
    pinned schema's path (``schema/v1/schema.json`` keeps its name, the old bytes are gone),
    and so are ``--meta`` and ``--roster``'s. ``PROVENANCE.md`` beside the inputs (the table
    ``acpgen skeleton`` writes) gets the new rows, and the lock's upstream coordinates describe
    the new bytes: ``--upstream-commit`` / ``--upstream-tag``, else a roster that pins them,
    else ``commit = "unknown"``.

Meta
    ``--meta`` if given; else a ``meta.json`` beside the new schema; else the pinned meta stays.

The SDK's own version
    In a project whose ``pyproject.toml`` says ``[tool.acpgen] bump-sdk-version = true`` (a
    skeleton does), ``[project] version`` is raised by the release the change needs
    (:mod:`acpgen.evolve.semver`) and ``CHANGELOG.md`` gets an entry
    (:mod:`acpgen.evolve.changelog`).

The roster pin
    The roster header pins the schema's SHA-256, and every command refuses a roster that pins
    another schema. A bump therefore needs one of:

    * ``--roster FILE``: a roster (inside the inputs directory) whose header pins NEW;
    * nothing, if the pinned roster already pins NEW;
    * ``--accept-roster-mismatch``: keep the pinned roster although it pins another schema.
      The lock records the roster's pinned schema hash as ``[files.roster.upstream]
      pins_schema_sha256``; ``load_inputs`` accepts exactly that mismatch and
      ``acpgen verify`` warns about it on every run, until a roster for NEW is pinned.

Order (never half-applied)
    1. everything is validated in memory: NEW parses, is JSON Schema 2020-12, builds an IR,
       the roster pin holds (or is accepted), the gating manifest holds against NEW, and the
       complete generated tree builds;
    2. ``--dry-run`` stops here and writes nothing;
    3. the new lock is written to a temporary file beside ``schema/acp.lock``;
    4. the tree built in step 1 by ``acpgen.output.generate.build_tree`` (the pipeline of
       ``acpgen generate``; not rebuilt, so what was reported is exactly what is written) is
       swapped in atomically by ``acpgen.output.writer.write_tree``; if that fails the temporary
       lock is removed and nothing has changed;
    5. the new input files are moved onto the pinned names, ``PROVENANCE.md``,
       ``pyproject.toml`` and ``CHANGELOG.md`` replaced (each written to a temporary file
       first), and the temporary lock is renamed over ``schema/acp.lock`` (one atomic rename).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from acpgen.errors import AcpgenError
from acpgen.evolve.diff import SchemaDiff, SchemaSide, build_side, diff_sides
from acpgen.evolve.impact import Impact, compute_impact, load_gate_entries, tagged_gates
from acpgen.inputs.lock import Lock, PinnedFile, dump_lock
from acpgen.inputs.pinned import RawInputs, sha256_hex
from acpgen.inputs.provenance_note import update_rows
from acpgen.inputs.roster import Roster
from acpgen.load import conformance
from acpgen.load.project import Project, load_inputs, load_surface, read_roster, surface_of
from acpgen.output.generate import build_tree, options_for, output_dir
from acpgen.output.writer import read_tree, write_tree

ROSTER_PIN_KEY = "pins_schema_sha256"


@dataclass(frozen=True)
class TreeChanges:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return len(self.added) + len(self.removed) + len(self.changed)


@dataclass(frozen=True)
class BumpPlan:
    project: Project
    new_project: Project
    diff: SchemaDiff
    impact: Impact
    lock_text: str
    files: dict[str, bytes]
    tree: TreeChanges
    roster_note: str | None = None
    lock_changes: tuple[str, ...] = field(default=())
    # (source, destination) of each new input file moved onto its pinned name
    moves: tuple[tuple[Path, Path], ...] = field(default=())
    # other files the bump rewrites: path -> new text (PROVENANCE.md, pyproject.toml, CHANGELOG.md)
    texts: dict[Path, str] = field(default_factory=dict)
    notes: tuple[str, ...] = field(default=())

    @property
    def no_op(self) -> bool:
        return (self.lock_text == dump_lock(self.project.lock) and self.tree.total == 0
                and not self.moves)


def old_side(project: Project) -> SchemaSide:
    files = project.lock.files
    return build_side(files["schema"].path, project.inputs.directory / files["schema"].path,
                      project.inputs.data["schema"], files["meta"].path, project.inputs.data["meta"])


def pinned_meta(project: Project) -> tuple[str, bytes]:
    """The pinned meta.json, for a schema file with no meta.json beside it (labelled so)."""
    return f"{project.lock.files['meta'].path} (pinned)", project.inputs.data["meta"]


def analyse(project: Project, old: SchemaSide, new: SchemaSide) -> tuple[SchemaDiff, Impact]:
    diff = diff_sides(old, new, tagged_gates(project))
    entries, source, note = load_gate_entries(project)
    impact = compute_impact(diff, project.roster, entries, source, (note,) if note else ())
    return diff, impact


def _inside(project: Project, arg: str, option: str) -> tuple[str, Path]:
    """The path of ``arg`` relative to the inputs directory (it must be inside it)."""
    path = Path(arg)
    path = (path if path.is_absolute() else Path.cwd() / path).resolve()
    if not path.is_file():
        raise AcpgenError(arg, f"{option}: no such file")
    base = project.inputs.directory.resolve()  # the one in use (--inputs, ACPGEN_INPUTS or lock)
    try:
        rel = path.relative_to(base)
    except ValueError:
        raise AcpgenError(
            arg,
            f"{option} must be inside the inputs directory in use ({base}): the lock records "
            "input paths relative to it, and pinned inputs are never copied into the project",
        ) from None
    return rel.as_posix(), path


def plan_bump(
    project: Project,
    schema_arg: str,
    meta_arg: str | None = None,
    roster_arg: str | None = None,
    accept_roster_mismatch: bool = False,
    upstream: dict[str, str] | None = None,
) -> BumpPlan:
    """Validate the whole bump in memory; raise (exit 2) on anything wrong. ``upstream``:
    the new bytes' coordinates (``commit`` / ``tag``, from ``--upstream-commit/-tag``)."""
    lock = project.lock
    schema_rel, schema_path = _inside(project, schema_arg, "--schema")
    schema_blob = _read(schema_path, schema_arg)
    if meta_arg is None and (schema_path.parent / "meta.json").is_file() and schema_path.name != "meta.json":
        meta_arg = str(schema_path.parent / "meta.json")
    if meta_arg is not None:
        meta_rel, meta_path = _inside(project, meta_arg, "--meta")
        meta_blob = _read(meta_path, meta_arg)
    else:
        meta_rel, meta_blob = lock.files["meta"].path, project.inputs.data["meta"]
    new_side = build_side(schema_rel, schema_path, schema_blob, meta_rel, meta_blob)

    if roster_arg is not None:
        roster_rel, roster_path = _inside(project, roster_arg, "--roster")
        roster_blob = _read(roster_path, roster_arg)
    else:
        roster_rel, roster_blob = lock.files["roster"].path, project.inputs.data["roster"]
    roster = read_roster(roster_blob, roster_rel)
    new_sha = sha256_hex(schema_blob)
    roster_upstream = dict(lock.files["roster"].upstream) if roster_arg is None else {}
    roster_upstream.pop(ROSTER_PIN_KEY, None)
    roster_note = None
    if roster.schema_sha256 != new_sha:
        if not accept_roster_mismatch:
            raise AcpgenError(
                roster_rel,
                f"header pins schema sha256 {roster.schema_sha256}, not the new schema's {new_sha}: "
                "give --roster with a roster for the new schema, or --accept-roster-mismatch to keep "
                "this one (recorded in the lock; `acpgen verify` will warn)",
            )
        roster_upstream[ROSTER_PIN_KEY] = roster.schema_sha256
        roster_note = (f"roster {roster.revision} pins schema {roster.schema_sha256[:12]}, "
                       f"not {new_sha[:12]}: accepted (--accept-roster-mismatch)")
    roster_upstream["revision"] = roster.revision

    pins = new_sha == roster.schema_sha256
    sources = {"schema": schema_rel, "meta": meta_rel, "roster": roster_rel}
    files = {
        "schema": _pinned("schema", schema_blob, lock, roster, pins, upstream),
        "meta": _pinned("meta", meta_blob, lock, roster, pins, upstream),
        "roster": PinnedFile("roster", lock.files["roster"].path, sha256_hex(roster_blob),
                             len(roster_blob), dict(sorted(roster_upstream.items()))),
    }
    base = project.inputs.directory
    moves = tuple((base / sources[n], base / files[n].path) for n in sorted(files)
                  if sources[n] != files[n].path)
    # A bump moves the roster's surface; the other surfaces keep their pins and bytes.
    others = {n: f for n, f in lock.files.items() if n not in files}
    new_lock = lock.with_files({**others, **files})
    raw = RawInputs(directory=project.inputs.directory,
                    data={**{n: project.inputs.data[n] for n in others},
                          "schema": schema_blob, "meta": meta_blob, "roster": roster_blob})
    schema, meta, new_roster, ir = load_inputs(new_lock, raw)
    # Their gating manifests cite the roster's IDs: checked against the new roster.
    kept = tuple(load_surface(new_lock, raw, spec, new_roster) for spec in new_lock.surface_table[1:])
    # The gating manifest must still hold against NEW (as load_project would check).
    primary = surface_of(new_lock, new_lock.surface_table[0], schema, meta, ir, new_roster)
    new_project = Project(lock=new_lock, inputs=raw, roster=new_roster, surfaces=(primary, *kept),
                          conformance=_check_conformance(project, new_roster),
                          conformance_sha256=project.conformance_sha256)

    diff, impact = analyse(project, old_side(project), new_side)
    built = build_tree(new_project, options_for(new_project))
    current = read_tree(output_dir(project))
    tree = TreeChanges(
        added=tuple(sorted(set(built) - set(current))),
        removed=tuple(sorted(set(current) - set(built))),
        changed=tuple(sorted(r for r in set(built) & set(current) if built[r] != current[r])),
    )
    lock_changes = tuple(
        f"{n}: {sources[n]} -> {files[n].path} ({files[n].sha256[:12]}, {files[n].size} bytes)"
        for n in sorted(files) if files[n].sha256 != lock.files[n].sha256
    )
    changed = [files[n] for n in sorted(files) if files[n].sha256 != lock.files[n].sha256]
    texts, notes = _provenance(base, changed)
    return BumpPlan(project, new_project, diff, impact, dump_lock(new_lock), built, tree,
                    roster_note, lock_changes, moves, texts, notes)


def _provenance(base: Path, changed: list[PinnedFile]) -> tuple[dict[Path, str], tuple[str, ...]]:
    """The inputs' PROVENANCE.md with the rows of the replaced files (or a note why not)."""
    path = base / "PROVENANCE.md"
    if not changed or not path.is_file():
        return {}, ()
    text = _read(path, str(path)).decode("utf-8", "replace")
    new = update_rows(text, changed)
    if new is None:
        return {}, (f"{path.name} is not in acpgen's table format: update it by hand for "
                    + ", ".join(f.path for f in changed),)
    return ({path: new} if new != text else {}), ()


def _pinned(name: str, blob: bytes, lock: Lock, roster: Roster, roster_pins: bool,
            given: dict[str, str] | None) -> PinnedFile:
    """The new pin of ``name``: its bytes under the pinned path, with their upstream."""
    old = lock.files[name]
    sha = sha256_hex(blob)
    if sha == old.sha256:
        return old
    # Where the bytes come from upstream: as given, else from a roster that pins them, else
    # unknown; the repository and path within it carry over from the pin they replace.
    upstream = {k: v for k, v in old.upstream.items() if k in ("repository", "path")}
    if given:
        upstream.update({"commit": "unknown", **given})
    elif roster_pins:
        upstream.update({"repository": roster.repository, "commit": roster.commit})
    else:
        upstream["commit"] = "unknown"
    return PinnedFile(name, old.path, sha, len(blob), dict(sorted(upstream.items())))


def _check_conformance(project: Project, new_roster: Roster) -> conformance.ConformanceManifest | None:
    """The conformance manifest must classify exactly NEW's requirements (a new ID needs review)."""
    if project.conformance_sha256 is None:
        return None
    blob = conformance.read_manifest(project.root / conformance.MANIFEST_RELPATH)
    return conformance.parse_manifest(new_roster, blob) if blob is not None else None


def _read(path: Path, label: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AcpgenError(label, f"cannot read: {exc.strerror or exc}") from None


def apply_bump(plan: BumpPlan) -> None:
    """Write the lock and the generated tree (see the module docstring for the order).

    Every file-system error is bad input of the bump (exit 2, one line naming the path), never
    a traceback: a failure before the final rename leaves the lock and the output as they were.
    """
    if plan.no_op:
        return
    lock_path = plan.project.lock.path
    tmp = lock_path.with_name(lock_path.name + ".bump-tmp")
    try:
        tmp.write_text(plan.lock_text, encoding="utf-8")
    except OSError as exc:
        raise AcpgenError(str(tmp), f"cannot write the new lock: {exc.strerror or exc}") from None
    staged: list[Path] = []
    try:
        for path, text in plan.texts.items():
            staged.append(path.with_name(path.name + ".bump-tmp"))
            staged[-1].write_text(text, encoding="utf-8")
        # The tree built and validated by plan_bump (acpgen.output.generate.build_tree, the same
        # pipeline `generate` runs), so what was reported is exactly what is written.
        write_tree(output_dir(plan.new_project), plan.files)
        for source, dest in plan.moves:
            os.replace(source, dest)
        for path, done in zip(plan.texts, staged, strict=True):
            os.replace(done, path)
        os.replace(tmp, lock_path)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        for done in staged:
            done.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            where = exc.filename or output_dir(plan.new_project)
            raise AcpgenError(str(where), f"cannot write: {exc.strerror or exc}") from None
        raise


def roster_pin_warnings(project: Project) -> list[str]:
    """``acpgen verify`` hook: say so while the roster pins another schema (accepted on bump)."""
    pinned = project.lock.files["roster"].upstream.get(ROSTER_PIN_KEY)
    if not pinned:
        return []
    files = project.lock.files
    return [(f"{files['roster'].path}: pins schema sha256 {pinned}, not the locked "
             f"{files['schema'].sha256} (accepted by `acpgen bump --accept-roster-mismatch`); "
             "pin a roster for this schema with `acpgen bump --roster`")]
