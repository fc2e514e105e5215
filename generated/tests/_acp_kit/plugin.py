# Edit acpgen/shipped/conformance/plugin.py, not this file: acpgen generate writes it.
"""pytest glue of the conformance kit: options, fixtures and the per-requirement report.

The generated ``conftest.py`` imports these hooks and fixtures by name. Without
``--acp-agent`` / ``--acp-client`` every black-box test skips with the reason; with them, the
kit runs the command (scenarios shared by all tests of the session) and the terminal summary
shows the result per requirement, also written as JSON and Markdown on request.
"""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import advisories, baseline, evidence, junit, profiles, report, run_record, transport_plugin
from .agent_scenarios import AgentRunner, AgentTarget
from .checks_agent import AGENT_CHECKS, AgentKit
from .checks_client import CLIENT_CHECKS, ClientKit
from .client_scenarios import ClientRunner, ClientTarget
from .outcome import CheckFailed, CheckNoted, CheckSkipped
from .validate import Validator

MANIFEST_MODULE = "_acp_conformance"  # generated beside the kit: package name and requirements
USER_PROPERTY = "acp_conformance"  # "<side> <ID>" on each black-box test's reports
NOTE_PROPERTY = "acp_conformance_note"  # a passing check's note (CheckNoted)
SCENARIOS_PROPERTY = "acp_conformance_scenarios"  # the scenarios the check read, by name
STALE_PROPERTY = "acp_conformance_stale"  # a baseline entry that passes now
_RESULTS = pytest.StashKey[dict[str, dict[str, report.Result]]]()
_BROKEN = pytest.StashKey[dict[str, str]]()  # side -> why its command could not even start
_CONFIG: list[pytest.Config] = []  # the run's config, for the report hook (which gets none)
_KITS = pytest.StashKey[dict[str, Any]]()  # side -> its kit, for what the report adds
_BASELINE = pytest.StashKey[dict[str, set[str]]]()  # side -> requirements known to fail


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("acp-conformance", "ACP conformance kit (black-box checks)")
    group.addoption(
        "--acp-agent",
        metavar="CMD",
        default=None,
        help="check the agent started by CMD (it speaks ACP on stdin/stdout)",
    )
    transport_plugin.add_options(group)  # --acp-agent-url: a remote agent, and the RFD's rules
    group.addoption(
        "--acp-client",
        metavar="CMD",
        default=None,
        help="check the client started by CMD; {agent} in CMD stands for the kit's scripted "
        "agent command",
    )
    group.addoption(
        "--acp-client-input",
        metavar="TEXT",
        default=None,
        help="text the client under test reads on its stdin (\\n for newlines), for interactive clients",
    )
    group.addoption(
        "--acp-trace",
        metavar="FILE",
        default=None,
        help="judge a recorded trace (python -m <package>.trace record) instead of running an "
        "implementation: the checks a passive trace can judge, for the agent and the client",
    )
    group.addoption(
        "--acp-timeout",
        metavar="SECONDS",
        type=float,
        default=10.0,
        help="seconds the implementation gets for each answer (default 10)",
    )
    group.addoption(
        "--acp-turn-timeout",
        metavar="SECONDS",
        type=float,
        default=60.0,
        help="seconds an agent gets for a prompt turn, a client for a whole run (default 60)",
    )
    group.addoption(
        "--acp-cancel-grace",
        metavar="SECONDS",
        type=float,
        default=10.0,
        help="seconds a cancelled turn may run on before PROMPT-AGENT-STOP-ON-CANCEL fails "
        "(default 10; keep it below --acp-turn-timeout)",
    )
    group.addoption(
        "--acp-prompt", metavar="TEXT", default=None, help="the prompt the kit sends an agent"
    )
    group.addoption(
        "--acp-slow-prompt",
        metavar="TEXT",
        default=None,
        help="a prompt the agent works on until cancelled (for the cancellation checks)",
    )
    group.addoption(
        "--acp-permission-prompt",
        metavar="TEXT",
        default=None,
        help="a prompt that makes the agent ask for permission",
    )
    group.addoption(
        "--acp-fs-prompt",
        metavar="TEXT",
        default=None,
        help="a prompt that makes the agent read the file {path} through fs/read_text_file",
    )
    group.addoption(
        "--acp-elicitation-prompt",
        metavar="TEXT",
        default=None,
        help="a prompt that makes the agent elicit input (the kit then advertises form and url "
        "elicitation in a run of its own)",
    )
    group.addoption(
        "--acp-auth-method",
        metavar="ID",
        default=None,
        help="an advertised auth method the kit may call authenticate with (may start a real login)",
    )
    group.addoption(
        "--acp-logout",
        action="store_true",
        default=False,
        help="after authenticate, the kit may call logout when the agent advertises auth.logout "
        "(it ends the login; run last)",
    )
    group.addoption(
        "--acp-baseline",
        metavar="FILE",
        default=None,
        help="known deviations (JSON, from --acp-write-baseline): a failure listed there is "
        "expected; the run fails only on a new failure, or on a listed one that now passes",
    )
    group.addoption(
        "--acp-write-baseline",
        action="store_true",
        default=False,
        help="write this run's failing requirements to the --acp-baseline FILE",
    )
    group.addoption(
        "--acp-profile",
        metavar="NAME",
        default=None,
        choices=sorted(profiles.PROFILES),
        help="only the checks of a preset: 'registry' reproduces the ACP registry's listing "
        "checks (initialize answered, an auth method of type agent or terminal, nothing but "
        "JSON-RPC on stdout)",
    )
    group.addoption(
        "--acp-conformance-json",
        metavar="PATH",
        default=None,
        help="write the per-requirement conformance report as JSON",
    )
    group.addoption(
        "--acp-conformance-md",
        metavar="PATH",
        default=None,
        help="write the per-requirement conformance report as a Markdown table",
    )
    group.addoption(
        "--acp-conformance-junit",
        metavar="PATH",
        default=None,
        help="write the report as JUnit XML: a test case per judged requirement, failures "
        "with the frames of the scenarios their check read",
    )
    group.addoption(
        "--acp-transcripts",
        metavar="DIR",
        default=None,
        help="keep each scenario's frames in DIR, one trace file each (<side>-<scenario>.jsonl)",
    )


def pytest_configure(config: pytest.Config) -> None:
    results: dict[str, dict[str, report.Result]] = {"agent": {}, "client": {}}
    config.stash[_RESULTS] = results
    config.stash[_BROKEN] = {}
    config.stash[_KITS] = {}
    try:
        config.stash[_BASELINE] = baseline.load(config.getoption("acp_baseline", None))
    except baseline.BaselineError as exc:
        raise pytest.UsageError(f"ACP conformance: {exc}") from None
    _CONFIG.append(config)
    profile = config.getoption("acp_profile", None)
    if profile:
        # Hooks the generated conftest does not name: registered here, with the profile.
        config.pluginmanager.register(profiles.ProfileHooks(profile, config.stash[_KITS]))
    transport_plugin.register(config)


def _manifest() -> Any:
    return importlib.import_module(MANIFEST_MODULE)


WORDING = "\n  the roster: "  # what a failure line adds: the requirement's own words


def _wording(req_id: str) -> str:
    keyword, _role, _observable, _reason, text = _manifest().REQUIREMENTS[req_id]
    return f"{keyword}: {text}"


class Checker:
    """What a generated black-box test calls: ``acp_agent.check(ID)``."""

    def __init__(
        self,
        side: str,
        kit: AgentKit | ClientKit | TraceVerdicts,
        node: pytest.Item,
        known: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        self.side = side
        self.kit = kit
        self.node = node
        self.known = known  # the baseline's known deviations (empty: every failure fails)

    def check(self, req_id: str) -> None:
        self.node.user_properties.append((USER_PROPERTY, f"{self.side} {req_id}"))
        runner = getattr(self.kit, "runner", None)  # a trace has no scenarios
        asked = len(runner.asked) if runner is not None else 0
        skipped = failed = None
        try:
            if isinstance(self.kit, TraceVerdicts):
                self.kit.check(self.side, req_id)
            elif isinstance(self.kit, AgentKit):
                AGENT_CHECKS[req_id](self.kit)
            else:
                CLIENT_CHECKS[req_id](self.kit)
        except CheckNoted as exc:  # kept, with a note the report shows
            self.node.user_properties.append((NOTE_PROPERTY, str(exc)))
        except CheckSkipped as exc:
            skipped = str(exc)
        except CheckFailed as exc:
            failed = str(exc)
        if runner is not None:  # the evidence: what the check read (each scenario once)
            read = " ".join(dict.fromkeys(runner.asked[asked:]))
            self.node.user_properties.append((SCENARIOS_PROPERTY, read))
        # Outside the except blocks: the report shows the observation, not a chained traceback.
        if failed is not None and req_id in self.known:
            pytest.xfail(f"{req_id}: {failed}")
        if skipped is not None:
            pytest.skip(skipped)
        if failed is not None:
            pytest.fail(f"{req_id}: {failed}{WORDING}{_wording(req_id)}", pytrace=False)
        if req_id in self.known:  # the baseline stays true: a fixed deviation is taken out
            self.node.user_properties.append((STALE_PROPERTY, "1"))
            pytest.fail(
                f"{req_id}: listed in the baseline as a known deviation, but it passes now: "
                "take it out of the baseline (or rewrite it with --acp-write-baseline)",
                pytrace=False,
            )


class TraceVerdicts:
    """The trace judge's verdicts (``<package>.trace``) on a recorded conversation, as checks."""

    def __init__(self, path: str, package: str) -> None:
        trace = importlib.import_module(f"{package}.trace.format").read_trace(path)
        judge = importlib.import_module(f"{package}.trace.judge").judge
        self.verdicts = {(v.side, v.req_id): v for v in judge(trace, Validator(package))}

    def check(self, side: str, req_id: str) -> None:
        verdict = self.verdicts.get((side, req_id))
        if verdict is None:
            raise CheckSkipped("not judged from a trace: it needs the kit's scripted runs")
        if verdict.status == "not exercised":
            raise CheckSkipped(f"not exercised by the trace: {verdict.detail}")
        if verdict.status == "fail":
            frames = ", ".join(map(str, verdict.frames))
            raise CheckFailed(f"{verdict.detail} (frames {frames})")


@pytest.fixture(scope="session")
def _acp_trace(pytestconfig: pytest.Config) -> TraceVerdicts | None:
    path = pytestconfig.getoption("acp_trace")
    if not path:
        return None
    try:
        return TraceVerdicts(path, _manifest().PACKAGE)
    except ValueError as exc:  # the trace format's TraceError: the file is no readable trace
        pytest.exit(f"ACP conformance: --acp-trace: {exc}", EXIT_CANNOT_START)


@pytest.fixture(scope="session")
def _acp_agent_kit(pytestconfig: pytest.Config) -> Iterator[AgentKit | None]:
    command = pytestconfig.getoption("acp_agent")
    url = pytestconfig.getoption("acp_agent_url")
    if not command and not url:
        yield None
        return
    o = pytestconfig.getoption
    target = AgentTarget(
        argv=tuple(shlex.split(command or "")),
        url=url,
        cwd=str(pytestconfig.invocation_params.dir),
        timeout=o("acp_timeout"),
        turn_timeout=o("acp_turn_timeout"),
        prompt=o("acp_prompt") or AgentTarget.prompt,
        slow_prompt=o("acp_slow_prompt"),
        permission_prompt=o("acp_permission_prompt"),
        fs_prompt=o("acp_fs_prompt"),
        elicitation_prompt=o("acp_elicitation_prompt"),
        auth_method=o("acp_auth_method"),
        logout=o("acp_logout"),
        cancel_grace=o("acp_cancel_grace"),
    )
    with AgentRunner(target) as runner:  # its scratch directory goes with the session
        _stop_if_broken(pytestconfig, "agent", runner.start())
        kit = AgentKit(runner, Validator(_manifest().PACKAGE))
        pytestconfig.stash[_KITS]["agent"] = kit
        yield kit


@pytest.fixture(scope="session")
def _acp_client_kit(pytestconfig: pytest.Config) -> Iterator[ClientKit | None]:
    command = pytestconfig.getoption("acp_client")
    if not command:
        yield None
        return
    target = ClientTarget(
        argv=tuple(shlex.split(command)),
        cwd=str(pytestconfig.invocation_params.dir),
        timeout=pytestconfig.getoption("acp_timeout"),
        run_timeout=pytestconfig.getoption("acp_turn_timeout"),
        stdin=(pytestconfig.getoption("acp_client_input") or "")
        .replace("\\n", "\n")
        .encode("utf-8"),
    )
    with ClientRunner(target) as runner:  # its scratch directory goes with the session
        _stop_if_broken(pytestconfig, "client", runner.start())
        kit = ClientKit(runner, Validator(_manifest().PACKAGE))
        pytestconfig.stash[_KITS]["client"] = kit
        yield kit


EXIT_CANNOT_START = pytest.ExitCode.USAGE_ERROR  # the command given cannot even be started


def _stop_if_broken(config: pytest.Config, side: str, broken: str | None) -> None:
    """A command that cannot start (or never gets through initialize) is one error for the
    whole run, not the same failure once per requirement."""
    if broken is None:
        return
    config.stash[_BROKEN][side] = broken
    pytest.exit(
        f"ACP conformance: the {side} under test cannot be run: {broken}", EXIT_CANNOT_START
    )


def _checker(
    side: str,
    kit: AgentKit | ClientKit | None,
    trace: TraceVerdicts | None,
    node: pytest.Item,
    missing: str,
) -> Checker:
    """The side's kit, else the trace's verdicts, else a skip saying what to pass."""
    source = kit if kit is not None else trace
    if source is None:
        pytest.skip(f"black-box {side} check: {missing}")
    return Checker(side, source, node, _known(node.config, side))


def _known(config: pytest.Config, side: str) -> set[str]:
    """The baseline's known deviations, unless this run rewrites the baseline."""
    if config.getoption("acp_write_baseline"):
        return set()
    return config.stash[_BASELINE].get(side, set())


@pytest.fixture
def acp_agent(
    request: pytest.FixtureRequest,
    _acp_agent_kit: AgentKit | None,
    _acp_trace: TraceVerdicts | None,
) -> Checker:
    missing = 'no agent under test (run with --acp-agent="CMD" or --acp-agent-url=URL)'
    return _checker("agent", _acp_agent_kit, _acp_trace, request.node, missing)


@pytest.fixture
def acp_client(
    request: pytest.FixtureRequest,
    _acp_client_kit: ClientKit | None,
    _acp_trace: TraceVerdicts | None,
) -> Checker:
    missing = 'no client under test (run with --acp-client="CMD ... {agent}")'
    return _checker("client", _acp_client_kit, _acp_trace, request.node, missing)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    tag = dict(report.user_properties).get(USER_PROPERTY)
    if not tag or (report.when != "call" and report.passed):
        return
    side, req_id = str(tag).split(" ", 1)
    results = _config_results(report)
    if results is None:
        return
    properties = dict(report.user_properties)
    read = tuple(str(properties.get(SCENARIOS_PROPERTY, "")).split())
    if hasattr(report, "wasxfail"):  # a failure the baseline lists
        text = str(report.wasxfail).removeprefix("reason: ").removeprefix(f"{req_id}: ")
        results[side][req_id] = report_result("fail", text, baseline=True, scenarios=read)
    elif report.failed:
        observed = report.longreprtext.strip().split(WORDING)[0]  # the wording is the report's
        message = observed.splitlines()
        text = " ".join(message).removeprefix(f"Failed: {req_id}: ").removeprefix(f"{req_id}: ")
        stale = STALE_PROPERTY in properties
        results[side][req_id] = report_result("fail", text, scenarios=read, stale=stale)
    elif report.skipped:
        longrepr = report.longrepr
        reason = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
        results[side][req_id] = report_result("skipped", reason.removeprefix("Skipped: "))
    elif report.when == "call":
        note = properties.get(NOTE_PROPERTY, "")
        results[side][req_id] = report_result("pass", f"note: {note}" if note else "")


def report_result(
    status: str,
    message: str,
    baseline: bool = False,
    scenarios: tuple[str, ...] = (),
    stale: bool = False,
) -> report.Result:
    return report.Result(status, message, baseline, scenarios, stale)


def _config_results(_report: pytest.TestReport) -> dict[str, dict[str, report.Result]] | None:
    return _CONFIG[-1].stash[_RESULTS] if _CONFIG else None


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    manifest = _manifest()
    requirements = {
        req_id: report.Requirement(req_id, keyword, role, observable, reason, text)
        for req_id, (keyword, role, observable, reason, text) in manifest.REQUIREMENTS.items()
    }
    trace = config.getoption("acp_trace")
    reports: list[dict[str, Any]] = []
    for side in ("agent", "client"):
        url = config.getoption("acp_agent_url") if side == "agent" else None
        command = config.getoption(f"acp_{side}") or url or (trace and f"trace {trace}")
        if not command:
            continue
        kit = config.stash[_KITS].get(side)
        built = report.build(
            side,
            command,
            requirements,
            config.stash[_RESULTS][side],
            run=_run_record(config),
            advisories=advisories.judge(kit, config.getoption("acp_profile")),
        )
        broken = config.stash[_BROKEN].get(side)
        if broken is not None:
            built["error"] = broken
        runs = kit.runner.runs if kit is not None else {}
        # The frames behind each failure: every scenario a failing check read, quoted once.
        built["transcripts"] = evidence.quoted(
            side, runs, evidence.scenarios_of(built["requirements"])
        )
        reports.append(built)
        terminalreporter.section(f"ACP conformance ({side})")
        for line in report.text_lines(built, verbose=config.getoption("verbose") > 0):
            terminalreporter.write_line(line)
        folder = config.getoption("acp_transcripts")
        if folder and runs:
            target = Path(folder)
            if not target.is_absolute():
                target = config.invocation_params.dir / target
            written = evidence.write_traces(side, runs, target, manifest.PACKAGE)
            terminalreporter.write_line(f"{len(written)} {side} transcripts written to {target}")
        both = (config.getoption("acp_agent") or trace) and (
            config.getoption("acp_client") or trace
        )
        suffix = "" if not both else f".{side}"
        json_path = config.getoption("acp_conformance_json")
        if json_path:
            _write(config, json_path + suffix, report.to_json(built))
            terminalreporter.write_line(f"conformance JSON written to {json_path + suffix}")
        path = config.getoption("acp_baseline")
        if path and config.getoption("acp_write_baseline"):
            known = config.stash[_BASELINE]  # the other side's run adds to the same file
            known[side] = baseline.failing(built)
            _write(config, path, baseline.dump(known))
            terminalreporter.write_line(f"conformance baseline written to {path}")
        md_path = config.getoption("acp_conformance_md")
        if md_path:
            _write(config, md_path + suffix, report.to_markdown(built))
            terminalreporter.write_line(f"conformance Markdown written to {md_path + suffix}")
    junit_path = config.getoption("acp_conformance_junit")
    if junit_path and reports:
        rules = config.pluginmanager.get_plugin(transport_plugin.PLUGIN_NAME)
        transport = rules.report() if rules is not None else None
        _write(config, junit_path, junit.to_junit(reports, transport))
        terminalreporter.write_line(f"conformance JUnit XML written to {junit_path}")


def _write(config: pytest.Config, path: str, text: str) -> None:
    target = Path(path)
    if not target.is_absolute():
        target = config.invocation_params.dir / target
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


# The options a report records (the command's own are recorded as the command).
RECORDED_OPTIONS = (
    "acp_timeout",
    "acp_turn_timeout",
    "acp_cancel_grace",
    "acp_prompt",
    "acp_slow_prompt",
    "acp_permission_prompt",
    "acp_fs_prompt",
    "acp_elicitation_prompt",
    "acp_auth_method",
    "acp_logout",
    "acp_client_input",
    "acp_profile",
    "acp_baseline",
)


def _run_record(config: pytest.Config) -> dict[str, Any]:
    return {
        "cwd": str(config.invocation_params.dir),
        "kit": {"sha256": run_record.kit_fingerprint(), "roster": _manifest().ROSTER_REVISION},
        "options": {name: config.getoption(name) for name in RECORDED_OPTIONS},
        # The kit runs the command with pytest's environment, unchanged.
        "environment": run_record.environment(),
    }
