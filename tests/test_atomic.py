"""Atomic writes: the previous generated/ survives every failure, a kill, and bad output.

Writer behaviour is tested in-process on small trees (fast, and it can stage exact
states such as "killed between the two renames"); the failure modes a user meets (a
template that fails to render, black rejecting emitted code, an unwritable output path, a
SIGKILL during generation) run the real CLI on a temporary copy of the project.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, single_surface, tree_digest
from test_check import cli, make_copy

from acpgen.errors import AcpgenError
from acpgen.output import writer
from acpgen.output.generate import MANIFEST_NAME
from acpgen.output.writer import DIR_MODE, FILE_MODE, old_path, recover, staging_prefix, write_tree


def tree(**extra: bytes) -> dict[str, bytes]:
    """A small tree that the writer accepts as acpgen's own (it has a MANIFEST.json)."""
    files = {MANIFEST_NAME: json.dumps({"generator": {"name": "acpgen"}}).encode()}
    files.update({k.replace("__", "/"): v for k, v in extra.items()})
    return files


def leftovers(target: Path) -> list[str]:
    """Staging or old directories beside the target."""
    return sorted(p.name for p in target.parent.iterdir()
                  if p.name.startswith(staging_prefix(target)) or p == old_path(target))


def modes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mode & 0o7777 for p in [root, *root.rglob("*")]}


# ---- the writer, in-process --------------------------------------------------------------


def test_exact_tree_stale_files_removed_fixed_modes(tmp_path: Path) -> None:
    target = tmp_path / "generated"
    first = tree(pkg__a_py=b"a = 1\n", pkg__old_py=b"old = 1\n", docs__x_txt=b"x\n")
    old_umask = os.umask(0o077)  # a restrictive umask must not leak into the checkout
    try:
        result = write_tree(target, first)
        assert result.added == sorted(first) and not result.changed and not result.removed
        second = tree(pkg__a_py=b"a = 2\n", pkg__new_py=b"new = 1\n")
        result = write_tree(target, second)
    finally:
        os.umask(old_umask)
    assert tree_digest(target) == second, "exactly the new tree: stale files and dirs are gone"
    assert (result.changed, result.added, result.removed) == (
        ["pkg/a_py"], ["pkg/new_py"], ["docs/x_txt", "pkg/old_py"])
    assert {rel: mode for rel, mode in modes(target).items()} == {
        ".": DIR_MODE, "pkg": DIR_MODE, MANIFEST_NAME: FILE_MODE,
        "pkg/a_py": FILE_MODE, "pkg/new_py": FILE_MODE}
    assert leftovers(target) == []


def test_identical_tree_is_not_rewritten_but_wrong_modes_are_repaired(tmp_path: Path) -> None:
    target = tmp_path / "generated"
    files = tree(pkg__a_py=b"a = 1\n")
    write_tree(target, files)
    inode = target.stat().st_ino
    assert write_tree(target, files).unchanged
    assert target.stat().st_ino == inode, "an unchanged tree is left alone (mtimes, watchers)"
    os.chmod(target / "pkg" / "a_py", 0o600)
    assert write_tree(target, files).unchanged
    assert modes(target)["pkg/a_py"] == FILE_MODE
    (target / "emptied_pkg").mkdir()  # no files, so no byte differs: still not ours
    write_tree(target, files)
    assert not (target / "emptied_pkg").exists()


def test_before_write_runs_only_when_something_is_written_and_can_stop_it(tmp_path: Path) -> None:
    target = tmp_path / "generated"
    calls: list[str] = []
    files = tree(pkg__a_py=b"a = 1\n")
    write_tree(target, files, before_write=lambda: calls.append("new tree"))
    assert calls == ["new tree"] and tree_digest(target) == files
    write_tree(target, files, before_write=lambda: calls.append("unchanged"))
    assert calls == ["new tree"], "an identical tree is not written, so nothing runs"
    os.chmod(target / "pkg" / "a_py", 0o600)
    write_tree(target, files, before_write=lambda: calls.append("modes"))
    assert calls == ["new tree", "modes"]

    def refuse() -> None:
        raise AcpgenError("pkg/", "refused")

    with pytest.raises(AcpgenError, match="refused"):
        write_tree(target, tree(pkg__a_py=b"a = 2\n"), before_write=refuse)
    assert tree_digest(target) == files and leftovers(target) == []


def test_symlinked_output_dir_keeps_its_link(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "generated"
    write_tree(real, tree(a=b"1"))
    link = tmp_path / "proj" / "generated"
    link.parent.mkdir()
    link.symlink_to(real, target_is_directory=True)
    write_tree(link, tree(b=b"2"))
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert tree_digest(real) == tree(b=b"2")
    assert leftovers(real) == [] and sorted(p.name for p in link.parent.iterdir()) == ["generated"]


def test_fallback_two_renames_when_exchange_is_unsupported(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    target = tmp_path / "generated"
    write_tree(target, tree(a=b"1"))
    write_tree(target, tree(b=b"2"))
    assert tree_digest(target) == tree(b=b"2") and leftovers(target) == []


def test_failed_second_rename_puts_the_previous_tree_back(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "generated"
    write_tree(target, tree(a=b"previous"))
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    real_replace = os.replace

    def failing_replace(src: object, dst: object) -> None:
        if Path(str(src)).name.startswith(staging_prefix(target)):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(writer.os, "replace", failing_replace)
    with pytest.raises(AcpgenError, match="cannot replace the output directory: No space left on device"):
        write_tree(target, tree(a=b"next"))
    assert tree_digest(target) == tree(a=b"previous") and leftovers(target) == []


def test_kill_between_the_two_renames_is_recovered(tmp_path: Path) -> None:
    """The fallback swap's only window: target renamed away, staging not yet renamed in."""
    target = tmp_path / "generated"
    write_tree(target, tree(a=b"previous"))
    os.replace(target, old_path(target))  # the state a kill between the renames leaves
    stale = tmp_path / (staging_prefix(target) + "dead")
    stale.mkdir()
    (stale / "half").write_bytes(b"partial")
    recover(target)
    assert tree_digest(target) == tree(a=b"previous") and leftovers(target) == []

    os.replace(target, old_path(target))
    write_tree(target, tree(a=b"next"))  # the next run recovers first, then writes
    assert tree_digest(target) == tree(a=b"next") and leftovers(target) == []


def test_failure_while_staging_leaves_the_previous_tree(tmp_path: Path) -> None:
    target = tmp_path / "generated"
    write_tree(target, tree(a=b"previous"))
    before = tree_digest(target)
    # "x" is both a file and a directory: the OS refuses half-way through staging.
    with pytest.raises(AcpgenError, match="cannot write generated output"):
        write_tree(target, tree(x=b"file", x__y=b"child"))
    assert tree_digest(target) == before and leftovers(target) == []


@pytest.mark.parametrize("rel", ["../escape", "/abs", "a/../../b", "a//b", "."])
def test_unsafe_output_paths_are_refused(tmp_path: Path, rel: str) -> None:
    with pytest.raises(AcpgenError, match="unsafe output path"):
        write_tree(tmp_path / "generated", {rel: b"x", MANIFEST_NAME: b"{}"})
    assert not (tmp_path / "generated").exists() and not (tmp_path / "escape").exists()


def test_refuses_to_replace_a_directory_acpgen_did_not_write(tmp_path: Path) -> None:
    precious = tmp_path / "src"
    precious.mkdir()
    (precious / "main.py").write_text("print('mine')\n", encoding="utf-8")
    with pytest.raises(AcpgenError, match="has no acpgen MANIFEST.json; refusing"):
        write_tree(precious, tree(a=b"1"))
    assert tree_digest(precious) == {"main.py": b"print('mine')\n"}
    empty = tmp_path / "empty"
    empty.mkdir()
    write_tree(empty, tree(a=b"1"))  # an empty directory is fine
    assert tree_digest(empty) == tree(a=b"1")


def test_concurrent_generate_is_refused_not_interleaved(tmp_path: Path) -> None:
    target = tmp_path / "generated"
    write_tree(target, tree(a=b"1"))
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a concurrent `acpgen generate` holds it
        with pytest.raises(AcpgenError, match="another `acpgen generate` is writing here"):
            write_tree(target, tree(a=b"2"))
    finally:
        os.close(fd)
    assert tree_digest(target) == tree(a=b"1")


# ---- the real CLI on a copy of the project -------------------------------------------------


@pytest.fixture()
def fresh_tree() -> dict[str, bytes]:
    """The single-surface project's tree (conftest.single_surface_project)."""
    return single_surface()[1]


@pytest.fixture()
def copy(tmp_path: Path, fresh_tree) -> Path:  # type: ignore[no-untyped-def]
    """A project copy whose generated/ is a *previous* generation (differs from the next)."""
    proj = make_copy(tmp_path / "proj", fresh_tree)
    previous = dict(fresh_tree)
    previous["acp_v1/left_by_an_older_generation.py"] = b"OLD = True\n"
    doc = json.loads(previous[MANIFEST_NAME])
    doc["files"]["acp_v1/left_by_an_older_generation.py"] = "0" * 64
    previous[MANIFEST_NAME] = (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
    write_tree(proj / "generated", previous)
    return proj


def run_generate(proj: Path, inputs: Path, *args: str, env: dict[str, str] | None = None,
                 **popen: object) -> subprocess.Popen[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("ACPGEN_")}
    full_env.update(env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "acpgen", "generate", "--project", str(proj), "--inputs", str(inputs), *args],
        env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen,  # type: ignore[call-overload]
    )


def broken_templates(tmp_path: Path, suffix: str, addition: str) -> Path:
    """A copy of templates/ with ``addition`` appended to every template named *suffix."""
    dest = tmp_path / "broken-templates"
    shutil.copytree(PROJECT_ROOT / "templates", dest)
    broken = 0
    for path in dest.rglob("*" + suffix):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(addition)
        broken += 1
    assert broken, f"no template ends in {suffix}"
    return dest


@pytest.mark.slow
@pytest.mark.parametrize(
    ("suffix", "addition", "message"),
    [
        (".jinja", "{{ acpgen_test_undefined_variable }}\n", "template failed to render"),
        (".py.jinja", "\ndef broken(:\n    pass\n", "formatter (black) rejected the emitted code"),
        # black accepts both; the proofs of acpgen.output.proof do not.
        (".py.jinja", "\nreturn 1\n", "generated code does not compile"),
        ("models.py.jinja", "\nimport acpgen_test_no_such_module\n", "the generated package does not import"),
    ],
    ids=["template-fails-to-render", "black-rejects-output", "output-does-not-compile",
         "package-does-not-import"],
)
def test_bad_templates_are_never_half_applied(copy: Path, inputs_dir: Path, tmp_path: Path,
                                              suffix: str, addition: str, message: str) -> None:
    templates = broken_templates(tmp_path, suffix, addition)
    before = tree_digest(copy / "generated")
    proc = run_generate(copy, inputs_dir, env={"ACPGEN_TEMPLATES": str(templates), "ACPGEN_NO_CACHE": "1"})
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 2, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("acpgen: error: ") and message in lines[0], err
    assert tree_digest(copy / "generated") == before
    assert leftovers(copy / "generated") == []


@pytest.mark.parametrize("where", ["below-a-file", "is-a-file"])
def test_unwritable_output_path(copy: Path, inputs_dir: Path, tmp_path: Path, where: str) -> None:
    """Root-proof: a path below a regular file cannot be created even by root; and an
    output path that is a file is never replaced."""
    blocker = tmp_path / "a-regular-file"
    blocker.write_bytes(b"not a directory\n")
    out = blocker / "generated" if where == "below-a-file" else blocker
    before = tree_digest(copy / "generated")
    result = cli("generate", "--project", str(copy), "--inputs", str(inputs_dir), "--out", str(out))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"acpgen: error: {blocker}: ")
    assert "is not a directory" in lines[0]
    assert blocker.read_bytes() == b"not a directory\n"
    assert tree_digest(copy / "generated") == before


def test_out_pointing_at_a_source_directory_is_refused(copy: Path, inputs_dir: Path) -> None:
    before = tree_digest(copy / "schema")
    result = cli("generate", "--project", str(copy), "--inputs", str(inputs_dir), "--out", "schema")
    assert result.exit_code == 2
    assert "refusing to replace a directory acpgen did not write" in result.stderr
    assert tree_digest(copy / "schema") == before


PAUSED_GENERATE = """
import sys, time
from pathlib import Path
from acpgen.load.project import load_project
from acpgen.output.generate import generate_report

def pause(staging):
    print(f"test hook: staged {staging}", file=sys.stderr, flush=True)
    time.sleep(60)

generate_report(load_project(Path(sys.argv[1]), sys.argv[2]), before_swap=pause)
"""


def test_sigkill_before_the_swap_keeps_the_previous_tree_and_the_next_run_recovers(
    copy: Path, inputs_dir: Path, fresh_tree: dict[str, bytes]
) -> None:
    gen = copy / "generated"
    before = tree_digest(gen)
    assert before != fresh_tree, "the test needs a generation that would change the tree"
    # `acpgen generate` as the command runs it, with a hook (a parameter of the writer, no
    # environment variable) that announces the complete staging directory and waits.
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("ACPGEN_")}
    proc = subprocess.Popen([sys.executable, "-c", PAUSED_GENERATE, str(copy), str(inputs_dir)],
                            env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # blocks until the staging dir is complete
        assert "test hook: staged" in line, line + proc.stderr.read()
        staged = [p for p in copy.iterdir() if p.name.startswith(staging_prefix(gen))]
        assert len(staged) == 1
        assert tree_digest(staged[0]) == fresh_tree, "the complete new tree is staged"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert tree_digest(gen) == before, "the kill left the previous tree exactly as it was"

    result = cli("generate", "--project", str(copy), "--inputs", str(inputs_dir))
    assert result.exit_code == 0, result.stderr
    assert "1 removed)" in result.stdout, result.stdout
    assert tree_digest(gen) == fresh_tree
    assert leftovers(gen) == [], "the next run removed the dead staging directory"
    quiet = cli("generate", "-q", "--project", str(copy), "--inputs", str(inputs_dir))
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, "", "")
    assert tree_digest(gen) == fresh_tree
