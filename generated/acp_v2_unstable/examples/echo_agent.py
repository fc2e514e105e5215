# Edit acpgen/shipped/runtime/examples_v2/echo_agent.py, not this file: acpgen generate writes it.
"""An echo agent (v2): ``python -m <package>.examples.echo_agent`` speaks ACP on stdin/stdout.

The v1 echo agent after ``acpgen diff v1 v2 --migration`` (docs/surfaces.md): streams a
prompt's text back as ``agent_message_chunk`` updates (one per word, each with a
``messageId``) and ends the turn with a ``PromptResponse`` (v2 has no stop reason);
``/permission`` asks the client first; ``/wait`` waits for ``session/cancel``. Logs go to
stderr only. Copied verbatim by acpgen: its first line names the file to edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import uuid

from .. import Agent, models, run_agent

PACKAGE = (__package__ or "").rpartition(".")[0]  # the generated package
PERMISSION_GRACE_SECONDS = 2.0  # a cancelled turn's wait for a pending permission answer
Kind = models.PermissionOptionKind
OPTIONS = [("allow", "Allow", Kind.ALLOW_ONCE), ("reject", "Reject", Kind.REJECT_ONCE)]


class EchoAgent(Agent):
    capabilities = models.AgentCapabilities(session=models.SessionCapabilities())
    info = models.Implementation(name=f"{PACKAGE}-echo-agent", version="0.1.0")  # initialize

    def __init__(self) -> None:
        self._cancelled: dict[str, asyncio.Event] = {}

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        session_id = f"echo-{uuid.uuid4().hex}"
        self._cancelled[session_id] = asyncio.Event()
        return models.NewSessionResponse(session_id=session_id)

    async def session_cancel(self, params: models.CancelSessionNotification) -> None:
        self._cancelled.setdefault(params.session_id, asyncio.Event()).set()

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        session_id = params.session_id
        cancelled = self._cancelled[session_id] = asyncio.Event()  # set by session/cancel
        text = "".join(b.text for b in params.prompt if isinstance(b, models.ContentBlockText))
        command = text.strip()
        if command == "/wait":
            await self._say(session_id, "waiting for session/cancel")
            await cancelled.wait()
            return models.PromptResponse()
        if command == "/permission":
            option = await self._ask_permission(session_id, cancelled)
            if option is not None and not cancelled.is_set():
                await self._say(session_id, f"permission: {option}")
            return models.PromptResponse()
        for chunk in re.findall(r"\S+\s*|\s+", text):
            if cancelled.is_set():
                break
            await self._say(session_id, chunk)
        return models.PromptResponse()

    async def _say(self, session_id: str, text: str) -> None:
        await self.connection.session_update(
            session_id=session_id,
            update=models.SessionUpdateAgentMessageChunk(
                message_id=uuid.uuid4().hex, content=models.ContentBlockText(text=text)
            ),
        )

    async def _ask_permission(self, session_id: str, cancelled: asyncio.Event) -> str | None:
        """The selected option id, or None once the turn is cancelled (the request withdrawn)."""
        request = asyncio.ensure_future(
            self.connection.session_request_permission(
                session_id=session_id,
                title="Echo",
                options=[
                    models.PermissionOption(option_id=i, name=n, kind=k) for i, n, k in OPTIONS
                ],
            )
        )
        watch = asyncio.ensure_future(cancelled.wait())
        try:
            await asyncio.wait({request, watch}, return_when=asyncio.FIRST_COMPLETED)
            await asyncio.wait({request}, timeout=PERMISSION_GRACE_SECONDS)  # at once if answered
            if not request.done():
                return None
            outcome = request.result().outcome
        finally:
            request.cancel()
            watch.cancel()
        if isinstance(outcome, models.RequestPermissionOutcomeSelected):
            return outcome.option_id
        return None


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="echo-agent: %(levelname)s %(message)s")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C ends it quietly
        asyncio.run(run_agent(EchoAgent()))


if __name__ == "__main__":
    main()
