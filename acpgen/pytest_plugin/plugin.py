"""pytest plugin (entry point ``pytest11``): ACP requirement markers and coverage.

- ``@pytest.mark.acp_requirement("ACP-V1-...", ...)`` tags a test with roster IDs. An unknown
  or malformed ID is a collection error that names the ID (as in acp-tck: a typo must not
  silently leave a requirement untested).
- ``--acp-coverage[=PATH]`` prints a table by keyword and responsibility (passing / failing /
  skipped stub / no test) and writes the same as JSON (default ``acp-coverage.json``).
- ``--acp-require=MUST|SHOULD|MAY`` fails the run when a requirement of that level (MUST
  covers MUST and MUST NOT) with responsibility ``sdk`` has no passing test.
- ``--acp-roster=PATH`` / ini ``acp_roster``: the roster (see :mod:`acpgen.pytest_plugin.roster`
  for the fallbacks).

Registered for every pytest run once acpgen is installed, so it must stay cheap to import and
must do nothing visible when no roster is configured and no marker is used. The package
imports only itself (relatively), the standard library and pytest: ``acpgen skeleton`` copies
it verbatim into a new project, whose tests then need no acpgen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from . import coverage as cov
from . import roster as plugin_roster
from . import skips

if TYPE_CHECKING:
    from .roster_table import Roster

MARKER = "acp_requirement"
DEFAULT_COVERAGE_PATH = "acp-coverage.json"
USER_PROPERTY = "acp_requirements"  # on each tagged test's reports: its IDs, space-separated
# Same shape as acpgen.inputs.roster's ID pattern; repeated so that importing the plugin stays cheap.
_ID_RE = re.compile(r"^ACP-V1-[A-Z0-9]+(?:-[A-Z0-9]+)+$")


class _State:
    """Per-run state, kept in ``config.stash``."""

    def __init__(self, source: plugin_roster.RosterSource | None) -> None:
        self.source = source
        self._roster: Roster | None = None
        self._error: str | None = None
        self.tracker = cov.Tracker()
        self.report: dict[str, Any] | None = None
        self.report_path: Path | None = None

    def roster(self) -> Roster:
        """Load on first use; raises RosterUnavailable with a one-line reason."""
        if self._roster is not None:
            return self._roster
        if self._error is None:
            if self.source is None:
                self._error = (
                    "no ACP roster configured: pass --acp-roster=PATH, set the ini option "
                    "acp_roster, or set ACPGEN_INPUTS"
                )
            else:
                try:
                    self._roster = plugin_roster.load(self.source)
                    return self._roster
                except plugin_roster.RosterUnavailable as exc:
                    self._error = str(exc)
        raise plugin_roster.RosterUnavailable(self._error)


_STATE = pytest.StashKey[_State]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("acp", "ACP requirement coverage (acpgen)")
    group.addoption(
        "--acp-roster",
        metavar="PATH",
        default=None,
        help="the ACP requirement roster (requirements.md); default: ini acp_roster, "
        "then the acpgen lock, then $ACPGEN_INPUTS/roster/requirements.md",
    )
    group.addoption(
        "--acp-coverage",
        metavar="PATH",
        nargs="?",
        const=DEFAULT_COVERAGE_PATH,
        default=None,
        help="print requirement coverage by keyword and responsibility and write it as JSON "
        f"to PATH (written --acp-coverage=PATH; bare --acp-coverage writes {DEFAULT_COVERAGE_PATH})",
    )
    group.addoption(
        "--acp-require",
        metavar="LEVEL",
        default=None,
        choices=sorted(cov.REQUIRE_LEVELS),
        help="fail the run if a requirement of this level or stronger (MUST covers MUST and "
        "MUST NOT) with responsibility sdk has no passing test",
    )
    parser.addini("acp_roster", "path of the ACP requirement roster (relative to the ini file)", default="")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    # A bare ``--acp-coverage`` must not swallow the next argument (often a test path), so
    # its optional value is only ever given as ``--acp-coverage=PATH``.
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--acp-coverage":
            args[index] = f"--acp-coverage={DEFAULT_COVERAGE_PATH}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{MARKER}(*ids): the ACP roster requirement(s) a test exercises"
    )
    ini_dir = config.inipath.parent if config.inipath else config.rootpath
    invocation_dir = config.invocation_params.dir
    source = plugin_roster.explicit_source(
        config.getoption("acp_roster"), str(config.getini("acp_roster")), ini_dir, invocation_dir
    )
    explicit = source is not None
    if source is None:
        source = plugin_roster.implicit_source(config.rootpath)
    state = _State(source)
    config.stash[_STATE] = state
    config.pluginmanager.register(_RunHooks(config, state), "acp_requirements_run")
    config.pluginmanager.register(_SkipSummary(), "acp_requirements_skips")
    coverage = config.getoption("acp_coverage")
    if coverage is not None:
        path = Path(coverage or DEFAULT_COVERAGE_PATH)
        state.report_path = path if path.is_absolute() else invocation_dir / path
    if explicit or coverage is not None or config.getoption("acp_require"):
        try:
            state.roster()
        except plugin_roster.RosterUnavailable as exc:
            raise pytest.UsageError(str(exc)) from None


def _marker_problems(state: _State, item: pytest.Item) -> list[str]:
    problems: list[str] = []
    for mark in item.iter_markers(MARKER):
        if not mark.args:
            problems.append(f"{item.nodeid}: @pytest.mark.{MARKER} needs at least one requirement ID")
        for arg in mark.args:
            if not isinstance(arg, str) or not _ID_RE.match(arg):
                problems.append(f"{item.nodeid}: malformed ACP requirement ID {arg!r}")
                continue
            try:
                roster = state.roster()
            except plugin_roster.RosterUnavailable as exc:
                problems.append(f"{item.nodeid}: cannot check ACP requirement ID {arg!r}: {exc}")
                continue
            if arg not in roster.by_id():
                problems.append(
                    f"{item.nodeid}: unknown ACP requirement ID {arg!r} "
                    f"(not in roster {roster.revision})"
                )
    return problems


def _ids(item: pytest.Item) -> tuple[str, ...]:
    return tuple(sorted({arg for mark in item.iter_markers(MARKER) for arg in mark.args}))


class _RunHooks:
    """The hooks that need this run's state (registered per config in pytest_configure)."""

    def __init__(self, config: pytest.Config, state: _State) -> None:
        self.config = config
        self.state = state

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(self, collector: pytest.Collector):  # type: ignore[no-untyped-def]
        report = yield
        if not report.passed or not report.result:
            return report
        problems: list[str] = []
        for node in report.result:
            if isinstance(node, pytest.Item):
                problems.extend(_marker_problems(self.state, node))
        if problems:
            # A failed collect report is a collection error: the run stops, the IDs named.
            report.outcome = "failed"
            report.longrepr = "\n".join(problems)
            report.result = []
        return report

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # After deselection (-k, -m): only tests that will run count for a requirement.
        for item in session.items:
            ids = _ids(item)
            if ids:
                self.state.tracker.add_test(item.nodeid, ids)
                # Reports carry user properties, so the IDs also reach JUnit XML and a
                # controller that did not collect the items itself (pytest-xdist).
                item.user_properties.append((USER_PROPERTY, " ".join(ids)))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.nodeid not in self.state.tracker.outcomes:
            ids = dict(report.user_properties).get(USER_PROPERTY)
            if not ids:
                return
            self.state.tracker.add_test(report.nodeid, tuple(str(ids).split()))
        self.state.tracker.record(
            report.nodeid,
            report.when,
            report.outcome,
            hasattr(report, "wasxfail"),
            # An expected failure's reason is its xfail reason (a skip's is in longrepr).
            getattr(report, "wasxfail", None) or (cov.skip_reason(report.longrepr) if report.skipped else None),
        )

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        state = self.state
        require = self.config.getoption("acp_require")
        if state.report_path is None and not require:
            return
        if hasattr(self.config, "workerinput"):
            return  # a pytest-xdist worker: the controller reports on the whole run
        roster = state.roster()  # loaded in pytest_configure, so this cannot fail here
        path = str(state.source.path) if state.source else ""
        state.report = cov.build_report(roster, state.tracker, require, path)
        if state.report_path is not None:
            state.report_path.parent.mkdir(parents=True, exist_ok=True)
            state.report_path.write_text(json.dumps(state.report, indent=2) + "\n", encoding="utf-8")
        if require and not state.report["require"]["ok"] and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        report = self.state.report
        if report is None:
            return
        write = terminalreporter.write_line
        if self.state.report_path is not None:
            terminalreporter.section("ACP requirement coverage")
            write(f"roster {report['roster']['revision']}: {report['counts']['total']} requirements")
            for line in cov.format_table(report):
                write(line)
            write(f"coverage JSON written to {self.state.report_path}")
        require = report["require"]
        if not require:
            return
        keywords = "/".join(require["keywords"])
        if require["ok"]:
            write(f"--acp-require={require['level']}: every {keywords} sdk requirement has a passing test")
            return
        terminalreporter.section("ACP requirement gate failed", red=True)
        write(
            f"--acp-require={require['level']}: {len(require['missing'])} {keywords} "
            "requirement(s) with responsibility sdk have no passing test:",
            red=True,
        )
        for req_id in require["missing"]:
            write(f"  {req_id}")


class _SkipSummary:
    """The run's last line says what its expected skips are and how to run them (skips.py)."""

    def __init__(self) -> None:
        self.tally = skips.SkipTally()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped and not hasattr(report, "wasxfail"):
            self.tally.record(report.nodeid, cov.skip_reason(report.longrepr))

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        line = self.tally.line()
        if line is not None:
            terminalreporter.write_line(line)
