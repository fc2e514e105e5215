"""The upstream schema release history (tests/data/releases/), as consecutive pairs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

RELEASES = Path(__file__).resolve().parents[1] / "data" / "releases"


@dataclass(frozen=True)
class Release:
    tag: str
    schema: Path
    meta: Path | None


@cache
def releases() -> tuple[Release, ...]:
    """Every release in version order, one per distinct (schema, meta) content: a tag whose
    files equal its predecessor's is the same release again and is left out."""
    index = json.loads((RELEASES / "index.json").read_text(encoding="utf-8"))
    out: list[Release] = []
    for tag in index["order"]:
        entry = index["releases"][tag]
        rel = Release(tag, RELEASES / entry["schema"],
                      RELEASES / entry["meta"] if entry["meta"] else None)
        if out and (out[-1].schema, out[-1].meta) == (rel.schema, rel.meta):
            continue
        out.append(rel)
    return tuple(out)


def pairs() -> list[tuple[Release, Release]]:
    rs = releases()
    return list(pairwise(rs))


def pair_id(pair: tuple[Release, Release]) -> str:
    return f"{pair[0].tag}..{pair[1].tag}"
