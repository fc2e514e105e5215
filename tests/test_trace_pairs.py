"""Traces recorded between real pairs, judged offline, give the verdicts the live kit gives.

The generated example client drives, through the recorder, the generated echo agent and an
echo agent on the official Python SDK (agent-client-protocol 0.12.1, tests/test_interop.py
run as a script). The live kit runs against the same agents (and against the same client);
for every requirement both decided (pass or fail: the trace judged it, the kit observed it),
the verdicts agree."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import INPUTS, generated_dir
from test_conformance import GENERATED, PYTHON, TESTS_DIR, _kit
from test_conformance_matrix import ALSO_BREAKS

generated_dir()  # on sys.path: the tree generated now
from acp_v1.conformance.validate import Validator
from acp_v1.trace.format import read_trace
from acp_v1.trace.judge import judge

pytestmark = pytest.mark.slow  # real processes and three live kit runs

ECHO = [PYTHON, "-m", "acp_v1.examples.echo_agent"]
OFFICIAL = [PYTHON, str(Path(__file__).with_name("test_interop.py")), "--official-agent"]
CLIENT = [PYTHON, "-m", "acp_v1.examples.client", "--prompt", "hello world", "--prompt", "again"]
DECIDED = ("pass", "fail")
# The kit's scenarios that send what no editor sends (lines that are no JSON, JSON that is no
# request, batches): a live verdict drawn from them rests on observations a recorded
# conversation of these peers does not have (the recordings hold no batch: checked below).
PROVOKED = ("[wire]", "[batch]")


def record(path: Path, agent: list[str]) -> dict[tuple[str, str], str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    done = subprocess.run(
        [*CLIENT, "--", PYTHON, "-m", "acp_v1.trace", "record", "-o", str(path), "--", *agent],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "[stop reason: end_turn]" in done.stdout
    trace = read_trace(path)
    assert not any(f.raw.lstrip().startswith(b"[") for f in trace.frames)  # no batch
    verdicts = judge(trace, Validator("acp_v1"))
    return {(v.side, v.req_id): v.status for v in verdicts}


def live(args: list[str], tmp_path: Path) -> dict[str, str]:
    tmp_path.mkdir()
    _done, report = _kit(args, tmp_path)
    return {e["id"]: e["status"] + " " + e["message"] for e in report["requirements"]}


def agreement(trace: dict[tuple[str, str], str], kit: dict[str, str], side: str) -> dict[str, Any]:
    common = {
        req_id: (status, kit[req_id])
        for (s, req_id), status in trace.items()
        if s == side and status in DECIDED and kit.get(req_id, "").split(" ")[0] in DECIDED
        and not any(scenario in kit[req_id] for scenario in PROVOKED)
    }
    differ = {k: v for k, v in common.items() if v[0] != v[1].split(" ")[0]}
    return {"common": common, "differ": differ}


def test_offline_verdicts_agree_with_the_live_kit(tmp_path: Path) -> None:
    agent_tests = str(TESTS_DIR / "test_conformance_agent.py")
    client = shlex.join([*CLIENT, "--"]) + " {agent}"
    with ThreadPoolExecutor(3) as pool:  # the kit runs mostly wait on their peers
        live_echo = pool.submit(live, [agent_tests, f"--acp-agent={' '.join(ECHO)}"], tmp_path / "echo")
        live_official = pool.submit(live, [agent_tests, f"--acp-agent={' '.join(OFFICIAL)}"],
                                    tmp_path / "official")
        live_client = pool.submit(live, [str(TESTS_DIR / "test_conformance_client.py"),
                                         f"--acp-client={client}"], tmp_path / "client")
        echo = record(tmp_path / "echo.jsonl", ECHO)
        official = record(tmp_path / "official.jsonl", OFFICIAL)
        kits = {"echo": live_echo.result(), "official": live_official.result(),
                "client": live_client.result()}
    checks = {
        "echo agent": agreement(echo, kits["echo"], "agent"),
        "official agent": agreement(official, kits["official"], "agent"),
        "example client": agreement(echo, kits["client"], "client"),
    }
    summary = {name: (len(c["common"]), c["differ"]) for name, c in checks.items()}
    assert all(not differ for _n, differ in summary.values()), json.dumps(summary, indent=1)
    assert all(count >= 15 for count, _d in summary.values()), summary  # a real overlap
    # The recordings are clean: what the live kit fails in these peers needs its provocations.
    assert [k for k, s in {**echo, **official}.items() if s == "fail"] == []


def test_the_kits_tests_judge_a_trace(tmp_path: Path) -> None:
    """``pytest --acp-trace FILE``: both sides' black-box tests report the judge's verdicts."""
    from test_trace import chunk, clean, write_trace

    trace = write_trace(tmp_path / "t.jsonl", [*clean(), ("agent", chunk("late"))])
    report = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(GENERATED)
    done = subprocess.run(
        [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q",
         f"--acp-roster={INPUTS / 'roster' / 'requirements.md'}",
         str(TESTS_DIR / "test_conformance_agent.py"), str(TESTS_DIR / "test_conformance_client.py"),
         f"--acp-trace={trace}", f"--acp-conformance-json={report}"],
        cwd=GENERATED.parent, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]  # one requirement fails
    assert "ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE" in done.stdout and "(frames 9, 10)" in done.stdout
    agent = {e["id"]: e for e in json.loads(Path(f"{report}.agent").read_text())["requirements"]}
    client = {e["id"]: e for e in json.loads(Path(f"{report}.client").read_text())["requirements"]}
    assert [i for i, e in agent.items() if e["status"] == "fail"] == ["ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE"]
    assert [i for i, e in client.items() if e["status"] == "fail"] == []
    assert agent["ACP-V1-JSONRPC-VERSION-MEMBER"]["status"] == "pass"
    assert "not judged from a trace" in agent["ACP-V1-INIT-AGENT-SAME-VERSION"]["message"]
    assert "not exercised by the trace" in agent["ACP-V1-JSONRPC-ERROR-CODE-INTEGER"]["message"]


VIOLATING = Path(__file__).parent / "support" / "violating_agent.py"  # the kit matrix's agent
# Violations an ordinary conversation shows (the others need the kit's provocations).
SEEN_IN_A_CONVERSATION = ("ACP-V1-TRANSPORT-UTF8", "ACP-V1-JSONRPC-VERSION-MEMBER",
                          "ACP-V1-OVERVIEW-ABSOLUTE-PATHS", "ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS",
                          "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED", "ACP-V1-EXT-META-TRACE-KEYS-RESERVED")


def test_a_recorded_violation_fails_offline_as_it_fails_live(tmp_path: Path) -> None:
    """The kit matrix's violating agent, breaking one requirement at a time: the trace of a
    conversation with it fails exactly that requirement; and for one of them the live kit,
    run on the same agent, gives the same verdicts wherever both decided (a failure among them)."""
    agent_tests = str(TESTS_DIR / "test_conformance_agent.py")
    shown = "ACP-V1-JSONRPC-VERSION-MEMBER"
    with ThreadPoolExecutor(1) as pool:
        kit = pool.submit(live, [agent_tests, f"--acp-agent={PYTHON} {VIOLATING} {shown}"],
                          tmp_path / "live")
        judged = {req_id: record(tmp_path / f"{req_id}.jsonl", [PYTHON, str(VIOLATING), req_id])
                  for req_id in SEEN_IN_A_CONVERSATION}
        live_verdicts = kit.result()
    for req_id, verdicts in judged.items():
        # The violation, and what the same bytes break too (issue 34, class g: the matrix's list).
        expected = sorted(("agent", r) for r in {req_id} | ALSO_BREAKS.get(req_id, set()))
        assert sorted(k for k, s in verdicts.items() if s == "fail") == expected, req_id
    both = agreement(judged[shown], live_verdicts, "agent")
    assert both["differ"] == {} and both["common"][shown][0] == "fail", both
