"""A fixed, scripted ACP exchange whose cost is counted, not timed (tests/test_cost_guard.py).

Both ends of a generated package run in this process, over an in-memory pipe: a pair of
asyncio transports that hand each other's bytes to the peer's ``StreamReaderProtocol`` on the
next loop turn (what a socket does, without the kernel: nothing depends on buffer sizes, on
load or on timing). The bytes go through the package's full stdio path: NDJSON framing,
``StreamTransport`` (frames taken in the callback that received them), the JSON-RPC engine,
the typed ends with their receive and send guards, strict validation, omission and
per-session lanes; only the selector is replaced.

The script: ``initialize``, ``session/new``, a warm-up (caches, plans, adapters filled), then
``prompts`` empty prompts back to back (the **prompt round trip**) and one prompt during
which the agent sends ``updates`` ``session/update`` notifications (the **update**; the
client's handler sees each before the prompt returns). The cost is the number of
Python-level function calls (``sys.setprofile`` "call" events: a Python frame started or a
generator/coroutine resumed, so task hops count) and of calls into C ("c_call": builtins and
extension functions, pydantic-core's validation and serialisation among them), both ends
together, with the collector off. Per update: (calls of the streaming prompt - one round
trip) / updates.

The counts are a property of the code and the interpreter's version, not of the machine:
the same in every run, every process and every xdist worker (the test checks it).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

WARM_PROMPTS = 5
WARM_UPDATES = 20
TEXT = "Here is the next part of the answer, streamed."


class MemoryPipeEnd(asyncio.Transport):
    """One end of an in-memory byte pipe. ``write`` hands the bytes to the peer's protocol on
    the next loop turn, everything written in one turn in one ``data_received`` (as a socket
    read would); the write buffer is always empty (the peer takes everything at once)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop
        self.peer: MemoryPipeEnd | None = None
        self.protocol: asyncio.BaseProtocol | None = None
        self._outgoing: list[bytes] = []
        self._closing = False
        self._eof_sent = False

    # -- writing ---------------------------------------------------------------------

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing or self._eof_sent:
            raise RuntimeError("write after close")
        if not data:
            return
        if not self._outgoing:
            self._loop.call_soon(self._deliver)
        self._outgoing.append(bytes(data))

    def _deliver(self) -> None:
        data = b"".join(self._outgoing)
        self._outgoing.clear()
        peer = self.peer
        if peer is not None and peer.protocol is not None and not peer._closing:
            peer.protocol.data_received(data)  # type: ignore[attr-defined]

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        return None

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        if self._eof_sent:
            return
        self._eof_sent = True
        self._loop.call_soon(self._deliver_eof)

    def _deliver_eof(self) -> None:
        if self._outgoing:
            self._deliver()
        peer = self.peer
        if peer is not None and peer.protocol is not None and not peer._closing:
            peer.protocol.eof_received()  # type: ignore[attr-defined]

    # -- lifecycle -------------------------------------------------------------------

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if self._closing:
            return
        if not self._eof_sent:
            self.write_eof()
        self._closing = True
        protocol = self.protocol
        if protocol is not None:
            self._loop.call_soon(protocol.connection_lost, None)


def memory_streams(
    limit: int,
) -> tuple[
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
]:
    """Two stream pairs joined by an in-memory pipe: what one end writes the other reads."""
    loop = asyncio.get_running_loop()
    ends = (MemoryPipeEnd(loop), MemoryPipeEnd(loop))
    ends[0].peer, ends[1].peer = ends[1], ends[0]
    pairs = []
    for end in ends:
        reader = asyncio.StreamReader(limit=limit, loop=loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        end.protocol = protocol
        protocol.connection_made(end)
        pairs.append((reader, asyncio.StreamWriter(end, protocol, reader, loop)))
    return pairs[0], pairs[1]


# -- counting ------------------------------------------------------------------------


@dataclass
class Count:
    """Calls counted over one phase: Python-level and into C, with the Python ones per
    function (``file:line name``) for the breakdown."""

    python: int = 0
    c: int = 0
    by_function: collections.Counter[str] = field(default_factory=collections.Counter)


@contextmanager
def counting(by_function: bool = False, enabled: bool = True) -> Iterator[Count]:
    """Count the calls made in this thread inside the block (the collector off: it would
    run at a place that depends on what the process allocated before). ``enabled=False``
    counts nothing (the script alone, for an outside measure: callgrind's instructions)."""
    count = Count()
    if not enabled:
        yield count
        return
    python = [0]
    c = [0]
    functions = count.by_function

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            python[0] += 1
            if by_function:
                code = frame.f_code
                functions[f"{code.co_filename}:{code.co_firstlineno} {code.co_name}"] += 1
        elif event == "c_call":
            c[0] += 1

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)
        if enabled:
            gc.enable()
        count.python, count.c = python[0], c[0]


# -- the script ------------------------------------------------------------------------


@dataclass
class Costs:
    """One package's counts: per prompt round trip and per update, both ends together."""

    package: str
    prompts: int
    updates: int
    round_trip: Count
    streamed: Count

    @property
    def rt_python(self) -> float:
        return self.round_trip.python / self.prompts

    @property
    def rt_c(self) -> float:
        return self.round_trip.c / self.prompts

    @property
    def update_python(self) -> float:
        return (self.streamed.python - self.rt_python) / self.updates

    @property
    def update_c(self) -> float:
        return (self.streamed.c - self.rt_c) / self.updates

    def figures(self) -> dict[str, float]:
        return {
            "round_trip_python_calls": self.rt_python,
            "round_trip_c_calls": self.rt_c,
            "update_python_calls": self.update_python,
            "update_c_calls": self.update_c,
        }


def _fields(models: Any, name: str, **given: Any) -> tuple[Any, dict[str, Any]]:
    """``models.<name>`` and the members of ``given`` it has, but ``content`` (surfaces differ:
    v2's chunk carries a messageId, v1's prompt answer a stop reason)."""
    model = getattr(models, name)
    members = model.model_fields
    return model, {k: v for k, v in given.items() if k in members and k != "content"}


def _initialize_fields(package: Any) -> dict[str, Any]:
    models = package.models
    params = models.InitializeRequest.model_fields
    fields: dict[str, Any] = {"protocol_version": package.PROTOCOL_VERSION}
    if "client_capabilities" in params:
        fields["client_capabilities"] = models.ClientCapabilities()
    if "capabilities" in params:
        fields["capabilities"] = models.ClientCapabilities()
    if "info" in params:
        fields["info"] = models.Implementation(name="cost-client", version="0")
    if "client_info" in params and params["client_info"].is_required():
        fields["client_info"] = models.Implementation(name="cost-client", version="0")
    return fields


async def _run(
    package_name: str,
    prompts: int,
    updates: int,
    by_function: bool,
    hook: Callable[[Any], None] | None,
    count: bool = True,
) -> Costs:
    package = importlib.import_module(package_name)
    models = package.models
    stop = getattr(models, "StopReason", None)
    end_turn = None if stop is None else stop.END_TURN

    # The surface's members worked out once: the agent's own work per message is as small as
    # a real agent's (a model built, a call awaited).
    chunk_class, chunk_fields = _fields(
        models, "SessionUpdateAgentMessageChunk", content=None, message_id="m-1"
    )
    answer_class, answer_fields = _fields(models, "PromptResponse", stop_reason=end_turn)
    text_block = models.ContentBlockText

    class CostAgent(package.Agent):  # type: ignore[misc,name-defined]
        if "capabilities" in vars(package.Agent).get("__annotations__", {}):
            # v2: session/new is gated on the agent's session capability.
            capabilities = models.AgentCapabilities(session=models.SessionCapabilities())

        async def session_new(self, params: Any) -> Any:
            return models.NewSessionResponse(session_id="cost")

        async def session_prompt(self, params: Any) -> Any:
            first = params.prompt[0]
            text = first.text if isinstance(first, text_block) else ""
            for _ in range(int(text) if text else 0):
                await self.connection.session_update(
                    session_id=params.session_id,
                    update=chunk_class(content=text_block(text=TEXT), **chunk_fields),
                )
            return answer_class(**answer_fields)

    seen = [0]

    class CostClient(package.Client):  # type: ignore[misc,name-defined]
        async def session_update(self, params: Any) -> None:
            seen[0] += 1

    limit = package.rpc.DEFAULT_MAX_FRAME_BYTES
    (agent_reader, agent_writer), (client_reader, client_writer) = memory_streams(limit)
    agent_end = package.AgentSideConnection(CostAgent(), agent_reader, agent_writer)
    client_end = package.ClientSideConnection(CostClient(), client_reader, client_writer)
    if hook is not None:
        hook(package)
    agent_end.start()
    client_end.start()
    try:
        await client_end.initialize(**_initialize_fields(package))
        session = (await client_end.session_new(cwd="/", mcp_servers=[])).session_id

        async def prompt(text: str) -> None:
            await client_end.session_prompt(
                session_id=session, prompt=[models.ContentBlockText(text=text)]
            )

        for _ in range(WARM_PROMPTS):
            await prompt("")
        await prompt(str(WARM_UPDATES))
        with counting(by_function, count) as round_trip:
            for _ in range(prompts):
                await prompt("")
        expected = seen[0] + updates
        with counting(by_function, count) as streamed:
            await prompt(str(updates))
        if seen[0] != expected:
            raise AssertionError(f"the client saw {seen[0]} updates, expected {expected}")
    finally:
        await client_end.close()
        await agent_end.close()
    return Costs(package_name, prompts, updates, round_trip, streamed)


def measure(
    package: str,
    *,
    prompts: int = 20,
    updates: int = 100,
    by_function: bool = False,
    hook: Callable[[Any], None] | None = None,
    count: bool = True,
) -> Costs:
    """Run the script on ``package`` (importable) in a fresh event loop and count it
    (``count=False``: run it only). ``hook(package)`` runs once both ends exist, before
    anything is sent."""
    return asyncio.run(_run(package, prompts, updates, by_function, hook, count), debug=False)


def top(count: Count, per: float, n: int = 25) -> list[tuple[float, str]]:
    """The ``n`` functions called most in ``count``, as calls per ``per``."""
    return [(calls / per, name) for name, calls in count.by_function.most_common(n)]
