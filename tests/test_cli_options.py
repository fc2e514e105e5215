"""Options are validated up front: one line naming the problem, exit 2, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_acpgen

from acpgen.skeleton.create import parse_acpgen_requirement


@pytest.mark.slow
@pytest.mark.parametrize("name", ["class", "Foo-Bar", "pydantic", "json"])
def test_generate_refuses_a_bad_package_name(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    done = run_acpgen("generate", "--package", name, "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"acpgen: error: --package: {name!r} ")
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "problem"), [
    ("agentgen==1.0", "names 'agentgen', not acpgen"),
    ("acpgen @@ nowhere", "is not a pip requirement"),
    ("acpgen==0.1.0; rm -rf /", "is not a pip requirement"),
    ('acpgen @ file:///x"y', "contains a quote, backslash or control character"),
    ("acpgen==0.1.0\nother", "contains a quote, backslash or control character"),
])
def test_skeleton_refuses_a_bad_acpgen_requirement(tmp_path: Path, spec: str, problem: str) -> None:
    out = tmp_path / "sdk"
    done = run_acpgen("skeleton", "--package", "mysdk", "--out", str(out), "--acpgen-requirement", spec)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("acpgen: error: --acpgen-requirement: ") and problem in done.stderr
    assert not out.exists()


def test_acpgen_requirements_that_are_accepted() -> None:
    assert not parse_acpgen_requirement("acpgen>=0.1,<0.2").direct
    for direct in ("acpgen @ file:///opt/acpgen", "acpgen @ git+https://example.org/acpgen.git@v0.1.0",
                   "ACPgen[extra] @ https://example.org/acpgen-0.1.0-py3-none-any.whl"):
        assert parse_acpgen_requirement(direct).direct, direct


def test_a_read_only_command_outside_any_project_uses_the_builtin_inputs(tmp_path: Path, inputs_dir: Path) -> None:
    done = run_acpgen("roster", "--kind", "derived", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "31 of 240 requirements\n", done.stderr
    # --inputs and $ACPGEN_INPUTS still override the inputs the built-in lock names.
    missing = tmp_path / "nowhere"
    done = run_acpgen("roster", cwd=tmp_path, env={"ACPGEN_INPUTS": str(missing)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nowhere" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_command_that_writes_outside_any_project_says_so(tmp_path: Path) -> None:
    done = run_acpgen("check", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no schema/acp.lock here or in any parent directory" in done.stderr
    assert "(one made by `acpgen skeleton --package NAME --out DIR`) or pass --project DIR" in done.stderr


@pytest.mark.slow
def test_check_without_the_package_it_was_generated_with_names_the_option(tmp_path: Path) -> None:
    import json

    out = tmp_path / "X"
    assert run_acpgen("generate", "--package", "othersdk", "--out", str(out), "-q").returncode == 0
    done = run_acpgen("check", "--out", str(out), "--json")
    assert done.returncode == 1
    kinds = [c["kind"] for c in json.loads(done.stdout)["causes"]]
    assert kinds == ["options_changed"], kinds  # not generator drift, not stale output
    assert run_acpgen("check", "--out", str(out), "--package", "othersdk").returncode == 0


def test_a_closed_stdout_ends_a_command_quietly(tmp_path: Path) -> None:
    import subprocess
    import sys

    # `acpgen roster | head -1`: the reader leaves after one line; no traceback, exit 0.
    with subprocess.Popen([sys.executable, "-m", "acpgen", "roster", "--json"], cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0, err
    assert b"Traceback" not in err and b"Broken pipe" not in err


def test_drift_outside_a_project_does_not_advise_lock_update(tmp_path: Path, inputs_copy: Path) -> None:
    meta = inputs_copy / "schema" / "v1" / "meta.json"
    meta.write_bytes(meta.read_bytes() + b" ")
    outside = run_acpgen("verify", "--inputs", str(inputs_copy), cwd=tmp_path)
    assert outside.returncode == 2 and outside.stderr.count("\n") == 1
    assert "meta.json" in outside.stderr and "make a project (`acpgen skeleton`)" in outside.stderr
    inside = run_acpgen("verify", "--inputs", str(inputs_copy))
    assert inside.returncode == 2 and inside.stderr.count("\n") == 1
    assert "accept new bytes only with `acpgen lock --update`" in inside.stderr


def test_diff_of_two_schema_files_needs_no_project_and_no_inputs(tmp_path: Path) -> None:
    from conftest import HISTORY, INPUTS

    shutil.copyfile(HISTORY / "schema-v1.21.0.json", tmp_path / "old.json")
    shutil.copyfile(INPUTS / "schema" / "v1" / "schema.json", tmp_path / "new.json")
    done = run_acpgen("diff", "old.json", "new.json", cwd=tmp_path)
    assert done.returncode == 1 and "ToolCall" in done.stdout, done.stderr


def test_the_skeleton_says_how_to_install_its_acpgen_where_a_test_needs_it(tmp_path: Path) -> None:
    from conftest import load_real_project

    from acpgen.skeleton.create import build_skeleton

    files = build_skeleton(load_real_project(), tmp_path / "sdk", "mysdk")
    (wheel,) = [name for name in files if name.startswith("vendor/acpgen-") and name.endswith(".whl")]
    check = files["tests/test_generated_is_current.py"].decode()
    assert f'reason="acpgen is not installed (pip install ./{wheel})"' in check
    other = build_skeleton(load_real_project(), tmp_path / "sdk2", "mysdk",
                           acpgen_requirement="acpgen==0.1.0")
    assert not [name for name in other if name.startswith("vendor/")]
    assert "(pip install -e '.[test,dev]')" in other["tests/test_generated_is_current.py"].decode()


@pytest.mark.slow
def test_roster_ids_print_the_requirements_wording_and_refuse_an_unknown_one(tmp_path: Path) -> None:
    # With or without the ACP-V1- prefix, any case, in the order given.
    done = run_acpgen("roster", "jsonrpc-response-required", "ACP-V1-INIT-AGENT-RESPONSE", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "ACP-V1-JSONRPC-RESPONSE-REQUIRED (MUST, both, sdk, incorporated)"
    assert lines[1] == ("  When a rpc call is made, the Server MUST reply with a Response, except for in "
                        "the case of Notifications.")
    assert lines[3].startswith("ACP-V1-INIT-AGENT-RESPONSE (MUST, agent,")
    done = run_acpgen("roster", "INIT-AGENT-RESPONSE", "no-such-requirement", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("acpgen: error: roster: unknown requirement ID 'no-such-requirement' "
                           "(see `acpgen roster`)\n")


def test_the_run_options_take_the_flag_then_the_environment_then_nothing() -> None:
    """--inputs beats $ACPGEN_INPUTS; neither (or an empty one) leaves the lock's `inputs`;
    the environment is read from what the edge is given, not from the process."""
    from acpgen.cli.options import run_options
    from acpgen.inputs.lock import InputsChoice

    env = {"ACPGEN_INPUTS": "from/env", "ACPGEN_TEMPLATES": "/t"}
    assert run_options(None, "from/flag", env).inputs == InputsChoice("from/flag", "--inputs")
    assert run_options(None, None, env).inputs == InputsChoice("from/env", "$ACPGEN_INPUTS")
    assert run_options(None, "", {"ACPGEN_INPUTS": ""}).inputs is None
    assert run_options(None, None, {}).inputs is None
    assert run_options(Path("p"), None, env).templates == "/t"
    assert run_options(Path("p"), None, {"ACPGEN_TEMPLATES": ""}).templates is None


def test_an_inputs_choice_names_its_source_when_the_directory_is_missing(tmp_path: Path) -> None:
    from acpgen.errors import AcpgenError
    from acpgen.inputs.lock import InputsChoice, Lock, resolve_inputs_dir

    lock = Lock(project_root=tmp_path, inputs="schema/inputs", files={})
    with pytest.raises(AcpgenError, match=r"\(from \$ACPGEN_INPUTS: .*--inputs DIR or \$ACPGEN_INPUTS"):
        resolve_inputs_dir(lock, InputsChoice(str(tmp_path / "missing"), "$ACPGEN_INPUTS"))
    with pytest.raises(AcpgenError, match=r"\(from `inputs` in schema/acp.lock, relative to "):
        resolve_inputs_dir(lock, None)
    (tmp_path / "schema" / "inputs").mkdir(parents=True)
    assert resolve_inputs_dir(lock, None) == (tmp_path / "schema" / "inputs").resolve()


@pytest.mark.parametrize(
    ("args", "where", "problem"),
    [
        (["diff", "--bogus"], "diff: ", "No such option '--bogus'"),
        (["nosuch"], "", "No such command 'nosuch'"),
        (["bump"], "bump: ", "Missing option '--schema'"),
        (["diff", "--format", "xml", "a.json", "b.json"], "diff: ", "Invalid value for '--format': 'xml'"),
        (["diff"], "diff: ", "OLD and NEW are required"),
        (["generate", "--package"], "", "Option '--package' requires an argument"),
        (["roster", "--json", "extra", "--nope"], "roster: ", "No such option '--nope'"),
        (["skeleton", "--package", "mysdk"], "skeleton: ", "Missing option '--out'"),
    ],
)
def test_a_usage_error_is_one_line_naming_where_and_what_with_exit_2(
    tmp_path: Path, args: list[str], where: str, problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from acpgen.cli.main import main

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, args, prog_name="python -m acpgen")  # the real main()
    assert done.exit_code == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # not click's usage, hint and error lines
    # The program is "acpgen" however it was started.
    assert done.stderr.startswith(f"acpgen: error: {where}{problem}"), done.stderr
    assert "see 'acpgen" in done.stderr and "--help'" in done.stderr  # where the choices are
    assert done.stdout == "" and list(tmp_path.iterdir()) == []  # nothing written


def test_a_usage_error_from_the_installed_command_is_one_line_and_help_exits_0(tmp_path: Path) -> None:
    done = run_acpgen("diff", "--bogus", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("acpgen: error: diff: No such option '--bogus'"), done.stderr
    for args in (["--help"], ["--version"]):
        ok = run_acpgen(*args)
        assert ok.returncode == 0 and ok.stdout and ok.stderr == "", (args, ok.stderr)
