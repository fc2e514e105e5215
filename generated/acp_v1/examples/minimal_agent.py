# Edit acpgen/shipped/runtime/examples/minimal_agent.py, not this file: acpgen generate writes it.
"""A minimal ACP agent: ``python -m <package>.examples.minimal_agent`` greets every prompt."""

import asyncio
import uuid

from .. import Agent, models, run_agent


class HelloAgent(Agent):
    agent_info = models.Implementation(name="hello-agent", version="0.1.0")

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id=f"hello-{uuid.uuid4().hex}")

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        text = " ".join(b.text for b in params.prompt if isinstance(b, models.ContentBlockText))
        await self.connection.session_update(
            session_id=params.session_id,
            update=models.SessionUpdateAgentMessageChunk(
                content=models.ContentBlockText(text=f"Hello! You said: {text}")
            ),
        )
        return models.PromptResponse(stop_reason=models.StopReason.END_TURN)


if __name__ == "__main__":
    asyncio.run(run_agent(HelloAgent()))
