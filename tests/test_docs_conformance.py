"""docs/conformance.md's CI recipes for an agent's own repository, each run for real.

The GitHub Actions job: every `run:` step in order, in a repository holding only the Node.js
agent (tests/support/node_agent.mjs as `agent.mjs`), in a fresh offline venv (the install
step installs acpgen from a copy of this repository instead of the URL). The pre-commit hook:
through pre-commit (the version the `test` extra pins), with a tagged copy of this repository
standing in for the URL; it passes, then fails once the agent answers `initialize` with
another protocol version. As docs/ci.md's recipes are run in tests/test_docs.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT_ROOT
from test_docs import GIT, _copy_project, _env, _git_repo, _kind, blocks
from venv_support import fresh_venv, offline_env, site_farm

DOC = "docs/conformance.md"
NODE_AGENT = PROJECT_ROOT / "tests" / "support" / "node_agent.mjs"
URL = "https://github.com/OWNER/acpgen"
REV = "TAG-OR-COMMIT-SHA"


def recipes() -> list:  # type: ignore[type-arg]
    text = (PROJECT_ROOT / DOC).read_text(encoding="utf-8")
    return [b for b in blocks(DOC, text, {"yaml": "yaml"}) if b.file]


def recipe(kind: str):  # type: ignore[no-untyped-def]
    (found,) = [b for b in recipes() if _kind(b) == kind]
    return found


def test_every_recipe_of_the_conformance_doc_is_run_here() -> None:
    assert sorted(_kind(b) for b in recipes()) == ["pre-commit remote", "workflow"]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (node not on PATH): the recipes' agent is a Node.js program")
    return node


def _agent_repository(root: Path) -> Path:
    root.mkdir(parents=True)
    shutil.copyfile(NODE_AGENT, root / "agent.mjs")
    return root


def _observable_by_an_agent() -> set[str]:
    rows = tomllib.loads((PROJECT_ROOT / "schema" / "conformance.toml").read_text(encoding="utf-8"))
    return {r["id"] for r in rows["requirement"] if r["observable"] in ("agent", "both")}


@pytest.mark.slow
def test_the_agents_github_workflow_runs_as_written(tmp_path: Path) -> None:
    _node()
    farm = site_farm(tmp_path / "farm")
    source = _copy_project(tmp_path / "acpgen")
    env = {k: v for k, v in offline_env(fresh_venv(tmp_path / "venv", farm)).items() if not k.startswith("PYTEST_")}
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary.md")
    repo = _agent_repository(tmp_path / "my-agent")
    steps = yaml.safe_load(recipe("workflow").text)["jobs"]["conformance"]["steps"]
    runs = [str(s["run"]) for s in steps if "run" in s]
    assert f"git+{URL}@{REV}" in runs[0], runs[0]
    runs[0] = runs[0].replace(f"git+{URL}@{REV}", source.as_uri())
    for script in runs:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=repo, env=env,
                              capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, f"{script}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "acpgen conformance: conformant at MUST level" in done.stdout
    # What the job keeps: every path the upload step names exists, the JUnit file lists each
    # requirement judged against an agent, and the job's summary is the Markdown report.
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    for path in str(upload["with"]["path"]).split():
        assert (repo / path).exists(), path
    names = [c.get("name", "").split(" ")[0] for c in ET.parse(repo / "acp-conformance.xml").getroot().iter("testcase")]
    assert sorted(n for n in names if n.startswith("ACP-V1-")) == sorted(_observable_by_an_agent())
    assert sorted(p.name for p in (repo / "acp-transcripts").glob("agent-*.jsonl"))
    assert (tmp_path / "summary.md").read_text(encoding="utf-8").startswith("**ACP v1 conformance (agent)**")


def _pre_commit(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--hook-stage", "pre-push"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False)


@pytest.mark.slow
def test_the_agents_pre_commit_hook_passes_then_fails_on_a_violation(tmp_path: Path) -> None:
    _node()
    farm = site_farm(tmp_path / "farm")
    env = {k: v for k, v in {**_env(tmp_path / "none", farm), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}.items()
           if not k.startswith("PYTEST_")}
    hooks = _copy_project(tmp_path / "acpgen")
    _git_repo(hooks, env, tag="v0.1.0-docs-test")
    text = recipe("pre-commit remote").text
    (repo_entry,) = yaml.safe_load(text)["repos"]
    assert (repo_entry["repo"], repo_entry["rev"]) == (URL, REV)
    repo = _agent_repository(tmp_path / "my-agent")
    (repo / ".pre-commit-config.yaml").write_text(text.replace(URL, str(hooks)).replace(REV, "v0.1.0-docs-test"),
                                                  encoding="utf-8")
    _git_repo(repo, env)
    done = _pre_commit(repo, env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "acpgen conformance" in done.stdout and "Passed" in done.stdout
    agent = repo / "agent.mjs"
    source = agent.read_text(encoding="utf-8")
    assert source.count("protocolVersion: 1,") == 1
    agent.write_text(source.replace("protocolVersion: 1,", "protocolVersion: 0,"), encoding="utf-8")
    subprocess.run([*GIT, "commit", "-qam", "answer another version"], cwd=repo, env=env, check=True, timeout=120)
    done = _pre_commit(repo, env)
    assert done.returncode == 1 and "Failed" in done.stdout, done.stdout[-3000:]
    assert "NOT conformant at MUST level" in done.stdout and "ACP-V1-INIT-AGENT-SAME-VERSION" in done.stdout
