"""The pytest plugin (acpgen.pytest_plugin.plugin), run in-process through pytester on small suites.

The rosters are the real pinned roster or a subset of its rows (renumbered, counts fixed), so
every ID a test uses is a real one.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from acpgen.inputs.roster import parse_roster

pytest_plugins = ("pytester",)


@pytest.fixture(scope="module")
def real_roster_path(inputs_dir: Path) -> Path:
    return inputs_dir / "roster" / "requirements.md"


@pytest.fixture(scope="module")
def roster(real_roster_path: Path):  # type: ignore[no-untyped-def]
    return parse_roster(real_roster_path.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _no_ambient_roster(monkeypatch: pytest.MonkeyPatch) -> None:
    # The plugin falls back to $ACPGEN_INPUTS; these tests decide the roster themselves.
    monkeypatch.delenv("ACPGEN_INPUTS", raising=False)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # pytester restores sys.modules after each in-process run, so the hypothesis plugin would
    # re-import hypothesis (seconds) in every one of them; it has nothing to do here.
    return pytester.runpytest("-p", "no:hypothesispytest", "-p", "no:cacheprovider", *args)


def subset_roster(real: Path, ids: list[str], dest: Path) -> Path:
    """A valid roster holding only ``ids`` (rows copied verbatim, renumbered 1..N)."""
    lines = real.read_text(encoding="utf-8").split("\n")
    rows: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines[4:]:
        start = re.match(r"^\| (\d+) \| (\S+) \|", line)
        if start:
            current = rows.setdefault(start.group(2), [line])
        elif current is not None and line.strip():
            current.append(line)
    parsed = parse_roster("\n".join(lines))
    keywords = Counter(r.keyword for r in parsed.requirements if r.id in ids)
    counts = ", ".join(f"{k}: {keywords[k]}" for k in ("MAY", "MUST", "MUST NOT", "SHOULD", "SHOULD NOT") if keywords[k])
    out = [lines[0], f"Requirements: {len(ids)} — {counts}", lines[2], lines[3]]
    for number, req_id in enumerate(ids, start=1):
        first, *rest = rows[req_id]
        out.append(re.sub(r"^\| \d+ \|", f"| {number} |", first))
        out.extend(rest)
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    parse_roster(dest.read_text(encoding="utf-8"))  # the subset must itself be a valid roster
    return dest


def test_unrelated_run_is_untouched_without_roster_or_markers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert "ACP" not in result.stdout.str()
    assert "acp_requirement" in "\n".join(run(pytester, "--markers").outlines)


def test_a_broken_acpgen_lock_does_not_break_an_unrelated_run(pytester: pytest.Pytester) -> None:
    (pytester.path / "schema").mkdir()
    (pytester.path / "schema" / "acp.lock").write_text("this is [not toml\n")
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.slow
def test_unknown_id_is_a_collection_error_naming_it(
    pytester: pytest.Pytester, real_roster_path: Path
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.acp_requirement("ACP-V1-INIT-AGENT-RESPONSE")
        def test_known():
            pass

        @pytest.mark.acp_requirement("ACP-V1-MADE-UP-REQUIREMENT")
        def test_made_up():
            pass
        """
    )
    result = run(pytester, f"--acp-roster={real_roster_path}")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    out = result.stdout.str()
    assert "unknown ACP requirement ID 'ACP-V1-MADE-UP-REQUIREMENT'" in out
    assert "1 error during collection" in out
    assert "ACP-V1-INIT-AGENT-RESPONSE'" not in out  # only the bad ID is reported


def test_malformed_and_empty_markers_are_collection_errors(
    pytester: pytest.Pytester, real_roster_path: Path
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.acp_requirement("init-agent-response")
        def test_lowercase():
            pass

        @pytest.mark.acp_requirement(42)
        def test_number():
            pass

        @pytest.mark.acp_requirement()
        def test_empty():
            pass
        """
    )
    pytester.makepyfile(
        test_class_level="""
        import pytest

        @pytest.mark.acp_requirement("ACP-V1-ALSO-MADE-UP")
        class TestClassLevel:
            def test_inherits(self):
                pass
        """
    )
    result = run(pytester, f"--acp-roster={real_roster_path}")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    out = result.stdout.str()
    assert "2 errors during collection" in out
    assert "malformed ACP requirement ID 'init-agent-response'" in out
    assert "malformed ACP requirement ID 42" in out
    assert "test_empty: @pytest.mark.acp_requirement needs at least one requirement ID" in out
    assert "TestClassLevel::test_inherits: unknown ACP requirement ID 'ACP-V1-ALSO-MADE-UP'" in out


def test_marker_without_any_roster_fails_collection_and_says_how_to_configure(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.acp_requirement("ACP-V1-INIT-AGENT-RESPONSE")
        def test_tagged():
            pass
        """
    )
    result = run(pytester)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "no ACP roster configured: pass --acp-roster=PATH" in result.stdout.str()


def test_explicit_roster_that_is_missing_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = run(pytester, "--acp-roster=nowhere/requirements.md")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "nowhere/requirements.md" in result.stderr.str()


def test_asking_for_coverage_without_any_roster_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")
    for option in ("--acp-coverage", "--acp-require=MUST"):
        result = run(pytester, option)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert "no ACP roster configured" in result.stderr.str()


def test_ini_roster_is_relative_to_the_ini_file(
    pytester: pytest.Pytester, real_roster_path: Path
) -> None:
    (pytester.path / "spec").mkdir()
    (pytester.path / "spec" / "roster.md").write_bytes(real_roster_path.read_bytes())
    pytester.makeini("[pytest]\nacp_roster = spec/roster.md\n")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.acp_requirement("ACP-V1-INIT-AGENT-RESPONSE")
        def test_tagged():
            pass

        @pytest.mark.acp_requirement("ACP-V1-NOT-IN-THE-ROSTER")
        def test_bad():
            pass
        """
    )
    result = run(pytester)
    assert "unknown ACP requirement ID 'ACP-V1-NOT-IN-THE-ROSTER'" in result.stdout.str()


COVERAGE_SUITE = """
import pytest

@pytest.mark.acp_requirement("{must_pass}")
def test_passes():
    pass

@pytest.mark.acp_requirement("{must_fail}")
def test_fails():
    assert False

@pytest.mark.acp_requirement("{mixed}")
def test_mixed_pass():
    pass

@pytest.mark.acp_requirement("{mixed}")
def test_mixed_fail():
    assert False

@pytest.mark.acp_requirement("{stub}")
def test_stub():
    pytest.skip("not implemented: {stub}")

@pytest.mark.acp_requirement("{xfail}")
@pytest.mark.xfail(reason="known gap")
def test_xfail():
    assert False

@pytest.mark.acp_requirement("{must_pass}", "{shared_pass}")
def test_two_ids():
    pass

def test_untagged():
    pass
"""


def test_coverage_json_and_table_match_the_run(
    pytester: pytest.Pytester, roster, real_roster_path: Path
) -> None:
    reqs = roster.requirements
    ids = {
        "must_pass": reqs[3].id,
        "must_fail": reqs[4].id,
        "mixed": reqs[5].id,
        "stub": reqs[6].id,
        "xfail": reqs[7].id,
        "shared_pass": reqs[2].id,
    }
    pytester.makepyfile(test_cov=COVERAGE_SUITE.format(**ids))
    result = run(
        pytester, f"--acp-roster={real_roster_path}", "--acp-coverage=out/cov.json", "--junitxml=j.xml"
    )
    result.assert_outcomes(passed=4, failed=2, skipped=1, xfailed=1)
    # The IDs travel on the reports (JUnit XML properties; a pytest-xdist controller).
    junit = (pytester.path / "j.xml").read_text()
    both = " ".join(sorted([ids["must_pass"], ids["shared_pass"]]))
    assert f'<property name="acp_requirements" value="{both}" />' in junit
    report = json.loads((pytester.path / "out" / "cov.json").read_text())

    entries = report["requirements"]
    assert [e["id"] for e in entries] == [r.id for r in reqs]  # every ID, roster order
    status = {e["id"]: e["status"] for e in entries}
    assert status[ids["must_pass"]] == "passing"
    assert status[ids["shared_pass"]] == "passing"
    assert status[ids["must_fail"]] == "failing"
    assert status[ids["mixed"]] == "failing"  # one failing test is enough to fail the ID
    assert status[ids["stub"]] == "skipped"
    assert status[ids["xfail"]] == "skipped"  # an expected failure is not a pass
    xfail_tests = next(e["tests"] for e in entries if e["id"] == ids["xfail"])
    assert [t["stub"] for t in xfail_tests] == [False]
    tagged = set(ids.values())
    assert all(status[r.id] == "no_test" for r in reqs if r.id not in tagged)
    stub_tests = next(e["tests"] for e in entries if e["id"] == ids["stub"])
    assert stub_tests == [
        {"nodeid": "test_cov.py::test_stub", "outcome": "skipped",
         "reason": f"not implemented: {ids['stub']}", "stub": True}
    ]

    counts = report["counts"]
    assert counts == {
        "passing": 2, "failing": 2, "skipped": 2, "no_test": len(reqs) - 6, "total": len(reqs)
    }
    # The table rows add up to the counts, per keyword and responsibility as in the roster.
    table = report["by_keyword_responsibility"]
    expected_rows = Counter((r.keyword, r.responsibility) for r in reqs)
    assert {(row["keyword"], row["responsibility"]): row["total"] for row in table} == dict(expected_rows)
    for key in ("passing", "failing", "skipped", "no_test"):
        assert sum(row[key] for row in table) == counts[key]

    out = result.stdout.str()
    assert "ACP requirement coverage" in out
    header = next(line for line in result.outlines if line.startswith("keyword"))
    assert re.split(r"\s{2,}", header.strip()) == [
        "keyword", "responsibility", "passing", "failing", "skipped stub", "no test", "total"
    ]
    total_line = next(line for line in result.outlines if line.startswith("total "))
    assert total_line.split()[1:] == [str(counts[k]) for k in ("passing", "failing", "skipped", "no_test", "total")]
    for row in table:
        cells = [row["keyword"], row["responsibility"], *(str(row[k]) for k in ("passing", "failing", "skipped", "no_test", "total"))]
        assert any(re.split(r"\s{2,}", line.strip()) == cells for line in result.outlines), cells


def test_bare_coverage_flag_does_not_swallow_the_next_argument(
    pytester: pytest.Pytester, roster, real_roster_path: Path
) -> None:
    first = roster.requirements[0].id
    pytester.makepyfile(
        test_a=f"import pytest\n\n@pytest.mark.acp_requirement({first!r})\ndef test_a():\n    pass\n",
        test_b="def test_b():\n    assert False\n",
    )
    result = run(pytester, f"--acp-roster={real_roster_path}", "--acp-coverage", "test_a.py")
    result.assert_outcomes(passed=1)  # test_b.py was not collected: test_a.py stayed a path
    report = json.loads((pytester.path / "acp-coverage.json").read_text())
    assert report["counts"]["passing"] == 1


@pytest.mark.slow
def test_require_must_fails_the_run_for_an_sdk_must_without_a_passing_test(
    pytester: pytest.Pytester, roster, real_roster_path: Path, tmp_path: Path
) -> None:
    by = {}
    for r in roster.requirements:
        by.setdefault((r.keyword, r.responsibility), r.id)
    must, must_not = by[("MUST", "sdk")], by[("MUST NOT", "sdk")]
    should, shared = by[("SHOULD", "sdk")], by[("MUST", "shared")]
    small = subset_roster(real_roster_path, [must, must_not, should, shared], tmp_path / "small.md")
    suite = (
        "import pytest\n\n"
        f"@pytest.mark.acp_requirement({must!r})\ndef test_must():\n    pass\n\n"
        f"@pytest.mark.acp_requirement({must_not!r})\ndef test_must_not():\n"
        f"    pytest.skip('not implemented: {must_not}')\n"
    )
    pytester.makepyfile(test_req=suite)
    result = run(pytester, f"--acp-roster={small}", "--acp-require=MUST")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # although no test failed
    result.assert_outcomes(passed=1, skipped=1)
    out = result.stdout.str()
    assert "ACP requirement gate failed" in out
    assert f"  {must_not}" in out and f"  {must}" not in out
    assert should not in out and shared not in out  # SHOULD and shared items are not gated

    pytester.makepyfile(test_req=suite.replace(f"    pytest.skip('not implemented: {must_not}')\n", "    pass\n"))
    result = run(pytester, f"--acp-roster={small}", "--acp-require=MUST")
    assert result.ret == pytest.ExitCode.OK
    assert "every MUST/MUST NOT sdk requirement has a passing test" in result.stdout.str()

    result = run(pytester, f"--acp-roster={small}", "--acp-require=SHOULD")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert f"  {should}" in result.stdout.str()


def test_roster_from_the_acpgen_lock_is_hash_checked(
    pytester: pytest.Pytester, project_root: Path, inputs_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (pytester.path / "schema").mkdir()
    (pytester.path / "schema" / "acp.lock").write_bytes((project_root / "schema" / "acp.lock").read_bytes())
    monkeypatch.setenv("ACPGEN_INPUTS", str(inputs_copy))
    pytester.makepyfile(
        "import pytest\n\n@pytest.mark.acp_requirement('ACP-V1-INIT-AGENT-RESPONSE')\n"
        "def test_a():\n    pass\n"
    )
    result = run(pytester, "--acp-coverage=cov.json")
    result.assert_outcomes(passed=1)
    assert json.loads((pytester.path / "cov.json").read_text())["counts"]["passing"] == 1

    roster = inputs_copy / "roster" / "requirements.md"
    roster.write_bytes(roster.read_bytes().replace(b"MUST be absolute", b"MUST be relative"))
    result = run(pytester)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "the lock pins" in result.stdout.str()


def test_reports_for_tests_this_process_did_not_collect_count_by_their_properties(roster) -> None:  # type: ignore[no-untyped-def]
    # As on a pytest-xdist controller: no items, only reports from the workers.
    from acpgen.pytest_plugin import plugin as pytest_plugin
    from acpgen.pytest_plugin.coverage import build_report

    state = pytest_plugin._State(None)
    hooks = pytest_plugin._RunHooks(None, state)  # type: ignore[arg-type]
    req_id = roster.requirements[0].id
    for when, outcome in (("setup", "passed"), ("call", "passed"), ("teardown", "passed")):
        hooks.pytest_runtest_logreport(pytest.TestReport(
            "w.py::test_remote", ("w.py", 1, "test_remote"), {}, outcome, None, when,
            user_properties=[(pytest_plugin.USER_PROPERTY, req_id)],
        ))
    hooks.pytest_runtest_logreport(pytest.TestReport(
        "w.py::test_untagged", ("w.py", 2, "test_untagged"), {}, "failed", None, "call"
    ))
    report = build_report(roster, state.tracker, None, "roster.md")
    assert report["counts"]["passing"] == 1 and report["counts"]["failing"] == 0
    assert report["requirements"][0]["tests"] == [
        {"nodeid": "w.py::test_remote", "outcome": "passed", "reason": None, "stub": False}
    ]


SKIPPING_SUITE = '''
import pytest

def test_stub():
    pytest.skip("not implemented: ACP-V1-PROMPT-AGENT-STOP-REASON")

def test_other_stub():
    pytest.skip("not implemented: ACP-V1-SETUP-CLIENT-CHECK-LOADSESSION")

@pytest.fixture
def acp_agent():
    pytest.skip('black-box agent check: no agent under test (run with --acp-agent="CMD")')

def test_kit(acp_agent):
    pass

def test_unrelated():
    pytest.skip("needs a GPU")

def test_passes():
    pass
'''


def test_a_run_with_stubs_and_waiting_kit_tests_ends_with_one_line_saying_so(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_sdk=SKIPPING_SUITE)
    result = run(pytester, "-q")
    lines = [line for line in result.outlines if line.strip()]
    assert re.match(r"^1 passed, 4 skipped", lines[-1]), lines
    assert lines[-2] == (
        'acp: 4 skipped: 2 requirement stubs ("not implemented: <ID>": tests for you to write; -rs lists them), '
        '1 conformance-kit tests waiting for a peer under test (run them: pytest test_sdk.py --acp-agent="CMD"), '
        "1 other (-rs lists why)")
    assert sum(line.startswith("acp: ") for line in result.outlines) == 1


def test_a_run_without_acp_skips_prints_no_such_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain='''
import pytest

def test_a():
    pytest.skip("not implemented: someday")

def test_b():
    pass
''')
    result = run(pytester, "-q")
    assert not any(line.startswith("acp: ") for line in result.outlines), result.outlines
