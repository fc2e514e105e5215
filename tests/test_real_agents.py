"""Real agents' initialize results (tests/data/agents/, captured from the published
packages) parse into the v1-unstable models with their unstable members typed, and round-trip
unchanged; the v1-stable models accept them too, keeping those members as unknown extras."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PROJECT_ROOT, generated_dir

AGENTS = PROJECT_ROOT / "tests" / "data" / "agents"


def _models(package: str) -> Any:
    generated_dir()
    return importlib.import_module(f"{package}.models")


def _result(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((AGENTS / f"{name}.initialize.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", sorted(AGENTS.glob("*.initialize.json")), ids=lambda p: p.name)
def test_every_captured_result_round_trips_through_both_v1_surfaces(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    for package in ("acp_v1_unstable", "acp_v1"):
        response = _models(package).InitializeResponse.model_validate(data)
        assert response.model_dump(mode="json", by_alias=True, exclude_unset=True) == data, package


def test_codex_acp_mcp_over_acp_is_typed_in_unstable_only() -> None:
    data = _result("codex-acp-0.16.0")
    assert data["agentCapabilities"]["mcpCapabilities"]["acp"] is False  # the captured value
    unstable = _models("acp_v1_unstable").InitializeResponse.model_validate(data)
    mcp = unstable.agent_capabilities.mcp_capabilities
    assert mcp.acp is False and not mcp.model_extra  # a member, typed bool
    assert "acp" in type(mcp).model_fields
    stable = _models("acp_v1").InitializeResponse.model_validate(data)
    assert stable.agent_capabilities.mcp_capabilities.model_extra == {"acp": False}  # unknown there
    assert unstable.agent_info.name == "codex-acp" and unstable.agent_info.version == "0.16.0"


def test_claude_code_acp_fork_capability_is_typed_in_unstable_only() -> None:
    data = _result("claude-code-acp-0.16.2")
    models = _models("acp_v1_unstable")
    unstable = models.InitializeResponse.model_validate(data)
    fork = unstable.agent_capabilities.session_capabilities.fork
    assert isinstance(fork, models.SessionForkCapabilities)
    assert not unstable.agent_capabilities.session_capabilities.model_extra
    stable = _models("acp_v1").InitializeResponse.model_validate(data)
    assert stable.agent_capabilities.session_capabilities.model_extra == {"fork": {}}
    # And the v1-unstable guards let a client fork on this agent.
    guards = importlib.import_module("acp_v1_unstable.guards")
    guards.check_client_call("session/fork", {"sessionId": "s", "cwd": "/tmp"}, data["agentCapabilities"])
    codex = _result("codex-acp-0.16.0")["agentCapabilities"]
    with pytest.raises(guards.CapabilityError):  # codex-acp 0.16.0 does not advertise fork
        guards.check_client_call("session/fork", {"sessionId": "s", "cwd": "/tmp"}, codex)
