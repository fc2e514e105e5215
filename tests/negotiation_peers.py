"""Peers for tests/test_interop_negotiation.py, each a process speaking ACP on stdio:

* ``python tests/negotiation_peers.py router``: the generated ``acp_v2.versions``
  ``AgentProtocolRouter`` serving the v1 echo agent (``acp_v1.examples.echo_agent``) and the
  v2 one (``acp_v2.examples.echo_agent``), with the generated tree on PYTHONPATH;
* ``python tests/negotiation_peers.py rc3 v1|v2 -- AGENT-COMMAND...``: a client on the official
  Python SDK 1.0.0rc3 (``acp`` for v1, ``acp.experimental.v2`` for v2), run by the venv that
  has it: initialize, session/new, one prompt; one JSON report on stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def router() -> None:
    from acp_v1.examples.echo_agent import EchoAgent
    from acp_v2 import models
    from acp_v2.examples.echo_agent import EchoAgent as EchoAgentV2
    from acp_v2.versions import AgentProtocolRouter, run_router

    class DraftEchoAgent(EchoAgentV2):
        """The SDKs bundle a newer v2 draft whose PromptResponse requires messageId; the
        pinned one has no such member, and the models keep unknown members, so one answer
        satisfies both (docs/surfaces.md, "Interop")."""

        async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
            await super().session_prompt(params)
            return models.PromptResponse.model_validate({"messageId": "m-1"})

    await run_router(AgentProtocolRouter(v1=EchoAgent, v2=DraftEchoAgent))


async def rc3(version: str, command: list[str]) -> dict[str, Any]:
    import acp
    from acp.transports import spawn_stdio_transport

    texts: list[str] = []

    class Recorder:
        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            content = getattr(update, "content", None)
            texts.append(str(getattr(content, "text", "")))

        async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("not asked in this scenario")

    report: dict[str, Any] = {"sdk": "1.0.0rc3", "version": version}
    async with spawn_stdio_transport(command[0], *command[1:]) as (reader, writer, _process):
        if version == "v2":
            from acp.experimental import v2

            conn: Any = v2.connect_to_agent(Recorder(), writer, reader)
            init = await conn.initialize(
                protocol_version=v2.PROTOCOL_VERSION,
                info=v2.schema.Implementation(name="rc3-v2-client", version="1.0.0rc3"))
            report["agent"] = init.info.name
            session = await conn.new_session(cwd="/tmp")
            await conn.prompt(session_id=session.session_id,
                              prompt=[v2.schema.TextContentBlock(type="text", text="hello rc3 v2")])
            report["stopReason"] = None
        else:
            conn = acp.connect_to_agent(Recorder(), writer, reader)
            init = await conn.initialize(protocol_version=1)
            report["agent"] = init.agent_info.name if init.agent_info else None
            session = await conn.new_session(cwd="/tmp", mcp_servers=[])
            response = await conn.prompt(session_id=session.session_id,
                                         prompt=[acp.schema.TextContentBlock(type="text", text="hello rc3 v1")])
            report["stopReason"] = str(response.stop_reason)
        report["protocolVersion"] = init.protocol_version
        for _ in range(100):  # chunks sent before the answer may be handled just after it
            if texts:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)
        report["text"] = "".join(texts)
        await conn.close()
    return report


if __name__ == "__main__":
    if sys.argv[1:] == ["router"]:
        asyncio.run(router())
    elif sys.argv[1:2] == ["rc3"] and sys.argv[3:4] == ["--"]:
        print(json.dumps(asyncio.run(asyncio.wait_for(rc3(sys.argv[2], sys.argv[4:]), 60))))
    else:
        sys.exit("usage: negotiation_peers.py router | rc3 v1|v2 -- AGENT-COMMAND...")
