"""A Debian package a test needs: installed when missing (as root, with apt-get), or a skip
that says why it cannot be.

``ensure_command("chromium")`` returns the command's path. The install runs ``apt-get
update`` once per process, then ``apt-get install -y --no-install-recommends PACKAGE``, each
bounded by a timeout; a failure is a skip naming the command that failed, never a hang.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

APT_TIMEOUT = 900  # seconds: a browser is a large download on a slow mirror
_UPDATED: list[bool] = []


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(
        ["apt-get", "-q", *args], env=env, capture_output=True, text=True, timeout=APT_TIMEOUT,
        check=False,
    )


def ensure_command(command: str, package: str | None = None) -> str:
    """The path of ``command``, installing Debian's ``package`` (default: same name) if needed."""
    found = shutil.which(command)
    if found:
        return found
    package = package or command
    if shutil.which("apt-get") is None:
        pytest.skip(f"{command} is not installed and this system has no apt-get to install {package}")
    if os.geteuid() != 0:
        pytest.skip(f"{command} is not installed; installing {package} needs root (apt-get)")
    try:
        if not _UPDATED:
            done = _apt("update")
            if done.returncode != 0:
                pytest.skip(f"apt-get update failed: {done.stderr.strip()[-300:]}")
            _UPDATED.append(True)
        done = _apt("install", "-y", "--no-install-recommends", package)
    except subprocess.TimeoutExpired:
        pytest.skip(f"apt-get did not finish installing {package} in {APT_TIMEOUT}s")
    if done.returncode != 0:
        pytest.skip(f"apt-get install {package} failed: {done.stderr.strip()[-300:]}")
    found = shutil.which(command)
    if not found:
        pytest.skip(f"{package} installed, but no {command} command on PATH")
    return found
