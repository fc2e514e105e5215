"""An echo agent: ``python -m <package>.examples.echo_agent`` speaks ACP on stdin/stdout;
with ``--listen HOST:PORT`` it serves remote clients instead (Streamable HTTP and WebSocket
on ``/acp``; the package's ``remote`` extra).

Streams a prompt's text back as ``agent_message_chunk`` updates (one per word) and ends the
turn with ``end_turn``; ``/permission`` asks the client first (a ``cancelled`` outcome ends the
turn ``cancelled``, an error answer ends it ``end_turn`` saying so); ``/wait`` waits for
``session/cancel``. Logs go to stderr only. Served remotely, its sessions outlive their
connection: a client that reconnects resumes one with ``session/load``, which replays what was
said.
Copied verbatim by acpgen: its first line names the file to edit.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import uuid
from collections.abc import Sequence

from .. import Agent, ResourceNotFoundError, RpcError, models, run_agent

PACKAGE = (__package__ or "").rpartition(".")[0]  # the generated package
PERMISSION_GRACE_SECONDS = 2.0  # a cancelled turn's wait for a pending permission answer
Kind = models.PermissionOptionKind
OPTIONS = [("allow", "Allow", Kind.ALLOW_ONCE), ("reject", "Reject", Kind.REJECT_ONCE)]


# Each session's turns: the user's prompt blocks and the agent's text (a remote agent's sessions
# outlive their connections: session/load replays them).
Transcripts = dict[str, list[tuple[list[models.ContentBlock], str]]]


class EchoAgent(Agent):
    agent_capabilities = models.AgentCapabilities(load_session=False)
    agent_info = models.Implementation(name=f"{PACKAGE}-echo-agent", version="0.1.0")  # initialize

    def __init__(self) -> None:
        self._cancelled: dict[str, asyncio.Event] = {}
        # What each session's turns said (the user's prompt blocks, the agent's text): kept
        # only where a session outlives its connection (RemoteEchoAgent passes a shared dict).
        self._transcripts: Transcripts | None = None

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        session_id = f"echo-{uuid.uuid4().hex}"
        self._cancelled[session_id] = asyncio.Event()
        if self._transcripts is not None:
            self._transcripts[session_id] = []
        return models.NewSessionResponse(session_id=session_id)

    async def session_cancel(self, params: models.CancelNotification) -> None:
        self._cancelled.setdefault(params.session_id, asyncio.Event()).set()

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        session_id = params.session_id
        cancelled = self._cancelled[session_id] = asyncio.Event()  # set by session/cancel
        text = "".join(b.text for b in params.prompt if isinstance(b, models.ContentBlockText))
        command = text.strip()
        if command == "/wait":
            await self._say(session_id, "waiting for session/cancel")
            await cancelled.wait()
            return models.PromptResponse(stop_reason=models.StopReason.CANCELLED)
        if command == "/permission":
            try:
                option = await self._ask_permission(session_id, cancelled)
            except RpcError as exc:  # the client answered with an error: say so, end the turn
                await self._say(session_id, f"permission: not granted ({exc.code} {exc.message})")
                return models.PromptResponse(stop_reason=models.StopReason.END_TURN)
            if option is None or cancelled.is_set():
                return models.PromptResponse(stop_reason=models.StopReason.CANCELLED)
            await self._say(session_id, f"permission: {option}")
            return models.PromptResponse(stop_reason=models.StopReason.END_TURN)
        said = []
        for chunk in re.findall(r"\S+\s*|\s+", text):
            if cancelled.is_set():
                return models.PromptResponse(stop_reason=models.StopReason.CANCELLED)
            await self._say(session_id, chunk)
            said.append(chunk)
        if self._transcripts is not None:
            self._transcripts.setdefault(session_id, []).append((params.prompt, "".join(said)))
        stop = models.StopReason.CANCELLED if cancelled.is_set() else models.StopReason.END_TURN
        return models.PromptResponse(stop_reason=stop)

    async def _say(self, session_id: str, text: str) -> None:
        await self.connection.session_update(
            session_id=session_id,
            update=models.SessionUpdateAgentMessageChunk(
                content=models.ContentBlockText(text=text)
            ),
        )

    async def _ask_permission(self, session_id: str, cancelled: asyncio.Event) -> str | None:
        """The selected option id, or None once the turn is cancelled (the request withdrawn)."""
        request = asyncio.ensure_future(self._permission_request(session_id))
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

    async def _permission_request(self, session_id: str) -> models.RequestPermissionResponse:
        return await self.connection.session_request_permission(
            session_id=session_id,
            tool_call=models.ToolCallUpdate(
                tool_call_id=f"echo-{uuid.uuid4().hex[:8]}", title="Echo"
            ),
            options=[models.PermissionOption(option_id=i, name=n, kind=k) for i, n, k in OPTIONS],
        )


class RemoteEchoAgent(EchoAgent):
    """The echo agent served remotely: one per connection, the transcripts shared by all, so
    a session survives its connection and ``session/load`` on a new one replays it."""

    agent_capabilities = models.AgentCapabilities(load_session=True)

    def __init__(self, transcripts: Transcripts) -> None:
        super().__init__()
        self._transcripts = transcripts

    async def session_load(self, params: models.LoadSessionRequest) -> models.LoadSessionResponse:
        turns = (self._transcripts or {}).get(params.session_id)
        if turns is None:
            raise ResourceNotFoundError(data={"sessionId": params.session_id})
        for prompt, agent_text in turns:  # the whole conversation: every block of each prompt
            for block in prompt:
                await self.connection.session_update(
                    session_id=params.session_id,
                    update=models.SessionUpdateUserMessageChunk(content=block),
                )
            await self._say(params.session_id, agent_text)
        return models.LoadSessionResponse()


async def serve(listen: str) -> None:
    """Serve remote clients on ``listen`` (HOST:PORT, or unix:PATH) until SIGTERM or SIGINT;
    prints the URL on stderr. The agents of all connections share the transcripts (sessions
    outlive them)."""
    from ..remote import run_remote_agent  # the `remote` extra, imported only when asked for

    transcripts: Transcripts = {}
    await run_remote_agent(lambda: RemoteEchoAgent(transcripts), listen)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m {__spec__.name if __spec__ else 'echo_agent'}",
        description="An ACP echo agent on stdio, or remote with --listen.",
    )
    parser.add_argument(
        "--listen",
        metavar="ADDRESS",
        help="HOST:PORT: serve Streamable HTTP and WebSocket (port 0: any); unix:PATH: a Unix socket",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="echo-agent: %(levelname)s %(message)s")
    try:
        if args.listen is None:
            asyncio.run(run_agent(EchoAgent()))
        else:
            asyncio.run(serve(args.listen))
    except KeyboardInterrupt:  # Ctrl-C ends it quietly
        pass
    except (
        ImportError,
        OSError,
        ValueError,
    ) as exc:  # no extra, a bad address, a port in use: one line
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
