"""Rebuild tests/data/releases/ from a local clone of agentclientprotocol/agent-client-protocol.

Usage: python -m tests.support.extract_releases GIT_DIR

Only data files are copied (each release's ACP v1 ``schema.json`` and ``meta.json``), never
code. A release is a ``schema-v1.*`` tag, or an older ``v0.*`` tag (from before the separate
schema releases, when the repository's version was the schema's and the schema lived at
``schema.json`` or ``schema/schema.json``). The crate tags from after the split (``v0.13.7``
on, with the ``schema/v1/`` layout) and the ``schema-v2.*`` tags point at commits whose v1
schema is a ``schema-v1.*`` release's: they are recorded as aliases. Identical bytes are stored once, named by their SHA-256 (``index.json`` maps each
release to its files); PROVENANCE.md names repository, tag, commit and SHA-256 of each.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = "agentclientprotocol/agent-client-protocol"
OUT = Path(__file__).resolve().parents[1] / "data" / "releases"
_SEMVER = re.compile(r"^(?:schema-)?v(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$")


def version_key(tag: str) -> tuple[int, int, int, int, tuple[tuple[int, object], ...]]:
    """Semantic-version order (a pre-release sorts before its release)."""
    m = _SEMVER.match(tag)
    assert m, tag
    major, minor, patch, pre = m.groups()
    parts = tuple((0, int(p)) if p.isdigit() else (1, p) for p in (pre or "").split(".") if p)
    return int(major), int(minor), int(patch), 0 if pre else 1, parts


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def show(repo: str, tag: str, path: str) -> bytes | None:
    done = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], capture_output=True,
                          check=False)
    return done.stdout if done.returncode == 0 else None


def main(repo: str) -> None:
    tags = git(repo, "tag").decode().split()
    # After the split (schema/v1/ layout) a v* tag is a crate release: an alias.
    split = {t for t in tags if t.startswith("v") and show(repo, t, "schema/v1/schema.json")}
    releases = sorted((t for t in tags if t.startswith("schema-v1.") or t.startswith("v0.")
                       and t not in split), key=version_key)
    aliases = sorted((t for t in tags if t in split or t.startswith("schema-v2.")),
                     key=version_key)
    OUT.mkdir(parents=True, exist_ok=True)
    index: dict[str, dict[str, str | None]] = {}
    rows = []
    for tag in [*releases, *aliases]:
        commit = git(repo, "rev-list", "-n1", tag).decode().strip()
        for where in ("schema/v1/", "schema/", ""):
            schema = show(repo, tag, f"{where}schema.json")
            if schema is not None:
                break
        assert schema is not None, tag
        meta = show(repo, tag, f"{where}meta.json")
        entry: dict[str, str | None] = {"commit": commit, "path": f"{where}schema.json"}
        for kind, blob in (("schema", schema), ("meta", meta)):
            if blob is None:
                entry[kind] = None
                continue
            sha = hashlib.sha256(blob).hexdigest()
            name = f"{kind}-{sha[:16]}.json"
            (OUT / name).write_bytes(blob)
            entry[kind] = name
            rows.append((tag, commit, f"{where}{kind}.json", sha, name))
        entry["alias"] = "true" if tag in aliases else None
        index[tag] = entry
    data = {"repository": REPO,
            "order": releases,
            "aliases": {t: index[t]["schema"] for t in aliases},
            "releases": {t: {k: v for k, v in index[t].items() if k != "alias"} for t in releases}}
    (OUT / "index.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    lines = [
        "# Upstream ACP schema releases (test data)",
        "",
        f"Data files copied from https://github.com/{REPO} (Apache-2.0, see LICENSE), one",
        "`schema.json` and `meta.json` per release tag, stored once per distinct content and named",
        "by the first 16 hex digits of their SHA-256; `index.json` maps each tag to its files.",
        "Rebuilt by `python -m tests.support.extract_releases GIT_DIR`.",
        "",
        "| tag | commit | path | SHA-256 | file |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {t} | {c} | {p} | {s} | {n} |" for t, c, p, s, n in rows]
    (OUT / "PROVENANCE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (OUT / "LICENSE").write_bytes(git(repo, "show", f"{releases[-1]}:LICENSE"))


if __name__ == "__main__":
    main(sys.argv[1])
