"""The conformance kit against the published ACP agents and clients (opt-in: ``-m real_peers``).

One test per implementation and version, each one command::

    pytest tests/real_peers -m real_peers -k gemini

Installs are pinned: the npm programs by ``tests/real_peers/package.json`` (exact versions) and
its committed ``package-lock.json`` (``npm install`` into ``tests/real_peers/node_modules``), the PyPI ones by
the exact versions below (a venv each, in the system's temporary directory). Every program runs
offline: ``HOME`` and the XDG directories are empty temporary folders (no login, no
configuration), every proxy variable and every model endpoint the programs read points at
``127.0.0.1:9`` (nothing listens there), so no traffic leaves the machine; what needs a model
or a login skips with the program's own message. Each run writes its report to
``tests/real_peers/results/<name>.json`` and ``.md``; ``docs/conformance-matrix.md`` is the
reviewed summary. The test fails when a requirement fails that the review did not find to be
a true deviation (``DEVIATIONS``), or a reviewed one no longer fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import INPUTS, generated_dir

pytestmark = [pytest.mark.real_peers, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
BIN = HERE / "node_modules" / ".bin"
# The PyPI installs live outside the checkout (the suite's own checks read every .py file in it).
VENVS = Path(tempfile.gettempdir()) / "acpgen-real-peers-venvs"
PYPI = {
    "deepagents-acp": "deepagents-acp==0.0.13",
    "python-sdk": "agent-client-protocol==0.12.1",
}
NOWHERE = "http://127.0.0.1:9"  # loopback, nothing listening: any request fails at once

# Reviewed against the roster text and the bytes (docs/conformance-matrix.md): the
# requirements each implementation truly breaks. Anything else failing is a kit defect.
# A line that is not JSON (or JSON that is no request) left without the -32700 / -32600
# response JSON-RPC 2.0 gives it. (Batches are no longer RESPONSE-REQUIRED's, issue 34 class c:
# JSON-RPC 2.0 answers them as a SHOULD, reported beside the roster.)
UNANSWERED = {"ACP-V1-JSONRPC-RESPONSE-REQUIRED"}
DEVIATIONS: dict[str, set[str]] = {
    "claude-agent-acp-0.101.0": {"ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS", "ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION"},
    "gemini-cli-0.61.0": UNANSWERED | {"ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS", "ACP-V1-SCHEMA-ERROR-OBJECT",
                                       "ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL"},
    "opencode-1.18.33": UNANSWERED,
    "codex-acp-0.16.0": UNANSWERED | {"ACP-V1-SCHEMA-ERROR-OBJECT", "ACP-V1-SCHEMA-AUTH-METHOD-VARIANTS",
                                      "ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION",
                                      "ACP-V1-JSONRPC-RESPONSE-ID-ECHO",
                                      "ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS"},
    "deepagents-acp-0.0.13": UNANSWERED | {"ACP-V1-INIT-IMPLEMENTATION-INFO", "ACP-V1-INIT-AGENT-LATEST-VERSION",
                                           "ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND"},
    "python-sdk-0.12.1-echo-agent": UNANSWERED | {"ACP-V1-INIT-IMPLEMENTATION-INFO",
                                                  "ACP-V1-INIT-AGENT-LATEST-VERSION",
                                                  "ACP-V1-INIT-AGENT-SPECIFY-CAPABILITIES",
                                                  "ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND"},
    "typescript-sdk-2.4.0-agent": {"ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION"},
    "acpx-0.19.1": UNANSWERED | {"ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION",
                                 "ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS"},
    "python-sdk-0.12.1-client": UNANSWERED | {"ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION",
                                 "ACP-V1-INIT-CLIENT-SPECIFY-CAPABILITIES",
                                 "ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS"},
}



def _npm_install() -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed for the published npm agents")
    stamp = HERE / "node_modules" / ".installed-from"
    lock = (HERE / "package-lock.json").read_bytes()
    if stamp.is_file() and stamp.read_bytes() == lock:
        return
    # `npm install` from the committed lock, not `npm ci`: npm 10 refuses `ci` for locks whose
    # platform-specific optional packages (opencode's binaries) it resolved on another platform.
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    stamp.write_bytes(lock)


def _venv(name: str) -> Path:
    """A venv with the pinned PyPI package (and nothing of acpgen's)."""
    root = VENVS / name
    python = root / "bin" / "python"
    stamp = root / ".installed-from"
    if not (stamp.is_file() and stamp.read_text() == PYPI[name]):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(root)], check=True, timeout=300)
        subprocess.run([str(python), "-m", "pip", "install", "-q", PYPI[name]], check=True, timeout=900)
        stamp.write_text(PYPI[name])
    return root


def _sdk_examples() -> Path:
    """The official Python SDK's examples (they ship only in its sdist)."""
    target = VENVS / "python-sdk-sdist"
    examples = target / "agent_client_protocol-0.12.1" / "examples"
    if not examples.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        "-d", str(target), PYPI["python-sdk"]], check=True, timeout=300)
        subprocess.run(["tar", "xzf", "agent_client_protocol-0.12.1.tar.gz"], cwd=target, check=True)
    return examples


def offline_env(home: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "SYSTEMROOT")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local/state"),
        HTTP_PROXY=NOWHERE, HTTPS_PROXY=NOWHERE, ALL_PROXY=NOWHERE, http_proxy=NOWHERE,
        https_proxy=NOWHERE, all_proxy=NOWHERE, NO_PROXY="", no_proxy="", NODE_USE_ENV_PROXY="1",
        ANTHROPIC_BASE_URL=NOWHERE, OPENAI_BASE_URL=NOWHERE, GOOGLE_GEMINI_BASE_URL=NOWHERE,
        CODE_ASSIST_ENDPOINT=NOWHERE, GEMINI_CLI_NO_RELAUNCH="true", OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        NO_UPDATE_NOTIFIER="1", npm_config_offline="true",
        PYTHONPATH=str(generated_dir()),
    )
    for sub in (".config", ".local/share", ".cache", ".local/state"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    return env


def run_kit(name: str, side: str, command: str, *options: str, timeout: float = 900) -> dict:  # type: ignore[type-arg]
    RESULTS.mkdir(exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix=f"acp-real-{name}-"))
    report = RESULTS / f"{name}.json"
    report.unlink(missing_ok=True)
    tests = generated_dir() / "tests" / f"test_conformance_{side}.py"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tests),
         f"--acp-roster={INPUTS / 'roster' / 'requirements.md'}", f"--acp-{side}={command}",
         f"--acp-conformance-json={report}", f"--acp-conformance-md={RESULTS / (name + '.md')}", *options],
        cwd=home, env=offline_env(home), capture_output=True, text=True, timeout=timeout, check=False,
    )
    (RESULTS / f"{name}.log").write_text(done.stdout[-20000:] + done.stderr[-5000:])
    shutil.rmtree(home, ignore_errors=True)
    assert report.exists(), done.stdout[-3000:] + done.stderr[-2000:]
    return json.loads(report.read_text())


def _judge(name: str, report: dict) -> None:  # type: ignore[type-arg]
    failing = {e["id"] for e in report["requirements"] if e["status"] == "fail"}
    expected = DEVIATIONS.get(name, set())
    messages = {e["id"]: e["message"] for e in report["requirements"]}
    assert failing == expected, {i: messages[i] for i in failing ^ expected}


AGENTS = {
    "claude-agent-acp-0.101.0": lambda: str(BIN / "claude-agent-acp"),
    "gemini-cli-0.61.0": lambda: f"{BIN / 'gemini'} --acp",
    "opencode-1.18.33": lambda: f"{BIN / 'opencode'} acp",
    "codex-acp-0.16.0": lambda: str(BIN / "codex-acp"),
}


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_published_npm_agent(name: str) -> None:
    _npm_install()
    # Node programs that load much at start-up get 30 s per answer (the machine is shared).
    _judge(name, run_kit(name, "agent", AGENTS[name](), "--acp-timeout=30", "--acp-turn-timeout=20"))


def test_deepagents_acp() -> None:
    root = _venv("deepagents-acp")
    name = "deepagents-acp-0.0.13"
    _judge(name, run_kit(name, "agent", f"{root / 'bin' / 'python'} -m deepagents_acp", "--acp-turn-timeout=20"))


def test_python_sdk_example_agent() -> None:
    root = _venv("python-sdk")
    examples = _sdk_examples()
    name = "python-sdk-0.12.1-echo-agent"
    _judge(name, run_kit(name, "agent", f"{root / 'bin' / 'python'} {examples / 'echo_agent.py'}"))


def test_python_sdk_example_client() -> None:
    root = _venv("python-sdk")
    examples = _sdk_examples()
    name = "python-sdk-0.12.1-client"
    _judge(name, run_kit(name, "client", f"{root / 'bin' / 'python'} {examples / 'client.py'} {{agent}}",
                         "--acp-client-input=hello\\n"))


def test_typescript_sdk_example_agent() -> None:
    sys.path.insert(0, str(HERE.parent))
    import ts_sdk

    ts_sdk.install()
    name = "typescript-sdk-2.4.0-agent"
    _judge(name, run_kit(name, "agent", f"{ts_sdk.node()} {ts_sdk.AGENT}", "--acp-slow-prompt=/wait",
                         "--acp-permission-prompt=/permission", "--acp-fs-prompt=/read {path}"))


def test_acpx_client() -> None:
    _npm_install()
    name = "acpx-0.19.1"
    _judge(name, run_kit(name, "client", f"{BIN / 'acpx'} --approve-all --agent={{agent}} exec hello"))
