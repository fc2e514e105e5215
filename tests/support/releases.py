"""The upstream schema releases of tests/data/releases/, addressed by tag.

Usage (from the project root):

    python -m tests.support.releases list
    python -m tests.support.releases checkout DIR TAG...
    python -m tests.support.releases diff OLD_TAG NEW_TAG [acpgen diff options...]

The files there are stored once per content, named by their SHA-256 (``index.json`` maps each
tag to them), so no file is a release's by its name. ``checkout`` writes each TAG as an inputs
directory, ``DIR/TAG/schema/v1/schema.json`` with the release's own ``meta.json`` beside it
when it had one, which ``acpgen diff`` reads as is. ``diff`` checks the two out into a
temporary directory and runs ``acpgen diff OLD_TAG NEW_TAG --old-version OLD_TAG --new-version
NEW_TAG`` there (the options after the tags go to acpgen), so the report names the tags, reads
each release's own method table and knows both versions. A tag may be an alias index.json
records (a crate or ``schema-v2.*`` tag pointing at a ``schema-v1.*`` release). A usage error or
an unknown tag is one line on stderr, exit 2.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

RELEASES = Path(__file__).resolve().parents[1] / "data" / "releases"
USAGE = ("usage: python -m tests.support.releases list | checkout DIR TAG... | "
         "diff OLD_TAG NEW_TAG [acpgen diff options]")


class UsageError(Exception):
    pass


def index() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RELEASES / "index.json").read_text())
    return data


def resolve(tag: str, data: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The release a tag names (through an alias): its own tag and its index entry."""
    data = data or index()
    own = data.get("aliases", {}).get(tag, tag)
    entry = data["releases"].get(own)
    if entry is None:
        newest = data["order"][-1]
        raise UsageError(f"{tag}: no such release in tests/data/releases/index.json "
                         f"(the oldest is {data['order'][0]}, the newest {newest}; "
                         "`python -m tests.support.releases list` lists them)")
    return own, entry


def checkout(into: Path, tag: str, data: dict[str, Any] | None = None) -> Path:
    """``into/tag`` as an inputs directory holding the release's schema (and meta.json)."""
    _own, entry = resolve(tag, data)
    target = into / tag / "schema" / "v1"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(RELEASES / entry["schema"], target / "schema.json")
    if entry.get("meta"):
        shutil.copyfile(RELEASES / entry["meta"], target / "meta.json")
    return into / tag


def _list() -> None:
    data = index()
    aliases: dict[str, list[str]] = {}
    for alias, own in data.get("aliases", {}).items():
        aliases.setdefault(own, []).append(alias)
    for tag in data["order"]:
        entry = data["releases"][tag]
        meta = "meta.json" if entry.get("meta") else "no meta.json"
        also = f" (also {', '.join(aliases[tag])})" if tag in aliases else ""
        print(f"{tag}\t{entry['commit'][:12]}\t{meta}{also}")


def _diff(old: str, new: str, options: list[str]) -> int:
    data = index()
    with tempfile.TemporaryDirectory(prefix="acpgen-releases-") as tmp:
        for tag in (old, new):
            checkout(Path(tmp), tag, data)
        command = [sys.executable, "-m", "acpgen", "diff", old, new,
                   "--old-version", old, "--new-version", new, *options]
        return subprocess.run(command, cwd=tmp, check=False).returncode


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["list"] and len(argv) == 1:
            _list()
            return 0
        if argv[:1] == ["checkout"] and len(argv) >= 3:
            data = index()
            for tag in argv[2:]:
                print(checkout(Path(argv[1]), tag, data))
            return 0
        if argv[:1] == ["diff"] and len(argv) >= 3:
            return _diff(argv[1], argv[2], argv[3:])
        raise UsageError(USAGE)
    except UsageError as exc:
        print(f"releases: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
