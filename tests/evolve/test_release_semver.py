"""Semver on the real release history (tests/data/releases/): every consecutive pair of tags
in version order gets the release bump its change needs, and "released without the bump it
needs" is found exactly where the upstream schema broke readers in a patch release of 0.x.

The expected findings come from the reviewed verdicts of test_release_history.EXPECTED (B:
something breaks) and the version numbers, not from the tool: a pair is flagged exactly when
it breaks and its step is a patch of 0.y (y > 0) or a minor of 1.x, neither side a
pre-release. Tags with the same files as their predecessor are the same release again (no
change, never flagged).
"""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from acpgen.evolve.semver import change_level, missing_bump, parse_version, required_bump
from tests.evolve.releases import RELEASES, Release
from tests.evolve.replay_support import release_diff
from tests.evolve.test_release_history import EXPECTED

# Written down from the upstream changelog and the concrete changes (issue 36).
FLAGGED = {"v0.6.1..v0.6.2", "v0.10.7..v0.10.8", "v0.11.0..v0.11.1", "v0.13.5..v0.13.6"}
FAST = [*sorted(FLAGGED), "v0.6.3..v0.7.0", "v0.2.0-alpha.4..v0.2.0-alpha.5",
        "v0.2.0-alpha.5..v0.2.0-alpha.6", "v0.0.17..v0.0.18", "schema-v1.16.0..schema-v1.17.0",
        "v0.13.6..schema-v1.13.7", "v0.6.0..v0.6.1"]


def _index() -> dict[str, object]:
    return dict(json.loads((RELEASES / "index.json").read_text(encoding="utf-8")))


def _release(index: dict[str, object], tag: str) -> Release:
    entry = index["releases"][tag]  # type: ignore[index]
    return Release(tag, RELEASES / entry["schema"], RELEASES / entry["meta"] if entry["meta"] else None)


def _tag_pairs() -> list[tuple[str, str]]:
    return list(pairwise(_index()["order"]))  # type: ignore[arg-type]


def _distinct(tag: str) -> str:
    """The first tag of the release whose files ``tag`` has (test_release_history's names)."""
    index = _index()
    order: list[str] = index["order"]  # type: ignore[assignment]
    files = lambda t: (index["releases"][t]["schema"], index["releases"][t]["meta"])  # type: ignore[index]
    i = order.index(tag)
    while i > 0 and files(order[i - 1]) == files(tag):
        i -= 1
    return order[i]


def _replay(old_tag: str, new_tag: str) -> tuple[str, str, str | None]:
    index = _index()
    old, new = _release(index, old_tag), _release(index, new_tag)
    same = (old.schema, old.meta) == (new.schema, new.meta)
    level = "none" if same else change_level(release_diff(old, new).changes)
    vo, vn = parse_version(old_tag), parse_version(new_tag)
    assert vo is not None and vn is not None, (old_tag, new_tag)
    return level, required_bump(level, vo), missing_bump(level, vo, vn)


def _expected_flag(old_tag: str, new_tag: str) -> bool:
    pid = f"{_distinct(old_tag)}..{new_tag}"
    breaks = _distinct(old_tag) != _distinct(new_tag) and EXPECTED[pid][0] == "B"
    vo, vn = parse_version(old_tag), parse_version(new_tag)
    assert vo is not None and vn is not None
    if not breaks or vo.prerelease or vn.prerelease:
        return False
    core = lambda v: (v.major, v.minor, v.patch)
    if vo.major == 0:
        return vo.minor > 0 and core(vn)[:2] == core(vo)[:2]
    return vn.major == vo.major


def test_the_expected_findings_follow_from_the_reviewed_verdicts() -> None:
    assert {f"{a}..{b}" for a, b in _tag_pairs() if _expected_flag(a, b)} == FLAGGED


@pytest.mark.parametrize("pair", FAST)
def test_release_bump_fast(pair: str) -> None:
    old, new = pair.split("..")
    level, required, missing = _replay(old, new)
    assert (missing is not None) == (pair in FLAGGED), (level, required, missing)
    if pair in FLAGGED:
        assert level == "breaking" and required == "minor", (level, required)
        assert "needs a minor bump" in str(missing)


@pytest.mark.slow
def test_the_whole_history_flags_exactly_the_patch_releases_that_broke() -> None:
    flagged, bumps = set(), {}
    for old, new in _tag_pairs():
        level, required, missing = _replay(old, new)
        bumps[f"{old}..{new}"] = required
        if missing is not None:
            flagged.add(f"{old}..{new}")
        # Every release gets its required bump, following its reviewed verdict.
        if _distinct(old) != _distinct(new) and EXPECTED[f"{_distinct(old)}..{new}"][0] == "B":
            assert level == "breaking", (old, new)
    assert flagged == FLAGGED
    assert bumps["v0.6.3..v0.7.0"] == "minor" and bumps["v0.0.17..v0.0.18"] == "patch"
    assert bumps["v0.13.6..schema-v1.13.7"] == "patch"  # compatible, from 0.13.6: 0.x rules
