"""What agent and client authors build on the connection: session state, tool calls, permissions.

Copied verbatim into every generated package by acpgen (it imports the package's generated
``builders`` and ``models``, so it is type-checked in a generated tree, as the examples are).

* :class:`SessionAccumulator` (client side) folds the ``session/update`` stream into each
  session's state: messages, thoughts, tool calls with their latest status and content, the
  plan, the current mode, the available commands, config options, session info and usage.
  It folds wire JSON, so unknown members are kept. A variant it has no dedicated fold for
  (one a newer schema added, or an extension's) is folded the generic way: the latest update
  of each such tag is kept, whole, in ``SessionState.other[tag]``, listeners see it like any
  other, and nothing fails. :func:`unfolded_variants` names the ``SessionUpdate`` variants of
  the package's schema that take that generic path (the package's runtime tests check each
  variant lands where this says and report the generic ones; a schema bump never turns them
  red).
* :class:`ToolCallTracker` (agent side) starts tool calls, updates them by id and keeps
  what the client was told, returning the ``session/update`` values to send.
* :class:`PermissionBroker` (agent side) asks the client for permission, waits with a
  time limit, and answers ``cancelled`` when the turn is cancelled (``session/cancel``) or
  the time runs out, as the protocol wants of a cancelled turn.
"""

from __future__ import annotations

import asyncio
import itertools
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import builders, models

__all__ = [
    "FOLDED_VARIANTS",
    "Message",
    "PermissionBroker",
    "SessionAccumulator",
    "SessionState",
    "ToolCallTracker",
    "session_update_tags",
    "unfolded_variants",
]


def _wire(value: Any) -> Any:
    """A model (or wire JSON) as wire JSON, unknown members included."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


@dataclass
class Message:
    """Consecutive chunks of one role (``user``, ``agent``, ``thought``), joined."""

    role: str
    content: list[dict[str, Any]] = field(default_factory=list)  # content blocks, wire JSON
    message_id: str | None = None

    @property
    def text(self) -> str:
        """The text blocks' text, joined."""
        return "".join(str(b.get("text", "")) for b in self.content if b.get("type") == "text")


@dataclass
class SessionState:
    """One session as the client sees it, from the updates received so far."""

    session_id: str
    messages: list[Message] = field(default_factory=list)  # user and agent, in order
    thoughts: list[Message] = field(default_factory=list)
    tool_calls: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> latest, wire
    plan: list[dict[str, Any]] = field(default_factory=list)
    current_mode_id: str | None = None
    available_commands: list[dict[str, Any]] = field(default_factory=list)
    config_options: list[dict[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # session_info_update members
    usage: dict[str, Any] | None = None
    other: dict[str, dict[str, Any]] = field(default_factory=dict)  # tag -> latest update
    updates: int = 0


def _append_chunk(into: list[Message], role: str, update: dict[str, Any]) -> None:
    message_id = update.get("messageId")
    last = into[-1] if into else None
    if last is None or last.role != role or (message_id and message_id != last.message_id):
        last = Message(role, message_id=message_id)
        into.append(last)
    content = update.get("content")
    if content is not None:
        last.content.append(content)


def _chunk(role: str) -> Callable[[SessionState, dict[str, Any]], None]:
    def fold(state: SessionState, update: dict[str, Any]) -> None:
        _append_chunk(state.thoughts if role == "thought" else state.messages, role, update)

    return fold


def _tool_call(state: SessionState, update: dict[str, Any]) -> None:
    # A start replaces what was known of the call; an update changes only what it carries
    # (content and locations replace the lists, as the protocol says).
    members = {k: v for k, v in update.items() if k != "sessionUpdate"}
    tool_call_id = str(members.get("toolCallId"))
    if update.get("sessionUpdate") == "tool_call" or tool_call_id not in state.tool_calls:
        state.tool_calls[tool_call_id] = members
    else:
        state.tool_calls[tool_call_id].update(members)


def _member(name: str, attr: str) -> Callable[[SessionState, dict[str, Any]], None]:
    def fold(state: SessionState, update: dict[str, Any]) -> None:
        if name in update:
            setattr(state, attr, update[name])

    return fold


def _info(state: SessionState, update: dict[str, Any]) -> None:
    state.info.update({k: v for k, v in update.items() if k != "sessionUpdate"})


def _usage(state: SessionState, update: dict[str, Any]) -> None:
    state.usage = {k: v for k, v in update.items() if k != "sessionUpdate"}


# One fold per SessionUpdate tag this code was written for. A schema with another variant
# (a compatible bump adds some) takes the generic fold of SessionAccumulator.apply: the latest
# update of its tag in SessionState.other; unfolded_variants() names those variants.
_FOLDS: dict[str, Callable[[SessionState, dict[str, Any]], None]] = {
    "user_message_chunk": _chunk("user"),
    "agent_message_chunk": _chunk("agent"),
    "agent_thought_chunk": _chunk("thought"),
    "tool_call": _tool_call,
    "tool_call_update": _tool_call,
    "plan": _member("entries", "plan"),
    "current_mode_update": _member("currentModeId", "current_mode_id"),
    "available_commands_update": _member("availableCommands", "available_commands"),
    "config_option_update": _member("configOptions", "config_options"),
    "session_info_update": _info,
    "usage_update": _usage,
}
FOLDED_VARIANTS = frozenset(_FOLDS)


def session_update_tags(union: Any = None) -> frozenset[str]:
    """The ``sessionUpdate`` tags of the package's ``SessionUpdate`` union (read from the
    generated models, so from the schema they were generated from)."""
    union = models.SessionUpdate if union is None else union
    tags: set[str] = set()
    for branch in typing.get_args(typing.get_args(union)[0]) or (typing.get_args(union)[0],):
        for info in getattr(branch, "model_fields", {}).values():
            if info.alias == "sessionUpdate" or info.serialization_alias == "sessionUpdate":
                tags.update(str(v) for v in typing.get_args(info.annotation))
    return frozenset(tags)


def unfolded_variants(union: Any = None) -> frozenset[str]:
    """The ``SessionUpdate`` variants of the schema the accumulator has no dedicated fold for
    (each folded the generic way: the latest update of its tag in ``SessionState.other``)."""
    return session_update_tags(union) - FOLDED_VARIANTS


class SessionAccumulator:
    """Client side: ``apply`` every ``session/update`` (a ``SessionNotification`` or its wire
    JSON); ``state(session_id)`` is the session as folded so far.

    Typical use, in a ``Client``::

        async def session_update(self, params: models.SessionNotification) -> None:
            self.sessions.apply(params)
    """

    def __init__(self) -> None:
        self._states: dict[str, SessionState] = {}
        self._listeners: list[Callable[[SessionState, dict[str, Any]], None]] = []

    def subscribe(self, listener: Callable[[SessionState, dict[str, Any]], None]) -> None:
        """Call ``listener(state, update)`` after each update is folded."""
        self._listeners.append(listener)

    def state(self, session_id: str) -> SessionState:
        if session_id not in self._states:
            self._states[session_id] = SessionState(session_id)
        return self._states[session_id]

    def apply(self, notification: Any) -> SessionState:
        wire = _wire(notification)
        state = self.state(str(wire["sessionId"]))
        update = wire["update"]
        tag = str(update.get("sessionUpdate"))
        fold = _FOLDS.get(tag)
        if fold is None:
            state.other[tag] = update
        else:
            fold(state, update)
        state.updates += 1
        for listener in self._listeners:
            listener(state, update)
        return state

    def reset(self, session_id: str) -> None:
        """Forget a session (after ``session/load`` replays it, for example)."""
        self._states.pop(session_id, None)


class ToolCallTracker:
    """Agent side: the tool calls of a session, as the client was told about them.

    ``start`` and ``update`` return the ``session/update`` value to send (the tracker does
    not send): ``await conn.session_update(session_id=sid, update=tracker.start(...))``.
    """

    def __init__(self, id_prefix: str = "call") -> None:
        self._ids = itertools.count(1)
        self._prefix = id_prefix
        self.calls: dict[str, dict[str, Any]] = {}  # id -> latest, wire JSON

    def start(
        self, title: str, *, tool_call_id: str | None = None, **members: Any
    ) -> models.SessionUpdateToolCall:
        call_id = tool_call_id or f"{self._prefix}_{next(self._ids)}"
        if call_id in self.calls:
            raise ValueError(f"tool call {call_id!r} already started")
        update = builders.tool_call(tool_call_id=call_id, title=title, **members)
        self.calls[call_id] = {k: v for k, v in _wire(update).items() if k != "sessionUpdate"}
        return update

    def update(self, tool_call_id: str, **members: Any) -> models.SessionUpdateToolCallUpdate:
        if tool_call_id not in self.calls:
            raise KeyError(f"tool call {tool_call_id!r} was never started")
        update = builders.tool_call_update(tool_call_id=tool_call_id, **members)
        wire = {k: v for k, v in _wire(update).items() if k != "sessionUpdate"}
        self.calls[tool_call_id].update(wire)
        return update

    def view(self, tool_call_id: str) -> models.ToolCallUpdate:
        """The call as the client knows it, as the ``toolCall`` of a permission request."""
        return models.ToolCallUpdate.model_validate(self.calls[tool_call_id])


class PermissionBroker:
    """Agent side: ask the client for permission, wait, and honour cancellation.

    ``ask`` sends ``session/request_permission`` and returns the client's outcome; when the
    session's turn is cancelled (call :meth:`cancel` from ``Agent.session_cancel``) or
    ``timeout`` seconds pass, the request is withdrawn (``$/cancel_request``) and the outcome
    is ``cancelled``.
    """

    def __init__(self, connection: Any, *, timeout: float | None = None) -> None:
        self._connection = connection
        self._timeout = timeout
        self._pending: dict[str, set[asyncio.Task[Any]]] = {}

    async def ask(
        self,
        session_id: str,
        tool_call: Any,
        options: Iterable[Any],
        *,
        timeout: float | None = None,
    ) -> models.RequestPermissionOutcome:
        request = self._connection.session_request_permission(
            session_id=session_id, tool_call=tool_call, options=list(options)
        )
        task: asyncio.Task[Any] = asyncio.ensure_future(request)
        self._pending.setdefault(session_id, set()).add(task)
        try:
            limit = self._timeout if timeout is None else timeout
            response = await asyncio.wait_for(asyncio.shield(task), limit)
            outcome: models.RequestPermissionOutcome = response.outcome
            return outcome
        except (TimeoutError, asyncio.CancelledError):
            if task.cancelled() or not task.done():
                task.cancel()  # withdraws the request: $/cancel_request
                if asyncio.current_task() is not None and _cancelling():
                    raise
                return builders.cancelled()
            raise
        finally:
            self._pending.get(session_id, set()).discard(task)

    def cancel(self, session_id: str) -> int:
        """Withdraw every pending request of the session; their ``ask`` answers cancelled."""
        tasks = self._pending.pop(session_id, set())
        for task in tasks:
            task.cancel()
        return len(tasks)


def _cancelling() -> bool:
    # Whether the task running ``ask`` is itself being cancelled (not just the request).
    task = asyncio.current_task()
    return bool(task is not None and task.cancelling())
