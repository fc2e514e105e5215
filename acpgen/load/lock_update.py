"""``acpgen lock``: show the lock, or rewrite it from the current input bytes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from acpgen.errors import AcpgenError
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


# commit: the upstream commit (40 hex digits, or "unknown" when the bytes came from elsewhere);
# tag: its release tag; source: where the bytes were taken from, when not from that commit.
_UPSTREAM_KEYS = ("commit", "tag", "source")


def parse_upstream(values: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """``ENTRY:KEY=VALUE`` options (``schema-v1-unstable:commit=SHA``) by lock entry."""
    out: dict[str, dict[str, str]] = {}
    for value in values:
        entry, _, rest = value.partition(":")
        key, eq, text = rest.partition("=")
        if (not entry or not eq or key not in _UPSTREAM_KEYS or not text.strip() or text != text.strip()
                or "\n" in text):
            raise AcpgenError("--upstream", f"{value!r}: expected ENTRY:commit=SHA, ENTRY:tag=TAG or ENTRY:source=TEXT")
        if key == "commit" and text != "unknown" and (len(text) != 40 or any(c not in "0123456789abcdef" for c in text)):
            raise AcpgenError("--upstream", f"{value!r}: a commit is 40 lowercase hex digits (or unknown)")
        out.setdefault(entry, {})[key] = text
    return out


def update_lock(
    root: Path,
    inputs_option: InputsChoice | str | None,
    upstream: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """Accept the current bytes, but only if they parse and cross-check as a consistent set.

    The new lock is validated in memory first (the roster must pin the new schema's hash),
    so a failed update leaves the old lock in place. ``upstream`` sets upstream coordinates
    (``commit``, ``tag``) of named lock entries: new bytes from another release must not
    keep the old bytes' commit (v1 stable's schema and meta take the roster's, as before).
    """
    old = load_lock(root)
    for name in upstream or {}:
        if name not in old.files:
            raise AcpgenError("--upstream", f"no lock entry {name!r}; choose one of {', '.join(sorted(old.files))}")
    directory = resolve_inputs_dir(old, inputs_option)
    raw = read_pinned(old, directory, check=False)
    files: dict[str, PinnedFile] = {}
    for name, pinned in old.files.items():
        blob = raw.data[name]
        coordinates = dict(pinned.upstream)
        if upstream and name in upstream:
            coordinates.update(upstream[name])
            for key in ("tag", "source"):  # the old bytes' release and source do not name the new ones
                if "commit" in upstream[name] and key in coordinates and key not in upstream[name]:
                    del coordinates[key]
        files[name] = PinnedFile(name, pinned.path, sha256_hex(blob), len(blob), coordinates)
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
