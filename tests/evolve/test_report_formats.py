"""The report says what to do, in the format CI wants, and exits as asked (issue 36, 37).

Fixture pairs in the style of the rest of tests/evolve: the pinned schema and a copy with one
change, written to a temporary file; the real CLI in-process (click's runner).
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from acpgen.cli.main import main
from acpgen.evolve.advice import kind_of
from acpgen.evolve.compat import RULES
from acpgen.evolve.locate import line_of, pointer_lines
from tests.conftest import INPUTS, PROJECT_ROOT

PINNED = INPUTS / "schema" / "v1" / "schema.json"


@cache
def _pinned() -> dict[str, Any]:
    return dict(json.loads(PINNED.read_text(encoding="utf-8")))


def _write(tmp_path: Path, schema: dict[str, Any], name: str = "new.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return path


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [*args, "--project", str(PROJECT_ROOT), "--inputs", str(INPUTS)])
    return result.exit_code, result.stdout, result.stderr


def _breaking(tmp_path: Path, name: str = "new.json") -> Path:
    """ReadTextFileRequest.line removed: the agent (its writer) breaks (a dropped witness)."""
    schema = copy.deepcopy(_pinned())
    del schema["$defs"]["ReadTextFileRequest"]["properties"]["line"]
    return _write(tmp_path, schema, name)


def _compatible(tmp_path: Path) -> Path:
    schema = copy.deepcopy(_pinned())
    schema["$defs"]["ReadTextFileRequest"]["properties"]["encoding"] = {"type": "string"}
    return _write(tmp_path, schema)


# -- one vocabulary ---------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["PROPERTY_REMOVED", "property_removed", "property-removed",
                                      "property removed", "optional property removed"])
def test_explain_takes_the_kind_in_either_spelling(spelling: str) -> None:
    code, out, err = cli("diff", "--explain", spelling)
    assert code == 0, err
    assert out.startswith("PROPERTY_REMOVED: ")


def test_explain_refuses_what_names_no_kind() -> None:
    assert kind_of("deprecated") is None and kind_of("mood") is None
    code, _, err = cli("diff", "--explain", "mood swing")
    assert code == 2 and "unknown change kind" in err


@pytest.mark.slow
def test_the_text_names_each_change_by_the_kind_explain_takes_with_why_and_what_to_do(
        tmp_path: Path) -> None:
    code, out, _ = cli("diff", str(PINNED), str(_breaking(tmp_path)))
    assert code == 3
    [line] = [s for s in out.splitlines() if "ReadTextFileRequest.line" in s and "BREAKING" in s]
    kind = line.split()[2]
    assert kind == "PROPERTY_REMOVED" and kind_of(kind) == kind
    body = out.split(line, 1)[1].splitlines()
    why = next(s for s in body if s.strip().startswith("why:"))
    do = next(s for s in body if s.strip().startswith("do:"))
    assert RULES[kind].why in why
    # What the agent's author changes, and where the generated interface reaches the def.
    assert "stop setting" in do and "ReadTextFileRequest.line" in do and "agent" in do
    assert "Client.fs_read_text_file" in do


# -- exit codes -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("fixture", "options", "code"), [
    ("breaking", [], 3), ("breaking", ["--fail-on", "compatible"], 3),
    ("breaking", ["--fail-on", "breaking"], 3), ("breaking", ["--fail-on", "never"], 0),
    ("breaking", ["--exit-zero"], 0), ("compatible", [], 1),
    ("compatible", ["--fail-on", "breaking"], 0), ("compatible", ["--exit-zero"], 0),
])
def test_fail_on_and_exit_zero(tmp_path: Path, fixture: str, options: list[str], code: int) -> None:
    new = _breaking(tmp_path) if fixture == "breaking" else _compatible(tmp_path)
    got, out, err = cli("diff", str(PINNED), str(new), *options)
    assert got == code, out + err
    assert f"verdict: {fixture}" in out


@pytest.mark.slow
def test_bad_input_is_2_even_with_exit_zero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    code, _, err = cli("diff", str(PINNED), str(bad), "--exit-zero")
    assert code == 2 and err.startswith("acpgen: error: ")


@pytest.mark.slow
def test_an_unstable_surface_reports_its_breaks_and_fails_only_when_asked(tmp_path: Path) -> None:
    new = _breaking(tmp_path, "schema.unstable.json")
    code, out, _ = cli("diff", str(PINNED), str(new))
    assert code == 1, out  # reported, not failing
    assert "BREAKING agent" in out and "unstable surface" in out and "do not fail" in out
    code, out, _ = cli("diff", str(PINNED), str(new), "--fail-on-unstable")
    assert code == 3, out


def test_the_top_level_help_lists_every_exit_code() -> None:
    out = CliRunner().invoke(main, ["--help"]).stdout
    for code in range(5):
        assert re.search(rf"^\s+{code}\s+\S", out, re.MULTILINE), (code, out)
    assert "--exit-zero" in out and "--fail-on" in out


# -- direction and the release it needs --------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new", "way"), [
    ("schema-v1.21.0", "schema-v1.23.0", "upgrade"), ("1.23.0", "v1.21.0", "downgrade"),
    ("v1.23.0", "schema-v1.23.0", "sideways")])
def test_the_report_says_which_way_the_bump_goes(tmp_path: Path, old: str, new: str, way: str) -> None:
    code, out, _ = cli("diff", str(PINNED), str(_compatible(tmp_path)), "--old-version", old,
                       "--new-version", new, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["release"]["direction"] == way
    assert data["release"]["level"] == "feature" and data["release"]["required_bump"] == "minor"


def test_a_version_the_schema_states_is_read(tmp_path: Path) -> None:
    schema = copy.deepcopy(_pinned())
    schema["x-version"] = "1.22.0"
    code, out, _ = cli("diff", "v1", str(_write(tmp_path, schema)))
    assert code == 1, out  # an annotation: compatible
    assert "Release: downgrade: schema-v1.23.0 (lock tag) -> 1.22.0 (the document)" in out


def test_surface_names_take_their_version_from_the_lock_tag() -> None:
    code, out, _ = cli("diff", "v1", str(INPUTS / "schema" / "v1" / "schema.json"), "--format", "json")
    release = json.loads(out)["release"]
    assert code == 0  # the same bytes
    assert (release["old_version"], release["old_version_from"]) == ("1.23.0", "lock tag")
    assert release["direction"] == "unknown" and release["required_bump"] == "none"


@pytest.mark.slow
def test_a_break_released_as_a_minor_is_a_missing_bump(tmp_path: Path) -> None:
    code, out, _ = cli("diff", str(PINNED), str(_breaking(tmp_path)), "--old-version", "1.23.0",
                       "--new-version", "1.24.0")
    assert code == 3 and "MISSING BUMP" in out and "needs a major bump" in out


# -- CI formats ---------------------------------------------------------------------------------


def _hostile(tmp_path: Path) -> Path:
    """A def whose name would end a workflow command and start another, and close a table."""
    schema = copy.deepcopy(_pinned())
    schema["$defs"]["Evil\n::error::x|y,z:%"] = {"type": "string"}
    return _write(tmp_path, schema)


def test_github_annotations_sit_at_the_changes_json_pointer(tmp_path: Path) -> None:
    new = _breaking(tmp_path)
    code, out, _ = cli("diff", str(PINNED), str(new), "--format", "github")
    assert code == 3
    [error] = [s for s in out.splitlines() if s.startswith("::error ")]
    line = int(re.search(r",line=(\d+),", error).group(1))  # type: ignore[union-attr]
    assert '"line"' in PINNED.read_text(encoding="utf-8").splitlines()[line - 1]
    assert "file=" in error and "title=PROPERTY_REMOVED ReadTextFileRequest.line%3A breaks the agent" in error
    assert "Do%3A" not in error.split("::", 2)[2] and "Do: stop setting" in error
    assert out.splitlines()[-1].startswith("::notice title=acpgen diff::")


@pytest.mark.slow
def test_github_and_markdown_escape_names_from_the_schema(tmp_path: Path) -> None:
    new = _hostile(tmp_path)
    _, out, _ = cli("diff", str(PINNED), str(new), "--format", "github")
    commands = [s for s in out.splitlines() if s.startswith("::")]
    assert len(commands) == len(out.splitlines())  # no line was broken by the name
    [added] = [s for s in commands if "DEF_ADDED" in s]
    # The properties (before the message) carry the name escaped: no ':' ',' or line break.
    props, message = added.split("::", 2)[1], added.split("::", 2)[2]
    assert "title=DEF_ADDED Evil%0A%3A%3Aerror%3A%3Ax|y%2Cz%3A%25%3A compatible" in props, props
    assert "Evil%0A::error::x|y,z:%25" in message and "\n" not in added
    _, md, _ = cli("diff", str(PINNED), str(new), "--format", "markdown")
    rows = [s for s in md.splitlines() if s.startswith("| `DEF_ADDED`")]
    assert rows and all(re.sub(r"\\\|", "", r).count("|") == 6 for r in rows), rows


def test_markdown_is_a_pr_comment(tmp_path: Path) -> None:
    code, md, _ = cli("diff", str(PINNED), str(_breaking(tmp_path)), "--format", "markdown",
                      "--exit-zero")
    assert code == 0
    assert md.startswith("### acpgen diff: breaking")
    assert "| kind | where | client | agent | what to do |" in md
    assert "| `PROPERTY_REMOVED` | ReadTextFileRequest.line: optional property removed | compatible | breaking |" in md


def test_the_pointer_locator_finds_nested_members_and_items() -> None:
    text = '{\n  "a": {\n    "b/c": [\n      1,\n      {"d": 2}\n    ]\n  }\n}'
    lines = pointer_lines(text)
    assert lines["/a"] == 2 and lines["/a/b~1c"] == 3 and lines["/a/b~1c/1"] == 5
    assert line_of(lines, "/a/b~1c/1/d") == 5 and line_of(lines, "/a/nope/x") == 2
