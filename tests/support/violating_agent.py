"""An ACP agent for the conformance kit's violation matrix (tests/test_conformance_matrix.py).

Run as ``python violating_agent.py [REQUIREMENT-ID]``. Without an ID it keeps every
requirement the kit checks against an agent (it advertises load, list, resume, close, delete,
modes and config options, sends every kind of update, answers batches); with one it breaks
exactly that requirement, the way a real agent would, and nothing else. Standard library
only, one thread: it starts in milliseconds and every step is driven by what it reads.

Prompts: ``/wait`` runs until cancelled, ``/permission`` asks for permission first,
``/read PATH`` reads PATH through the client, ``/elicit`` elicits a form, then a URL
interaction it reports complete; any other text is answered at once.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time
from typing import Any

BREAK = sys.argv[1].removeprefix("ACP-V1-") if len(sys.argv) > 1 else ""
INPUT = bytearray()  # what was read and not yet handled
NOT_UTF8_LINE = b'{"jsonrpc":"2.0","method":"_kit_matrix/notice","params":{"t":"\xff"}}\n'


# The matrix (tests/test_conformance_matrix.py) asks which requirements a run of the clean
# agent consulted: every difference a violation makes starts at a broken() that returns
# True, so a scenario that never asked about X runs the same whatever X's violation does.
# Written as each name is first asked about (the kit may kill the agent at any moment).
_CONSULTED: set[str] = set()
_CONSULTED_LOG = os.environ.get("KIT_MATRIX_CONSULTED")


def consulted(*names: str) -> None:
    for name in names:
        if name not in _CONSULTED:
            _CONSULTED.add(name)
            if _CONSULTED_LOG:
                with open(_CONSULTED_LOG, "a", encoding="utf-8") as log:
                    log.write(name + "\n")


def broken(name: str) -> bool:
    consulted(name)
    return BREAK == name


class Agent:
    def __init__(self) -> None:
        self.sessions: dict[str, dict[str, Any]] = {}
        self.count = 0
        self.client_caps: dict[str, Any] | None = None
        self.turns: dict[str, dict[str, Any]] = {}  # session -> the running turn
        self.waiting: dict[str, Any] = {}  # our request id -> what to do with the answer
        self.batch: list[dict[str, Any]] | None = None  # responses owed to a batch
        self.next_id = 0
        self.prompted = 0
        self.buffer: bytearray | None = None  # lines written together (one os.write)

    # ---- wire -------------------------------------------------------------------------------

    def write(self, raw: bytes) -> None:
        if self.buffer is not None:
            self.buffer += raw
        else:
            os.write(1, raw)

    def at_once(self, *steps: Any) -> None:
        """The lines the steps write, in one write: the peer reads them all before it answers."""
        self.buffer = bytearray()
        for step in steps:
            step()
        data, self.buffer = bytes(self.buffer), None
        self.write(data)

    def send(self, message: dict[str, Any]) -> None:
        if broken("JSONRPC-VERSION-MEMBER") and message.get("method") == "session/update":
            message = {**message, "jsonrpc": "1.0"}
        raw = json.dumps(message, separators=(",", ":")).encode()
        if broken("TRANSPORT-STDIO-NEWLINE-DELIMITED") and message.get("method") == "_kit_matrix/split":
            raw = raw.replace(b",", b",\n", 1)  # one message over two lines
        self.write(raw + b"\n")

    def respond(self, request: dict[str, Any], message: dict[str, Any]) -> None:
        message = {"jsonrpc": "2.0", "id": request.get("id"), **message}
        if self.batch is not None:
            self.batch.append(message)
        else:
            self.send(message)

    def result(self, request: dict[str, Any], result: Any) -> None:
        self.respond(request, {"result": result})

    def error(self, request: dict[str, Any], code: Any, message: str = "") -> None:
        error: dict[str, Any] = {"code": code, "message": message or "Error"}
        self.respond(request, {"error": error})

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def call(self, method: str, params: dict[str, Any], then: Any, req_id: Any = None) -> None:
        self.next_id += 1
        req_id = f"agent-{self.next_id}" if req_id is None else req_id
        self.waiting[json.dumps(req_id)] = then
        self.send({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})

    def update(self, session: str, update: dict[str, Any], **extra: Any) -> None:
        self.notify("session/update", {"sessionId": session, "update": update, **extra})

    def say(self, session: str, text: str, **extra: Any) -> None:
        content: dict[str, Any] = {"type": "text", "text": text}
        if session in self.sessions:
            self.sessions[session]["history"].append(("agent", content))
        if broken("SCHEMA-CONTENT-BLOCK-VARIANTS"):
            content = {"type": "hologram", "text": text}
        self.update(session, {"sessionUpdate": "agent_message_chunk", "content": content, **extra})

    # ---- reading ------------------------------------------------------------------------------

    def line(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            if broken("JSONRPC-RESPONSE-REQUIRED"):
                return
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": None}
            if broken("JSONRPC-RESPONSE-ID-ECHO"):
                del reply["id"]
            code = -32600 if broken("SCHEMA-ERROR-OBJECT") else -32700
            self.send({**reply, "error": {"code": code, "message": "Parse error"}})
            return
        if isinstance(message, list):
            self.batch_of(message)
        elif isinstance(message, dict):
            self.message(message)
        else:
            self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid"}})

    def batch_of(self, messages: list[Any]) -> None:
        if messages and broken("KIT-BATCH-CRASH"):
            sys.exit(3)  # a batch kills it: what the other probes showed still stands
        if not messages and broken("KIT-PROBES-UNANSWERED"):
            return
        if messages and broken("KIT-BATCH-REFUSED"):
            error = {"code": -32600, "message": "Invalid request: batches are not supported"}
            self.send({"jsonrpc": "2.0", "id": None, "error": error})
            return
        if not messages:
            self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Empty"}})
            return
        self.batch = []
        for message in messages:
            if isinstance(message, dict):
                self.message(message)
        owed, self.batch = self.batch, None
        if broken("JSONRPC-NO-REPLY-TO-NOTIFICATION") and all("id" not in m for m in messages):
            owed.append({"jsonrpc": "2.0", "id": None, "result": None})
        if owed:
            self.write(json.dumps(owed, separators=(",", ":")).encode() + b"\n")

    def message(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if not any(k in message for k in ("method", "id", "result", "error")):
            if broken("KIT-PROBES-UNANSWERED") or broken("KIT-BATCH-CRASH"):
                return
            self.respond({"id": None}, {"error": {"code": -32600, "message": "Invalid request"}})
            return
        if not isinstance(method, str):
            then = self.waiting.pop(json.dumps(message.get("id")), None)
            if then is not None:
                then(message)
            return
        params = message.get("params")
        if broken("KIT-INERT") and method != "initialize":
            # Exercises nothing: every request but initialize fails at once, notifications
            # are ignored (the kit's not-exercised proof, tests/test_conformance_classes.py).
            if "id" in message:
                self.error(message, -32603, "Internal error")
            return
        if "id" not in message:
            self.notification(method, params if isinstance(params, dict) else {})
            return
        handler = getattr(self, "on_" + method.replace("/", "_").replace("$", "S"), None)
        if handler is None or not isinstance(params, (dict, type(None))):
            self.unknown(message, method)
            return
        handler(message, params or {})

    def unknown(self, request: dict[str, Any], method: str) -> None:
        if method.startswith("_"):
            if broken("EXT-RESPOND-TO-CUSTOM-REQUEST"):
                return
            if broken("EXT-UNKNOWN-METHOD-NOT-FOUND"):
                self.result(request, None)
                return
            self.error(request, -32601, "Method not found")
            return
        if broken("JSONRPC-RESULT-ON-SUCCESS"):
            self.respond(request, {"result": None, "error": {"code": -32601, "message": "No"}})
        elif broken("JSONRPC-RESULT-XOR-ERROR"):
            self.respond(request, {})
        elif broken("JSONRPC-ERROR-CODE-INTEGER"):
            self.error(request, "-32601", "Method not found")
        elif broken("JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR"):
            self.respond(request, {"error": {"code": -32601}})
        elif broken("JSONRPC-ERROR-MESSAGE-CONCISE"):
            self.error(request, -32601, "Method not found. " * 30)
        elif broken("KIT-TWO-SENTENCES"):
            self.error(request, -32601, "Method not found. Check the name.")
        elif broken("JSONRPC-ERROR-MEMBER-ON-ERROR"):
            self.respond(request, {"error": "method not found"})
        elif broken("SCHEMA-ERROR-OBJECT"):
            self.error(request, -32600, "Unknown")
        else:
            self.error(request, -32601, "Method not found")

    def notification(self, method: str, params: dict[str, Any]) -> None:
        if method == "session/cancel" and broken("KIT-CANCEL-UNKNOWN"):
            # It knows no session/cancel and says so (an answer to a notification), then its
            # long turn ends as it would have.
            self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32601, "message": "Unknown method"}})
            return
        if method == "session/cancel":
            self.cancel(str(params.get("sessionId")), "session/cancel")
        elif method == "$/cancel_request":
            for session, turn in list(self.turns.items()):
                if turn["request"].get("id") == params.get("requestId"):
                    self.cancel(session, "$/cancel_request")
        elif method == "_acpgen_kit/notice" and broken("KIT-REPLY-NOTIFICATION-ID"):
            # It answers a notification, with an id of its own making (the message had none).
            self.send({"jsonrpc": "2.0", "id": 0, "error": {"code": -32601, "message": "Method not found"}})
        elif method == "acpgen-kit/unknown-notice":
            if broken("EXT-IGNORE-UNKNOWN-NOTIFICATIONS"):
                sys.exit(3)
            if broken("JSONRPC-NO-REPLY-TO-NOTIFICATION"):
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32601, "message": "?"}})

    # ---- initialization ---------------------------------------------------------------------

    def on_initialize(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        caps = params.get("clientCapabilities")
        if broken("INIT-CAPABILITIES-OPTIONAL") and caps is None:
            self.error(request, -32602, "clientCapabilities required")
            return
        self.client_caps = caps if isinstance(caps, dict) else None
        asked = params.get("protocolVersion")
        version: Any = 1
        if broken("INIT-AGENT-LATEST-VERSION"):
            version = asked
        if broken("INIT-AGENT-SAME-VERSION") and asked == 1:
            version = 0
        session_caps = {"list": {}, "resume": {}, "close": {}, "delete": {}}
        if broken("KIT-UNSTABLE-MEMBERS") or broken("KIT-UNSTABLE-AND-CUSTOM"):
            session_caps["fork"] = {}  # declared by the v1 unstable schema (session/fork)
        capabilities: dict[str, Any] = {
            "loadSession": "yes" if broken("SCHEMA-INITIALIZE-SHAPE") else True,
            "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
            "sessionCapabilities": session_caps,
            "auth": {"logout": {}},
        }
        auth: dict[str, Any] = {"id": "login", "name": "Log in"}
        if broken("SCHEMA-AUTH-METHOD-VARIANTS"):
            auth["type"] = "carrier-pigeon"
        if broken("AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY"):
            auth["type"] = "terminal"
        result: dict[str, Any] = {
            "protocolVersion": version,
            "agentCapabilities": capabilities,
            "authMethods": [auth],
            "agentInfo": {"name": "violating-agent", "version": "1.0.0"},
        }
        if broken("INIT-IMPLEMENTATION-INFO"):
            del result["agentInfo"]
        if broken("INIT-AGENT-SPECIFY-CAPABILITIES"):
            del result["agentCapabilities"]
        if broken("INIT-AGENT-RESPONSE"):
            del result["protocolVersion"]
        self.result(request, result)

    def on_authenticate(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if params.get("methodId") != "login":
            self.error(request, -32602, "Unknown auth method")
            return
        self.result(request, self.shaped("SCHEMA-AUTHENTICATE-SHAPE", {}))

    def on_logout(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        self.result(request, self.shaped("SCHEMA-LOGOUT-SHAPE", {}))

    # ---- sessions -----------------------------------------------------------------------------

    def on_session_new(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if broken("KIT-NO-SESSIONS"):
            self.error(request, -32603, "Internal error")
            return
        if broken("INIT-SESSION-BASELINE"):
            self.error(request, -32601, "Method not found")
            return
        if broken("INIT-VERSION-AGREEMENT"):
            self.error(request, -32600, "Which version?")
            return
        cwd = params.get("cwd")
        if broken("KIT-VALIDATES-NOTHING"):  # whatever the params: a session in its own cwd
            cwd, params = "/", {**params, "mcpServers": []}
        lowered = {k.lower(): v for k, v in params.items()}
        if broken("JSONRPC-PARAM-NAMES-EXACT"):
            cwd = lowered.get("cwd")
        servers = params.get("mcpServers", lowered.get("mcpservers") if broken("JSONRPC-PARAM-NAMES-EXACT") else None)
        if not isinstance(cwd, str) or not cwd.startswith("/") or not isinstance(servers, list):
            if broken("JSONRPC-RESPONSE-SAME-ID") and isinstance(request.get("id"), int):
                request = {**request, "id": str(request["id"])}
            self.error(request, -32602, "Invalid params")
            return
        if broken("SETUP-AGENT-MCP-STDIO") and servers:
            self.error(request, -32602, "stdio MCP servers are not supported")
            return
        if broken("EXT-META-NO-ASSUMPTIONS") and "x-number" in (params.get("_meta") or {}):
            self.error(request, -32602, "unexpected _meta")
            return
        self.count += 1
        session = "sess-1" if broken("SETUP-NEW-SESSION-ID") else f"sess-{self.count}"
        self.sessions[session] = {"cwd": cwd, "history": [], "mode": "ask"}
        result: dict[str, Any] = {"sessionId": session, **self.session_state()}
        if broken("SCHEMA-NEW-SESSION-SHAPE"):
            result["_meta"] = 5
        if broken("EXT-NO-ROOT-CUSTOM-FIELDS"):
            result["sessionColour"] = "blue"
        if broken("KIT-UNSTABLE-AND-CUSTOM"):
            result["models"] = {"currentModelId": "m1"}  # declared by no ACP schema
        reply: dict[str, Any] = {"result": result}
        if broken("JSONRPC-ERROR-MEMBER-ON-ERROR"):
            reply["error"] = None
        self.respond(request, reply)

    def session_state(self) -> dict[str, Any]:
        modes = [{"id": "ask", "name": "Ask"}, {"id": "code", "name": "Code"}]
        if broken("MODES-INITIAL-STATE-MAY"):
            modes = modes[1:]
        mode_option = {
            "id": "mode",
            "name": "Mode",
            "category": "mode",
            "type": "select",
            "currentValue": "code" if broken("CONFIG-AGENT-KEEP-IN-SYNC") else "ask",
            "options": [{"value": "ask", "name": "Ask"}, {"value": "code", "name": "Code"}],
        }
        depth: dict[str, Any] = {
            "id": "depth",
            "name": "Depth",
            "type": "select",
            "currentValue": "9" if broken("CONFIG-INITIAL-STATE-MAY") else "1",
            "options": [{"value": "1", "name": "One"}, {"value": "2", "name": "Two"}],
        }
        if broken("CONFIG-AGENT-DEFAULTS"):
            del depth["currentValue"]
        if broken("CONFIG-CATEGORY-MAY"):
            depth["category"] = 5
        options = [mode_option, depth]
        if broken("CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY"):
            options.append({"id": "fast", "name": "Fast", "type": "boolean", "currentValue": True})
        return {"modes": {"currentModeId": "ask", "availableModes": modes}, "configOptions": options}

    def known(self, request: dict[str, Any], params: dict[str, Any]) -> str | None:
        session = params.get("sessionId")
        if session not in self.sessions:
            self.error(request, -32002, "Resource not found")
            return None
        return str(session)

    def on_session_load(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        session = self.known(request, params)
        if session is None:
            return
        history = self.sessions[session]["history"]
        if not broken("SETUP-LOAD-REPLAY") and not broken("SETUP-LOAD-RESPOND-AFTER-REPLAY"):
            self.replay(session, history)
        self.result(request, self.shaped("SCHEMA-LOAD-SESSION-SHAPE", {}))
        if broken("SETUP-LOAD-RESPOND-AFTER-REPLAY"):
            self.replay(session, history)

    def replay(self, session: str, history: list[tuple[str, dict[str, Any]]]) -> None:
        """The conversation as it went: each prompt block and each chunk the agent said."""
        user_only = broken("KIT-REPLAY-USER-TEXT-ONLY")  # its own chunks and media dropped
        for who, content in history:
            if user_only and (who == "agent" or content.get("type") != "text"):
                continue
            kind = "user_message_chunk" if who == "user" else "agent_message_chunk"
            self.update(session, {"sessionUpdate": kind, "content": content})

    def shaped(self, name: str, result: dict[str, Any]) -> dict[str, Any]:
        return {**result, "_meta": 5} if broken(name) else result

    def on_session_resume(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        session = self.known(request, params)
        if session is None:
            return
        if broken("SETUP-RESUME-NO-REPLAY"):
            self.say(session, "Earlier: hello")
        result: dict[str, Any] = {}
        if broken("SETUP-RESUME-RESPONSE-STATE-MAY"):
            result["modes"] = {"currentModeId": "gone", "availableModes": [{"id": "ask", "name": "Ask"}]}
        self.result(request, self.shaped("SCHEMA-RESUME-SESSION-SHAPE", result))

    def on_session_list(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if broken("INIT-SESSION-OPTIONAL-MAY"):
            self.error(request, -32601, "Method not found")
            return
        if broken("LIST-AGENT-RESPONSE"):
            self.error(request, -32603, "Internal error")
            return
        if "params" not in request and broken("JSONRPC-PARAMS-MAY-BE-OMITTED"):
            self.error(request, -32602, "params required")
            return
        if params.get("cursor") is not None and not broken("LIST-AGENT-INVALID-CURSOR-ERROR"):
            self.error(request, -32602, "Invalid cursor")
            return
        cwd = params.get("cwd")
        sessions = []
        for session, state in self.sessions.items():
            if cwd is None or state["cwd"] == cwd or broken("LIST-EMPTY-ARRAY"):
                entry: dict[str, Any] = {"sessionId": session, "cwd": state["cwd"]}
                if broken("LIST-ADDITIONAL-DIRS-MAY"):
                    entry["additionalDirectories"] = ["relative/dir"]
                if broken("SCHEMA-LIST-SESSIONS-SHAPE"):
                    del entry["cwd"]
                sessions.append(entry)
        self.result(request, {"sessions": sessions})

    def on_session_close(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        session = params.get("sessionId")
        if broken("SETUP-CLOSE-MAY-ERROR") and session in self.sessions and session not in self.turns:
            self.error(request, -32603, "Cannot close")  # an open, idle session it created
            return
        if session in self.turns:
            self.cancel(str(session), "session/close")
        if session not in self.sessions:
            self.error(request, -32002, "Resource not found")
            return
        self.result(request, self.shaped("SCHEMA-CLOSE-SESSION-SHAPE", {}))

    def on_session_delete(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if broken("DELETE-IDEMPOTENT") and params.get("sessionId") not in self.sessions:
            self.error(request, -32002, "Resource not found")
            return
        self.sessions.pop(str(params.get("sessionId")), None)
        self.result(request, self.shaped("SCHEMA-DELETE-SESSION-SHAPE", {}))

    def on_session_set_mode(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if self.known(request, params) is not None:
            self.result(request, self.shaped("SCHEMA-SET-MODE-SHAPE", {}))

    def on_session_set_config_option(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        if self.known(request, params) is None:
            return
        options = self.session_state()["configOptions"]
        if broken("CONFIG-SET-RESPONSE-COMPLETE"):
            options = options[:1]
        self.result(request, self.shaped("SCHEMA-SET-CONFIG-OPTION-SHAPE", {"configOptions": options}))

    # ---- prompt turns ------------------------------------------------------------------------

    def on_session_prompt(self, request: dict[str, Any], params: dict[str, Any]) -> None:
        session = self.known(request, params)
        if session is None:
            return
        if broken("INIT-SESSION-BASELINE"):
            self.error(request, -32601, "Method not found")
            return
        blocks = [b for b in params.get("prompt") or [] if isinstance(b, dict)]
        kinds = {b.get("type") for b in blocks}
        text = next((str(b.get("text", "")) for b in blocks if b.get("type") == "text"), "")
        if broken("CONTENT-TEXT-SUPPORT") or (broken("INIT-PROMPT-BASELINE") and "resource_link" in kinds):
            self.error(request, -32602, "Unsupported content")
            return
        if broken("INIT-PROMPT-RICHER-MAY") and kinds & {"image", "resource"}:
            self.error(request, -32603, "Cannot read that")
            return
        if broken("INIT-SUPPORT-ALL-COMBINATIONS") and (self.client_caps or {}).get("terminal") is True:
            self.error(request, -32603, "Cannot work with a terminal")
            return
        if broken("EXT-META-NO-ASSUMPTIONS") and "_meta" in params:
            self.error(request, -32602, "unexpected _meta")
            return
        self.sessions[session]["history"].extend(("user", b) for b in blocks)
        if broken("KIT-TURNS-FAIL-UNLESS-CANCELLED"):
            # No model: every turn fails at once, but one cancelled before it got anywhere
            # (the session/cancel right behind the prompt) ends with stopReason cancelled.
            if cancel_follows(session, 0.2):
                self.result(request, {"stopReason": "cancelled"})
            else:
                self.error(request, -32603, "No model available")
            return
        if broken("KIT-PROMPTS-FAIL-REPLAY"):  # no model: the turn fails, the history stays
            self.error(request, -32603, "No model available")
            return
        turn = {"request": request, "session": session, "cancelled": False}
        self.turns[session] = turn
        if not text.startswith("/") and broken("KIT-CANCEL-RUNS-ON"):
            # Every turn is long work, cancels ignored (it reads nothing meanwhile): 2 s of
            # chunks, then end_turn.
            for n in range(8):
                self.say(session, f"{n + 1}. ")
                time.sleep(0.25)
            self.end(session, "end_turn")
            return
        if not text.startswith("/") and broken("KIT-CANCEL-UNKNOWN"):
            self.say(session, "Thinking.")
            time.sleep(0.3)  # a short turn; the session/cancel it gets is answered "Unknown method"
        if text == "/wait" or broken("KIT-CANCEL-ABORTS"):  # there: no turn ends by itself
            self.say(session, "Working until cancelled...")
            return
        if text == "/permission":
            self.ask_permission(session, turn)
            return
        if text == "/elicit":
            form = {"sessionId": session, "mode": "form", "message": "Your name?",
                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}
            self.call("elicitation/create", form, lambda answer: self.elicit_url(session))
            return
        if text.startswith("/read "):
            read_session = "nobody" if broken("PROMPT-TOOLS-MAY-USE-CLIENT-CAPABILITIES") else session
            read: dict[str, Any] = {"sessionId": read_session, "path": text.removeprefix("/read ")}
            if broken("SCHEMA-READ-TEXT-FILE-SHAPE"):
                read["line"] = "ten"
            if broken("SCHEMA-WRITE-TEXT-FILE-SHAPE"):
                self.call("fs/write_text_file", {"sessionId": session, "path": read["path"]}, lambda a: None)
            self.call("fs/read_text_file", read, lambda answer: self.end(session, "end_turn"))
            return
        self.work(session)
        self.end(session, "end_turn")

    def elicit_url(self, session: str) -> None:
        """A URL elicitation, completed once accepted (or broken one of five ways)."""
        url: dict[str, Any] = {"sessionId": session, "mode": "url", "message": "Sign in",
                               "elicitationId": "elic-1", "url": "https://example.com/sign-in"}
        if broken("SCHEMA-ELICITATION-CREATE-SHAPE"):
            url["_meta"] = 5
        complete: dict[str, Any] = {"elicitationId": "elic-1"}
        if broken("ELIC-AGENT-COMPLETE-SAME-CLIENT"):
            complete["elicitationId"] = "elic-never-sent"
        if broken("SCHEMA-ELICITATION-COMPLETE-SHAPE"):
            complete["_meta"] = 5

        def done(answer: Any) -> None:
            self.notify("elicitation/complete", complete)
            self.end(session, "end_turn")

        if broken("ELIC-AGENT-UNIQUE-ELICITATION-ID"):  # the same id twice, both outstanding
            answers: list[Any] = []

            def both(answer: Any) -> None:
                answers.append(answer)
                if len(answers) == 2:
                    done(answer)

            self.at_once(*[lambda: self.call("elicitation/create", url, both)] * 2)
        elif broken("ELIC-AGENT-COMPLETE-MAY"):  # complete before the client even accepted
            self.at_once(
                lambda: self.call("elicitation/create", url, lambda a: self.end(session, "end_turn")),
                lambda: self.notify("elicitation/complete", complete),
            )
        else:
            self.call("elicitation/create", url, done)

    def work(self, session: str) -> None:
        """One ordinary turn: chunks, a tool call, a plan, usage, commands; some violations."""
        self.prompted += 1
        first = self.prompted == 1
        extra: dict[str, Any] = {}
        if broken("EXT-META-TRACE-KEYS-RESERVED"):
            extra["_meta"] = {"traceparent": "not-a-trace"}
        message_id: Any = 5 if broken("PROMPT-MESSAGE-ID-MAY") else "msg-1"
        self.say(session, "Hello from the violating agent.", messageId=message_id)
        if broken("TRANSPORT-STDIO-NEWLINE-DELIMITED") and first:
            self.notify("_kit_matrix/split", {"a": 1})
        if broken("TRANSPORT-UTF8") and first:
            self.write(NOT_UTF8_LINE)
        if broken("TRANSPORT-AGENT-STDOUT-ONLY-ACP") and first:
            self.write(b"[agent] thinking...\n")
        if broken("JSONRPC-PARAMS-STRUCTURED") and first:
            self.notify("_kit_matrix/notice", 5)
        if broken("SCHEMA-EXTENSION-METHOD-NAMES") and first:
            self.notify("kit-matrix/notice", {})
        if broken("JSONRPC-RPC-PREFIX-RESERVED") and first:
            self.notify("rpc.notice", {})
        if broken("EXT-CUSTOM-REQUESTS-MAY") and first:
            self.call("kit-matrix/ask", {}, lambda answer: None)
        if broken("INIT-OMITTED-UNSUPPORTED") and self.client_caps is None:
            self.call("fs/read_text_file", {"sessionId": session, "path": "/etc/hostname"}, lambda a: None)
        caps = self.client_caps or {}
        if broken("FS-AGENT-NO-CALL-WITHOUT-CAPABILITY") and caps.get("fs", {}).get("readTextFile") is False:
            self.call("fs/read_text_file", {"sessionId": session, "path": "/etc/hostname"}, lambda a: None)
        if broken("TERM-AGENT-NO-CALL-WITHOUT-CAPABILITY") and caps.get("terminal") is False:
            self.call("terminal/create", {"sessionId": session, "command": "true"}, lambda a: None)
        if broken("ELIC-AGENT-NO-UNADVERTISED-MODE") and first:
            form = {"sessionId": session, "mode": "form", "message": "Colour?",
                    "requestedSchema": {"type": "object", "properties": {}}}
            self.call("elicitation/create", form, lambda a: None)
        path = "notes.md" if broken("OVERVIEW-ABSOLUTE-PATHS") else "/tmp/notes.md"
        tool: dict[str, Any] = {
            "sessionUpdate": "tool_call",
            "toolCallId": "call-1",
            "name": "read",
            "title": "Read notes",
            "kind": "read",
            "status": "pending",
            "locations": [{"path": path}],
        }
        self.update(session, tool, **extra)
        done: dict[str, Any] = {"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "completed"}
        if broken("PROMPT-TOOL-UPDATES-MAY"):
            done["status"] = "exploded"
        self.update(session, done)
        used: Any = "many" if broken("PROMPT-USAGE-UPDATE-MAY") else 10
        self.update(session, {"sessionUpdate": "usage_update", "used": used, "size": 1000})
        commands: Any = "help" if broken("COMMANDS-ADVERTISE-MAY") else [{"name": "help", "description": "Help"}]
        self.update(session, {"sessionUpdate": "available_commands_update", "availableCommands": commands})
        terminal_shapes = {
            "SCHEMA-TERMINAL-CREATE-SHAPE": ("terminal/create", {"command": 5}),
            "SCHEMA-TERMINAL-OUTPUT-SHAPE": ("terminal/output", {"terminalId": 5}),
            "SCHEMA-TERMINAL-RELEASE-SHAPE": ("terminal/release", {"terminalId": 5}),
            "SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE": ("terminal/wait_for_exit", {"terminalId": 5}),
            "SCHEMA-TERMINAL-KILL-SHAPE": ("terminal/kill", {"terminalId": 5}),
        }
        consulted(*terminal_shapes)
        if BREAK in terminal_shapes and caps.get("terminal") is True:
            method, bad = terminal_shapes[BREAK]
            self.call(method, {"sessionId": session, **bad}, lambda a: None)
        if broken("SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE") and first:
            self.notify("$/cancel_request", {"requestId": {"not": "an id"}})
        if broken("TOOLS-NAME-STABLE"):
            self.update(session, {"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "name": "write"})
        if broken("SCHEMA-SESSION-UPDATE-VARIANTS"):
            self.update(session, {"sessionUpdate": "mood_update", "mood": "happy"})

    def ask_permission(self, session: str, turn: dict[str, Any]) -> None:
        params: dict[str, Any] = {
            "sessionId": "nobody" if broken("PROMPT-PERMISSION-MAY") else session,
            "toolCall": {"toolCallId": "call-2", "title": "Write notes"},
            "options": [
                {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
            ],
        }
        if broken("SCHEMA-REQUEST-PERMISSION-SHAPE"):
            del params["options"][0]["kind"]
        turn["asking"] = True
        req_id: Any = None
        if broken("JSONRPC-ID-TYPE"):
            req_id = {"n": 1}
        elif broken("JSONRPC-ID-NOT-NULL"):
            req_id = None
            self.waiting[json.dumps(None)] = lambda answer: self.end(
                session, "cancelled" if turn["cancelled"] else "end_turn"
            )
            self.send({"jsonrpc": "2.0", "id": None, "method": "session/request_permission", "params": params})
            return
        elif broken("JSONRPC-ID-NO-FRACTION"):
            req_id = 1.5
        self.call(
            "session/request_permission",
            params,
            lambda answer: self.end(session, "cancelled" if turn["cancelled"] else "end_turn"),
            req_id,
        )

    def cancel(self, session: str, how: str) -> None:
        turn = self.turns.get(session)
        if turn is None:
            return
        if broken("KIT-CANCEL-IGNORED") and how != "session/close":
            return
        if broken("KIT-CANCEL-ABORTS") and how == "session/cancel":  # the abort surfaces as -32603
            self.turns.pop(session)
            self.error(turn["request"], -32603, "Aborted")
            return
        if broken("KIT-CANCEL-REQUEST-IGNORED") and how == "$/cancel_request":
            turn["asked_cancel_request"] = True
            return
        if broken("KIT-CANCEL-REQUEST-IGNORED") and turn.get("asked_cancel_request"):
            time.sleep(2.5)
            self.end(session, "end_turn")
            return
        turn["cancelled"] = True
        if turn.get("asking"):  # a permission request still pending: the turn ends on its answer
            return
        if how == "session/close" and broken("SETUP-CLOSE-CANCELS-AND-FREES"):
            self.end(session, "end_turn")
            return
        if how == "$/cancel_request":
            if broken("CANCEL-REQUEST-MUST-RESPOND"):
                self.turns.pop(session)
                self.error(turn["request"], -32603, "Interrupted")
                return
            self.turns.pop(session)
            self.error(turn["request"], -32800, "Request cancelled")
            return
        if broken("PROMPT-AGENT-STOP-ON-CANCEL"):
            time.sleep(2.5)
        if broken("PROMPT-AGENT-CATCH-ABORT-ERRORS"):
            self.turns.pop(session)
            self.error(turn["request"], -32603, "Aborted")
            return
        self.say(session, "Stopping.")
        wrong = broken("PROMPT-AGENT-CANCELLED-STOP-REASON") and how == "session/cancel"
        self.end(session, "end_turn" if wrong else "cancelled")
        if broken("PROMPT-UPDATES-BEFORE-RESPONSE"):
            self.say(session, "One more thing.")

    def end(self, session: str, reason: str) -> None:
        turn = self.turns.pop(session, None)
        if turn is None:
            return
        result: dict[str, Any] = {"stopReason": reason}
        if broken("SCHEMA-STOP-REASON-VALUES"):
            result["stopReason"] = "finished"
        if broken("PROMPT-RESPOND-WITH-STOP-REASON"):
            del result["stopReason"]
        self.result(turn["request"], self.shaped("SCHEMA-PROMPT-SHAPE", result))


def main() -> None:
    if broken("TRANSPORT-AGENT-STDERR-MAY"):
        os.write(2, b"starting \xff\xfe\n")
    agent = Agent()
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return
        INPUT.extend(chunk)
        while b"\n" in INPUT:
            end = INPUT.index(b"\n")
            raw = bytes(INPUT[:end])
            del INPUT[: end + 1]
            if raw.strip():
                agent.line(raw)


def cancel_follows(session: str, wait: float) -> bool:
    """Whether a session/cancel of ``session`` arrives within ``wait`` seconds (read ahead
    into INPUT, which main() then handles as usual)."""
    ready, _, _ = select.select([0], [], [], wait)
    if ready:
        INPUT.extend(os.read(0, 65536))
    return any(
        b'"session/cancel"' in line and session.encode() in line for line in bytes(INPUT).split(b"\n")
    )


if __name__ == "__main__":
    main()
