"""One agent process of tests/test_remote_deploy.py: the generated remote echo agent, named.

``python deploy_node.py NAME PORT`` serves ``RemoteEchoAgent`` on 127.0.0.1:PORT whose
initialize answer names the process (``agentInfo.name`` is NAME) and whose every update
starts with ``[NAME]``, so the test sees which process answered each message. Prints
``serving on URL`` once it listens; SIGTERM shuts it down gracefully.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from acp_v1 import models
from acp_v1.examples.echo_agent import RemoteEchoAgent
from acp_v1.remote import serve_agent


def main(name: str, port: int) -> None:
    class NodeAgent(RemoteEchoAgent):
        agent_info = models.Implementation(name=name, version="0.1.0")

        async def _say(self, session_id: str, text: str) -> None:
            await super()._say(session_id, f"[{name}] {text}")

    transcripts: dict[str, list[tuple[str, str]]] = {}

    async def serve() -> None:
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, stop.set)
        await serve_agent(
            lambda: NodeAgent(transcripts), host="127.0.0.1", port=port,
            ready=lambda url: print(f"serving on {url}", flush=True), shutdown=stop.wait,
        )

    asyncio.run(serve())


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
