"""acpgen diff on the real upstream schema release history (tests/data/releases/).

EXPECTED is the reviewed expectation for every consecutive pair, reasoned from the concrete
change (the raw JSON of both releases and the upstream changelog), never from the tool's
output: B = something breaks a client or an agent generated from OLD, C = compatible (or no
change). Pairs where the tool still disagrees are listed in KNOWN with the reason; they are
strict expected failures, so fixing one turns the test red until the entry is removed.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from acpgen.evolve.report import exit_code
from tests.evolve.releases import pair_id, pairs
from tests.evolve.replay_support import release_diff

EXPECTED: dict[str, tuple[str, str]] = {
    "v0.0.1..v0.0.2": ("B", "UserMessageChunk's text branch reshaped, a path branch added"),
    "v0.0.2..v0.0.6": ("B", "SendUserMessageParams: required message renamed chunks"),
    "v0.0.6..v0.0.7": ("C", "fs read/write methods added (new params/results), optional locations"),
    "v0.0.7..v0.0.8": ("B", "InitializeParams null -> object with required protocolVersion"),
    "v0.0.8..v0.0.10": ("C", "update_plan method added (new params/result defs only)"),
    "v0.0.10..v0.0.11": ("B", "protocol rewritten: every method's types replaced"),
    "v0.0.11..v0.0.13": ("B", "mcpServers: map -> array of McpServer"),
    "v0.0.13..v0.0.14": ("B", "RequestPermissionOutcome canceled -> cancelled, params defs replaced"),
    "v0.0.14..v0.0.16": ("B", "SessionNotification: the update moves under a required 'update'"),
    "v0.0.16..v0.0.17": ("B", "SessionUpdate tag renamed kind -> sessionUpdate"),
    "v0.0.17..v0.0.18": ("B", "session/cancelled renamed session/cancel; required label -> name"),
    "v0.0.18..v0.0.19": ("B", "session/prompt result null -> PromptResponse (client reads it)"),
    "v0.0.19..v0.0.27": ("B", "ToolCall kind/status no longer required; cancelled -> canceled"),
    "v0.0.27..v0.0.30": ("B", "canceled -> cancelled again (outcome and stop reason)"),
    "v0.0.30..v0.0.33": ("B", "required members become optional (readers relied on them)"),
    "v0.0.33..v0.1.3-alpha.0": ("C", "terminal methods added, gated by the new terminal capability"),
    "v0.1.3-alpha.0..v0.2.0-alpha.3": ("C", "terminal/kill added"),
    "v0.2.0-alpha.3..v0.2.0-alpha.4": ("C", "optional NewSessionResponse.availableCommands added"),
    "v0.2.0-alpha.4..v0.2.0-alpha.6": ("B", ("availableCommands removed (agent's data dropped); "
                                            "new SessionUpdate variant a client cannot read")),
    "v0.2.0-alpha.6..v0.2.0-alpha.7": ("C", ("McpServer http/sse branches, gated by the new "
                                            "mcpCapabilities; stdio members moved into a branch")),
    "v0.2.0-alpha.7..v0.2.0-alpha.8": ("B", ("ToolKind gains switch_mode, SessionUpdate gains "
                                            "current_mode_update (closed, agent writes)")),
    "v0.2.0-alpha.8..v0.2.0": ("C", "optional _meta everywhere, extension-method catch-alls"),
    "v0.2.0..v0.2.1": ("C", "null results named as defs of the same shape, optional meta"),
    "v0.2.1..v0.3.0": ("C", "documentation only"),
    "v0.3.0..v0.4.1": ("C", "session/set_model added, optional models"),
    "v0.4.1..v0.4.2": ("C", "documentation only"),
    "v0.4.2..v0.4.5": ("C", "meta.json only"),
    "v0.4.5..v0.4.7": ("C", "documentation only"),
    "v0.4.7..v0.5.0": ("C", "messages remodelled as envelopes; wire unchanged"),
    "v0.5.0..v0.6.0": ("C", "optional clientInfo / agentInfo"),
    "v0.6.0..v0.6.2": ("B", "SetSessionModeResponse.meta -> _meta (the agent's member dropped)"),
    "v0.6.2..v0.6.3": ("C", "discriminator annotations"),
    "v0.6.3..v0.7.0": ("B", "session/set_model and the models members removed"),
    "v0.7.0..v0.8.0": ("C", "routing defs become envelopes, Ext* defs; wire unchanged"),
    "v0.8.0..v0.9.0": ("B", "_meta: any -> object|null (an OLD writer may send a string)"),
    "v0.9.0..v0.9.1": ("C", "discriminator annotation dropped"),
    "v0.9.1..v0.10.0": ("C", "Error.code int32 -> ErrorCode, an open integer enum"),
    "v0.10.0..v0.10.1": ("C", "documentation only"),
    "v0.10.1..v0.10.6": ("C", "documentation only"),
    "v0.10.6..v0.10.7": ("C", "one-branch allOf wrappers"),
    "v0.10.7..v0.10.8": ("B", "SessionUpdate gains config_option_update (not gated)"),
    "v0.10.8..v0.11.0": ("C", "AuthMethod lifted into one branch; defs renamed, same shapes"),
    "v0.11.0..v0.11.1": ("B", "SessionUpdate gains session_info_update (not gated)"),
    "v0.11.1..v0.12.2": ("C", "session/close and session/resume, gated by new capabilities"),
    "v0.12.2..v0.13.0": ("C", "documentation only"),
    "v0.13.0..v0.13.3": ("C", "logout added, gated by the new auth.logout capability"),
    "v0.13.3..v0.13.5": ("C", "optional additionalDirectories"),
    "v0.13.5..v0.13.6": ("B", "SessionUpdate gains usage_update (not gated)"),
    "v0.13.6..schema-v1.13.7": ("C", "optional Cost._meta"),
    "schema-v1.13.7..schema-v1.14.0": ("C", "AuthMethodId / TerminalId extracted, same shapes"),
    "schema-v1.14.0..schema-v1.16.0": ("C", "open enum SessionConfigOptionCategory gains a value"),
    "schema-v1.16.0..schema-v1.17.0": ("C", "$/cancel_request added; open ErrorCode gains -32800"),
    "schema-v1.17.0..schema-v1.18.0": ("C", ("boolean config options gated by a capability added "
                                            "in the same release; value moved into branches")),
    "schema-v1.18.0..schema-v1.21.0": ("C", ("elicitation and terminal auth, gated by new "
                                            "capabilities")),
}

# Where the tool still disagrees, and why (strict expected failures).
KNOWN: dict[str, str] = {}

FAST = ["v0.0.17..v0.0.18", "v0.9.1..v0.10.0", "schema-v1.16.0..schema-v1.17.0",
        "schema-v1.17.0..schema-v1.18.0"]


def test_every_pair_has_a_reviewed_expectation() -> None:
    assert sorted(EXPECTED) == sorted(pair_id(p) for p in pairs())


def _params(ids: list[str] | None) -> list[object]:
    out = []
    for p in pairs():
        pid = pair_id(p)
        if ids is not None and pid not in ids:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[pid])] if pid in KNOWN else []
        if ids is None:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(p, id=pid, marks=marks))
    return out


def _closed(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema with unknown members refused at the root of one def."""
    out = copy.deepcopy(schema)
    out["$defs"][name]["unevaluatedProperties"] = False
    return out


def _valid(schema: dict[str, Any], of: str, instance: Any) -> bool:
    """Checked here with jsonschema directly, not through the tool's own validators."""
    root = schema if of == "(envelope)" else {"$defs": schema["$defs"], "$ref": f"#/$defs/{of}"}
    return Draft202012Validator(root).is_valid(instance)


def _confirm(old: Any, new: Any, c: Any) -> None:
    """Every breaking side of a change has a witness in the direction that breaks it."""
    a = json.loads(old.schema.read_text(encoding="utf-8"))
    b = json.loads(new.schema.read_text(encoding="utf-8"))
    for side in ("client", "agent"):
        if getattr(c, side) != "breaking":
            continue
        [w, *_] = [w for w in c.witnesses if side in w.breaks] or [None]
        assert w is not None, f"{c.describe()}: breaking for the {side} without a witness"
        if w.kind == "writer":
            assert _valid(a, w.of, w.instance) and not _valid(b, w.of, w.instance), w
        elif w.kind == "reader":
            assert _valid(b, w.of, w.instance) and not _valid(a, w.of, w.instance), w
        elif w.kind == "dropped":
            assert _valid(a, w.of, w.instance) and _valid(b, w.of, w.instance), w
            # ... and NEW keeps it only as an unknown member (unknown members refused).
            assert _valid(_closed(a, w.of), w.of, w.instance), w
            assert not _valid(_closed(b, w.of), w.of, w.instance), w
        else:
            assert w.kind in ("method", "default"), w


def _check(pair: object) -> None:
    old, new = pair  # type: ignore[misc]
    diff = release_diff(old, new)
    want, why = EXPECTED[pair_id((old, new))]
    code = exit_code(diff)
    assert code != 2 and code != 4, f"no verdict: {why}"
    got = "B" if code == 3 else "C"
    lines = [f"{c.kind} {c.describe()} {[w.short() for w in c.witnesses]}"
             for c in diff.changes if c.breaking]
    assert got == want, (why, lines[:5])
    for c in diff.changes:
        _confirm(old, new, c)


@pytest.mark.parametrize("pair", _params(FAST))
def test_release_pair_fast(pair: object) -> None:
    _check(pair)


@pytest.mark.parametrize("pair", _params(None))
def test_release_pair(pair: object) -> None:
    _check(pair)
