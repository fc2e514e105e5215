"""The roster parser and `acpgen roster` on the real roster."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_acpgen

from acpgen.inputs.roster import RosterError, parse_roster

FIELDS = {"number", "id", "keyword", "role", "responsibility", "kind", "text", "applicability", "source"}


@pytest.fixture(scope="module")
def roster_json() -> list[dict]:  # type: ignore[type-arg]
    result = run_acpgen("roster", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_all_240_entries_with_exactly_the_documented_fields(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    assert len(roster_json) == 240
    assert all(set(entry) == FIELDS for entry in roster_json)
    assert [e["number"] for e in roster_json] == list(range(1, 241))
    assert len({e["id"] for e in roster_json}) == 240


def test_counts_by_kind_responsibility_and_keyword(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    assert Counter(e["kind"] for e in roster_json) == {
        "imported": 186, "derived": 31, "incorporated": 18, "prose-imported": 5}
    assert Counter(e["responsibility"] for e in roster_json) == {"sdk": 157, "shared": 39, "application": 44}
    assert Counter(e["keyword"] for e in roster_json) == {
        "MUST": 120, "MUST NOT": 30, "SHOULD": 52, "SHOULD NOT": 4, "MAY": 34}


def test_applicability_is_split_off_the_text(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    by_id = {e["id"]: e for e in roster_json}
    latest = by_id["ACP-V1-INIT-AGENT-LATEST-VERSION"]
    assert latest["text"] == "Otherwise, the Agent MUST respond with the latest version it supports."
    assert latest["applicability"].startswith("Applies when the Agent does not support")
    assert all("(Applies when:" not in e["text"] for e in roster_json)
    with_condition = [e for e in roster_json if e["applicability"]]
    assert len(with_condition) > 100  # the audit report counts 116 conditional items
    assert by_id["ACP-V1-OVERVIEW-ABSOLUTE-PATHS"]["applicability"] is None


def test_sources_are_pages_schema_pointers_or_jsonrpc_anchors(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    patterns = [r"^docs/\S+\.mdx L\d+(-L\d+)?$", r"^schema/v1/schema\.json /\$defs/\S+$",
                r"^jsonrpc/specification\.html #\w+$"]
    for entry in roster_json:
        assert any(re.match(p, entry["source"]) for p in patterns), entry["source"]
    derived = [e for e in roster_json if e["kind"] == "derived"]
    assert all(e["source"].startswith("schema/v1/schema.json /$defs/") for e in derived)


def test_derived_text_with_pipes_is_kept_whole(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    shape = next(e for e in roster_json if e["id"] == "ACP-V1-SCHEMA-INITIALIZE-SHAPE")
    assert "| /$defs/InitializeResponse: required ['protocolVersion']" in shape["text"]
    assert shape["text"].endswith("'sessionCapabilities', 'auth', '_meta']")
    assert shape["source"] == "schema/v1/schema.json /$defs/InitializeRequest"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "value", "field"),
    [("--keyword", "MUST NOT", "keyword"), ("--role", "agent", "role"),
     ("--responsibility", "application", "responsibility"), ("--kind", "derived", "kind")],
)
def test_filters(option: str, value: str, field: str, roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    result = run_acpgen("roster", option, value, "--json")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert [e["id"] for e in got] == [e["id"] for e in roster_json if e[field] == value]
    assert got


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "spelling", "value", "field"),
    [("--keyword", "must not", "MUST NOT", "keyword"), ("--keyword", "Should_Not", "SHOULD NOT", "keyword"),
     ("--role", "AGENT", "agent", "role"), ("--responsibility", "Sdk", "sdk", "responsibility"),
     ("--kind", "PROSE-IMPORTED", "prose-imported", "kind"), ("--section", "Setup", "SETUP", "section")],
)
def test_every_filter_is_case_insensitive(option: str, spelling: str, value: str, field: str,
                                          roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    result = run_acpgen("roster", option, spelling, "--json")
    assert result.returncode == 0, result.stderr
    got = [e["id"] for e in json.loads(result.stdout)]
    if field == "section":
        assert got == [e["id"] for e in roster_json if e["id"].split("-")[2] == value]
    else:
        assert got == [e["id"] for e in roster_json if e[field] == value]
    assert got


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [("--role", "editor", "agent, client, both"),
     ("--keyword", "MUSTN'T", "MUST, MUST NOT, SHOULD, SHOULD NOT, MAY"),
     ("--responsibility", "user", "sdk, shared, application"),
     ("--kind", "inferred", "imported, derived, incorporated, prose-imported"),
     ("--section", "NOPE", "OVERVIEW, "),
     ],
)
def test_an_unknown_filter_value_is_refused_naming_the_choices(option: str, value: str, choices: str) -> None:
    result = run_acpgen("roster", option, value)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"acpgen: error: {option}: unknown value {value!r}; choose from {choices}")
    assert result.stderr.count("\n") == 1


def test_section_filter_uses_the_third_id_segment(roster_json: list[dict]) -> None:  # type: ignore[type-arg]
    result = run_acpgen("roster", "--section", "setup", "--json")
    got = json.loads(result.stdout)
    assert got and all(e["id"].startswith("ACP-V1-SETUP-") for e in got)
    assert len(got) == sum(1 for e in roster_json if e["id"].split("-")[2] == "SETUP")


def _roster_text(inputs_dir: Path) -> str:
    return (inputs_dir / "roster/requirements.md").read_text(encoding="utf-8")


def test_unknown_role_names_the_line(inputs_dir: Path) -> None:
    text = _roster_text(inputs_dir).replace("\nMUST | agent | sdk | imported | The Agent MUST respond with the chosen",
                                            "\nMUST | server | sdk | imported | The Agent MUST respond with the chosen", 1)
    with pytest.raises(RosterError, match=r"requirements\.md:\d+: ACP-V1-INIT-AGENT-RESPONSE: unknown role 'server'"):
        parse_roster(text, "roster/requirements.md")


def test_row_without_source_column_is_an_error(inputs_dir: Path) -> None:
    text = _roster_text(inputs_dir).replace(" | docs/protocol/v1/overview.mdx L214 |", " |", 1)
    with pytest.raises(RosterError, match=r":5: .*ACP-V1-OVERVIEW-ABSOLUTE-PATHS"):
        parse_roster(text, "roster/requirements.md")


def test_malformed_id_is_an_error(inputs_dir: Path) -> None:
    text = _roster_text(inputs_dir).replace("| 3 | ACP-V1-INIT-IMPLEMENTATION-INFO |", "| 3 | acp-v1-init |", 1)
    with pytest.raises(RosterError, match="malformed requirement ID 'acp-v1-init'"):
        parse_roster(text, "roster/requirements.md")
