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


@pytest.mark.slow  # four connections living across reaper ticks: about 2 s
def test_after_the_last_connection_closes_no_connection_or_session_stays_and_memory_is_released(
) -> None:
    """Connections that lived across reaper ticks, with sessions and streamed prompts: once
    they close, nothing of them stays reachable (the reaper held the last one it looked at,
    with its streams and queues, until this was fixed), the detached sessions go when their
    ttl is up with no request to trigger it, and memory is released once."""

    async def body() -> None:
        # idle_timeout 0.4 s: the reaper ticks every 0.1 s; sessions resumable for 0.3 s.
        async with serving(idle_timeout=0.4, session_ttl=0.3) as (url, endpoint):
            releases: list[int] = []
            endpoint._idle_release = IdleRelease(lambda: releases.append(1))
            remotes: list[weakref.ref[Any]] = []
            # One connection lives across the others: the server is never idle between two of
            # them (a new connection takes longer than a reaper tick on a busy machine).
            # Its turn waits (the echo agent's /wait) until cancelled: in flight, it is not reaped.
            holder = Recorder()
            async with connect_to_remote_agent(holder, ws(url)) as anchor:
                await initialized(anchor)
                held = (await anchor.session_new(cwd="/", mcp_servers=[])).session_id
                waiting = asyncio.ensure_future(
                    anchor.session_prompt(session_id=held, prompt=prompt("/wait")))
                while not holder.chunks or holder.chunks[-1] != "waiting for session/cancel":
                    await asyncio.sleep(0.01)
                for profile_url in (url, ws(url), url, ws(url)):
                    client = Recorder()
                    async with connect_to_remote_agent(client, profile_url) as conn:
                        await initialized(conn)
                        session = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
                        await conn.session_prompt(session_id=session, prompt=prompt("hello"))
                        assert client.chunks
                        remotes.extend(weakref.ref(r) for r in list(endpoint.connections.values()))
                        await asyncio.sleep(0.25)  # the reaper ticks while the connection lives
                assert releases == []  # never idle yet
                await anchor.session_cancel(session_id=held)
                await waiting
            assert len(remotes) == 8  # the anchor's and one more, four times
            for _ in range(100):
                if not endpoint.connections and len(endpoint.sessions) == 0 and releases:
                    break
                await asyncio.sleep(0.05)
            assert endpoint.connections == {}
            assert len(endpoint.sessions) == 0, "detached sessions outlived their ttl"
            assert releases == [1]
            await asyncio.sleep(0.25)  # more idle ticks release nothing more
            assert releases == [1]
            gc.collect()
            alive = [r() for r in remotes if r() is not None]
            assert not alive, f"{len(alive)} ended connections still reachable"
            assert not [o for o in gc.get_objects() if isinstance(o, RemoteConnection)]

    run(body)
