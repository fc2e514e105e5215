# Edit acpgen/shipped/runtime/runtime_tests/test_examples.py, not this file: acpgen generate writes it.
"""The example echo agent and example client, as real processes talking ACP over stdio.

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ._package import LATEST_PROTOCOL_VERSION, Client, connect_to_agent, models
from .helpers import module_command, run, subprocess_env

req = pytest.mark.acp_requirement


class Recorder(Client):
    def __init__(self, answer_permissions: bool = True) -> None:
        self.chunks: list[str] = []
        self.permission_asked = asyncio.Event()
        self.answer_permissions = answer_permissions

    async def session_update(self, params: models.SessionNotification) -> None:
        content = getattr(params.update, "content", None)
        if content is not None and getattr(content, "text", None) is not None:
            self.chunks.append(str(content.text))

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        self.permission_asked.set()
        if not self.answer_permissions:
            await asyncio.Event().wait()
        return models.RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": "allow"}}
        )


def _prompt(session_id: str, text: str) -> models.PromptRequest:
    return models.PromptRequest.model_validate(
        {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}
    )


def _stop(response: models.PromptResponse) -> str:
    reason = response.stop_reason
    return str(getattr(reason, "value", reason))


@req(
    "ACP-V1-TRANSPORT-STDIO-SHOULD",
    "ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS",
    "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON",
)
def test_the_echo_agent_streams_and_is_cancelled_over_stdio() -> None:
    async def body() -> None:
        client = Recorder(answer_permissions=False)
        command = module_command("examples.echo_agent")
        async with connect_to_agent(client, command, env=subprocess_env()) as connection:
            init = await connection.initialize(
                models.InitializeRequest.model_validate(
                    {"protocolVersion": LATEST_PROTOCOL_VERSION, "clientCapabilities": {}}
                )
            )
            assert init.protocol_version == LATEST_PROTOCOL_VERSION
            session = await connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
            text = "hello streamed world, with some \u00e9 unicode"
            response = await connection.session_prompt(_prompt(session.session_id, text))
            assert _stop(response) == "end_turn"
            assert "".join(client.chunks) == text and len(client.chunks) > 3
            # A turn that waits for the user's permission, then the user cancels.
            turn = asyncio.ensure_future(
                connection.session_prompt(_prompt(session.session_id, "/permission"))
            )
            await client.permission_asked.wait()
            await connection.session_cancel(
                models.CancelNotification.model_validate({"sessionId": session.session_id})
            )
            assert _stop(await turn) == "cancelled"
            # A turn that runs until cancelled.
            turn = asyncio.ensure_future(
                connection.session_prompt(_prompt(session.session_id, "/wait"))
            )
            while not any("waiting" in c for c in client.chunks):
                await asyncio.sleep(0.01)
            await connection.session_cancel(
                models.CancelNotification.model_validate({"sessionId": session.session_id})
            )
            assert _stop(await turn) == "cancelled"

    run(body(), timeout=60)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is not running
        return stat.read().split(") ", 1)[1][0] != "Z"


@pytest.mark.parametrize("agent_ends", ["by-itself", "never"])
def test_the_example_client_fails_in_one_line_and_leaves_no_agent_process(
    tmp_path: Path, agent_ends: str
) -> None:
    # A launcher (sh) runs the agent as its child and leaves a helper running: the client's
    # error must not leave either behind, nor print a traceback or "Event loop is closed".
    pidfile = tmp_path / "helper.pid"
    agent = shlex.join([sys.executable, "-m", f"{__package__}.raising_agent"])
    tail = "; :" if agent_ends == "by-itself" else "; sleep 300"
    launcher = f"sleep 300 & echo $! > {pidfile}; {agent}{tail}"
    command = module_command("examples.client") + ["--", "sh", "-c", launcher]
    done = subprocess.run(
        command, env=subprocess_env(), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1, done.stderr
    assert "error: the agent answered -32000 Authentication required" in done.stderr
    assert "Traceback" not in done.stderr and "Event loop is closed" not in done.stderr
    helper = int(pidfile.read_text())
    deadline = time.monotonic() + 60  # a hang guard: reaping is slow on a loaded machine
    while _running(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(helper)


def test_the_example_client_drives_the_echo_agent() -> None:
    command = module_command("examples.client") + [
        "--prompt",
        "hi there",
        "--prompt",
        "/permission",
        "--",
        *module_command("examples.echo_agent"),
    ]
    done = subprocess.run(
        command, env=subprocess_env(), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "hi there" in done.stdout
    assert "permission: allow" in done.stdout
    assert done.stdout.count("[stop reason: end_turn]") == 2


@req("ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP", "ACP-V1-JSONRPC-RESPONSE-REQUIRED")
def test_the_echo_agent_answers_requests_read_from_a_file_into_a_file(tmp_path: Path) -> None:
    # stdin and stdout are regular files (not pollable): every request written before EOF
    # is still answered, and stdout holds nothing but ACP frames.
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "session/new",
            "params": {"cwd": "/tmp", "mcpServers": []},
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "session/prompt",
            "params": {"sessionId": "s1", "prompt": [{"type": "text", "text": "from a file"}]},
        },
    ]
    source = tmp_path / "requests.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in requests))
    target = tmp_path / "responses.jsonl"
    with source.open("rb") as stdin, target.open("wb") as stdout:
        done = subprocess.run(
            module_command("examples.echo_agent"),
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=subprocess_env(),
            timeout=60,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    frames = [json.loads(line) for line in target.read_text().splitlines()]
    assert all(frame["jsonrpc"] == "2.0" for frame in frames)
    answers = {f["id"]: f for f in frames if "id" in f}
    assert set(answers) == {0, 1, 2} and all("result" in a for a in answers.values())
    assert answers[2]["result"]["stopReason"] == "end_turn"
    chunks = [
        f["params"]["update"]["content"]["text"]
        for f in frames
        if f.get("method") == "session/update"
    ]
    assert "".join(chunks) == "from a file"


@pytest.mark.parametrize(
    "redirect",
    ["</dev/null", "<&-", "</dev/null >/dev/null", "</dev/null >&-", "<&- >&- 2>&-"],
)
def test_the_echo_agent_ends_cleanly_on_any_stdin_without_input(redirect: str) -> None:
    # /dev/null is a character device that epoll refuses; a closed descriptor may be reused
    # by the event loop itself. Each is the end of input: exit 0, no traceback, no hang.
    command = " ".join(shlex.quote(part) for part in module_command("examples.echo_agent"))
    done = subprocess.run(
        ["sh", "-c", f"exec {command} {redirect}"],
        stdout=subprocess.PIPE if ">" not in redirect else None,
        stderr=subprocess.PIPE if "2>" not in redirect else None,
        env=subprocess_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not done.stderr, done.stderr
    assert not done.stdout


def test_the_echo_agent_serves_a_terminal_and_ends_at_its_end_of_file() -> None:
    import pty

    controller, terminal = pty.openpty()
    try:
        with subprocess.Popen(
            module_command("examples.echo_agent"),
            stdin=terminal,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=subprocess_env(),
        ) as agent:
            os.close(terminal)
            request = {
                "jsonrpc": "2.0",
                "id": 7,
                "method": "initialize",
                "params": {"protocolVersion": 1},
            }
            os.write(controller, json.dumps(request).encode() + b"\n")
            assert agent.stdout is not None
            answer = json.loads(agent.stdout.readline())
            assert answer["id"] == 7 and answer["result"]["protocolVersion"] == 1
            os.write(controller, b"\x04")  # ^D at the start of a line: end of file on a terminal
            _, err = agent.communicate(timeout=60)
            assert agent.returncode == 0, err
            assert b"Traceback" not in err
    finally:
        os.close(controller)
