# Edit acpgen/shipped/conformance/profiles.py, not this file: acpgen generate writes it.
"""Presets of checks (``--acp-profile NAME``): the black-box tests outside the preset are
deselected, and the preset's own rules (advisories) decide the exit status with them."""

from __future__ import annotations

from typing import Any

import pytest

from . import advisories

# name -> the roster requirements the preset keeps (agent side)
PROFILES: dict[str, frozenset[str]] = {
    # The ACP registry's listing checks: initialize answered, an auth method of type agent or
    # terminal, stdout carrying JSON-RPC only (its rules are advisories.registry).
    "registry": frozenset({"ACP-V1-INIT-AGENT-RESPONSE", "ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP"}),
}


class ProfileHooks:
    """pytest hooks of a profile, registered by the plugin when ``--acp-profile`` is given."""

    def __init__(self, name: str, kits: dict[str, Any]) -> None:
        self.keep = PROFILES[name]
        self.name = name
        self.kits = kits

    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        kept, dropped = [], []
        for item in items:
            marker = item.get_closest_marker("acp_requirement")
            black_box = "acp_agent" in getattr(item, "fixturenames", ()) or "acp_client" in getattr(
                item, "fixturenames", ()
            )
            if black_box and marker is not None and marker.args[0] not in self.keep:
                dropped.append(item)
            else:
                kept.append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        kit = self.kits.get("agent")
        failed = [a for a in advisories.judge(kit, self.name) if a["status"] == "fail"]
        if failed and exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
