"""Versions, the SDK's release files and the provenance table, piece by piece (issue 36)."""

from __future__ import annotations

import pytest

from acpgen.errors import AcpgenError
from acpgen.evolve.changelog import HEAD, _raise_in_text, insert_entry
from acpgen.evolve.semver import (
    allowed_level,
    direction,
    missing_bump,
    parse_version,
    raise_version,
    required_bump,
    step,
)
from acpgen.inputs.lock import PinnedFile
from acpgen.inputs.provenance_note import HEADER, update_rows


def v(text: str):  # type: ignore[no-untyped-def]
    out = parse_version(text)
    assert out is not None, text
    return out


@pytest.mark.parametrize("text", ["1.2.3", "v0.6.2", "schema-v1.21.0", "v0.2.0-alpha.3", "2.0.0+build.5"])
def test_versions_and_tags_parse(text: str) -> None:
    assert v(text).text == text


@pytest.mark.parametrize("text", ["", "v1", "latest", "1.2", "v1.2.3.4", "schema-v1.x.0"])
def test_what_is_no_version_is_refused(text: str) -> None:
    assert parse_version(text) is None


def test_precedence_follows_semver() -> None:
    order = ["0.2.0-alpha.2", "0.2.0-alpha.10", "0.2.0-beta", "0.2.0", "0.10.0", "1.0.0"]
    assert sorted(order, key=lambda t: v(t).key()) == order
    assert str(v("v0.2.0-alpha.10")) == "0.2.0-alpha.10"


@pytest.mark.parametrize(("level", "old", "bump"), [
    ("breaking", "1.4.2", "major"), ("feature", "1.4.2", "minor"), ("fix", "1.4.2", "patch"),
    ("breaking", "0.6.1", "minor"), ("feature", "0.6.1", "patch"), ("fix", "0.6.1", "patch"),
    ("breaking", "0.0.3", "patch"), ("none", "1.0.0", "none")])
def test_the_bump_a_change_needs_follows_cargo_and_npm(level: str, old: str, bump: str) -> None:
    assert required_bump(level, v(old)) == bump


@pytest.mark.parametrize(("old", "new", "allowed"), [
    ("1.2.3", "2.0.0", "breaking"), ("1.2.3", "1.3.0", "feature"), ("1.2.3", "1.2.4", "fix"),
    ("0.6.1", "0.7.0", "breaking"), ("0.6.1", "0.6.2", "feature"), ("0.0.3", "0.0.4", "breaking"),
    ("0.2.0-alpha.1", "0.2.0-alpha.2", "breaking"), ("1.2.3", "1.2.3", "none")])
def test_what_a_release_step_allows(old: str, new: str, allowed: str) -> None:
    assert allowed_level(v(old), v(new)) == allowed


def test_a_missing_bump_is_found_only_with_both_versions_going_up() -> None:
    assert missing_bump("breaking", v("v0.13.5"), v("v0.13.6")) is not None
    assert missing_bump("breaking", v("v0.13.5"), v("v0.14.0")) is None
    assert missing_bump("breaking", None, v("v0.14.0")) is None
    assert missing_bump("breaking", v("1.3.0"), v("1.2.0")) is None  # a downgrade is no release
    assert step(v("1.3.0"), v("1.2.0")) == "downgrade"
    assert [direction(v("1.2.0"), v(b)) for b in ("1.3.0", "1.1.0", "v1.2.0")] == [
        "upgrade", "downgrade", "sideways"]
    assert direction(None, v("1.0.0")) == "unknown"


def test_a_removed_def_breaks_the_sdks_api_but_not_the_wire() -> None:
    from acpgen.evolve.changes import Change
    from acpgen.evolve.semver import change_level, sdk_level

    removed = Change("DEF_REMOVED", "Cost", None, "/$defs/Cost", detail="def removed")
    added = Change("PROPERTY_ADDED", "ToolCall", "name", "/$defs/ToolCall/properties/name")
    assert change_level([removed, added]) == "feature"
    assert sdk_level([removed, added]) == "breaking"
    assert sdk_level([removed], gate_breaking=False) == "feature"  # an unstable surface
    assert sdk_level([added]) == "feature"


def test_raising_a_version() -> None:
    assert [str(raise_version(v("0.6.1"), b)) for b in ("major", "minor", "patch", "none")] == [
        "1.0.0", "0.7.0", "0.6.2", "0.6.1"]
    assert str(raise_version(v("1.0.0-rc.1"), "patch")) == "1.0.0"


PYPROJECT = '''[build-system]
requires = ["hatchling"]
version = "9.9.9"

[project]
name = "sdk"
version = "0.1.0"
dependencies = []

[tool.other]
version = "7.7.7"
'''


def test_only_the_project_version_line_changes() -> None:
    out = _raise_in_text(PYPROJECT, v("0.2.0"))
    assert out == PYPROJECT.replace('name = "sdk"\nversion = "0.1.0"', 'name = "sdk"\nversion = "0.2.0"')
    with pytest.raises(AcpgenError):
        _raise_in_text('[project]\nname = "sdk"\ndynamic = ["version"]\n', v("0.2.0"))


def test_a_changelog_entry_goes_first_after_unreleased() -> None:
    first = insert_entry(None, "## [0.1.1] - 2026-01-01\n\nA.\n")
    assert first.startswith(HEAD) and first.endswith("## [0.1.1] - 2026-01-01\n\nA.\n")
    kept = first.replace("## [0.1.1]", "## [Unreleased]\n\n- mine\n\n## [0.1.1]")
    second = insert_entry(kept, "## [0.2.0] - 2026-02-01\n\nB.\n")
    assert second.index("## [Unreleased]") < second.index("## [0.2.0]") < second.index("## [0.1.1]")


def test_provenance_rows_are_replaced_or_added_and_escaped() -> None:
    text = f"# Inputs\n\n{HEADER}\n|---|---|---|---|\n| a.json | 00 | 1 | - |\n| b.json | 11 | 2 | - |\n\nTail.\n"
    new = update_rows(text, [PinnedFile("schema", "a.json", "ff", 3, {"commit": "unknown", "tag": "x|y"}),
                             PinnedFile("meta", "c.json", "ee", 4, {})])
    assert new is not None
    assert "| a.json | ff | 3 | commit: unknown; tag: x\\|y |" in new and "| b.json | 11 | 2 | - |" in new
    assert new.index("| c.json | ee | 4 | - |") < new.index("Tail.")
    assert update_rows("# hand-written\n", []) is None


def test_the_changelog_states_the_level_and_the_0x_rule_that_decided_the_release() -> None:
    from acpgen.evolve.changelog import _release_words
    from acpgen.evolve.semver import parse_version

    zero, one, tiny = parse_version("0.3.1"), parse_version("1.4.2"), parse_version("0.0.4")
    words = _release_words("feature", "patch", zero)
    assert words.startswith("The change is a feature (compatible, and the wire gains something")
    assert "a minor release by semantic versioning's 1.x rules; from 0.3.1 a patch release" in words
    assert "0.x rule" in words and "in 0.y.z a breaking change needs a minor release" in words
    assert "0.x" not in _release_words("feature", "minor", one)  # no rule to state at 1.x
    assert _release_words("feature", "minor", one).endswith("a minor release of the SDK from 1.4.2.")
    assert "in 0.0.z every release is a patch" in _release_words("breaking", "patch", tiny)
    # 0.y.z with a break: a minor release, which the 0.x rule decided (semver says major).
    assert "from 0.3.1 a minor release of the SDK, by the 0.x rule" in _release_words("breaking", "minor", zero)
