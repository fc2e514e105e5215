"""The kit's scripted agent: what a client under test talks to (``{agent}`` in --acp-client).

Run as ``python scripted_agent.py SCRIPT.json``; standard library only, so it starts fast and
needs nothing installed. SCRIPT says the mode (what the prompt turn does), the log file and a
work directory. Every line in both directions is logged (base64, with a timestamp) for the
kit's checks; the agent itself judges nothing. It exits at end of input, on its own deadline,
or when the log says the run is over.
"""

from __future__ import annotations

import base64
import json
import os
import select
import sys
import time
from typing import Any

DEADLINE = 120.0  # seconds: the agent never outlives a stuck client run
REPLY_WAIT = 5.0  # seconds the agent waits for the client's answer to one of its requests
TERMINAL_TEXT = "é" * 40  # 2 bytes each: truncating at an odd byte limit must not split one
TERMINAL_LIMIT = 21
# Unusual but legal _meta (on the initialize result of mode "extras").
ODD_META = {"acpgen.dev/kit": {"nested": [1, None, {"deep": True}], "": "empty key"}}
KIT_CURSOR = "kit-opaque/cursor+1=="  # the second page of session/list (mode "capable")
# A config option of a category this SDK cannot know (offered at session/new, then updated).
TONE_OPTION: dict[str, Any] = {
    "id": "tone",
    "name": "Tone",
    "category": "_kit_unknown_category",
    "type": "select",
    "currentValue": "plain",
    "options": [{"value": "plain", "name": "Plain"}],
}


class Agent:
    def __init__(self, script: dict[str, Any]) -> None:
        self.mode = str(script.get("mode", "basic"))
        self.workdir = str(script.get("workdir", "."))
        self.log = open(script["log"], "a", encoding="utf-8")  # noqa: SIM115 - kept open
        self.buffer = b""
        self.eof = False
        self.next_id = 0
        self.client_caps: dict[str, Any] = {}
        self.sessions = 0
        self.start = time.monotonic()

    # ---- wire -------------------------------------------------------------------------------

    def record(self, direction: str, raw: bytes) -> None:
        entry = {
            "d": direction,
            "t": time.monotonic(),
            "raw": base64.b64encode(raw).decode("ascii"),
        }
        self.log.write(json.dumps(entry) + "\n")
        self.log.flush()

    def mark(self, event: str) -> None:
        self.log.write(json.dumps({"event": event, "t": time.monotonic()}) + "\n")
        self.log.flush()

    def write_raw(self, raw: bytes) -> None:
        self.record("out", raw)
        os.write(1, raw)

    def send(self, message: dict[str, Any]) -> None:
        self.write_raw(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")

    def read_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            left = min(deadline, self.start + DEADLINE) - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([0], [], [], left)
            if not ready:
                return None
            chunk = os.read(0, 65536)
            if not chunk:
                self.eof = True
            self.buffer += chunk
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            return line + b"\n"
        if self.buffer:
            line, self.buffer = self.buffer, b""
            return line
        return None

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message (logged); None on timeout or end of input."""
        line = self.read_line(timeout)
        if line is None:
            return None
        self.record("in", line)
        try:
            message = json.loads(line)
        except ValueError:
            return {}
        return message if isinstance(message, dict) else {}

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """Send a request and handle incoming messages until its response (or REPLY_WAIT)."""
        req_id = f"kit-{self.next_id}"
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})
        return self.await_response(req_id)

    def await_response(self, req_id: Any) -> dict[str, Any] | None:
        deadline = time.monotonic() + REPLY_WAIT
        while time.monotonic() < deadline:
            message = self.receive(deadline - time.monotonic())
            if message is None:
                return None
            if "method" not in message and message.get("id") == req_id:
                return message
            self.handle(message)
        return None

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def result(self, message: dict[str, Any], result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": message.get("id"), "result": result})

    def error(self, message: dict[str, Any], code: int, text: str) -> None:
        self.send(
            {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}
        )

    # ---- behaviour --------------------------------------------------------------------------

    def run(self) -> None:
        while not self.eof and time.monotonic() - self.start < DEADLINE:
            message = self.receive(1.0)
            if message is not None:
                self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if not isinstance(method, str) or "id" not in message:
            return  # responses nobody waits for, notifications (session/cancel): logged only
        params = obj(message.get("params"))
        if method == "initialize":
            self.initialize(message, params)
        elif method == "session/new":
            self.sessions += 1
            self.result(message, self.new_session())
        elif method == "session/prompt":
            self.turn(str(params.get("sessionId", "")))
            self.result(message, {"stopReason": "end_turn"})
            self.mark("turn-ended")
        elif method == "authenticate":
            self.result(message, {})
        elif self.mode == "capable" and method in CAPABLE_METHODS:
            self.capable(message, method, params)
        else:
            self.error(message, -32601, "Method not found")

    def initialize(self, message: dict[str, Any], params: dict[str, Any]) -> None:
        caps = params.get("clientCapabilities")
        self.client_caps = caps if isinstance(caps, dict) else {}
        auth_methods: list[dict[str, Any]] = []
        auth = self.client_caps.get("auth")
        if isinstance(auth, dict) and auth.get("terminal") is True:
            auth_methods.append(
                {
                    "type": "terminal",
                    "id": "kit-terminal-login",
                    "name": "Log in (kit)",
                    "args": ["--login"],
                }
            )
        version = 9999 if self.mode == "version" else 1
        capable = self.mode == "capable"
        self.result(
            message,
            {
                "protocolVersion": version,
                "agentCapabilities": {
                    "loadSession": capable,
                    "promptCapabilities": {
                        "image": False,
                        "audio": False,
                        "embeddedContext": False,
                    },
                    "sessionCapabilities": (
                        {"list": {}, "resume": {}, "close": {}, "delete": {}} if capable else {}
                    ),
                },
                "authMethods": auth_methods,
                "agentInfo": {"name": "acpgen-conformance-kit-agent", "version": "1.0.0"},
                **({"_meta": ODD_META} if self.mode == "extras" else {}),
            },
        )

    def capable(self, message: dict[str, Any], method: str, params: dict[str, Any]) -> None:
        """The optional session methods, in the run where the agent advertises them."""
        session = str(params.get("sessionId", ""))
        if method == "session/load":
            self.update(
                session,
                {
                    "sessionUpdate": "user_message_chunk",
                    "content": {"type": "text", "text": "An earlier prompt."},
                },
            )
            self.say(session, "An earlier answer.")
            self.result(message, {})
        elif method == "session/list":
            if params.get("cursor") is None:
                first = {
                    "sessionId": "kit-session-earlier",
                    "cwd": self.workdir,
                    "title": "Earlier",
                }
                self.result(message, {"sessions": [first], "nextCursor": KIT_CURSOR})
            else:
                self.result(message, {"sessions": []})
        else:  # session/resume, session/close, session/delete
            self.result(message, {})

    def new_session(self) -> dict[str, Any]:
        result: dict[str, Any] = {"sessionId": f"kit-session-{self.sessions}"}
        if self.mode == "extras":
            result["modes"] = {
                "currentModeId": "ask",
                "availableModes": [{"id": "ask", "name": "Ask"}, {"id": "code", "name": "Code"}],
            }
            result["configOptions"] = [
                {
                    "id": "mode",
                    "name": "Mode",
                    "category": "mode",
                    "type": "select",
                    "currentValue": "ask",
                    "options": [{"value": "ask", "name": "Ask"}, {"value": "code", "name": "Code"}],
                },
                TONE_OPTION,
                {
                    "id": "depth",
                    "name": "Depth",
                    "type": "select",
                    "currentValue": "1",
                    "options": [{"value": "1", "name": "One"}],
                },
            ]
        return result

    def update(self, session: str, update: dict[str, Any]) -> None:
        self.notify("session/update", {"sessionId": session, "update": update})

    def say(self, session: str, text: str) -> None:
        self.update(
            session,
            {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}},
        )

    def turn(self, session: str) -> None:
        if self.mode == "garbage":
            self.write_raw(b"this line is not JSON\n")
            self.mark("garbage-sent")
            self.await_response(None)
            self.say(session, "Hello from the kit.")
            return
        self.say(session, "Hello from the kit.")
        if self.mode == "extras":
            self.extras(session)
            return
        if self.mode == "batch":
            self.batches(session)
            return
        permission = {
            "sessionId": session,
            "toolCall": {"toolCallId": "kit-call-1", "title": "Kit tool"},
            "options": [
                {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
            ],
        }
        self.request("session/request_permission", permission)
        fs = obj(self.client_caps.get("fs"))
        created = os.path.join(self.workdir, "kit-created.txt")
        if fs.get("writeTextFile") is True:
            self.request(
                "fs/write_text_file",
                {"sessionId": session, "path": created, "content": "created\n"},
            )
        if fs.get("readTextFile") is True:
            self.request(
                "fs/read_text_file",
                {"sessionId": session, "path": os.path.join(self.workdir, "notes.md")},
            )
        if self.client_caps.get("terminal") is True:
            self.terminal(session)

    def terminal(self, session: str) -> None:
        code = f"import sys; sys.stdout.write({TERMINAL_TEXT!r}); sys.stdout.flush()"
        created = self.request(
            "terminal/create",
            {
                "sessionId": session,
                "command": sys.executable,
                "args": ["-c", code],
                "outputByteLimit": TERMINAL_LIMIT,
            },
        )
        terminal = (created or {}).get("result") or {}
        terminal_id = terminal.get("terminalId") if isinstance(terminal, dict) else None
        if not isinstance(terminal_id, str):
            return
        ids = {"sessionId": session, "terminalId": terminal_id}
        self.request("terminal/wait_for_exit", ids)
        self.request("terminal/output", ids)
        self.request("terminal/release", ids)

    def extras(self, session: str) -> None:
        sys.stderr.write("kit agent: a log line on stderr, as agents may write\n")
        sys.stderr.flush()
        self.notify("_acpgen_kit/notice", {"probe": True})
        self.request("_acpgen_kit/ping", {"probe": True})
        self.notify("elicitation/complete", {"elicitationId": "kit-never-issued"})
        elicitation = self.client_caps.get("elicitation")
        if not (isinstance(elicitation, dict) and elicitation.get("form") is not None):
            self.request(
                "elicitation/create",
                {
                    "sessionId": session,
                    "mode": "form",
                    "message": "Your favourite colour?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"colour": {"type": "string"}},
                    },
                },
            )
        for update in (
            {
                "sessionUpdate": "plan",
                "entries": [{"content": "Say hello", "priority": "high", "status": "in_progress"}],
            },
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "kit-call-2",
                "title": "Read notes",
                "name": "read",
                "kind": "read",
                "status": "pending",
                "locations": [{"path": os.path.join(self.workdir, "notes.md")}],
            },
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "kit-call-2",
                "status": "completed",
            },
            {
                "sessionUpdate": "available_commands_update",
                "availableCommands": [{"name": "kit", "description": "A kit command"}],
            },
            {"sessionUpdate": "session_info_update", "title": "Kit session"},
            {"sessionUpdate": "usage_update", "used": 10, "size": 1000},
            {
                "sessionUpdate": "config_option_update",
                "configOptions": [
                    {
                        "id": "future",
                        "name": "Future",
                        "type": "_kit_unknown_type",
                        "currentValue": "x",
                    },
                ],
            },
        ):
            self.update(session, update)
        req_id = f"kit-{self.next_id}"
        self.next_id += 1
        self.send(
            {
                "jsonrpc": "2.0",
                "id": req_id,
                "method": "session/request_permission",
                "params": {
                    "sessionId": session,
                    "toolCall": {"toolCallId": "kit-call-3", "title": "Kit tool"},
                    "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
                },
            }
        )
        self.notify("$/cancel_request", {"requestId": req_id})
        self.mark("cancel-request-sent")
        self.await_response(req_id)
        self.say(session, "Done.")

    # ---- JSON-RPC batches (mode "batch") ---------------------------------------------------

    def batches(self, session: str) -> None:
        """A batch of requests, of notifications, an empty one, then one of both."""
        chunk = {
            "sessionId": session,
            "update": {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": "From a batch."},
            },
        }
        permission = {
            "sessionId": session,
            "toolCall": {"toolCallId": "kit-call-4", "title": "Kit tool"},
            "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
        }
        update = {"jsonrpc": "2.0", "method": "session/update", "params": chunk}
        notice = {"jsonrpc": "2.0", "method": "_acpgen_kit/notice", "params": {"probe": True}}

        def call(req_id: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
            return {"jsonrpc": "2.0", "id": req_id, "method": method, "params": params}

        self.batch(
            [
                call("kit-batch-1", "session/request_permission", permission),
                call("kit-batch-2", "_acpgen_kit/ping", {"probe": True}),
            ]
        )
        self.batch([update, notice])
        self.batch([])
        self.batch([call("kit-batch-3", "_acpgen_kit/ping", {"probe": True}), update])

    def batch(self, messages: list[dict[str, Any]]) -> None:
        """Send one batch; read until each request in it is answered (alone or in an array),
        an empty batch until any answer, notifications only for a short window."""
        self.write_raw(json.dumps(messages, separators=(",", ":")).encode("utf-8") + b"\n")
        waiting = {m["id"] for m in messages if "id" in m}
        deadline = time.monotonic() + (REPLY_WAIT if waiting or not messages else 0.5)
        while time.monotonic() < deadline:
            line = self.read_line(deadline - time.monotonic())
            if line is None:
                return
            self.record("in", line)
            try:
                value = json.loads(line)
            except ValueError:
                continue
            parts = value if isinstance(value, list) else [value]
            for part in (p for p in parts if isinstance(p, dict)):
                if "method" in part:
                    self.handle(part)
                elif not messages:
                    return  # the answer to the empty batch
                else:
                    waiting.discard(part.get("id"))
            if messages and not waiting and any("id" in m for m in messages):
                return


CAPABLE_METHODS = (
    "session/load",
    "session/list",
    "session/resume",
    "session/close",
    "session/delete",
)


def obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        script = json.load(handle)
    agent = Agent(script)
    agent.mark("started")
    try:
        agent.run()
    finally:
        agent.mark("exit")
        agent.log.close()


if __name__ == "__main__":
    main()
