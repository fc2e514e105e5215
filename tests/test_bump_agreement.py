"""After a bump, the report's broken derived claims and the generated tests agree.

``acpgen bump`` to the npm 2.0.0 schema keeping the pinned roster (--accept-roster-mismatch):
the report lists, by requirement ID, the claims that no longer hold; the regenerated
requirement tests mark exactly those as strict expected failures that name the roster
revision and the schema it was written for; every other generated test passes or is a stub.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import HISTORY, PROJECT_ROOT, generated_dir, run_acpgen

from acpgen.ir.build import build_ir
from acpgen.model.claim_verdicts import broken_requirements, claim_verdicts

NPM_2_0_0 = "history/schema-v1-from-npm-sdk-2.0.0.json"


def test_the_pinned_schema_breaks_no_claim(project) -> None:  # type: ignore[no-untyped-def]
    verdicts = claim_verdicts(project.roster, project.ir)
    assert len({v.requirement for v in verdicts}) == 31
    assert [v for v in verdicts if v.problem] == []


def test_an_older_schema_breaks_the_claims_it_lacks(project) -> None:  # type: ignore[no-untyped-def]
    old = json.loads((HISTORY / "schema-v1.21.0.json").read_text())
    broken = broken_requirements(project.roster, build_ir(old, project.meta))
    assert broken == {"ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS": [
        "/$defs/ToolCall: declared properties: missing ['name']",
        "/$defs/ToolCallUpdate: declared properties: missing ['name']"]}


@pytest.mark.slow
def test_bump_report_and_generated_tests_name_the_same_requirements(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(PROJECT_ROOT / "schema", project / "schema")  # the lock and the inputs
    new_schema = project / "schema" / "inputs" / NPM_2_0_0  # bump takes files inside the inputs
    new_schema.parent.mkdir()
    shutil.copyfile(HISTORY / new_schema.name, new_schema)
    # The session's tree, generated from the pinned inputs (not the committed generated/).
    shutil.copytree(generated_dir(), project / "generated",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = run_acpgen("bump", "--schema", str(new_schema), "--accept-roster-mismatch",
                      "--json", "--project", str(project), timeout=600)
    assert done.returncode == 0, done.stderr  # applied (bump defaults to --fail-on never)
    report = json.loads(done.stdout)
    assert report["verdict"] == "compatible" and (report["exit_code"], report["verdict_code"]) == (0, 1)
    reported = {b["requirement"] for b in report["roster"]["broken_claims"]}
    assert reported == {"ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS"}

    coverage = tmp_path / "coverage.json"
    run = run_acpgen_pytest(project, coverage)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    data = json.loads(coverage.read_text())
    roster_sha = "3c17bd6385d9"
    xfailed = {}
    for entry in data["requirements"]:
        for test in entry["tests"]:
            assert test["outcome"] != "failed", test
            if test["outcome"] == "skipped" and not test["stub"]:
                xfailed[entry["id"]] = test["reason"]
    assert set(xfailed) == reported
    for reason in xfailed.values():
        assert f"roster acp-v1-2797d331-r2 was written for schema {roster_sha}" in reason, reason
        assert report["roster"]["broken_claims"][0]["problem"] in reason


def run_acpgen_pytest(project: Path, coverage: Path):  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ACPGEN_INPUTS"}  # the lock finds them
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
         f"--acp-coverage={coverage}", "generated/tests",
         # The black-box conformance tests skip without --acp-agent/--acp-client by design.
         "--ignore=generated/tests/test_conformance_agent.py",
         "--ignore=generated/tests/test_conformance_client.py"],
        cwd=project, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
