"""Helpers shared by the skeleton, runtime and interop tests (no tests of its own).

One skeleton per test session (built with the real generator from the real pinned inputs),
importable in-process from its ``generated/`` directory and runnable as subprocesses.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest

SKELETON_PACKAGE = "interop_sdk"
T = TypeVar("T")
_CACHE: dict[str, Path] = {}


def shared_skeleton(tmp_path_factory: pytest.TempPathFactory, inputs_dir: Path) -> Path:
    """The session's skeleton (package ``interop_sdk``), made once by the real CLI from the
    project root with the inputs vendored. Tests must not change it (copy it first)."""
    if "root" not in _CACHE:
        from conftest import run_acpgen

        root = tmp_path_factory.mktemp("skeleton") / "sdk"
        done = run_acpgen("skeleton", "--package", SKELETON_PACKAGE, "--out", str(root),
                          "--vendor-inputs", "--inputs", str(inputs_dir))
        assert done.returncode == 0, done.stderr
        assert f"package {SKELETON_PACKAGE}" in done.stdout
        _CACHE["root"] = root
    return _CACHE["root"]


def import_skeleton(root: Path) -> None:
    """Make the skeleton's package importable in this process."""
    generated = str(root / "generated")
    if generated not in sys.path:
        sys.path.insert(0, generated)


def skeleton_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root / "generated"), env.get("PYTHONPATH", "")) if p)
    return env


def echo_agent_command() -> list[str]:
    return [sys.executable, "-m", f"{SKELETON_PACKAGE}.examples.echo_agent"]


def run(coro: Awaitable[T], timeout: float = 60.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


class RawProcessPeer:
    """A spawned agent driven with raw frames (what no typed client would send)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.stdin = process.stdin
        self.stdout = process.stdout

    @classmethod
    async def spawn(cls, command: list[str], env: dict[str, str]) -> RawProcessPeer:
        process = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=None, env=env, limit=64 * 1024 * 1024,
        )
        return cls(process)

    async def send(self, message: Any) -> None:
        await self.send_bytes(json.dumps(message).encode("utf-8") + b"\n")

    async def send_bytes(self, data: bytes) -> None:
        self.stdin.write(data)
        await self.stdin.drain()

    async def recv(self, timeout: float = 20.0) -> Any:
        line = await asyncio.wait_for(self.stdout.readline(), timeout)
        if not line:
            raise EOFError("the agent closed stdout")
        return json.loads(line)

    async def close(self) -> int:
        self.stdin.close()
        try:
            return await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()
