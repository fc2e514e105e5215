# Edit acpgen/shipped/runtime/examples/client.py, not this file: acpgen generate writes it.
"""An example client: ``python -m <package>.examples.client [--prompt TEXT]... -- AGENT-COMMAND...``
or, to a remote agent, ``python -m <package>.examples.client [--prompt TEXT]... --url URL``
(``ws://``/``wss://``: WebSocket; ``http://``/``https://``: Streamable HTTP; the package's
``remote`` extra).

Copied verbatim by acpgen: its first line names the file to edit.

It starts the agent, initializes (checking the version the agent answers), opens a session
in the current directory, sends each prompt and prints the agent's message chunks as they
stream in, then the stop reason. A permission request is answered with the first
``allow`` option (the first option if none allows, ``cancelled`` if none is offered), and
the decision is printed on stderr, so a user watching sees what was asked and what was
chosen::

    [permission] tool call "echo-1a2b3c4d" titled "Echo": chose "allow" ("Allow", allow_once) of "allow", "reject"

An error from the agent is printed as one line (exit status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Sequence
from typing import TextIO

from .. import (
    PROTOCOL_VERSION,
    AcpGuardError,
    Client,
    ClientSideConnection,
    RpcError,
    connect_to_agent,
    models,
)

PACKAGE = (__package__ or "").rpartition(".")[0]  # the generated package
CLIENT_NAME = f"{PACKAGE}-example-client"


def _quoted(text: str | None) -> str:
    """The agent's text as a JSON string: quotes and control characters escaped, so what the
    agent sends cannot forge or garble the line."""
    return json.dumps(text, ensure_ascii=False)


class PrintingClient(Client):
    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr

    async def session_update(self, params: models.SessionNotification) -> None:
        update = params.update
        if isinstance(update, models.SessionUpdateAgentMessageChunk) and isinstance(
            update.content, models.ContentBlockText
        ):
            self.out.write(update.content.text)
            self.out.flush()

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        call = params.tool_call
        asked = f"[permission] tool call {_quoted(call.tool_call_id)}" + (
            f" titled {_quoted(call.title)}" if call.title is not None else ""
        )
        if not params.options:
            self.err.write(f"{asked}: no options offered; answered cancelled\n")
            self.err.flush()
            return models.RequestPermissionResponse(
                outcome=models.RequestPermissionOutcomeCancelled()
            )
        allow = (models.PermissionOptionKind.ALLOW_ONCE, models.PermissionOptionKind.ALLOW_ALWAYS)
        chosen = next((o for o in params.options if o.kind in allow), params.options[0])
        offered = ", ".join(_quoted(o.option_id) for o in params.options)
        self.err.write(
            f"{asked}: chose {_quoted(chosen.option_id)} ({_quoted(chosen.name)}, "
            f"{chosen.kind.value}) of {offered}\n"
        )
        self.err.flush()
        return models.RequestPermissionResponse(
            outcome=models.RequestPermissionOutcomeSelected(option_id=chosen.option_id)
        )


@contextlib.asynccontextmanager
async def _connect(
    client: Client, command: Sequence[str], url: str | None
) -> AsyncIterator[ClientSideConnection]:
    if url is None:
        async with connect_to_agent(client, command) as connection:
            yield connection
    else:
        from ..remote import connect_to_remote_agent  # the `remote` extra, only when asked for

        async with connect_to_remote_agent(client, url) as connection:
            yield connection


async def run(
    command: Sequence[str],
    prompts: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    url: str | None = None,
) -> int:
    out = out or sys.stdout
    async with _connect(PrintingClient(out, err), command, url) as connection:
        init = await connection.initialize(
            protocol_version=PROTOCOL_VERSION,
            # What it supports, said explicitly (the protocol asks for it): no files, no terminals.
            client_capabilities=models.ClientCapabilities(
                fs=models.FileSystemCapabilities(read_text_file=False, write_text_file=False),
                terminal=False,
            ),
            client_info=models.Implementation(name=CLIENT_NAME, version="0.1.0"),
        )
        out.write(f"[protocol version {init.protocol_version}]\n")
        session = await connection.session_new(cwd=os.getcwd(), mcp_servers=[])
        for text in prompts:
            response = await connection.session_prompt(
                session_id=session.session_id, prompt=[models.ContentBlockText(text=text)]
            )
            out.write(f"\n[stop reason: {response.stop_reason.value}]\n")
            out.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m {__spec__.name if __spec__ else 'client'}",
        description="Drive an ACP agent over stdio, or a remote one with --url.",
    )
    parser.add_argument("--prompt", action="append", help="a prompt to send (repeatable)")
    parser.add_argument(
        "--url", help="a remote agent (ws://, wss://, http://, https://, unix:PATH)"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- AGENT-COMMAND...")
    args = parser.parse_args(argv)
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command and args.url is None:
        parser.error("give the agent command after --, or --url")
    if command and args.url is not None:
        parser.error("give either --url or an agent command, not both")
    # Whatever happens, the agent's process group is stopped before asyncio.run returns
    # (stdio.spawn_process), and a failure is one line on stderr, not a traceback.
    try:
        prompts = args.prompt or ["Hello from the example client"]
        return asyncio.run(run(command, prompts, url=args.url))
    except RpcError as exc:
        print(f"{parser.prog}: error: the agent answered {exc.code} {exc.message}", file=sys.stderr)
    except (AcpGuardError, ConnectionError, ImportError, OSError, ValueError) as exc:
        print(f"{parser.prog}: error: {type(exc).__name__}: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
