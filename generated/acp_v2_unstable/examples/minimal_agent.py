# Edit acpgen/shipped/runtime/examples_v2/minimal_agent.py, not this file: acpgen generate writes it.
"""A minimal ACP v2 agent: ``python -m <package>.examples.minimal_agent`` greets every prompt.

v2 differs from v1 where this agent touches it: the agent's ``info`` is required, a message
chunk carries a ``messageId`` and a prompt's response has no stop reason (the turn's end is
a state update).
"""

import asyncio
import uuid

from .. import Agent, models, run_agent


class HelloAgent(Agent):
    info = models.Implementation(name="hello-agent", version="0.1.0")
    # {} advertises the baseline session methods; without it they are refused (receive guards).
    capabilities = models.AgentCapabilities(session=models.SessionCapabilities())

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id=f"hello-{uuid.uuid4().hex}")

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        text = " ".join(b.text for b in params.prompt if isinstance(b, models.ContentBlockText))
        await self.connection.session_update(
            session_id=params.session_id,
            update=models.SessionUpdateAgentMessageChunk(
                message_id=uuid.uuid4().hex,
                content=models.ContentBlockText(text=f"Hello! You said: {text}"),
            ),
        )
        return models.PromptResponse()


if __name__ == "__main__":
    asyncio.run(run_agent(HelloAgent()))
