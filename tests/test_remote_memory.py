"""What the remote server keeps once its connections have gone (generated ``acp_v1.remote``).

A server that has served many connections must not keep any of them, must forget the sessions
it kept for resumption once their time is up even when no request comes to trigger it, and
gives the allocator's free pages back when it goes idle (``transports/idle_release.py``). The resident
size this buys is measured by ``bench/bench_remote.py`` (bench/README.md), not here.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import weakref
from typing import Any

import pytest
from conftest import generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1.remote import connect_to_remote_agent
from acp_v1.transports.endpoint import RemoteConnection
from acp_v1.transports.idle_release import IdleRelease, release_free_memory
from acp_v1.transports.sessions import SessionRegistry
from test_remote import Recorder, initialized, prompt, run, serving, ws


def test_idle_release_runs_once_per_busy_to_idle_change() -> None:
    calls: list[int] = []
    idle = IdleRelease(lambda: calls.append(1))
    seen = [idle.observe(n) for n in (0, 0, 3, 1, 0, 0, 0, 2, 0)]
    # Never busy yet: nothing; busy then idle: once; idle again: not again; busy, idle: once.
    assert seen == [False, False, False, False, True, False, False, False, True]
    assert len(calls) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_release_free_memory_reaches_glibcs_trim_on_linux() -> None:
    assert release_free_memory() is True


def test_the_registry_forgets_a_detached_session_when_swept_without_any_request() -> None:
    registry = SessionRegistry(ttl=0.05, capacity=10)
    assert registry.attach("s1", "c1", "alice")
    registry.detach_all("c1")
    assert len(registry) == 1  # resumable for its ttl
    registry.expire()
    assert len(registry) == 1
    time.sleep(0.1)
    registry.expire()
    assert len(registry) == 0


class _Watched(IdleRelease):
    """The endpoint's idle release, watched: every count of connections the reaper observed
    (one per tick) and every release it made, so the test waits on ticks, not on seconds."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.released = 0
        super().__init__(self._count)

    def _count(self) -> None:
        self.released += 1

    def observe(self, connections: int) -> bool:
        self.seen.append(connections)
        return super().observe(connections)

    async def ticks(self, n: int, *, after: int | None = None) -> None:
        """Until the reaper has observed ``n`` more ticks than it had at ``after``."""
        start = len(self.seen) if after is None else after
        while len(self.seen) < start + n:
            await asyncio.sleep(0.01)


def _busy_to_idle(seen: list[int]) -> int:
    """How many times the observed counts went from some connections to none."""
    changes, busy = 0, False
    for count in seen:
        if count:
            busy = True
        elif busy:
            busy, changes = False, changes + 1
    return changes


@pytest.mark.slow  # four connections living across reaper ticks: about 2 s
def test_after_the_last_connection_closes_no_connection_or_session_stays_and_memory_is_released(
) -> None:
    """Connections that lived across reaper ticks, with sessions and streamed prompts: once
    they close, nothing of them stays reachable (the reaper held the last one it looked at,
    with its streams and queues, until this was fixed), the detached sessions go when their
    ttl is up with no request to trigger it, and memory is released once per busy-to-idle
    change (a tick may fall between two connections on a loaded machine: that change
    releases too), never again while idle. Waits on the reaper's ticks, never on seconds."""

    async def body() -> None:
        # The reaper ticks every idle_timeout / 4 (0.25 s); sessions resumable for 0.3 s. The
        # idle limit is long enough that no connection is ended as idle while it is used.
        async with serving(idle_timeout=1.0, session_ttl=0.3) as (url, endpoint):
            watched = _Watched()
            endpoint._idle_release = watched
            remotes: list[weakref.ref[Any]] = []
            for profile_url in (url, ws(url), url, ws(url)):
                client = Recorder()
                async with connect_to_remote_agent(client, profile_url) as conn:
                    await initialized(conn)
                    session = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
                    await conn.session_prompt(session_id=session, prompt=prompt("hello"))
                    assert client.chunks
                    remotes.extend(weakref.ref(r) for r in list(endpoint.connections.values()))
                    # The reaper looks at this connection once while it lives.
                    before = len(watched.seen)
                    while not any(watched.seen[before:]):
                        await asyncio.sleep(0.01)
            assert len(remotes) == 4
            while endpoint.connections or len(endpoint.sessions) or not watched.released:
                await asyncio.sleep(0.01)  # the run's guard bounds this
            assert endpoint.connections == {}
            assert len(endpoint.sessions) == 0, "detached sessions outlived their ttl"
            idle_at = len(watched.seen)
            await watched.ticks(3)  # more idle ticks release nothing more
            assert watched.seen[idle_at:] == [0] * (len(watched.seen) - idle_at)
            assert watched.released == _busy_to_idle(watched.seen) >= 1, watched.seen
            gc.collect()
            alive = [r() for r in remotes if r() is not None]
            assert not alive, f"{len(alive)} ended connections still reachable"
            assert not [o for o in gc.get_objects() if isinstance(o, RemoteConnection)]

    run(body)
