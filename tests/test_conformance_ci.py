"""The kit in an agent's own CI (issue 34): a baseline of known deviations, the registry
profile, and a report that says what ran where (command, kit, options, environment), with a
verdict line and the roster's wording on every failure.

Each test runs the generated kit in a pytest subprocess against tests/support/violating_agent.py
(standard library, starts in milliseconds), selecting a few checks so only a few runs happen.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_conformance import TESTS_DIR, _kit

AGENT = Path(__file__).resolve().parent / "support" / "violating_agent.py"
CHECKS = ["-k", "init_implementation_info or init_agent_same_version or init_agent_response"]


def _agent(violation: str = "") -> str:
    return f"--acp-agent={sys.executable} {AGENT} {violation}".rstrip()


@pytest.mark.slow
def test_a_baseline_fails_the_run_only_on_a_new_failure_or_a_fixed_one(tmp_path: Path) -> None:
    tests = str(TESTS_DIR / "test_conformance_agent.py")
    known = tmp_path / "baseline.json"
    # Written from a run that fails INIT-IMPLEMENTATION-INFO (no agentInfo).
    done, report = _kit([tests, *CHECKS, _agent("INIT-IMPLEMENTATION-INFO"), f"--acp-baseline={known}",
                         "--acp-write-baseline"], tmp_path / "write")
    assert done.returncode == 1, done.stdout[-2000:]  # writing does not hide the failure
    data = json.loads(known.read_text())
    assert data == {"format": "acp-conformance-baseline/1", "agent": ["ACP-V1-INIT-IMPLEMENTATION-INFO"],
                    "client": []}
    # The same deviation again: expected, the run passes, the report marks it known.
    done, report = _kit([tests, *CHECKS, _agent("INIT-IMPLEMENTATION-INFO"), f"--acp-baseline={known}"],
                        tmp_path / "same")
    assert done.returncode == 0, done.stdout[-2000:]
    entry = next(e for e in report["requirements"] if e["id"] == "ACP-V1-INIT-IMPLEMENTATION-INFO")
    assert entry["status"] == "fail" and entry["baseline"] is True
    assert "[known: baseline]" in done.stdout
    # A new failure fails the run.
    done, _report = _kit([tests, *CHECKS, _agent("INIT-AGENT-SAME-VERSION"), f"--acp-baseline={known}"],
                         tmp_path / "new")
    assert done.returncode == 1 and "FAILED" in done.stdout and "INIT-AGENT-SAME-VERSION" in done.stdout
    # The known deviation fixed: the run fails until the baseline says so.
    done, _report = _kit([tests, *CHECKS, _agent(), f"--acp-baseline={known}"], tmp_path / "fixed")
    assert done.returncode == 1
    assert "listed in the baseline as a known deviation, but it passes now" in done.stdout
    # A file that is no baseline is one usage error.
    known.write_text("[1, 2]")
    done, _report = _kit([tests, *CHECKS, _agent(), f"--acp-baseline={known}"], tmp_path / "bad")
    assert done.returncode == 4 and "not an ACP conformance baseline" in done.stderr


@pytest.mark.slow
def test_the_report_says_what_ran_where_with_a_verdict_and_the_roster_wording(tmp_path: Path) -> None:
    md = tmp_path / "report.md"
    done, report = _kit([str(TESTS_DIR / "test_conformance_agent.py"), *CHECKS,
                         _agent("INIT-AGENT-SAME-VERSION"), "--acp-cancel-grace=3",
                         f"--acp-conformance-md={md}"], tmp_path)
    assert done.returncode == 1
    run = report["run"]
    assert run["options"]["acp_cancel_grace"] == 3.0 and run["options"]["acp_timeout"] == 10.0
    assert len(run["kit"]["sha256"]) == 16 and run["kit"]["roster"].startswith("acp-v1-")
    assert run["environment"]["set_by_kit"] == {} and run["environment"]["removed_by_kit"] == []
    assert set(run["environment"]["observed"]) | set(run["environment"]["absent"]) >= {"IS_SANDBOX", "HTTPS_PROXY"}
    verdict = report["verdict"]
    assert verdict["must_conformant"] is False and verdict["must_failed"] == ["ACP-V1-INIT-AGENT-SAME-VERSION"]
    assert verdict["line"].startswith("verdict: NOT conformant at MUST level (1 of ")
    assert verdict["line"] in done.stdout
    # The failure line carries the requirement's wording.
    wording = next(e["text"] for e in report["requirements"] if e["id"] == "ACP-V1-INIT-AGENT-SAME-VERSION")
    assert wording and f"the roster: {wording}" in done.stdout
    assert wording in md.read_text()


@pytest.mark.slow
def test_the_registry_profile_runs_the_registrys_listing_checks(tmp_path: Path) -> None:
    tests = str(TESTS_DIR / "test_conformance_agent.py")
    done, report = _kit([tests, _agent(), "--acp-profile=registry"], tmp_path / "ok")
    assert done.returncode == 0, done.stdout[-2000:]
    ran = {e["id"] for e in report["requirements"] if e["status"] in ("pass", "fail", "skipped")}
    assert ran == {"ACP-V1-INIT-AGENT-RESPONSE", "ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP"}
    assert [a["status"] for a in report["advisories"]] == ["pass", "pass", "pass"]
    # An auth method of a type the registry does not list: the profile fails the run.
    done, report = _kit([tests, _agent("SCHEMA-AUTH-METHOD-VARIANTS"), "--acp-profile=registry"],
                        tmp_path / "auth")
    assert done.returncode == 1, done.stdout[-2000:]
    failing = [a["name"] for a in report["advisories"] if a["status"] == "fail"]
    assert failing == ["registry: an auth method of type agent or terminal"]


def test_a_baseline_file_round_trips_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    from acpgen.shipped.conformance import baseline, run_record

    path = tmp_path / "b.json"
    assert baseline.load(str(path)) == {}  # not written yet: nothing known
    path.write_text(baseline.dump({"agent": {"ACP-V1-B", "ACP-V1-A"}}))
    assert baseline.load(str(path)) == {"agent": {"ACP-V1-A", "ACP-V1-B"}, "client": set()}
    path.write_text('{"format": "acp-conformance-baseline/1", "agent": "ACP-V1-A"}')
    with pytest.raises(baseline.BaselineError, match="'agent' must be a list of requirement IDs"):
        baseline.load(str(path))
    # What the report records of the environment: the variables that change agents, masked.
    env = {"HTTPS_PROXY": "http://user:secret@proxy:3128", "IS_SANDBOX": "1", "PATH": "/bin"}
    recorded = run_record.environment(env)
    assert recorded["observed"] == {"IS_SANDBOX": "1", "HTTPS_PROXY": "http://***@proxy:3128"}
    assert "PATH" not in recorded["observed"] and "HTTP_PROXY" in recorded["absent"]


def test_the_batch_advisory_reads_a_client_run_that_ended_before_its_batches_were_answered() -> None:
    # A client that crashed on the first batch (the Python SDK's example): it ended the run
    # itself with the batch's request outstanding, a proven non-answer (issue 43: it was
    # "skipped"), saying how the run ended; a run a hang guard stopped is not judged.
    from types import SimpleNamespace

    from acpgen.shipped.conformance import advisories
    from acpgen.shipped.conformance.client_scenarios import ClientRun
    from acpgen.shipped.conformance.wire import Transcript, decode_line

    batch = decode_line("out", b'[{"jsonrpc":"2.0","id":"b1","method":"session/request_permission","params":{}}]\n', 0)
    run = ClientRun("batch", Transcript("client-batch", [batch]), exited=True, exit_code=1)
    kit = SimpleNamespace(runner=SimpleNamespace(runs={"batch": run}))
    judged = advisories.batches(kit)
    assert judged["status"] == "fail", judged
    assert judged["message"].endswith("in batch: the peer ended the run with it outstanding "
                                      "(the client exited with status 1)"), judged
    run.timed_out, run.hung = True, "nothing happened on the wire for 10 s"
    judged = advisories.batches(kit)
    assert judged["status"] == "skipped", judged
    assert "the run ended before any later one did" in judged["message"], judged
