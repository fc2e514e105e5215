"""``acpgen diff OLD NEW --migration`` (acpgen/evolve/migration.py): per handler of OLD's Agent
and Client interfaces, what its author changes, each step naming the changes it comes from.
Small edits of the pinned schema pin each rule; the v1 -> v2 run checks the real migration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acpgen.evolve.migration import migration, render_migration
from tests.test_diff import PINNED, _diff_to, _pinned_copy, cli, run


def _steps(result: object) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    return {h.handler: [(s.do, s.changes) for s in h.steps] for h in result.handlers}  # type: ignore[attr-defined]


def test_no_change_leaves_every_handler_unchanged() -> None:
    diff, impact = run(PINNED, PINNED)
    result = migration(diff, impact)
    assert result.handlers and all(not h.steps for h in result.handlers)
    assert {h.handler.split(".")[0] for h in result.handlers} == {"Agent", "Client"}
    assert "Agent.session_prompt" in {h.handler for h in result.handlers}
    assert result.unattached == ()


def test_a_def_change_lands_on_every_handler_whose_method_carries_it(tmp_path: Path) -> None:
    """ReadTextFileRequest.line removed: the agent writes it (breaks), the client reads it (does
    not): the client's handler is not asked to change; a change the client reads is."""
    schema = _pinned_copy()
    del schema["$defs"]["ReadTextFileRequest"]["properties"]["line"]
    diff, impact = _diff_to(tmp_path, schema)
    steps = _steps(migration(diff, impact))
    assert steps["Client.fs_read_text_file"] == []  # it breaks the agent, which has no handler of it
    schema = _pinned_copy()
    schema["$defs"]["ReadTextFileRequest"]["properties"]["path"]["type"] = ["string", "null"]
    diff, impact = _diff_to(tmp_path, schema)
    steps = _steps(migration(diff, impact))
    assert steps["Client.fs_read_text_file"] == [
        ("handle null (None) in ReadTextFileRequest.path where your client reads it",
         ("NULLABLE_ADDED ReadTextFileRequest.path",))]
    assert all(not s for h, s in steps.items() if h != "Client.fs_read_text_file")


def test_one_step_names_every_change_it_comes_from(tmp_path: Path) -> None:
    schema = _pinned_copy()
    for name in ("ReadTextFileRequest", "WriteTextFileRequest"):
        schema["$defs"][name]["properties"]["path"]["type"] = ["string", "null"]
    diff, impact = _diff_to(tmp_path, schema)
    result = migration(diff, impact)
    text = render_migration(diff, result)
    assert "Client.fs_write_text_file (fs/write_text_file): 1 step(s)" in text
    assert "      from: NULLABLE_ADDED WriteTextFileRequest.path" in text
    assert "unchanged handlers (" in text and "Agent.session_prompt" in text


@pytest.mark.slow
def test_v1_to_v2_migration_per_handler() -> None:
    code, out, err = cli("diff", "v1", "v2", "--migration", "--json")
    assert code == 3, err  # the diff's own verdict: breaking
    doc = json.loads(out)
    steps = {h["handler"]: {s["do"]: s["changes"] for s in h["steps"]} for h in doc["handlers"]}
    assert steps["Agent.authenticate"] == {
        "call and handle auth/login instead of authenticate": ["METHOD_RENAMED authenticate"]}
    # A removed method's handler goes, though only its callers break.
    assert steps["Client.fs_read_text_file"] == {
        "stop calling fs/read_text_file from your agent, and drop its handler":
            ["METHOD_REMOVED fs/read_text_file"]}
    init = steps["Agent.initialize"]
    assert init["set info wherever your agent builds InitializeResponse (NEW requires it or "
                "InitializeResponse forbids unknown members)"] == ["PROPERTY_ADDED InitializeResponse.info"]
    assert init["stop advertising agentCapabilities.loadSession"] == [
        "CAPABILITY_REMOVED agentCapabilities.loadSession"]
    assert steps["Client.session_update"][
        "handle the variant state_update of SessionUpdate where your client reads it"] == [
        "VARIANT_ADDED SessionUpdate[state_update]"]
    assert steps["Agent.session_list"] == {}
    unattached = {s["do"]: s["changes"] for s in doc["unattached"]}
    assert unattached["stop advertising clientCapabilities.fs"] == ["CAPABILITY_REMOVED clientCapabilities.fs"]
    # Every change kind named is one --explain takes.
    from acpgen.evolve.compat import RULES
    named = {c.split()[0] for h in doc["handlers"] for s in h["steps"] for c in s["changes"]}
    assert named and named <= set(RULES)
    code, _, err = cli("diff", "v1", "v2", "--migration", "--format", "github")
    assert code == 2 and "--migration prints text or json" in err
