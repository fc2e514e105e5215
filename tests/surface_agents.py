"""Agents written with the generated ``acp_v1_unstable`` and ``acp_v2`` packages, for the
TypeScript SDK's clients to drive (tests/test_interop_surfaces.py). Run as
``python tests/surface_agents.py v1-unstable|v2`` with the generated tree on PYTHONPATH.

Both answer like the SDK agents of tests/interop_ts/: any prompt is echoed, ``/wait`` waits
for session/cancel. The v1-unstable one also forks sessions (``<id>-fork``) and sends an
unstable SessionUpdate (``plan_removed``) before its answer; the v2 one streams word by word
and ends a cancelled turn with the ``idle`` state update.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any


def v1_unstable() -> Any:
    import acp_v1_unstable as acp
    from acp_v1_unstable import models

    class UnstableAgent(acp.Agent):  # type: ignore[misc]
        agent_info = models.Implementation(name="acpgen-unstable-agent", version="0")
        agent_capabilities = models.AgentCapabilities(
            session_capabilities=models.SessionCapabilities(fork=models.SessionForkCapabilities()))

        def __init__(self) -> None:
            self.cancelled: dict[str, asyncio.Event] = {}

        async def session_new(self, params: Any) -> Any:
            return models.NewSessionResponse(session_id=f"py-{len(self.cancelled)}")

        async def session_fork(self, params: Any) -> Any:
            return models.ForkSessionResponse(session_id=f"{params.session_id}-fork")

        async def session_cancel(self, params: Any) -> None:
            self.cancelled.setdefault(str(params.session_id), asyncio.Event()).set()

        async def session_prompt(self, params: Any) -> Any:
            sid = str(params.session_id)
            event = self.cancelled.setdefault(sid, asyncio.Event())
            text = "".join(getattr(b, "text", "") for b in params.prompt)
            await self.connection.session_update(
                session_id=sid, update=models.SessionUpdatePlanRemoved(plan_id="plan-1"))
            await self.connection.session_update(session_id=sid, update=models.SessionUpdateAgentMessageChunk(
                content=models.ContentBlockText(text=f"{sid}: {text}")))
            if text.strip() == "/wait":
                await event.wait()
                return models.PromptResponse(stop_reason=models.StopReason.CANCELLED)
            return models.PromptResponse(stop_reason=models.StopReason.END_TURN)

    return acp.run_agent(UnstableAgent())


def v2() -> Any:
    import acp_v2 as acp
    from acp_v2 import models

    class V2Agent(acp.Agent):  # type: ignore[misc]
        info = models.Implementation(name="acpgen-v2-agent", version="0")
        capabilities = models.AgentCapabilities(session=models.SessionCapabilities())

        def __init__(self) -> None:
            self.cancelled: dict[str, asyncio.Event] = {}

        async def session_new(self, params: Any) -> Any:
            return models.NewSessionResponse(session_id=f"py-v2-{len(self.cancelled)}")

        async def session_cancel(self, params: Any) -> None:
            self.cancelled.setdefault(str(params.session_id), asyncio.Event()).set()

        async def say(self, sid: str, text: str) -> None:
            await self.connection.session_update(session_id=sid, update=models.SessionUpdateAgentMessageChunk(
                message_id="m-1", content=models.ContentBlockText(text=text)))

        @staticmethod
        def done() -> Any:
            # The SDK 2.4.0 bundles a newer v2 schema whose PromptResponse requires messageId;
            # the pinned one (schema-v2.0.0-alpha.3) has no such member. The models keep
            # unknown members, so one answer satisfies both (docs/surfaces.md, "Interop").
            return models.PromptResponse.model_validate({"messageId": "m-1"})

        async def session_prompt(self, params: Any) -> Any:
            sid = str(params.session_id)
            event = self.cancelled.setdefault(sid, asyncio.Event())
            text = "".join(getattr(b, "text", "") for b in params.prompt)
            if text.strip() == "/wait":
                await self.say(sid, "waiting for session/cancel")
                await event.wait()
                await self.connection.session_update(
                    session_id=sid, update=models.UpdateSessionNotification.model_validate(
                        {"sessionId": sid, "update": {"sessionUpdate": "state_update", "state": "idle",
                                                      "stopReason": "cancelled"}}).update)
                return self.done()
            for word in re.findall(r"\S+\s*|\s+", text):
                await self.say(sid, word)
            return self.done()

    return acp.run_agent(V2Agent())


if __name__ == "__main__":
    asyncio.run({"v1-unstable": v1_unstable, "v2": v2}[sys.argv[1]]())
