"""``acpgen lock``: show the lock, or rewrite it from the current input bytes."""

from __future__ import annotations

from pathlib import Path

from acpgen.inputs.lock import (
    InputsChoice,
    PinnedFile,
    dump_lock,
    load_lock,
    resolve_inputs_dir,
    write_lock,
)
from acpgen.inputs.pinned import read_pinned, sha256_hex
from acpgen.load.project import load_inputs, load_surface


def show_lock(root: Path) -> str:
    return dump_lock(load_lock(root)).rstrip("\n")


def update_lock(root: Path, inputs_option: InputsChoice | str | None) -> str:
    """Accept the current bytes, but only if they parse and cross-check as a consistent set.

    The new lock is validated in memory first (the roster must pin the new schema's hash),
    so a failed update leaves the old lock in place.
    """
    old = load_lock(root)
    directory = resolve_inputs_dir(old, inputs_option)
    raw = read_pinned(old, directory, check=False)
    files: dict[str, PinnedFile] = {}
    for name, pinned in old.files.items():
        blob = raw.data[name]
        files[name] = PinnedFile(name, pinned.path, sha256_hex(blob), len(blob), dict(pinned.upstream))
    new = old.with_files(files)
    _, _, roster, _ = load_inputs(new, raw)
    for spec in new.surface_table[1:]:  # every listed surface must parse too
        load_surface(new, raw, spec, roster)
    files["roster"].upstream["revision"] = roster.revision
    for name in ("schema", "meta"):
        files[name].upstream["commit"] = roster.commit
    changed = [n for n in files if files[n].sha256 != old.files[n].sha256]
    write_lock(new)
    if not changed:
        return "lock unchanged: inputs already match"
    return "lock updated: " + ", ".join(f"{files[n].path} -> {files[n].sha256}" for n in changed)
