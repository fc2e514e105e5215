# Edit acpgen/shipped/runtime/runtime_tests/test_cancellation.py, not this file: acpgen generate writes it.
"""Per-request cancellation as handlers see it (``cancellation.py``).

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

from ._package import PACKAGE, Agent, Client, connect_in_memory, models
from .helpers import run

cancellation: Any = importlib.import_module(f"{PACKAGE}.cancellation")


class _Agent(Agent):
    def __init__(self) -> None:
        self.contexts: list[Any] = []
        self.started = asyncio.Event()
        self.cleaned_up = asyncio.Event()

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        context = cancellation.current_request()
        self.contexts.append(context)
        self.started.set()
        try:
            reason = await context.wait_cancelled()
        except asyncio.CancelledError:
            self.cleaned_up.set()
            raise
        assert reason == "session/cancel"
        return models.PromptResponse(stop_reason=models.StopReason.CANCELLED)


def _while_prompting(agent: _Agent, then: Any) -> Any:
    """Start a prompt, wait until its handler runs, then ``await then(client_end, prompt)``."""

    async def body() -> Any:
        async with connect_in_memory(agent, Client()) as (_, client_end):
            await client_end.initialize(protocol_version=1)
            text: list[models.ContentBlock] = [models.ContentBlockText(text="go")]
            prompt = asyncio.ensure_future(client_end.session_prompt(session_id="s1", prompt=text))
            await agent.started.wait()
            return await then(client_end, prompt)

    return run(body())


def test_session_cancel_reaches_the_prompt_handler_which_answers_cancelled() -> None:
    agent = _Agent()

    async def cancel(client_end: Any, prompt: Any) -> Any:
        await client_end.session_cancel(session_id="s1")
        return await prompt

    response = _while_prompting(agent, cancel)
    assert response.stop_reason == models.StopReason.CANCELLED
    (context,) = agent.contexts
    assert (context.method, context.session_id, context.reason) == (
        "session/prompt",
        "s1",
        "session/cancel",
    )
    assert not agent.cleaned_up.is_set()  # the task itself was not cancelled


def test_cancel_request_cancels_the_handler_task_and_marks_its_context() -> None:
    agent = _Agent()

    async def withdraw(_: Any, prompt: Any) -> None:
        prompt.cancel()  # the client withdraws the request: $/cancel_request
        await agent.cleaned_up.wait()

    _while_prompting(agent, withdraw)
    (context,) = agent.contexts
    assert context.reason == "$/cancel_request" and context.is_cancelled


def test_there_is_no_current_request_outside_a_handler() -> None:
    assert cancellation.current_request() is None
    context = cancellation.RequestContext("m", 1, None)
    context.cancel("first")
    context.cancel("second")
    assert context.reason == "first"
