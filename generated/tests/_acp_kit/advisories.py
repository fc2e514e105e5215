# Edit acpgen/shipped/conformance/advisories.py, not this file: acpgen generate writes it.
"""What the report judges beside the roster's requirements, each at its own strength.

- JSON-RPC 2.0 batches (SHOULD): ACP v1 defines no batch; JSON-RPC 2.0 answers each call of
  a batch with its own response. A peer that refuses batches (one -32600) keeps every MUST.
- A profile's own rules (``--acp-profile registry``: the ACP registry's listing checks).
"""

from __future__ import annotations

from typing import Any

from . import checks_wire as w
from .agent_kit import AgentKit
from .outcome import CheckFailed, CheckSkipped, summary

BATCH = "JSON-RPC 2.0 batch: one response per request in a batch"
AUTH_TYPES = ("agent", "terminal")  # no "type" is an agent auth method


def advisory(name: str, strength: str, status: str, message: str = "") -> dict[str, str]:
    return {"name": name, "strength": strength, "status": status, "message": message}


def batches(kit: Any) -> dict[str, str]:
    """The batch run, read as JSON-RPC 2.0's SHOULD (only when the run was made: the report
    starts no run of its own)."""
    run = kit.runner.runs.get("batch")
    if run is None:
        return advisory(BATCH, "SHOULD", "skipped", "the batch run was not part of this run")
    ts = [run.transcript]
    sent = [p for t in ts for f in t.sent() if f.is_batch for p in f.parts() if p.is_request]
    if not sent:
        return advisory(BATCH, "SHOULD", "skipped", "no batch with a request was sent")
    problems = w.batch_requests_answered(ts)
    if problems:
        return advisory(BATCH, "SHOULD", "fail", summary(problems))
    if not all(
        t.response_to(p)
        for t in ts
        for f in t.sent()
        if f.is_batch
        for p in f.parts()
        if p.is_request
    ):
        # An agent run whose peer closed its output, or a client run the client ended itself
        # (it exited, no hang guard stopped it).
        ended = getattr(run, "exited", False) and not getattr(run, "timed_out", False)
        if getattr(run, "closed", False) or ended:
            # The agent closed its output with the batch's requests outstanding: a proven
            # non-answer, as for any request (the others were answered alone or not at all).
            left = [
                f"[{t.name}] no response to {p.shown()} in batch: the peer ended the run with "
                f"it outstanding ({_ending(run)})"
                for t in ts
                for f in t.sent()
                if f.is_batch
                for p in f.parts()
                if p.is_request and not t.response_to(p)
            ]
            return advisory(BATCH, "SHOULD", "fail", summary(left))
        # Unanswered, but nothing later was answered either (the run ended): not judged.
        why = "the batch requests got no response, and the run ended before any later one did: "
        why += _ending(run)
        return advisory(BATCH, "SHOULD", "skipped", why)
    return advisory(BATCH, "SHOULD", "pass")


def _ending(run: Any) -> str:
    """How a run ended, from an agent run (``stopped``) or a client run (``hung``, exit)."""
    if getattr(run, "stopped", None):
        return str(run.stopped)
    if getattr(run, "hung", ""):
        return str(run.hung)
    if getattr(run, "exited", False):
        return f"the client exited with status {run.exit_code}"
    return "the kit stopped waiting"


def registry(kit: AgentKit) -> list[dict[str, str]]:
    """The ACP registry's listing checks: initialize answered, at least one auth method of
    type agent or terminal, nothing but JSON-RPC messages on stdout."""
    found = []
    try:
        result = kit.init_result()
        found.append(advisory("registry: initialize answered", "registry", "pass"))
    except (CheckFailed, CheckSkipped) as exc:
        result = {}
        found.append(advisory("registry: initialize answered", "registry", "fail", str(exc)))
    methods = result.get("authMethods")
    usable = [
        m
        for m in (methods if isinstance(methods, list) else [])
        if isinstance(m, dict) and m.get("type", "agent") in AUTH_TYPES
    ]
    name = "registry: an auth method of type agent or terminal"
    if usable:
        found.append(advisory(name, "registry", "pass"))
    else:
        found.append(advisory(name, "registry", "fail", f"authMethods: {methods!r}"))
    name = "registry: nothing but JSON-RPC messages on stdout"
    try:
        w.only_messages([r.transcript for r in kit.runner.runs.values()])
        found.append(advisory(name, "registry", "pass"))
    except (CheckFailed, CheckSkipped) as exc:
        found.append(advisory(name, "registry", "fail", str(exc)))
    return found


def judge(kit: Any, profile: str | None) -> list[dict[str, str]]:
    """Every advisory for this run's kit (None: the side was not run)."""
    if kit is None:
        return []
    if profile == "registry":
        return registry(kit) if isinstance(kit, AgentKit) else []
    return [batches(kit)]
