"""The official TypeScript SDK (``@agentclientprotocol/sdk``) for the interop tests.

``tests/interop_ts/`` is a small npm project: ``package.json`` and the committed
``package-lock.json`` pin the SDK; ``agent.mjs`` and ``client.mjs`` are an echo agent and a
scenario-running client written with it. :func:`install` runs ``npm ci`` there when
``node_modules`` is missing or was installed from another lock, so the README's test command
sets everything up on a fresh machine. Without node or npm the interop tests skip and say so.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent / "interop_ts"
AGENT = ROOT / "agent.mjs"
AGENT_V1_UNSTABLE = ROOT / "agent_unstable.mjs"  # on the SDK's /unstable entry point
AGENT_V2 = ROOT / "agent_v2.mjs"  # on its /experimental/v2 entry point
CLIENT_SURFACES = ROOT / "client_surfaces.mjs"  # /unstable and /experimental/v2 clients
CLIENT = ROOT / "client.mjs"
_STAMP = ROOT / "node_modules" / ".acpgen-installed-from"  # the lock's SHA-256 at install time


def node() -> str:
    """The node executable, or skip the calling test with the reason."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed: the official TypeScript SDK interop tests need Node.js 20+")
    return found


def install() -> Path:
    """Install the pinned SDK into tests/interop_ts/node_modules (once per lock); return ROOT."""
    node()
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: it installs the official TypeScript SDK for the interop tests")
    lock = hashlib.sha256((ROOT / "package-lock.json").read_bytes()).hexdigest()
    # One installer at a time (parallel test workers share the folder).
    guard = Path(tempfile.gettempdir()) / f"acpgen-interop-ts-{hashlib.sha256(bytes(ROOT)).hexdigest()[:16]}.lock"
    with guard.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if not (_STAMP.is_file() and _STAMP.read_text() == lock):
            done = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
            )
            if done.returncode != 0:
                pytest.fail(f"npm ci in {ROOT} failed:\n{done.stderr[-2000:]}")
            _STAMP.write_text(lock)
    return ROOT
