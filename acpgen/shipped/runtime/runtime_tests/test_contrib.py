"""contrib: the session accumulator, the tool-call tracker and the permission broker.

Copied verbatim into every generated project by acpgen. The accumulator must take every
``SessionUpdate`` variant of the package's schema without failing: each variant the package
was generated for is applied, and lands in its own fold or, for a variant the accumulator has
no dedicated fold for (a compatible schema bump adds some), in ``SessionState.other`` (the
documented generic fold), reported as a warning rather than a failure.
"""

from __future__ import annotations

import asyncio
import importlib
import warnings
from typing import Any

from ._package import PACKAGE, Agent, Client, connect_in_memory, models
from .helpers import run

contrib = importlib.import_module(f"{PACKAGE}.contrib")
builders = importlib.import_module(f"{PACKAGE}.builders")


def test_the_accumulator_folds_every_session_update_variant_of_the_schema() -> None:
    tags = contrib.session_update_tags()
    assert "agent_message_chunk" in tags  # read from the models, not from the fold table
    generic = contrib.unfolded_variants()
    assert generic <= tags and not generic & contrib.FOLDED_VARIANTS
    sessions = contrib.SessionAccumulator()
    for tag in sorted(tags):
        update = {"sessionUpdate": tag, "_meta": {"probe": tag}}
        state = sessions.apply({"sessionId": tag, "update": update})
        assert state.updates == 1, tag
        if tag in generic:
            assert state.other == {tag: update}, tag  # the generic fold: latest update, whole
        else:
            assert state.other == {}, f"{tag}: a dedicated fold must take it"
    if generic:
        warnings.warn(
            "SessionUpdate variants folded the generic way (SessionState.other): "
            + ", ".join(sorted(generic)),
            stacklevel=1,
        )


class _Agent(Agent):
    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")


class _Client(Client):
    def __init__(self) -> None:
        self.sessions = contrib.SessionAccumulator()
        self.asked: list[Any] = []
        self.answer: asyncio.Future[Any] | None = None
        self.withdrawn = asyncio.Event()

    async def session_update(self, params: models.SessionNotification) -> None:
        self.sessions.apply(params)

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        self.asked.append(params)
        if self.answer is None:
            return models.RequestPermissionResponse(
                outcome=builders.selected(option_id=params.options[0].option_id)
            )
        try:
            return await self.answer  # type: ignore[no-any-return]
        except asyncio.CancelledError:
            self.withdrawn.set()  # the agent withdrew the request ($/cancel_request)
            raise


def test_the_accumulator_folds_a_session_as_the_agent_streams_it() -> None:
    client = _Client()
    updates: list[Any] = [
        builders.user_message_chunk(content=builders.text(text="Fix the bug")),
        builders.agent_thought_chunk(content=builders.text(text="Looking")),
        builders.agent_thought_chunk(content=builders.text(text=" closer")),
        builders.agent_message_chunk(content=builders.text(text="I will ")),
        builders.agent_message_chunk(content=builders.text(text="edit main.py")),
        builders.tool_call(tool_call_id="c1", title="Edit main.py", kind="edit", status="pending"),
        builders.tool_call_update(tool_call_id="c1", status="in_progress"),
        builders.tool_call_update(
            tool_call_id="c1",
            status="completed",
            content=[builders.content(content=builders.text(text="done"))],
        ),
        builders.plan_from(("Edit", "high", "completed"), ("Test", "low", "pending")),
        builders.current_mode_update(current_mode_id="code"),
        builders.available_commands_update(
            available_commands=[models.AvailableCommand(name="test", description="Run tests")]
        ),
        builders.config_option_update(config_options=[]),
        builders.session_info_update(title="Bug fix"),
        builders.usage_update(used=10, size=100),
    ]

    async def body() -> None:
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            for update in updates:
                await agent_end.session_update(session_id="s1", update=update)
            await client_end.session_new(cwd="/", mcp_servers=[])  # all delivered before

    run(body())
    state = client.sessions.state("s1")
    assert [(m.role, m.text) for m in state.messages] == [
        ("user", "Fix the bug"),
        ("agent", "I will edit main.py"),
    ]
    assert [m.text for m in state.thoughts] == ["Looking closer"]
    call = state.tool_calls["c1"]
    assert call["title"] == "Edit main.py" and call["kind"] == "edit"
    assert call["status"] == "completed"
    assert call["content"] == [{"type": "content", "content": {"type": "text", "text": "done"}}]
    assert [e["content"] for e in state.plan] == ["Edit", "Test"]
    assert state.current_mode_id == "code"
    assert [c["name"] for c in state.available_commands] == ["test"]
    assert state.config_options == []
    assert state.info == {"title": "Bug fix"}
    assert state.usage == {"used": 10, "size": 100}
    assert state.updates == len(updates) and state.other == {}


def test_an_update_of_an_unknown_tag_is_kept_as_the_latest_of_its_tag() -> None:
    sessions = contrib.SessionAccumulator()
    seen: list[str] = []
    sessions.subscribe(lambda state, update: seen.append(update["sessionUpdate"]))
    wire = {"sessionId": "s", "update": {"sessionUpdate": "_x_mood", "mood": "happy"}}
    state = sessions.apply(wire)
    assert state.other == {"_x_mood": {"sessionUpdate": "_x_mood", "mood": "happy"}}
    assert seen == ["_x_mood"]


def test_the_tracker_returns_what_to_send_and_remembers_what_was_sent() -> None:
    tracker = contrib.ToolCallTracker()
    start = tracker.start("Read a file", kind="read")
    assert start.tool_call_id == "call_1"
    update = tracker.update("call_1", status="completed")
    assert update.model_dump(mode="json", by_alias=True, exclude_unset=True) == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "call_1",
        "status": "completed",
    }
    view = tracker.view("call_1")
    assert (view.title, view.kind, view.status) == ("Read a file", "read", "completed")
    try:
        tracker.update("call_9", status="failed")
    except KeyError:
        pass
    else:
        raise AssertionError("an update of a call never started must fail")


OPTIONS = [
    models.PermissionOption(
        option_id="yes", name="Allow", kind=models.PermissionOptionKind.ALLOW_ONCE
    )
]


def test_the_broker_returns_the_clients_choice() -> None:
    client = _Client()

    async def body() -> Any:
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            broker = contrib.PermissionBroker(agent_end)
            tool_call = models.ToolCallUpdate(tool_call_id="c1", title="Run rm")
            return await broker.ask("s1", tool_call, OPTIONS)

    outcome = run(body())
    assert isinstance(outcome, models.RequestPermissionOutcomeSelected)
    assert outcome.option_id == "yes"


def test_the_broker_answers_cancelled_when_the_turn_is_cancelled_and_withdraws_the_request() -> (
    None
):
    client = _Client()

    async def body() -> Any:
        client.answer = asyncio.get_running_loop().create_future()
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            broker = contrib.PermissionBroker(agent_end)
            tool_call = models.ToolCallUpdate(tool_call_id="c1")
            asking = asyncio.ensure_future(broker.ask("s1", tool_call, OPTIONS))
            while not client.asked:
                await asyncio.sleep(0)
            assert broker.cancel("s1") == 1
            outcome = await asking
            await client.withdrawn.wait()
            return outcome

    assert isinstance(run(body()), models.RequestPermissionOutcomeCancelled)


def test_the_broker_answers_cancelled_when_the_time_runs_out() -> None:
    client = _Client()

    async def body() -> Any:
        client.answer = asyncio.get_running_loop().create_future()
        async with connect_in_memory(_Agent(), client) as (agent_end, client_end):
            await client_end.initialize(protocol_version=1)
            broker = contrib.PermissionBroker(agent_end, timeout=0.05)
            outcome = await broker.ask("s1", models.ToolCallUpdate(tool_call_id="c1"), OPTIONS)
            await client.withdrawn.wait()
            return outcome

    assert isinstance(run(body()), models.RequestPermissionOutcomeCancelled)
