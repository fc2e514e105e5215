"""The ``acpgen conformance`` command: the conformance kit against any agent or client, from
any directory.

The kit is the generated tree's (``acpgen/shipped/conformance/``, copied into
``tests/_acp_kit/`` beside the generated package it validates with), so the command builds
that tree (the ACP v1 surface only) into a scratch directory, as ``acpgen generate`` would
from the same project, and runs its black-box tests in a pytest subprocess in the caller's
directory with the caller's environment: the command under test starts where the user
stands, and the checks are the very code ``pytest generated/tests/...`` runs. The command
reads the kit's JSON reports back, says the verdict, writes the reports asked for, and exits
0 (conformant at MUST level), 1 (not), 4 (the implementation cannot be started) or 2 (bad
usage, as every command).
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from acpgen.cli.common import emit_json, handle_errors, open_project, project_options
from acpgen.errors import AcpgenError
from acpgen.load.project import Project
from acpgen.output.generate import build_tree, options_for
from acpgen.shipped.conformance import baseline, junit, report

EXIT_CONFORMANT = 0
EXIT_NOT_CONFORMANT = 1
EXIT_CANNOT_START = 4  # the kit's own code for it (pytest's usage error), passed on
PLACEHOLDER = "{agent}"
URL_SCHEMES = ("ws://", "wss://", "http://", "https://")
REPORT_FORMAT = "acpgen-conformance/1"
# The kit's options a user sets through the command, by the command's name for them.
KIT_OPTIONS = {
    "prompt": "--acp-prompt",
    "slow_prompt": "--acp-slow-prompt",
    "permission_prompt": "--acp-permission-prompt",
    "fs_prompt": "--acp-fs-prompt",
    "elicitation_prompt": "--acp-elicitation-prompt",
    "auth_method": "--acp-auth-method",
    "client_input": "--acp-client-input",
    "timeout": "--acp-timeout",
    "turn_timeout": "--acp-turn-timeout",
    "cancel_grace": "--acp-cancel-grace",
    "profile": "--acp-profile",
}


@dataclass(frozen=True)
class Target:
    """What the run checks: an agent command or URL, a client command, or both sides."""

    agent: str | None
    agent_url: str | None
    client: str | None

    def kit_args(self) -> list[str]:
        args = []
        if self.agent:
            args.append(f"--acp-agent={self.agent}")
        if self.agent_url:
            args.append(f"--acp-agent-url={self.agent_url}")
        if self.client:
            args.append(f"--acp-client={self.client}")
        return args

    @property
    def sides(self) -> list[str]:
        return [s for s, on in (("agent", self.agent or self.agent_url), ("client", self.client)) if on]


def check_target(agent: str | None, agent_url: str | None, client: str | None) -> Target:
    """Refuse what cannot name an implementation, before anything is built."""
    if not (agent or agent_url or client):
        raise AcpgenError("acpgen conformance", 'give --agent "CMD", --agent-url URL or --client "CMD ... {agent}"')
    if agent is not None and agent_url is not None:
        raise AcpgenError("--agent-url", "give --agent or --agent-url, not both")
    for option, command in (("--agent", agent), ("--client", client)):
        if command is None:
            continue
        try:
            words = shlex.split(command)
        except ValueError as exc:
            raise AcpgenError(option, f"{command!r} is not a command line: {exc}") from None
        if not words:
            raise AcpgenError(option, "the command is empty")
        if option == "--client" and not any(PLACEHOLDER in w for w in words):
            raise AcpgenError(option, f"{command!r} has no {PLACEHOLDER}: where does the client put the agent command?")
    if agent_url is not None:
        if not agent_url.startswith(URL_SCHEMES):
            raise AcpgenError("--agent-url", f"{agent_url!r} is not a ws://, wss://, http:// or https:// URL")
        missing = [m for m in ("websockets", "httpx2") if importlib.util.find_spec(m) is None]
        if missing:
            raise AcpgenError("--agent-url", f"a remote agent needs {' and '.join(missing)}: pip install 'acpgen[remote]'")
    return Target(agent, agent_url, client)


def check_baseline(path: Path | None, write: bool) -> None:
    if write and path is None:
        raise AcpgenError("--write-baseline", "needs --baseline FILE (the file to write)")
    if path is not None:
        try:
            baseline.load(str(path))  # the kit's reader: a file the run would refuse is refused now
        except baseline.BaselineError as exc:
            raise AcpgenError("--baseline", str(exc)) from None


def v1_project(project: Project) -> Project:
    """The project with its roster surface only: the kit checks ACP v1 (the roster's)."""
    if project.conformance is None:
        raise AcpgenError("schema/conformance.toml", "missing: the conformance kit needs it (which requirements a run observes)")
    lock = replace(project.lock, surfaces={})
    return replace(project, lock=lock, surfaces=(project.primary,))


def write_tree(project: Project, root: Path) -> Path:
    """The generated tree (v1, its tests and kit) in ``root``; the tests directory."""
    options = options_for(project)
    # Not proven here: the kit's run imports the package first thing, and the same bytes are
    # what `acpgen generate` proves (importability is a function of the bytes).
    for rel, data in build_tree(project, options, proven=False).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    roster = project.inputs.directory / project.lock.files["roster"].path
    # The requirement plugin (acpgen's pytest11 entry point) finds the roster here; rootdir and
    # ini are the scratch tree's, so no configuration of the caller's directory applies.
    (root / "pytest.ini").write_text(f"[pytest]\nacp_roster = {roster}\n", encoding="utf-8")
    return root / options.tests_dir


def kit_command(tests: Path, target: Target, kit: list[str], reports: Path) -> list[str]:
    files = [str(tests / f"test_conformance_{side}.py") for side in ("agent", "client") if side in target.sides]
    root = tests.parent
    return [
        # The kit's scenarios are one pytest session: never spread over xdist workers (a
        # `-n` in the caller's PYTEST_ADDOPTS is then refused, not a report that misses what
        # the workers saw).
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
        "-c", str(root / "pytest.ini"), "--rootdir", str(root),
        *files, *target.kit_args(), *kit,
        f"--acp-conformance-json={reports / 'report.json'}",
        f"--acp-transport-json={reports / 'transport.json'}",
    ]


def read_reports(target: Target, reports: Path) -> dict[str, Any]:
    """The kit's JSON reports, by side (a file per side when both ran)."""
    both = len(target.sides) == 2
    found: dict[str, Any] = {}
    for side in target.sides:
        path = reports / ("report.json" + (f".{side}" if both else ""))
        if path.exists():
            found[side] = json.loads(path.read_text(encoding="utf-8"))
    transport = reports / "transport.json"
    if transport.exists():
        found["transport"] = json.loads(transport.read_text(encoding="utf-8"))
    return found


def last_line(text: str) -> str:
    """What a pytest run that judged nothing said last: its last error line, else its last
    line (rules and pytest's ``rootdir:`` / ``inifile:`` footer left out)."""
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and not set(line.strip()) <= set("=_-")
             and not line.strip().startswith(("rootdir:", "inifile:", "configfile:"))]
    errors = [line for line in lines if "error" in line.lower()]
    return (errors or lines or ["no output"])[-1]


def verdict(found: dict[str, Any]) -> tuple[int, list[str]]:
    """The exit code and why: the kit's verdict of each side at MUST level (the baseline's
    known deviations pass, a listed one that passes now fails), and the RFD's rules."""
    sides = [found[s] for s in ("agent", "client") if s in found]
    if any(r.get("error") for r in sides):
        return EXIT_CANNOT_START, [f"the {r['side']} cannot be run: {r['error']}" for r in sides if r.get("error")]
    why = [f"{r['side']}: {line}" for r in sides for line in report.run_failures(r)]
    for rule in (found.get("transport") or {}).get("transport", []):
        if rule["status"] == "fail":
            why.append(f"agent: {rule['id']} (RFD): {rule['message']}")
    return (EXIT_NOT_CONFORMANT if why else EXIT_CONFORMANT), why


def summary_lines(found: dict[str, Any], verbose: bool) -> list[str]:
    lines: list[str] = []
    for side in ("agent", "client"):
        if side in found:
            lines += report.text_lines(found[side], verbose=verbose)
    transport = found.get("transport")
    if transport:
        lines.append(f"ACP remote transport (RFD rules) at {transport['url']}")
        for rule in transport["transport"]:
            if rule["status"] != "pass" or verbose:
                message = f": {rule['message']}" if rule["message"] else ""
                lines.append(f"  {rule['status'].upper():7} {rule['id']}{message}")
        passed = sum(r["status"] == "pass" for r in transport["transport"])
        lines.append(f"  {passed} of {len(transport['transport'])} rules passed")
    return lines


def markdown(found: dict[str, Any]) -> str:
    parts = [report.to_markdown(found[s]) for s in ("agent", "client") if s in found]
    transport = found.get("transport")
    if transport:
        rows = [f"**ACP remote transport (RFD rules)** at `{transport['url']}`", "",
                "| rule | result | observed |", "|---|---|---|"]
        rows += [f"| {r['id']} | {r['status']} | {r['message'].replace('|', chr(92) + '|')} |"
                 for r in transport["transport"]]
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@click.command("conformance")
@click.option("--agent", metavar="CMD", help="The agent under test: a command that speaks ACP on its stdin and stdout (run in this directory, with this environment).")
@click.option("--agent-url", metavar="URL", help="A remote agent under test: ws:// or wss:// (WebSocket), http:// or https:// (Streamable HTTP/2); adds the RFD's transport rules (needs acpgen[remote]).")
@click.option("--client", metavar="CMD", help="The client under test; {agent} in CMD stands for the kit's scripted agent command.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON on stdout (each side's report, the RFD rules, the exit code and why).")
@click.option("--md", "md", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path), help="Write the report as Markdown to FILE (- for stdout), e.g. $GITHUB_STEP_SUMMARY.")
@click.option("--junit", "junit_file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path), help="Write JUnit XML to FILE: a test case per judged requirement, failures with their frames.")
@click.option("--baseline", "baseline_file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path), help="Known deviations: a failure listed there passes the run; a listed one that passes now fails it.")
@click.option("--write-baseline", is_flag=True, help="Write this run's failing requirements into the --baseline FILE (the run still fails on them).")
@click.option("--transcripts", metavar="DIR", type=click.Path(file_okay=False, path_type=Path), help="Keep each scenario's frames in DIR, one trace file each (<side>-<scenario>.jsonl, the trace format: with the generated SDK, `python -m acp_v1.trace html FILE -o PAGE` draws one).")
@click.option("--prompt", metavar="TEXT", help="The prompt the kit sends an agent (default: a short greeting).")
@click.option("--slow-prompt", metavar="TEXT", help="A prompt the agent works on until cancelled (the cancellation checks).")
@click.option("--permission-prompt", metavar="TEXT", help="A prompt that makes the agent ask for permission.")
@click.option("--fs-prompt", metavar="TEXT", help="A prompt that makes the agent read {path} through fs/read_text_file.")
@click.option("--elicitation-prompt", metavar="TEXT", help="A prompt that makes the agent elicit input (form and URL elicitation are then advertised).")
@click.option("--auth-method", metavar="ID", help="An advertised auth method the kit may call authenticate with (it may start a real login).")
@click.option("--logout", is_flag=True, help="The kit may call logout last, when the agent advertises auth.logout (it ends the login).")
@click.option("--client-input", metavar="TEXT", help="What an interactive client reads on stdin (\\n for newlines).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS", help="Seconds for each answer (default 10).")
@click.option("--turn-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS", help="Seconds for a prompt turn, or a whole client run (default 60).")
@click.option("--cancel-grace", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS", help="Seconds a cancelled turn may run on (default 10).")
@click.option("--profile", type=click.Choice(["registry"]), help="Only a preset's checks: registry, the ACP registry's listing checks.")
@click.option("--verbose", "-v", is_flag=True, help="List the passes and skips too, not only the failures.")
@project_options
@handle_errors
def conformance(
    agent: str | None,
    agent_url: str | None,
    client: str | None,
    as_json: bool,
    md: Path | None,
    junit_file: Path | None,
    baseline_file: Path | None,
    write_baseline: bool,
    transcripts: Path | None,
    logout: bool,
    verbose: bool,
    project_dir: Path | None,
    inputs: str | None,
    **kit_values: Any,
) -> None:
    """Check an ACP agent or client, in any language, against the roster, from any directory.

    The kit starts the command (or connects to the URL), plays the other side in about ten
    short scenarios and judges each observable requirement. Exit 0: conformant at MUST level
    (with --baseline: no failure but the known ones); 1: not; 4: the implementation cannot be
    started or never answers initialize; 2: bad usage.
    """
    target = check_target(agent, agent_url, client)
    check_baseline(baseline_file, write_baseline)
    if as_json and md == Path("-"):
        raise AcpgenError("--md", "- (stdout) and --json both want stdout: give --md a file")
    project = v1_project(open_project(project_dir, inputs, builtin=True))
    kit = [f"{KIT_OPTIONS[name]}={value}" for name, value in kit_values.items() if value is not None]
    kit += ["--acp-logout"] if logout else []
    if baseline_file is not None:
        kit.append(f"--acp-baseline={baseline_file.resolve()}")
        kit += ["--acp-write-baseline"] if write_baseline else []
    if transcripts is not None:
        kit.append(f"--acp-transcripts={transcripts.resolve()}")
    with tempfile.TemporaryDirectory(prefix="acpgen-conformance-") as scratch:
        tests = write_tree(project, Path(scratch) / "tree")
        reports = Path(scratch) / "reports"
        reports.mkdir()
        done = subprocess.run(kit_command(tests, target, kit, reports), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, check=False)
        found = read_reports(target, reports)
    if not any(side in found for side in target.sides):
        # No report: the kit refused its options or broke before judging anything.
        raise AcpgenError("acpgen conformance", f"the kit did not run (pytest exit {done.returncode}): "
                          f"{last_line(done.stderr) if done.stderr.strip() else last_line(done.stdout)}")
    code, why = verdict(found)
    sides = [found[s] for s in ("agent", "client") if s in found]
    if junit_file is not None:
        _write(junit_file, junit.to_junit(sides, found.get("transport")))
    if md is not None:
        if md == Path("-"):
            click.echo(markdown(found), nl=False)
        else:
            _write(md, markdown(found))
    if as_json:
        emit_json({"format": REPORT_FORMAT, "exit_code": code, "conformant": code == EXIT_CONFORMANT,
                   "why": why, **{s: found[s] for s in ("agent", "client", "transport") if s in found}})
        sys.exit(code)
    out = sys.stderr if md == Path("-") else sys.stdout  # stdout keeps the Markdown alone
    for line in summary_lines(found, verbose):
        click.echo(line, file=out)
    written = [(what, path) for what, path in (("JUnit XML", junit_file), ("Markdown", md),
                                                ("transcripts", transcripts)) if path not in (None, Path("-"))]
    written += [("baseline", baseline_file)] if write_baseline and baseline_file is not None else []
    for what, path in written:
        click.echo(f"{what} written to {path}", file=out)
    if code == EXIT_CONFORMANT:
        known = sum(bool(e.get("baseline")) for r in sides for e in r["requirements"])
        extra = f" ({known} known deviations of the baseline)" if known else ""
        click.echo(f"acpgen conformance: conformant at MUST level{extra}", file=out)
    elif code == EXIT_NOT_CONFORMANT:
        click.echo(f"acpgen conformance: NOT conformant at MUST level: {len(why)} failing ({'; '.join(why)[:2000]})", file=out)
    else:
        click.echo(f"acpgen: error: {'; '.join(why)}", err=True)
    sys.exit(code)
