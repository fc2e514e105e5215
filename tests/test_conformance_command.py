"""`acpgen conformance`: the kit from any directory, its exit codes and its reports.

The runs start the real command in a subprocess from an empty directory (no project there:
acpgen's built-in one), against tests/support/violating_agent.py (standard library, starts
in milliseconds; it keeps every requirement the kit checks unless told to break one). The
report writers are tested on reports built here by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import PROJECT_ROOT, generated_dir, run_acpgen

from acpgen.cli.main import main
from acpgen.shipped.conformance import evidence, junit, report
from acpgen.shipped.conformance.wire import Transcript, decode_line

SUPPORT = Path(__file__).resolve().parent / "support"
AGENT = SUPPORT / "violating_agent.py"


def observable(side: str) -> set[str]:
    """The requirements schema/conformance.toml says a run against ``side`` observes."""
    rows = tomllib.loads((PROJECT_ROOT / "schema" / "conformance.toml").read_text(encoding="utf-8"))
    return {r["id"] for r in rows["requirement"] if r["observable"] in (side, "both")}


def junit_cases(path: Path) -> dict[str, ET.Element]:
    """The JUnit file's requirement test cases by requirement ID (``ID [KEYWORD]``)."""
    root = ET.parse(path).getroot()
    cases = {}
    for case in root.iter("testcase"):
        name = case.get("name", "")
        if name.startswith("ACP-V1-"):
            req_id = name.split(" ")[0]
            assert req_id not in cases, f"{req_id} listed twice"
            cases[req_id] = case
    return cases


def _env() -> dict[str, str]:
    # The suite's own pytest must not reach the kit's (PYTEST_ADDOPTS, PYTEST_XDIST_*, ...).
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


def conformance(cwd: Path, *args: str) -> Any:
    cwd.mkdir(parents=True, exist_ok=True)
    return run_acpgen("conformance", *args, cwd=cwd, env=_env(), timeout=900)


def agent(violation: str = "") -> str:
    return f"{sys.executable} {AGENT} {violation}".rstrip()


# -- bad usage: one line, exit 2, nothing run or written ----------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    ([], 'give --agent "CMD", --agent-url URL or --client "CMD ... {agent}"'),
    (["--agent", "a", "--agent-url", "ws://127.0.0.1:1/acp"], "--agent-url: give --agent or --agent-url, not both"),
    (["--client", "my-client --stdio"], "--client: 'my-client --stdio' has no {agent}"),
    (["--agent", "my-agent 'unclosed"], "--agent: \"my-agent 'unclosed\" is not a command line"),
    (["--agent", "  "], "--agent: the command is empty"),
    (["--agent-url", "ftp://host/acp"], "--agent-url: 'ftp://host/acp' is not a ws://, wss://, http:// or https:// URL"),
    (["--agent", "a", "--write-baseline"], "--write-baseline: needs --baseline FILE"),
    (["--agent", "a", "--json", "--md", "-"], "--md: - (stdout) and --json both want stdout"),
])
def test_bad_usage_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["conformance", *args, "--junit", "out.xml"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("acpgen: error: ") and message in lines[0], lines
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_file_that_is_no_baseline_is_bad_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "known.json").write_text("[1, 2]")
    result = CliRunner().invoke(main, ["conformance", "--agent", "a", "--baseline", "known.json"])
    assert result.exit_code == 2
    assert result.output.strip() == ("acpgen: error: --baseline: known.json: not an ACP conformance "
                                     "baseline (format 'acp-conformance-baseline/1')")


def test_a_timeout_of_zero_is_refused_by_the_option() -> None:
    result = CliRunner().invoke(main, ["conformance", "--agent", "a", "--timeout", "0"])
    assert result.exit_code == 2 and "--timeout" in result.output


# -- the report writers, on reports built by hand ---------------------------------------------


def _entry(req_id: str, keyword: str, status: str, message: str = "", **extra: Any) -> dict[str, Any]:
    return {"id": req_id, "keyword": keyword, "role": "agent", "status": status, "message": message,
            "text": f"the words of {req_id}", **extra}


def _report(entries: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    must = [e for e in entries if e["keyword"] in ("MUST", "MUST NOT") and e["status"] in ("pass", "fail")]
    return {"side": "agent", "command": "my-agent --acp", "requirements": entries,
            "verdict": {"line": "verdict: ...", "must_judged": len(must)}, "advisories": [], **extra}


def test_the_junit_file_has_a_case_per_judged_requirement_and_failures_carry_their_frames() -> None:
    entries = [
        _entry("ACP-V1-INIT-A", "MUST", "pass"),
        _entry("ACP-V1-INIT-B", "MUST", "fail", "asked for 1, got 0", scenarios=["basic"]),
        _entry("ACP-V1-WIRE-C", "SHOULD", "skipped", "the agent never streamed"),
        _entry("ACP-V1-INIT-D", "MUST", "fail", "a known one", baseline=True, scenarios=["version"]),
        _entry("ACP-V1-UI-E", "MAY", "not observable", "user interface"),
        _entry("ACP-V1-INIT-F", "MUST", "not run"),
    ]
    built = _report(entries, transcripts={"basic": ['+0.000s client (kit): {"id":1}', "+0.1s agent: \x07bell"],
                                          "version": ["+0.000s agent: v"]})
    built["advisories"] = [{"name": "batch", "strength": "SHOULD", "status": "fail", "message": "no array"}]
    transport = {"url": "ws://h/acp", "transport": [
        {"id": "RFD-WS-UPGRADE", "rfd": "the upgrade carries it", "status": "fail", "message": "no header"},
        {"id": "RFD-WS-TEXT-FRAMES", "rfd": "text", "status": "pass", "message": ""}]}
    root = ET.fromstring(junit.to_junit([built], transport))
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"ACP-V1-INIT-A [MUST]", "ACP-V1-INIT-B [MUST]", "ACP-V1-WIRE-C [SHOULD]",
                          "ACP-V1-INIT-D [MUST]", "ACP-V1-INIT-F [MUST]", "batch [SHOULD]",
                          "RFD-WS-UPGRADE", "RFD-WS-TEXT-FRAMES"}  # not observable: left out
    assert list(cases["ACP-V1-INIT-A [MUST]"]) == []
    failure = cases["ACP-V1-INIT-B [MUST]"].find("failure")
    assert failure is not None and failure.get("message") == "asked for 1, got 0"
    assert "the words of ACP-V1-INIT-B" in (failure.text or "")
    assert "frames of the scenario 'basic':" in (failure.text or "") and '{"id":1}' in (failure.text or "")
    assert "\x07" not in (failure.text or "")  # XML 1.0 cannot hold it
    known = cases["ACP-V1-INIT-D [MUST]"]
    assert (known.find("skipped").get("message") or "").startswith("known deviation (baseline)")  # type: ignore[union-attr]
    assert "+0.000s agent: v" in (known.findtext("system-out") or "")
    assert cases["ACP-V1-WIRE-C [SHOULD]"].find("skipped").get("message") == "the agent never streamed"  # type: ignore[union-attr]
    assert cases["RFD-WS-UPGRADE"].find("failure") is not None and cases["RFD-WS-TEXT-FRAMES"].find("failure") is None
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("8", "3", "3")


def test_a_run_fails_on_a_must_failure_a_stale_baseline_entry_or_a_profile_rule_only() -> None:
    ok = _report([_entry("ACP-V1-A", "MUST", "pass"), _entry("ACP-V1-B", "SHOULD", "fail", "late"),
                  _entry("ACP-V1-C", "MUST", "fail", "known", baseline=True)])
    assert report.run_failures(ok) == []
    bad = _report([_entry("ACP-V1-A", "MUST NOT", "fail", "it did"),
                   _entry("ACP-V1-B", "MAY", "fail", "listed, passes now", stale_baseline=True)])
    bad["advisories"] = [{"name": "registry: initialize answered", "strength": "registry", "status": "fail",
                          "message": "no"}, {"name": "batch", "strength": "SHOULD", "status": "fail", "message": "x"}]
    assert report.run_failures(bad) == ["ACP-V1-A (MUST NOT): it did", "ACP-V1-B (MAY): listed, passes now",
                                        "registry: initialize answered: no"]
    assert report.run_failures(_report([_entry("ACP-V1-B", "SHOULD", "pass")])) == ["no MUST requirement was judged"]


def test_the_summary_says_options_and_environment_in_words() -> None:
    run = {"cwd": "/work", "kit": {"sha256": "ab12", "roster": "acp-v1-x"},
           "options": {"acp_timeout": 10.0, "acp_slow_prompt": "/wait", "acp_logout": False, "acp_baseline": None},
           "environment": {"set_by_kit": {}, "removed_by_kit": [], "observed": {"CI": "true"}, "absent": ["HOME"]}}
    lines = report.run_words(run)
    assert lines == [
        "ran in /work",
        "kit: sources sha256 ab12, roster acp-v1-x",
        "options: 10 s for each answer, slow prompt '/wait'; not given: logout, baseline",
        ("environment: passed on unchanged (the kit set and removed nothing); of the variables known "
         "to change agents, set: CI=true; not set: HOME"),
    ]
    assert not any(c in "".join(lines) for c in "{}[]")


def test_the_evidence_keeps_the_ends_of_a_long_transcript() -> None:
    frames = [decode_line("in" if i % 2 else "out", f'{{"n":{i}}}\n'.encode(), float(i)) for i in range(10)]
    lines = evidence.frame_lines("agent", Transcript("basic", frames), limit=4)
    assert lines == ['+0.000s client (kit): {"n":0}', '+1.000s agent: {"n":1}',
                     "... 6 frames left out (--acp-transcripts keeps every one)",
                     '+8.000s client (kit): {"n":8}', '+9.000s agent: {"n":9}']


# -- real runs ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_conformant_agent_exits_0_and_every_judged_requirement_is_a_junit_case(tmp_path: Path) -> None:
    done = conformance(tmp_path / "empty", "--agent", agent(), "--junit", "out.xml", "--transcripts", "frames",
                       "--slow-prompt", "/wait", "--permission-prompt", "/permission")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.endswith("JUnit XML written to out.xml\ntranscripts written to frames\n"
                                "acpgen conformance: conformant at MUST level\n"), done.stdout[-500:]
    assert "{" not in done.stdout.split("ran in ", 1)[1]  # options and environment in words
    cases = junit_cases(tmp_path / "empty" / "out.xml")
    assert set(cases) == observable("agent")
    assert not [c for c in cases.values() if c.find("failure") is not None]
    assert any(c.find("skipped") is None for c in cases.values())
    # Each scenario's frames, as a trace file: the kit (as the client) speaks first.
    traces = sorted((tmp_path / "empty" / "frames").glob("agent-*.jsonl"))
    assert {t.stem for t in traces} >= {"agent-basic", "agent-wire", "agent-cancel", "agent-permission"}
    for trace in traces:
        header, first, *rest = [json.loads(line) for line in trace.read_text().splitlines()]
        assert header["kind"] == "acp-trace" and header["scenario"] == trace.stem.removeprefix("agent-")
        assert first["from"] == "client" and json.loads(first["data"])["method"] == "initialize"
        assert rest[-1]["end"] is True and any(r.get("from") == "agent" for r in rest)
    # ... which the trace tools read: the page of one, as docs/conformance.md says.
    page = tmp_path / "basic.html"
    drawn = subprocess.run([sys.executable, "-m", "acp_v1.trace", "html", str(traces[0].parent / "agent-basic.jsonl"),
                            "-o", str(page)], env={**_env(), "PYTHONPATH": str(generated_dir())},
                           capture_output=True, text=True, timeout=120, check=False)
    assert drawn.returncode == 0, drawn.stderr
    assert "session/prompt" in page.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_violation_exits_1_with_its_frames_and_a_baseline_of_it_passes_the_run(tmp_path: Path) -> None:
    violation = "ACP-V1-INIT-AGENT-SAME-VERSION"
    where = tmp_path / "empty"
    done = conformance(where, "--agent", agent(violation), "--junit", "out.xml", "--baseline", "known.json",
                       "--write-baseline", "--json")
    assert done.returncode == 1, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["exit_code"] == 1 and result["conformant"] is False
    assert [w.split(" ")[1] for w in result["why"]] == [violation]
    failure = junit_cases(where / "out.xml")[violation].find("failure")
    assert failure is not None and failure.get("type") == "MUST"
    # The evidence: the agent's own answer to initialize, as it travelled.
    assert '"protocolVersion":0' in (failure.text or "") and "agent: " in (failure.text or "")
    assert json.loads((where / "known.json").read_text())["agent"] == [violation]
    # The same deviation, known: the run passes, the JUnit file says it is known.
    done = conformance(where, "--agent", agent(violation), "--junit", "again.xml", "--baseline", "known.json")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "(1 known deviations of the baseline)" in done.stdout
    skipped = junit_cases(where / "again.xml")[violation].find("skipped")
    assert skipped is not None and (skipped.get("message") or "").startswith("known deviation (baseline)")


@pytest.mark.slow
def test_a_baseline_entry_that_passes_now_fails_the_run(tmp_path: Path) -> None:
    where = tmp_path / "empty"
    where.mkdir()
    (where / "known.json").write_text(json.dumps({"format": "acp-conformance-baseline/1",
                                                  "agent": ["ACP-V1-INIT-AGENT-RESPONSE"], "client": []}))
    done = conformance(where, "--agent", agent(), "--profile", "registry", "--baseline", "known.json")
    assert done.returncode == 1, done.stdout[-3000:]
    assert "ACP-V1-INIT-AGENT-RESPONSE (MUST): listed in the baseline" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("side", "command", "why"), [
    ("agent", "no-such-agent-for-acp", "command not found: 'no-such-agent-for-acp'"),
    ("agent", f"{sys.executable} -c pass", "the agent closed its stdout"),
    ("client", f"{sys.executable} -c pass {{agent}}", "the client never started the kit's agent"),
])
def test_an_implementation_that_cannot_start_exits_4_with_one_error_line(
        side: str, command: str, why: str, tmp_path: Path) -> None:
    done = conformance(tmp_path, f"--{side}", command, "--junit", "out.xml")
    assert done.returncode == 4, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"acpgen: error: the {side} cannot be run: ") and why in line
    root = ET.parse(tmp_path / "out.xml").getroot()
    errors = [c for c in root.iter("testcase") if c.find("error") is not None]
    assert len(errors) == 1 and why in (errors[0].find("error").get("message") or "")  # type: ignore[union-attr]


@pytest.mark.slow
def test_the_kits_session_is_never_spread_over_xdist_workers(tmp_path: Path) -> None:
    # With xdist's workers the scenarios would run in them and the report (advisories,
    # frames) would miss what they saw: a `-n` of the caller's is refused instead.
    pytest.importorskip("xdist")
    env = {**_env(), "PYTEST_ADDOPTS": "-n 2"}
    done = run_acpgen("conformance", "--agent", agent(), "--profile", "registry", cwd=tmp_path, env=env, timeout=900)
    assert done.returncode == 2, done.stdout[-3000:] + done.stderr[-3000:]
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("acpgen: error: acpgen conformance: the kit did not run (pytest exit 4): ")
    assert line.endswith("error: unrecognized arguments: -n")


@pytest.mark.slow
def test_a_client_and_an_agent_are_checked_in_one_run(tmp_path: Path) -> None:
    client = f"{sys.executable} -m acp_v1.examples.client --prompt hello -- {{agent}}"
    env = {**_env(), "PYTHONPATH": str(generated_dir())}  # the example client's package
    where = tmp_path / "empty"
    where.mkdir()
    done = run_acpgen("conformance", "--client", client, "--agent", agent(), "--md", "report.md",
                      "--junit", "out.xml", "--json", cwd=where, env=env, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert (result["agent"]["side"], result["client"]["side"]) == ("agent", "client")
    suites = {s.get("name", "").split(":")[0]: s for s in ET.parse(where / "out.xml").getroot().iter("testsuite")}
    assert set(suites) == {"ACP conformance (agent)", "ACP conformance (client)"}
    for side in ("agent", "client"):
        names = [c.get("name", "").split(" ")[0] for c in suites[f"ACP conformance ({side})"].iter("testcase")]
        assert sorted(n for n in names if n.startswith("ACP-V1-")) == sorted(observable(side))
    markdown = (where / "report.md").read_text()
    assert markdown.startswith("**ACP v1 conformance (agent)**") and "**ACP v1 conformance (client)**" in markdown


@pytest.mark.slow
def test_the_markdown_report_alone_on_stdout(tmp_path: Path) -> None:
    done = conformance(tmp_path, "--agent", agent(), "--profile", "registry", "--md", "-")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.startswith("**ACP v1 conformance (agent)**")
    assert "| ACP-V1-INIT-AGENT-RESPONSE | MUST | pass |" in done.stdout
    assert "acpgen conformance: conformant at MUST level" in done.stderr  # the summary moved aside
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["ws", "http"])
def test_a_remote_agent_is_checked_at_its_url_with_the_rfd_rules_in_the_junit_file(profile: str, tmp_path: Path) -> None:
    from test_remote_kit import ECHO, ECHO_URL, listening  # the generated echo agent, served

    from acpgen.shipped.conformance.transport_rules import RULES

    env = {**_env(), "PYTHONPATH": str(generated_dir())}
    where = tmp_path / "empty"
    where.mkdir()
    with listening(ECHO, env, ECHO_URL) as url:
        target = "ws" + url[4:] if profile == "ws" else url  # the server speaks both on one port
        done = run_acpgen("conformance", "--agent-url", target, "--junit", "out.xml", "--json",
                          "--slow-prompt", "/wait", "--permission-prompt", "/permission",
                          cwd=where, env=_env(), timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout)
    statuses = {r["id"]: r["status"] for r in result["transport"]["transport"]}
    assert set(statuses) == {r.id for r in RULES} and "fail" not in statuses.values(), statuses
    root = ET.parse(where / "out.xml").getroot()
    rules = [c.get("name") for s in root.iter("testsuite") if "RFD rules" in (s.get("name") or "")
             for c in s.iter("testcase")]
    assert sorted(rules) == sorted(r.id for r in RULES)  # type: ignore[type-var]
    assert set(junit_cases(where / "out.xml")) == observable("agent")
