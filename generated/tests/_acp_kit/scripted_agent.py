# Edit acpgen/shipped/conformance/scripted_agent.py, not this file: acpgen generate writes it.
"""The kit's scripted agent: what a client under test talks to (``{agent}`` in --acp-client).

Run as ``python scripted_agent.py SCRIPT.json``; standard library only, so it starts fast and
needs nothing installed. SCRIPT says the mode (what the prompt turn does), the log file and a
work directory. Every line in both directions is logged (base64, with a timestamp) for the
kit's checks; the agent itself judges nothing. It exits at end of input or on its own deadline
(a hang guard, logged as such).

It waits on events, never on time: a request of its own is awaited until its answer (or an
answer with an id it never sent: the client changed the id), the end of input or the deadline.
A probe that may rightly go unanswered (a line that is not JSON, a batch) is followed by a
*fence*, a permission request every client answers: what the client wrote between the probe
and the fence's answer is its reply to the probe.
"""

from __future__ import annotations

import base64
import json
import os
import select
import sys
import time
from typing import Any

DEADLINE = 120.0  # seconds, unless the script says: a hang guard, never outlive a stuck run
TERMINAL_TEXT = "é" * 40  # 2 bytes each: truncating at an odd byte limit must not split one
TERMINAL_LIMIT = 21
# Unusual but legal _meta (on the initialize result of mode "extras").
ODD_META = {"acpgen.dev/kit": {"nested": [1, None, {"deep": True}], "": "empty key"}}
KIT_CURSOR = "kit-opaque/cursor+1=="  # the second page of session/list (mode "capable")
FENCE_CALL = "kit-fence"  # the toolCallId of the fence permission requests
CANCEL_CALL = "kit-call-5"  # the tool call whose permission stays pending until the client cancels
STDERR_LINE = b"kit agent: a log line on stderr, as agents may write\n"
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
        self.deadline = self.start + float(script.get("deadline", DEADLINE))
        self.sent_ids: set[str] = set()  # ids of the agent's own requests
        self.answered: set[str] = set()  # ... that got a response
        # The responses to the batch being handled (None outside a batch): sent as one array.
        self.replies: list[dict[str, Any]] | None = None

    # ---- wire -------------------------------------------------------------------------------

    def record(self, direction: str, raw: bytes) -> None:
        entry = {
            "d": direction,
            "t": time.monotonic(),
            "raw": base64.b64encode(raw).decode("ascii"),
        }
        self.log.write(json.dumps(entry) + "\n")
        self.log.flush()

    def mark(self, event: str, **facts: Any) -> None:
        self.log.write(json.dumps({"event": event, "t": time.monotonic(), **facts}) + "\n")
        self.log.flush()

    def write_raw(self, raw: bytes) -> None:
        self.record("out", raw)
        try:
            os.write(1, raw)
        except OSError:
            self.at_eof()  # the client is gone: nothing more will be read either

    def at_eof(self) -> None:
        if not self.eof:
            self.eof = True
            self.mark("eof")

    def send(self, message: dict[str, Any]) -> None:
        self.write_raw(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")

    def read_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            left = min(deadline, self.deadline) - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([0], [], [], left)
            if not ready:
                return None
            try:
                chunk = os.read(0, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.at_eof()
            self.buffer += chunk
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            return line + b"\n"
        if self.buffer:
            line, self.buffer = self.buffer, b""
            return line
        return None

    def receive(self, timeout: float) -> tuple[list[Any], bool] | None:
        """The values of the next line (logged) and whether it was a batch: a batch's elements,
        or the one value read ([] for a line that is not JSON); None on timeout or end of
        input."""
        line = self.read_line(timeout)
        if line is None:
            return None
        self.record("in", line)
        try:
            value = json.loads(line)
        except ValueError:
            return [], False
        if isinstance(value, list):
            return value, True
        return [value], False

    def dispatch(self, wanted: Any = None) -> dict[str, Any] | None:
        """Read one line and handle its messages; the first one ``wanted`` (if any) is returned
        unhandled. The responses to a batch's requests go out as one array after the whole
        batch, as JSON-RPC 2.0 says: nothing for notifications (no array at all when there is
        nothing to answer), -32600 with a null id for an element that is not an object, and
        one such error (not an array) for an empty batch."""
        got = self.receive(self.deadline - time.monotonic())
        if got is None:
            return None
        values, is_batch = got
        if is_batch and not values:
            self.send(invalid_request())
            return None
        outer, self.replies = self.replies, ([] if is_batch else None)
        found = None
        try:
            for value in values:
                if not isinstance(value, dict):
                    if is_batch:
                        self.reply(invalid_request())
                    continue
                if "method" not in value and isinstance(value.get("id"), str):
                    self.answered.add(value["id"])
                if found is None and wanted is not None and wanted(value):
                    found = value
                else:
                    self.handle(value)
        finally:
            replies, self.replies = self.replies, outer
        if replies:
            self.write_raw(json.dumps(replies, separators=(",", ":")).encode("utf-8") + b"\n")
        return found

    def open_request(self, method: str, params: dict[str, Any]) -> str:
        """Send a request without waiting; its id."""
        req_id = f"kit-{self.next_id}"
        self.next_id += 1
        self.sent_ids.add(req_id)
        self.send({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})
        return req_id

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """Send a request and handle incoming messages until its response."""
        return self.await_response(self.open_request(method, params))

    def await_response(self, req_id: str) -> dict[str, Any] | None:
        """The response to ``req_id``: one with its id, or with an id the agent never sent (the
        client changed the id); None at end of input or the deadline."""
        return self.wait_for(lambda m: "method" not in m and self.answers(m, req_id))

    def answers(self, message: dict[str, Any], req_id: str) -> bool:
        got = message.get("id")
        if got == req_id:
            return True
        # A null id answers a line that could not be read, never one of the agent's requests.
        return got is not None and not (isinstance(got, str) and got in self.sent_ids)

    def wait_for(self, wanted: Any) -> dict[str, Any] | None:
        """Handle incoming messages until one is ``wanted`` (returned unhandled); None at end of
        input or the deadline."""
        while not self.eof and time.monotonic() < self.deadline:
            found = self.dispatch(wanted)
            if found is not None:
                return found
        return None

    def fence(self, session: str) -> dict[str, Any] | None:
        """A permission request every client answers: the end of the window after a probe."""
        return self.request(
            "session/request_permission",
            {
                "sessionId": session,
                "toolCall": {"toolCallId": FENCE_CALL, "title": "Kit fence"},
                "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
            },
        )

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def reply(self, response: dict[str, Any]) -> None:
        """A response: sent now, or kept for the array that answers the batch being handled."""
        if self.replies is None:
            self.send(response)
        else:
            self.replies.append(response)

    def result(self, message: dict[str, Any], result: Any) -> None:
        self.reply({"jsonrpc": "2.0", "id": message.get("id"), "result": result})

    def error(self, message: dict[str, Any], code: int, text: str) -> None:
        self.reply(
            {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}
        )

    # ---- behaviour --------------------------------------------------------------------------

    def run(self) -> None:
        while not self.eof and time.monotonic() < self.deadline:
            self.dispatch()
        if not self.eof:
            self.mark("deadline")

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
            stop_reason = self.turn(str(params.get("sessionId", "")))
            if not self.eof:  # a turn the client walked out of did not end
                self.mark("turn-ended")
            self.result(message, {"stopReason": stop_reason})
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
        if self.mode == "garbage":
            # Every capability is optional: this run's answer has none at all (defaults).
            self.result(message, {"protocolVersion": version})
            return
        capable = self.mode == "capable"
        sessions: dict[str, Any] = {
            "list": {},
            "resume": {},
            "close": {},
            "delete": {},
            "additionalDirectories": {},
        }
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
                    "sessionCapabilities": sessions if capable else {},
                    **({"auth": {"logout": {}}} if capable else {}),
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
        else:  # session/resume, session/close, session/delete, logout
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

    def turn(self, session: str) -> str:
        """The prompt turn of this run's mode; its stop reason."""
        if self.mode == "garbage":
            # A line on stderr, then a request the client answers in the basic run (a client
            # that stops here stopped at stderr); then a line that is not JSON, fenced.
            os.write(2, STDERR_LINE)
            self.mark("stderr-written")
            self.say(session, "Hello from the kit.")
            self.fence(session)
            self.write_raw(b"this line is not JSON\n")
            self.mark("garbage-sent")
            self.fence(session)
            return "end_turn"
        self.say(session, "Hello from the kit.")
        if self.mode == "extras":
            self.extras(session)
            return "end_turn"
        if self.mode == "batch":
            self.batches(session)
            return "end_turn"
        permission = {
            "sessionId": session,
            "toolCall": {"toolCallId": "kit-call-1", "title": "Kit tool"},
            "options": [
                {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
            ],
        }
        self.request("session/request_permission", permission)
        # A custom request, not awaited (the next request fences it): whether this client
        # answers them decides the probe after a cancellation below.
        ping = (
            self.open_request("_acpgen_kit/ping", {"probe": True})
            if self.mode == "capable"
            else None
        )
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
        if ping is not None:
            return self.cancellable(session, ping)
        return "end_turn"

    def cancellable(self, session: str, ping: str) -> str:
        """A tool call whose permission request stays pending until the client answers it or
        cancels the turn. After a cancel (and the request's answer) a late tool call update,
        then a custom request the client must still answer, for clients that answer them."""
        self.update(
            session,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": CANCEL_CALL,
                "title": "Kit tool (long)",
                "kind": "execute",
                "status": "pending",
            },
        )
        req_id = self.open_request(
            "session/request_permission",
            {
                "sessionId": session,
                "toolCall": {"toolCallId": CANCEL_CALL, "title": "Kit tool (long)"},
                "options": [
                    {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                    {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
                ],
            },
        )
        self.mark("permission-pending")
        first = self.wait_for(
            lambda m: m.get("method") == "session/cancel"
            or ("method" not in m and self.answers(m, req_id))
        )
        if first is None or "method" not in first:
            return "end_turn"  # answered without a cancel (or the client left)
        self.mark("cancelled-while-pending")
        if self.await_response(req_id) is None:
            return "cancelled"
        self.update(
            session,
            {"sessionUpdate": "tool_call_update", "toolCallId": CANCEL_CALL, "status": "failed"},
        )
        self.mark("late-update-sent")
        if ping in self.answered:
            self.request("_acpgen_kit/ping", {"probe": True})
        return "cancelled"

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
        self.request("terminal/kill", ids)  # exited already: the terminal stays valid
        self.request("terminal/release", ids)

    def extras(self, session: str) -> None:
        self.notify("_acpgen_kit/notice", {"probe": True})
        # Each stimulus a client must ignore is followed by a request it must answer, awaited:
        # a client that stops at one stops there. The custom request may rightly go unanswered
        # (EXT-RESPOND-TO-CUSTOM-REQUEST's), so a fence follows it.
        self.open_request("_acpgen_kit/ping", {"probe": True})
        self.fence(session)
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
        req_id = self.open_request(
            "session/request_permission",
            {
                "sessionId": session,
                "toolCall": {"toolCallId": "kit-call-3", "title": "Kit tool"},
                "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
            },
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
            session,
            [
                call("kit-batch-1", "session/request_permission", permission),
                call("kit-batch-2", "_acpgen_kit/ping", {"probe": True}),
            ],
        )
        self.batch(session, [update, notice])
        self.batch(session, [])
        self.batch(session, [call("kit-batch-3", "_acpgen_kit/ping", {"probe": True}), update])

    def batch(self, session: str, messages: list[dict[str, Any]]) -> None:
        """Send one batch, then a fence: what the client wrote before the fence's answer is its
        reply to the batch (each request answered alone or in an array, nothing for
        notifications, one error for the empty batch)."""
        self.sent_ids.update(str(m["id"]) for m in messages if "id" in m)
        self.write_raw(json.dumps(messages, separators=(",", ":")).encode("utf-8") + b"\n")
        self.fence(session)


CAPABLE_METHODS = (
    "logout",
    "session/load",
    "session/list",
    "session/resume",
    "session/close",
    "session/delete",
)


def invalid_request() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}


def obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        script = json.load(handle)
    agent = Agent(script)
    agent.mark("started", pid=os.getpid())  # the kit sees the agent gone even if killed
    try:
        agent.run()
    finally:
        agent.mark("exit")
        agent.log.close()


if __name__ == "__main__":
    main()
