"""The conformance kit's violation matrix: every black-box agent check fails on an agent that
breaks exactly its requirement, and no other check does (issue 27).

tests/support/violating_agent.py keeps every requirement the kit checks unless told to break
one; the kit runs in process against it once per violation (the checks of acpgen/shipped/conformance,
not a generated copy), and the outcome is compared requirement by requirement.

Each violation re-runs only the scenarios whose clean run consulted it (Baseline,
ClientBaseline: the violating peers log every requirement they ask about); the other
scenarios' clean runs are the runs that violation would have produced.
"""

from __future__ import annotations

import atexit
import copy
import functools
import os
import py_compile
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir

from acpgen.shipped.conformance.agent_scenarios import LAST, SCENARIOS, AgentRunner, AgentTarget
from acpgen.shipped.conformance.checks_agent import AGENT_CHECKS, AgentKit
from acpgen.shipped.conformance.outcome import NOT_CHECKABLE as NOT_CHECKABLE_PREFIX
from acpgen.shipped.conformance.outcome import CheckFailed, CheckNoted, CheckSkipped
from acpgen.shipped.conformance.validate import Validator

SUPPORT = Path(__file__).resolve().parent / "support"
AGENT = SUPPORT / "violating_agent.py"


@functools.cache
def _compiled(script: Path) -> str:
    """``script`` compiled once per test process (in a temporary directory, whatever
    PYTHONDONTWRITEBYTECODE says), to run as ``python FILE.pyc``: run as a .py it is compiled
    anew at every start, half of what a start costs, and the matrices start their scripts
    about fifteen times per violation."""
    out = Path(tempfile.mkdtemp(prefix="acpgen-matrix-")) / f"{script.stem}.pyc"
    atexit.register(shutil.rmtree, out.parent, True)
    py_compile.compile(str(script), cfile=str(out), doraise=True)  # tracebacks name the .py
    return str(out)


# Requirements the roster states twice over (the same wire fact, one check): one violation
# (of the first, which the agent implements) fails the group.
ALIASES = [
    ("ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY", "ACP-V1-FS-AGENT-CHECK-CAPABILITY"),
    ("ACP-V1-TERM-AGENT-NO-CALL-WITHOUT-CAPABILITY", "ACP-V1-TERM-AGENT-CHECK-CAPABILITY"),
    ("ACP-V1-PROMPT-PERMISSION-MAY", "ACP-V1-TOOLS-PERMISSION-MAY"),
    ("ACP-V1-SCHEMA-STOP-REASON-VALUES", "ACP-V1-PROMPT-AGENT-MAY-STOP"),
    ("ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY", "ACP-V1-CONFIG-BOOLEAN-ONLY-AFTER-CAPABILITY-MAY"),
]
# Requirements no wire observation can fail on their own: their checks report them as not
# checkable (a skip saying so), never as passed.
NOT_CHECKABLE = {
    "ACP-V1-TRANSPORT-STDIO-SHOULD": "the kit runs an agent only over stdio: one without it cannot "
    "be run (one error for the run), and its stdout is TRANSPORT-AGENT-STDOUT-ONLY-ACP's",
    "ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED": "a MAY for the sender of a request: nothing the agent "
    "sends breaks it, and refusing omitted params breaches no MAY (class b)",
}


# One observation fails every requirement it breaks (class g): a violation's bytes that break
# another requirement too fail that one as well, never charged to one owner alone.
ALSO_BREAKS = {
    # a line that is not UTF-8, or a message over two lines, is no valid ACP message either
    "ACP-V1-TRANSPORT-UTF8": {"ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP"},
    "ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED": {"ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP"},
    # answering an unknown notification is not ignoring it
    "ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION": {"ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS"},
}
CLIENT_ALSO_BREAKS = {
    "ACP-V1-TRANSPORT-UTF8": {"ACP-V1-TRANSPORT-CLIENT-STDIN-ONLY-ACP"},
    "ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED": {"ACP-V1-TRANSPORT-CLIENT-STDIN-ONLY-ACP"},
}


def _group(req_id: str) -> set[str]:
    return next((set(g) for g in ALIASES if req_id in g), {req_id}) | ALSO_BREAKS.get(req_id, set())


def _target(violation: str, env: tuple[tuple[str, str], ...] | None = None) -> AgentTarget:
    return AgentTarget(
        argv=(sys.executable, _compiled(AGENT), violation),
        env=env,
        timeout=2.0,
        turn_timeout=10.0,
        slow_prompt="/wait",
        permission_prompt="/permission",
        fs_prompt="/read {path}",
        elicitation_prompt="/elicit",
        auth_method="login",
        logout=True,
        cancel_grace=2.0,
    )


class _CleanRuns:
    """A runner's clean runs and the requirements each consulted (see Baseline)."""

    runner: Any
    consulted: dict[str, set[str]]
    outcomes: dict[str, tuple[str, str]]  # every check on the clean runs

    def runs_unchanged_by(self, violation: str) -> dict[str, Any]:
        """Copies of the clean runs of the scenarios (modes) that never consulted it."""
        name = violation.removeprefix("ACP-V1-")
        return {scenario: copy.deepcopy(self.runner.runs[scenario])
                for scenario, asked in self.consulted.items() if name not in asked}

    def matrix(self, outcomes: Callable[..., dict[str, tuple[str, str]]], violations: list[str],
               workers: int) -> dict[str, dict[str, tuple[str, str]]]:
        """``outcomes(violation, baseline=self)`` for every violation, ``workers`` at once."""
        with ThreadPoolExecutor(max_workers=workers) as pool:
            runs = pool.map(functools.partial(outcomes, baseline=self), violations)
            return dict(zip(violations, runs, strict=True))


class Baseline(_CleanRuns):
    """Every scenario run once against the clean agent, with the requirements each run
    consulted (the violating agent logs each broken(X) it evaluates).

    A violation of X changes the agent's behaviour only where broken(X) returns True, which
    is where the clean run evaluated it: a scenario that never consulted X goes exactly as
    in the clean run (the same agent, fed the same messages). So a violation's kit re-runs
    only the scenarios that consulted it and takes the others' clean runs (about 4 of 11):
    the outcome of every check is still computed, from runs the violation could not change.
    """

    def __init__(self, workdir: Path) -> None:
        log = workdir / "consulted.log"
        env = tuple({**os.environ, "KIT_MATRIX_CONSULTED": str(log)}.items())
        self.runner = AgentRunner(_target("", env=env))
        self.consulted: dict[str, set[str]] = {}
        # The runner's own order (the run that may log out comes last).
        for name in sorted(SCENARIOS, key=lambda name: name == LAST):
            log.write_text("", encoding="utf-8")
            self.runner.run(name)
            self.consulted[name] = set(log.read_text(encoding="utf-8").split())
        self.outcomes = _run_checks(AGENT_CHECKS, AgentKit(self.runner, Validator("acp_v1")))


def _outcomes(violation: str, baseline: Baseline) -> dict[str, tuple[str, str]]:
    with AgentRunner(_target(violation)) as runner:
        runner.runs.update(baseline.runs_unchanged_by(violation))
        return _run_checks(AGENT_CHECKS, AgentKit(runner, Validator("acp_v1")))


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Baseline]:
    clean = Baseline(tmp_path_factory.mktemp("agent-baseline"))
    yield clean
    clean.runner.close()


def _run_checks(checks: dict[str, Any], kit: Any) -> dict[str, tuple[str, str]]:
    """Every check run on one kit: requirement ID -> (pass | skip | fail, the message)."""
    found: dict[str, tuple[str, str]] = {}
    for req_id, check in checks.items():
        try:
            check(kit)
            found[req_id] = ("pass", "")
        except CheckNoted as exc:  # a pass with a note
            found[req_id] = ("pass", str(exc))
        except CheckSkipped as exc:
            found[req_id] = ("skip", str(exc))
        except CheckFailed as exc:
            found[req_id] = ("fail", str(exc))
    return found


@pytest.fixture(scope="module", autouse=True)
def _generated_package() -> None:
    if str(generated_dir()) not in sys.path:
        sys.path.insert(0, str(generated_dir()))


@pytest.mark.slow
def test_the_violating_agent_passes_every_check_when_it_breaks_nothing(baseline: Baseline) -> None:
    outcomes = baseline.outcomes
    failed = {k: v[1] for k, v in outcomes.items() if v[0] == "fail"}
    assert failed == {}
    passed = [k for k, v in outcomes.items() if v[0] == "pass"]
    assert len(passed) >= 105, len(passed)  # advertised, so checked: not skipped
    for req_id in NOT_CHECKABLE:  # reported as such, never passed
        assert outcomes[req_id][0] == "skip" and outcomes[req_id][1].startswith(NOT_CHECKABLE_PREFIX)


def test_a_requirement_not_checkable_on_the_wire_is_reported_so_whatever_the_agent() -> None:
    # Its check looks at no run (a kit with no runner at all): it cannot pass, and it says why.
    for req_id in NOT_CHECKABLE:
        with pytest.raises(CheckSkipped, match=f"^{NOT_CHECKABLE_PREFIX}: "):
            AGENT_CHECKS[req_id](AgentKit(None, None))  # type: ignore[arg-type]
    assert set(VIOLATIONS) | _aliased() | set(NOT_CHECKABLE) == set(AGENT_CHECKS)


def _aliased() -> set[str]:
    return {req for group in ALIASES for req in group[1:]}


# One violation per check (per alias group: the member the agent implements).
VIOLATIONS = sorted(set(AGENT_CHECKS) - set(NOT_CHECKABLE) - _aliased())


@pytest.mark.slow
def test_every_check_fails_on_its_own_violation_and_no_other(baseline: Baseline) -> None:
    # A run spends most of its time in the kit's quiet windows (an absent reply can only be
    # seen by waiting), not on the CPU: eight at once keep both cores busy.
    results = baseline.matrix(_outcomes, VIOLATIONS, workers=8)
    wrong = {}
    for violation, outcomes in results.items():
        failed = {k for k, v in outcomes.items() if v[0] == "fail"}
        if failed != _group(violation):
            wrong[violation] = {k: outcomes[k] for k in failed ^ _group(violation)}
    assert wrong == {}


# ---- the client side ---------------------------------------------------------------------------

CLIENT = Path(__file__).resolve().parent / "support" / "violating_client.py"
CLIENT_ALIASES = [
    ("ACP-V1-SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY", "ACP-V1-SETUP-CLIENT-CHECK-LOADSESSION",
     "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
    ("ACP-V1-INIT-CLIENT-INITIALIZE-FIRST", "ACP-V1-SETUP-INIT-BEFORE-SESSION"),
    ("ACP-V1-PROMPT-CLIENT-RESTRICT-CONTENT", "ACP-V1-PROMPT-CLIENT-CONTEXT-BLOCKS-MAY"),
    # A gated method called without its capability: "do not call it", "check the capability"
    # (and, for list and delete, "only after initialize", which the kit observes the same way)
    # and "an omitted capability means unsupported" are one wire fact.
    ("ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY", "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
    ("ACP-V1-SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY", "ACP-V1-SETUP-CLIENT-CHECK-RESUME",
     "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
    ("ACP-V1-SETUP-CLIENT-NO-CLOSE-WITHOUT-CAPABILITY", "ACP-V1-SETUP-CLIENT-CHECK-CLOSE",
     "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
    ("ACP-V1-LIST-CLIENT-NO-LIST-WITHOUT-CAPABILITY", "ACP-V1-LIST-CLIENT-CHECK-CAPABILITY",
     "ACP-V1-LIST-INIT-FIRST", "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
    ("ACP-V1-DELETE-CLIENT-NO-DELETE-WITHOUT-CAPABILITY", "ACP-V1-DELETE-CLIENT-CHECK-CAPABILITY",
     "ACP-V1-DELETE-INIT-FIRST", "ACP-V1-INIT-OMITTED-UNSUPPORTED"),
]
# Client checks that had no observation before the scenarios of issue 27 (logout, terminal/kill,
# additionalDirectories, a pending permission cancelled, a second initialize, no capabilities,
# stdio, stderr).
NEWLY_OBSERVED = [
    "ACP-V1-TRANSPORT-STDIO-SHOULD",
    "ACP-V1-TRANSPORT-CLIENT-STDERR-MAY",
    "ACP-V1-SCHEMA-LOGOUT-SHAPE",
    "ACP-V1-SCHEMA-TERMINAL-KILL-SHAPE",
    "ACP-V1-SETUP-ADDITIONAL-DIRS-ABSOLUTE",
    "ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS",
    "ACP-V1-PROMPT-CLIENT-ACCEPT-LATE-UPDATES",
    "ACP-V1-INIT-VERSION-AGREEMENT",
    "ACP-V1-INIT-CAPABILITIES-OPTIONAL",
]
# The client checks tests/support/violating_client.py breaks; each must fail alone.
CLIENT_VIOLATIONS = [
    "ACP-V1-TRANSPORT-UTF8",
    "ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED",
    "ACP-V1-TRANSPORT-CLIENT-STDIN-ONLY-ACP",
    "ACP-V1-JSONRPC-VERSION-MEMBER",
    "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED",
    "ACP-V1-JSONRPC-ID-TYPE",
    "ACP-V1-JSONRPC-ID-NOT-NULL",
    "ACP-V1-JSONRPC-ID-NO-FRACTION",
    "ACP-V1-JSONRPC-PARAMS-STRUCTURED",
    "ACP-V1-JSONRPC-PARAM-NAMES-EXACT",
    "ACP-V1-JSONRPC-RESPONSE-REQUIRED",
    "ACP-V1-JSONRPC-RESPONSE-SAME-ID",
    "ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION",
    "ACP-V1-JSONRPC-RESPONSE-ID-ECHO",
    "ACP-V1-JSONRPC-RESULT-ON-SUCCESS",
    "ACP-V1-JSONRPC-ERROR-MEMBER-ON-ERROR",
    "ACP-V1-JSONRPC-RESULT-XOR-ERROR",
    "ACP-V1-JSONRPC-ERROR-CODE-INTEGER",
    "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR",
    "ACP-V1-JSONRPC-ERROR-MESSAGE-CONCISE",
    "ACP-V1-SCHEMA-ERROR-OBJECT",
    "ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND",
    "ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST",
    "ACP-V1-EXT-CUSTOM-REQUESTS-MAY",
    "ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES",
    "ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS",
    "ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS",
    "ACP-V1-INIT-CLIENT-INITIALIZE-FIRST",
    "ACP-V1-INIT-REQUEST-LATEST-VERSION",
    "ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION",
    "ACP-V1-INIT-IMPLEMENTATION-INFO",
    "ACP-V1-INIT-CLIENT-SPECIFY-CAPABILITIES",
    "ACP-V1-SETUP-CWD-ABSOLUTE",
    "ACP-V1-SETUP-CLIENT-ADDITIONAL-DIRS-ONLY-WITH-CAPABILITY",
    "ACP-V1-SETUP-CLIENT-CHECK-MCP-TRANSPORT",
    "ACP-V1-SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY",
    "ACP-V1-SCHEMA-MCP-SERVER-VARIANTS",
    "ACP-V1-SCHEMA-NEW-SESSION-SHAPE",
    "ACP-V1-SCHEMA-PROMPT-SHAPE",
    "ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS",
    "ACP-V1-PROMPT-CLIENT-RESTRICT-CONTENT",
    "ACP-V1-PROMPT-CLIENT-CANCEL-MAY",
    "ACP-V1-FS-CLIENT-CREATE-FILE",
    "ACP-V1-TERM-CLIENT-TRUNCATE-AT-CHARACTER-BOUNDARY",
    "ACP-V1-OVERVIEW-ABSOLUTE-PATHS",
    "ACP-V1-EXT-META-TRACE-KEYS-RESERVED",
    "ACP-V1-SCHEMA-INITIALIZE-SHAPE",
    "ACP-V1-SCHEMA-REQUEST-PERMISSION-SHAPE",
    "ACP-V1-SCHEMA-READ-TEXT-FILE-SHAPE",
    "ACP-V1-SCHEMA-WRITE-TEXT-FILE-SHAPE",
    "ACP-V1-SCHEMA-TERMINAL-CREATE-SHAPE",
    "ACP-V1-SCHEMA-TERMINAL-OUTPUT-SHAPE",
    "ACP-V1-SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE",
    "ACP-V1-SCHEMA-TERMINAL-RELEASE-SHAPE",
    "ACP-V1-SCHEMA-CANCEL-NOTIFICATION-SHAPE",
    "ACP-V1-SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE",
    "ACP-V1-SCHEMA-SET-MODE-SHAPE",
    "ACP-V1-SCHEMA-SET-CONFIG-OPTION-SHAPE",
    "ACP-V1-MODES-SET-MODE-ID-LISTED",
    "ACP-V1-CONFIG-SET-VALUE-VALID",
    "ACP-V1-CANCEL-REQUEST-MUST-RESPOND",
    "ACP-V1-PROMPT-INIT-AND-SETUP-FIRST",
    "ACP-V1-AUTH-CLIENT-NO-TERMINAL-METHOD-ID",
    "ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY",
    "ACP-V1-SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY",
    "ACP-V1-SETUP-CLIENT-NO-CLOSE-WITHOUT-CAPABILITY",
    "ACP-V1-LIST-CLIENT-NO-LIST-WITHOUT-CAPABILITY",
    "ACP-V1-DELETE-CLIENT-NO-DELETE-WITHOUT-CAPABILITY",
    "ACP-V1-SCHEMA-LIST-SESSIONS-SHAPE",
    "ACP-V1-SCHEMA-LOAD-SESSION-SHAPE",
    "ACP-V1-SCHEMA-RESUME-SESSION-SHAPE",
    "ACP-V1-SCHEMA-CLOSE-SESSION-SHAPE",
    "ACP-V1-SCHEMA-DELETE-SESSION-SHAPE",
    "ACP-V1-SETUP-LOAD-REQUEST-CONTENTS",
    "ACP-V1-SETUP-RESUME-REQUEST-CONTENTS",
    "ACP-V1-SETUP-CLOSE-REQUEST",
    "ACP-V1-LIST-CLIENT-OPAQUE-CURSOR",
    "ACP-V1-LIST-CLIENT-MISSING-CURSOR-IS-END",
    "ACP-V1-SCHEMA-AUTHENTICATE-SHAPE",
    "ACP-V1-EXT-META-NO-ASSUMPTIONS",
    "ACP-V1-CONFIG-CLIENT-UNKNOWN-CATEGORY",
    "ACP-V1-INIT-SUPPORT-ALL-COMBINATIONS",
    "ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS",
    "ACP-V1-ELIC-CLIENT-IGNORE-UNKNOWN-COMPLETE",
    "ACP-V1-CONFIG-CLIENT-IGNORE-UNKNOWN-TYPE",
    *NEWLY_OBSERVED,
]
# Client checks that no wire observation can fail alone: the kit reports each as "not checkable
# on the wire" with the reason (a skip, never a pass), in every run.
CLIENT_NOT_IN_MATRIX = {
    "ACP-V1-SETUP-CLIENT-MCP-SERVERS-MAY": "including MCP servers is the client's choice; what it "
    "includes is SCHEMA-MCP-SERVER-VARIANTS' and SETUP-CLIENT-CHECK-MCP-TRANSPORT's",
}
# Checks the clean run must pass (not skip): the scenarios that exercise them (issue 27).
CLIENT_EXERCISED = [
    *NEWLY_OBSERVED,
    "ACP-V1-PROMPT-CLIENT-CANCEL-MAY",
    "ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION",
    "ACP-V1-JSONRPC-RESPONSE-REQUIRED",
    "ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION",
]


def _client_group(req_id: str) -> set[str]:
    group = next((set(g) for g in CLIENT_ALIASES if req_id in g), {req_id})
    return group | CLIENT_ALSO_BREAKS.get(req_id, set())


def _client_target(violation: str) -> Any:
    from acpgen.shipped.conformance.client_scenarios import ClientTarget

    # Outcomes follow events (the client's exit, the answers awaited); the timeouts are hang
    # guards only, generous so that a loaded machine never reaches them.
    return ClientTarget(argv=(sys.executable, str(CLIENT), violation, "{agent}"), timeout=60.0, run_timeout=180.0)


class ClientBaseline(_CleanRuns):
    """Every mode of the kit run once against the clean client, with the requirements each
    run consulted: the client side of :class:`Baseline` (the same argument)."""

    def __init__(self, workdir: Path) -> None:
        from acpgen.shipped.conformance.checks_client import CLIENT_CHECKS, ClientKit
        from acpgen.shipped.conformance.client_scenarios import ClientRunner

        log = workdir / "consulted.log"
        self.consulted: dict[str, set[str]] = {}
        consulted = self.consulted

        class Logged(ClientRunner):
            def _run(self, mode: str) -> Any:
                log.write_text("", encoding="utf-8")
                run = super()._run(mode)
                consulted[mode] = set(log.read_text(encoding="utf-8").split())
                return run

        with pytest.MonkeyPatch.context() as env:  # only the clean client's runs log what they ask
            env.setenv("KIT_MATRIX_CONSULTED", str(log))
            self.runner = Logged(_client_target(""))
            self.outcomes = _run_checks(CLIENT_CHECKS, ClientKit(self.runner, Validator("acp_v1")))


@pytest.fixture(scope="module")
def client_baseline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClientBaseline]:
    clean = ClientBaseline(tmp_path_factory.mktemp("client-baseline"))
    yield clean
    clean.runner.close()


def _client_outcomes(violation: str, baseline: ClientBaseline) -> dict[str, tuple[str, str]]:
    from acpgen.shipped.conformance.checks_client import CLIENT_CHECKS, ClientKit
    from acpgen.shipped.conformance.client_scenarios import ClientRunner

    with ClientRunner(_client_target(violation)) as runner:
        runner.runs.update(baseline.runs_unchanged_by(violation))
        return _run_checks(CLIENT_CHECKS, ClientKit(runner, Validator("acp_v1")))


def test_every_client_check_is_in_the_matrix_or_listed_with_why() -> None:
    from acpgen.shipped.conformance.checks_client import CLIENT_CHECKS

    covered = {req for v in CLIENT_VIOLATIONS for req in _client_group(v)}
    assert set(CLIENT_CHECKS) - covered - set(CLIENT_NOT_IN_MATRIX) == set()
    assert covered & set(CLIENT_NOT_IN_MATRIX) == set()
    assert set(CLIENT_NOT_IN_MATRIX) <= set(CLIENT_CHECKS)


def test_a_client_requirement_not_checkable_on_the_wire_is_reported_so_whatever_the_client() -> None:
    from acpgen.shipped.conformance.checks_client import CLIENT_CHECKS, ClientKit

    # Its check looks at no run: it cannot pass, and it says why.
    for req_id in CLIENT_NOT_IN_MATRIX:
        with pytest.raises(CheckSkipped, match=f"^{NOT_CHECKABLE_PREFIX}: including MCP servers"):
            CLIENT_CHECKS[req_id](ClientKit(None, None))  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_violating_client_passes_every_check_when_it_breaks_nothing(client_baseline: ClientBaseline) -> None:
    outcomes = client_baseline.outcomes
    assert {k: v[1] for k, v in outcomes.items() if v[0] == "fail"} == {}
    assert {k: outcomes[k] for k in CLIENT_EXERCISED if outcomes[k][0] != "pass"} == {}
    for req_id in CLIENT_NOT_IN_MATRIX:
        assert outcomes[req_id][0] == "skip" and outcomes[req_id][1].startswith(NOT_CHECKABLE_PREFIX)
    # The declared observations are real: each check passing on the clean client, which
    # exercises everything, counted at least one of its own.
    from acpgen.shipped.conformance.checks_client import CLIENT_OBSERVES, ClientKit

    kit = ClientKit(client_baseline.runner, Validator("acp_v1"))
    assert {k for k, v in outcomes.items() if v[0] == "pass" and CLIENT_OBSERVES[k].count(kit) == 0} == set()


@pytest.mark.slow
def test_every_client_check_in_the_matrix_fails_on_its_own_violation_and_no_other(
    client_baseline: ClientBaseline,
) -> None:
    results = client_baseline.matrix(_client_outcomes, CLIENT_VIOLATIONS, workers=4)
    wrong = {}
    for violation, outcomes in results.items():
        failed = {k for k, v in outcomes.items() if v[0] == "fail"}
        if failed != _client_group(violation):
            wrong[violation] = {k: outcomes[k] for k in failed ^ _client_group(violation)}
        for req_id in CLIENT_NOT_IN_MATRIX:  # reported as such whatever the client does
            if not outcomes[req_id][1].startswith(NOT_CHECKABLE_PREFIX):
                wrong.setdefault(violation, {})[req_id] = outcomes[req_id]
    assert wrong == {}
