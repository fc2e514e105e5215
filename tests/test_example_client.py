"""The example client says what it granted: each permission decision is one line on stderr
(which tool call asked, which option was chosen, of which), the agent's text escaped; and the
output docs/writing-a-client.md shows is what a run prints."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT

DECISION = re.compile(r'^\[permission\] tool call "echo-[0-9a-f]{8}" titled "Echo": '
                      r'chose "allow" \("Allow", allow_once\) of "allow", "reject"$')


def _decide(options: list[tuple[str, str, str]], title: str | None = "Edit file") -> tuple[object, str]:
    from acp_v1 import models
    from acp_v1.examples.client import PrintingClient

    err = io.StringIO()
    request = models.RequestPermissionRequest(
        session_id="s", tool_call=models.ToolCallUpdate(tool_call_id="call-1", title=title),
        options=[models.PermissionOption(option_id=i, name=n, kind=models.PermissionOptionKind(k))
                 for i, n, k in options],
    )
    response = asyncio.run(PrintingClient(io.StringIO(), err).session_request_permission(request))
    return response.outcome, err.getvalue()


def test_each_decision_is_one_line_on_stderr(generated_root: Path) -> None:
    from acp_v1 import models

    outcome, said = _decide([("no", "Reject", "reject_once"), ("yes", "Allow always", "allow_always")])
    assert isinstance(outcome, models.RequestPermissionOutcomeSelected) and outcome.option_id == "yes"
    assert said == ('[permission] tool call "call-1" titled "Edit file": chose "yes" ("Allow always", '
                    'allow_always) of "no", "yes"\n')
    outcome, said = _decide([("no", "Reject", "reject_once")], title=None)  # nothing allows: the first
    assert isinstance(outcome, models.RequestPermissionOutcomeSelected) and outcome.option_id == "no"
    assert said.startswith('[permission] tool call "call-1": chose "no"')
    outcome, said = _decide([])
    assert isinstance(outcome, models.RequestPermissionOutcomeCancelled)
    assert said == '[permission] tool call "call-1" titled "Edit file": no options offered; answered cancelled\n'


def test_the_agents_text_cannot_forge_a_line(generated_root: Path) -> None:
    _, said = _decide([("a\n[permission] forged", "x\x1b[2J", "allow_once")], title='"\r\nfake')
    assert said.count("\n") == 1 and "\x1b" not in said and "\r" not in said
    assert '"\\"\\r\\nfake"' in said


def _doc_sample() -> list[str]:
    text = (PROJECT_ROOT / "docs" / "writing-a-client.md").read_text(encoding="utf-8")
    match = re.search(r"--prompt /permission -- python -m acp_v1\.examples\.echo_agent\n```\n\n"
                      r"A terminal shows[^\n]*\n\n```text\n(.*?)```", text, re.DOTALL)
    assert match, "docs/writing-a-client.md no longer shows the example client's permission output"
    return match[1].splitlines()


@pytest.mark.slow
def test_a_run_prints_what_the_docs_show(generated_root: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(generated_root), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "acp_v1.examples.client", "--prompt", "/permission", "--",
         sys.executable, "-m", "acp_v1.examples.echo_agent"],
        capture_output=True, text=True, timeout=120, check=False, env=env, cwd=generated_root,
    )
    assert done.returncode == 0, done.stderr
    (decision,) = done.stderr.splitlines()
    assert DECISION.match(decision), decision
    sample = _doc_sample()
    assert [line for line in sample if not line.startswith("[permission]")] == done.stdout.splitlines()
    (shown,) = [line for line in sample if line.startswith("[permission]")]
    assert DECISION.match(shown) and shown == re.sub(r"echo-[0-9a-f]{8}", "echo-1a2b3c4d", decision)
