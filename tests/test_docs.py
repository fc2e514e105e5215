"""The docs are tested: every shell and Python block a user is told to run is run.

The blocks of README.md and docs/*.md whose info string starts with ``sh``, ``bash``,
``shell`` or ``python`` are executed, file by file in document order, in a temporary copy of
the project, from its root, with the copy's ``.venv`` first on ``PATH`` (as after
``. .venv/bin/activate``). That venv is made by the README's own install command, offline:
its dependencies are seen through a farm of this venv's packages (tests/venv_support.py), so
nothing is downloaded and nothing of this checkout is imported.

Words after the language in the info string say what else to do with a block:

* ``no-run``: a fragment or an output sample, not a command to run as it is;
* ``file=NAME``: write the block to NAME (in the copy) instead of running it; the doc's
  files are written before its first command runs, so a command may come before the file it
  runs ("save it as NAME");
* ``ci``: the README's test command: it is what ``.ci/run`` runs (checked here), not run
  again inside the suite it starts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT_ROOT
from venv_support import site_farm

RUN_LANGUAGES = {"sh": "sh", "bash": "sh", "shell": "sh", "python": "python"}
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^`\n]*)\n", re.MULTILINE)
DOCS = ["README.md", *sorted(p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    language: str  # sh or python
    flags: tuple[str, ...]
    text: str

    @property
    def file(self) -> str | None:
        return next((f.split("=", 1)[1] for f in self.flags if f.startswith("file=")), None)


def blocks(doc: str, text: str, languages: dict[str, str] = RUN_LANGUAGES) -> list[Block]:
    """The fenced blocks of one Markdown file that are commands (``no-run`` ones left out), or
    (``languages``) of other languages."""
    found = []
    pos = 0
    while match := FENCE.search(text, pos):
        close = re.compile(rf"^ {{0,{len(match['indent']) + 3}}}{match['fence']}`*[ \t]*$", re.MULTILINE)
        end = close.search(text, match.end())
        assert end is not None, f"{doc}:{text.count(chr(10), 0, match.start()) + 1}: unclosed code block"
        words = match["info"].split()
        pos = end.end()
        if not words or words[0] not in languages or "no-run" in words[1:]:
            continue
        body = text[match.end():end.start()]
        if match["indent"]:  # a block inside a list item: its lines carry the item's indent
            body = "".join(line[len(match["indent"]):] for line in body.splitlines(keepends=True))
        found.append(Block(doc, text.count("\n", 0, match.start()) + 1, languages[words[0]],
                           tuple(words[1:]), body))
    return found


def doc_blocks(doc: str) -> list[Block]:
    return blocks(doc, (PROJECT_ROOT / doc).read_text(encoding="utf-8"))


def test_the_block_reader_finds_what_a_reader_sees() -> None:
    text = ("intro\n```sh\necho one\n```\n```python no-run\nfragment\n```\n```text\nout\n```\n"
            "1. item\n\n   ```python file=a.py\n   print(1)\n   ```\n````sh\nx ```not a fence\n````\n")
    got = blocks("x.md", text)
    assert [(b.line, b.language, b.flags, b.text) for b in got] == [
        (2, "sh", (), "echo one\n"),
        (13, "python", ("file=a.py",), "print(1)\n"),
        (16, "sh", (), "x ```not a fence\n"),
    ]
    assert got[1].file == "a.py"


def test_the_readme_test_command_is_what_ci_runs() -> None:
    (command,) = [b for b in doc_blocks("README.md") if "ci" in b.flags]
    ci = (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command.text.strip() in ci.splitlines(), (command.text, ci)


def test_a_runnable_block_runs_a_skeletons_whole_suite() -> None:
    """The skeleton's runtime suite (generated/runtime_tests) runs in full here, and only here:
    tests/test_standalone.py's CI replays leave it out (SKIP_RUNTIME_SUITE)."""
    whole = [b for b in doc_blocks("docs/runtime-and-skeleton.md")
             if b.language == "sh" and "no-run" not in b.flags and "acpgen skeleton" in b.text
             and b.text.rstrip().endswith("python -m pytest -q")]
    assert len(whole) == 1, "the runtime suite of a skeleton would no longer run anywhere"


def test_the_readme_starts_with_the_install_command() -> None:
    first = doc_blocks("README.md")[0]
    assert first.language == "sh" and first.flags == ()
    assert "pip install" in first.text and "acpgen generate" in first.text


def _copy_project(dest: Path) -> Path:
    ignore = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.pyc", "node_modules",
                                    ".mypy_cache", ".ruff_cache", "*.egg-info", "build", "dist")
    shutil.copytree(PROJECT_ROOT, dest, ignore=ignore, symlinks=True)
    return dest


def _env(root: Path, farm: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("ACPGEN_INPUTS", "VIRTUAL_ENV", "PYTHONPATH") and not k.startswith("PIP_")}
    venv = root / ".venv"
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(venv)
    # Offline: the dependencies the install asks for are already there (the farm), the build
    # backend too (no build isolation), and no index is asked.
    env["PYTHONPATH"] = str(farm)
    env["PIP_NO_INDEX"] = "1"
    env["PIP_NO_BUILD_ISOLATION"] = "0"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(block: Block, root: Path, env: dict[str, str]) -> None:
    where = f"{block.doc}:{block.line}"
    if block.file:
        (root / block.file).write_text(block.text, encoding="utf-8")
        return
    if block.language == "sh":
        args = ["bash", "-e", "-o", "pipefail", "-c", block.text]
    else:
        script = root / f"_doc_{Path(block.doc).stem}_{block.line}.py"
        script.write_text(block.text, encoding="utf-8")
        args = [str(root / ".venv" / "bin" / "python"), str(script)]
    done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{where} exited {done.returncode}:\n{block.text}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the project after the README's first command (install and generate)."""
    farm = site_farm(tmp_path_factory.mktemp("farm") / "site")
    root = _copy_project(tmp_path_factory.mktemp("docs") / "project")
    _run(doc_blocks("README.md")[0], root, _env(root, farm))
    # An isolated interpreter of the venv (python -I: acpgen's import proof) ignores PYTHONPATH:
    # it sees the farm through a .pth file, as a venv with the dependencies installed would.
    # (Without it a proof passed only when acpgen's memo already held that tree's proof.)
    python = root / ".venv" / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True, timeout=120).stdout.strip()
    (Path(site) / "_docs_farm.pth").write_text(f"import site; site.addsitedir({str(farm)!r})\n")
    return root, farm


@pytest.mark.slow
def test_after_the_install_command_the_sdk_imports_from_anywhere(installed: tuple[Path, Path], tmp_path: Path) -> None:
    root, farm = installed
    env = _env(root, farm)
    done = subprocess.run([str(root / ".venv" / "bin" / "python"), "-c", "import acp_v1, acpgen; print(acp_v1.__file__, acpgen.__file__)"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    sdk, tool = (Path(p) for p in done.stdout.split())
    assert sdk == root / "generated" / "acp_v1" / "__init__.py" and tool.is_relative_to(root)


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS)
def test_every_command_block_of_the_doc_runs(doc: str, installed: tuple[Path, Path], tmp_path: Path) -> None:
    base, farm = installed
    runnable = [b for b in doc_blocks(doc) if "ci" not in b.flags]
    if doc == "README.md":
        runnable = runnable[1:]  # the install command made `installed`
    if not runnable:
        pytest.skip(f"{doc} has no command to run")
    root = _copy_project(tmp_path / "project")
    # The venv of the install: its editable acpgen is the base copy's (the same code).
    (root / ".venv").symlink_to(base / ".venv")
    env = _env(root, farm)
    for block in sorted(runnable, key=lambda b: b.file is None):  # files first, then in order
        _run(block, root, env)


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def test_the_documented_worker_count_is_what_ci_runs() -> None:
    ci = (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (workers,) = {int(n) for n in re.findall(r"pytest .*?-n (\d+)", ci)}
    said = {}
    for doc in DOCS:
        text = (PROJECT_ROOT / doc).read_text(encoding="utf-8")
        for match in re.finditer(r"\b(?:in|on) (\w+)\s+workers\b", text):
            said[f"{doc}:{text.count(chr(10), 0, match.start()) + 1}"] = _NUMBER_WORDS.get(match[1], match[1])
    assert {"README.md", "docs/ci.md"} <= {where.split(":")[0] for where in said}, said
    assert all(n == workers for n in said.values()), (workers, said)



# -- docs/ci.md's recipes: the workflow and the pre-commit configurations, each run for real --

GIT = ["git", "-c", "user.name=docs test", "-c", "user.email=docs@test.invalid", "-c", "init.defaultBranch=main"]


def ci_recipes() -> list[Block]:
    return [b for b in blocks("docs/ci.md", (PROJECT_ROOT / "docs" / "ci.md").read_text(encoding="utf-8"),
                              {"yaml": "yaml"}) if b.file]


def _recipe(kind: str) -> Block:
    found = [b for b in ci_recipes() if _kind(b) == kind]
    assert len(found) == 1, (kind, found)
    return found[0]


def _kind(block: Block) -> str:
    if block.file == ".pre-commit-config.yaml":
        (repo,) = yaml.safe_load(block.text)["repos"]
        return "pre-commit local" if repo["repo"] == "local" else "pre-commit remote"
    if block.file and block.file.startswith(".github/workflows/"):
        return "workflow"
    return f"unknown ({block.file})"


def test_every_recipe_of_the_ci_doc_is_run_here() -> None:
    """Each YAML recipe of docs/ci.md is one this module runs (a new one needs a runner)."""
    assert sorted(_kind(b) for b in ci_recipes()) == ["pre-commit local", "pre-commit remote", "workflow"]
    assert not [b for b in blocks("docs/ci.md", (PROJECT_ROOT / "docs" / "ci.md").read_text(encoding="utf-8"),
                                  {"yaml": "yaml"}) if not b.file]


def _git_repo(root: Path, env: dict[str, str], tag: str | None = None) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"], *([["tag", tag]] if tag else [])):
        done = subprocess.run([*GIT, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, (args, done.stderr)


def _pre_commit(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def _the_hook_passes_then_fails_on_a_hand_edit(root: Path, env: dict[str, str]) -> None:
    """In a Git repository with the recipe committed: `pre-commit run --all-files` passes;
    after a hand edit of a generated file it fails, naming the file."""
    _git_repo(root, env)
    done = _pre_commit(root, env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"^acpgen check.*\.Passed$", done.stdout, re.MULTILINE), done.stdout
    target = root / "generated" / next(p.name for p in (root / "generated").iterdir() if p.is_dir()) / "models.py"
    target.write_text(target.read_text(encoding="utf-8") + "# edited by hand\n", encoding="utf-8")
    subprocess.run([*GIT, "commit", "-qam", "hand edit"], cwd=root, env=env, check=True, timeout=120)
    done = _pre_commit(root, env)
    edited = target.relative_to(root / "generated").as_posix()
    assert done.returncode == 1 and "Failed" in done.stdout and edited in done.stdout, done.stdout[-3000:]


@pytest.mark.slow
def test_the_pre_commit_recipe_from_another_repository_runs(
        skeleton: Path, installed: tuple[Path, Path], tmp_path: Path) -> None:
    """As written, but for the URL and the rev: a repository of this project, tagged here,
    stands in for the URL; a fresh skeleton is the other repository. pre-commit installs the
    hook's environment from that repository (offline: the farm), and the hook runs for real."""
    _, farm = installed
    env = {**_env(tmp_path / "none", farm), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    hooks = _copy_project(tmp_path / "acpgen")
    _git_repo(hooks, env, tag="v0.1.0-docs-test")
    recipe = _recipe("pre-commit remote")
    (repo,) = yaml.safe_load(recipe.text)["repos"]
    assert repo["repo"].startswith("https://") and repo["rev"] == "TAG-OR-COMMIT-SHA", repo
    config = recipe.text.replace(repo["repo"], str(hooks)).replace(repo["rev"], "v0.1.0-docs-test")
    sdk = tmp_path / "sdk"
    shutil.copytree(skeleton, sdk)
    (sdk / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    _the_hook_passes_then_fails_on_a_hand_edit(sdk, env)


@pytest.mark.slow
def test_the_local_pre_commit_recipe_runs(installed: tuple[Path, Path], tmp_path: Path) -> None:
    base, farm = installed
    root = _copy_project(tmp_path / "project")
    (root / ".venv").symlink_to(base / ".venv")
    env = {**_env(root, farm), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    (root / ".pre-commit-config.yaml").write_text(_recipe("pre-commit local").text, encoding="utf-8")
    (root / ".gitignore").write_text(".venv\n", encoding="utf-8")
    _the_hook_passes_then_fails_on_a_hand_edit(root, env)


@pytest.mark.slow
def test_the_github_workflow_runs_as_written(installed: tuple[Path, Path], tmp_path: Path) -> None:
    """Every `run:` step in order in a copy of the project (the install included), but the
    tests step: that is the README's test command's pytest, which runs this very test."""
    _, farm = installed
    root = _copy_project(tmp_path / "project")
    env = _env(root, farm)
    steps = yaml.safe_load(_recipe("workflow").text)["jobs"]["check"]["steps"]
    runs = [(s.get("name", ""), str(s["run"])) for s in steps if "run" in s]
    (ci,) = [b for b in doc_blocks("README.md") if "ci" in b.flags]
    name, tests = runs[-1]
    assert name == "Tests" and tests.strip() in ci.text, (tests, ci.text)
    for _, script in runs[:-1]:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=root, env=env,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, f"{script}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    report = json.loads((root / "acpgen-check.json").read_text(encoding="utf-8"))
    assert report["status"] == "clean"
