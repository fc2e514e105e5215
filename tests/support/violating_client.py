"""An ACP client for the conformance kit's violation matrix (tests/test_conformance_matrix.py).

Run as ``python violating_client.py REQUIREMENT-ID|"" AGENT-COMMAND...``. It starts the agent,
initializes (advertising fs and terminal), opens a session, sends one prompt and answers
what the agent asks (permission, fs, terminal; -32601 for what it does not know, -32602 for
an elicitation mode it did not advertise, -32700 / -32600 for lines that are no request),
batches included. When the agent lists modes and config options it switches to listed values;
when it advertises the optional session methods (its "capable" run) it uses each after the
turn (list with paging, load, resume, close, delete; additional directories, logout); then it
exits. Asked for permission for the kit's long tool call (kit-call-5), its user cancels the
turn: it sends session/cancel, then answers the request with the cancelled outcome. With an
ID it breaks exactly that requirement. Standard library only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

BREAK = sys.argv[1].removeprefix("ACP-V1-")
AGENT = sys.argv[2:]


# As in violating_agent.py: the matrix re-runs only the modes whose clean run consulted the
# requirement (every difference a violation makes starts at a broken() that returns True).
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


# The schema requirement of each response the client gives (broken: a _meta that is no object).
RESULT_SHAPES = {
    "session/request_permission": "SCHEMA-REQUEST-PERMISSION-SHAPE",
    "fs/read_text_file": "SCHEMA-READ-TEXT-FILE-SHAPE",
    "fs/write_text_file": "SCHEMA-WRITE-TEXT-FILE-SHAPE",
    "terminal/create": "SCHEMA-TERMINAL-CREATE-SHAPE",
    "terminal/output": "SCHEMA-TERMINAL-OUTPUT-SHAPE",
    "terminal/wait_for_exit": "SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE",
    "terminal/release": "SCHEMA-TERMINAL-RELEASE-SHAPE",
    "terminal/kill": "SCHEMA-TERMINAL-KILL-SHAPE",
}
# Methods the kit's agent advertises only in its "capable" run: calling one without that is
# the first requirement's violation (the others state the same fact).
UNADVERTISED = {
    "AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY": "logout",
    "SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY": "session/resume",
    "SETUP-CLIENT-NO-CLOSE-WITHOUT-CAPABILITY": "session/close",
    "LIST-CLIENT-NO-LIST-WITHOUT-CAPABILITY": "session/list",
    "DELETE-CLIENT-NO-DELETE-WITHOUT-CAPABILITY": "session/delete",
}


def shaped(params: dict[str, Any], requirement: str) -> dict[str, Any]:
    """``params``, with a _meta that is no object when ``requirement`` is the one broken."""
    return {**params, "_meta": 5} if broken(requirement) else params


class Client:
    def __init__(self) -> None:
        # Broken: the agent's stderr read as if it were ACP, and a line there taken as fatal.
        err = subprocess.STDOUT if broken("TRANSPORT-CLIENT-STDERR-MAY") else None
        self.agent = subprocess.Popen(AGENT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        self.cancelled = False
        self.next_id = 0
        self.caps: dict[str, Any] = {}
        self.output: dict[str, str] = {}

    def write(self, raw: bytes) -> None:
        assert self.agent.stdin is not None
        self.agent.stdin.write(raw)
        self.agent.stdin.flush()

    def send(self, message: Any) -> None:
        if broken("JSONRPC-VERSION-MEMBER") and isinstance(message, dict) and "method" in message:
            message = {**message, "jsonrpc": "1.0"}
        self.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def call(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        req_id: Any = self.next_id
        if broken("JSONRPC-ID-TYPE"):
            req_id = [req_id]
        elif broken("JSONRPC-ID-NO-FRACTION"):
            req_id = req_id + 0.5
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": req_id, "method": method, "params": params}
        if broken("JSONRPC-PARAMS-STRUCTURED") and method == "session/new":
            self.send({"jsonrpc": "2.0", "method": "_kit_matrix/notice", "params": "x"})
        self.send(message)
        while True:
            line = self.read()
            if line is None:
                sys.exit(0)
            reply = self.handle_line(line)
            if reply is not None and reply.get("id") == req_id:
                return reply

    def read(self) -> bytes | None:
        assert self.agent.stdout is not None
        line = self.agent.stdout.readline()
        return line or None

    def handle_line(self, line: bytes) -> dict[str, Any] | None:
        """Handle one line from the agent; a response to one of our calls is returned."""
        try:
            value = json.loads(line)
        except ValueError:
            if line.startswith(b"kit agent:"):  # only seen when stderr is read as ACP (broken)
                sys.exit(0)
            if broken("JSONRPC-RESPONSE-REQUIRED"):
                return None
            error = {"code": -32600 if broken("SCHEMA-ERROR-OBJECT") else -32700, "message": "Parse error"}
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": None, "error": error}
            if broken("JSONRPC-RESPONSE-ID-ECHO"):
                del reply["id"]
            self.send(reply)
            return None
        if isinstance(value, list):
            self.batch(value)
            return None
        if not isinstance(value, dict):
            return None
        if "method" not in value:
            return value
        if "id" not in value and self.unsettling(value):
            sys.exit(0)  # a client that stops at what it should have ignored
        if BREAK == "KIT-SILENT":
            return None  # a client that answers no request of the agent, ever
        answer = self.answer(value)
        if answer is not None:
            self.send(answer)
        return None

    def batch(self, messages: list[Any]) -> None:
        if not messages:
            self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Empty batch"}})
            return
        owed = [a for a in (self.answer(m) for m in messages if isinstance(m, dict)) if a is not None]
        if broken("JSONRPC-NO-REPLY-TO-NOTIFICATION") and all("id" not in m for m in messages):
            owed.append({"jsonrpc": "2.0", "id": None, "result": None})
        if owed:
            self.write(json.dumps(owed, separators=(",", ":")).encode() + b"\n")

    def unsettling(self, notification: dict[str, Any]) -> bool:
        """Whether this notification stops the client: one it must ignore, when told to break
        exactly that requirement."""
        method = str(notification.get("method"))
        params = notification.get("params") if isinstance(notification.get("params"), dict) else {}
        update = params.get("update") if isinstance(params.get("update"), dict) else {}
        if broken("EXT-IGNORE-UNKNOWN-NOTIFICATIONS"):
            return method.startswith("_")
        if broken("ELIC-CLIENT-IGNORE-UNKNOWN-COMPLETE"):
            return method == "elicitation/complete"
        if broken("PROMPT-CLIENT-ACCEPT-LATE-UPDATES") and self.cancelled:
            return update.get("sessionUpdate") == "tool_call_update"
        if broken("CONFIG-CLIENT-IGNORE-UNKNOWN-TYPE") and update.get("sessionUpdate") == "config_option_update":
            return any(o.get("type") != "select" for o in update.get("configOptions") or [] if isinstance(o, dict))
        return False

    def answer(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The response to one request of the agent (None for a notification)."""
        if "id" not in request:
            return None
        method = str(request.get("method"))
        params = request.get("params") if isinstance(request.get("params"), dict) else {}
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request["id"]}
        call = params.get("toolCall") if isinstance(params.get("toolCall"), dict) else {}
        if broken("JSONRPC-RESPONSE-SAME-ID") and call.get("toolCallId") == "kit-call-1":
            reply["id"] = str(request["id"]).upper()  # the id, changed
        result = self.result(method, params)
        if result is None:
            code = -32602 if method == "elicitation/create" else -32601
            if broken("ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS") and method == "elicitation/create":
                code = -32601
            if method.startswith("_") and broken("EXT-UNKNOWN-METHOD-NOT-FOUND"):
                return {**reply, "result": {}}
            if method.startswith("_") and broken("EXT-RESPOND-TO-CUSTOM-REQUEST"):
                return None
            error: dict[str, Any] = {"code": code, "message": "Not handled"}
            if broken("JSONRPC-ERROR-CODE-INTEGER"):
                error["code"] = str(code)
            if broken("JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR"):
                del error["message"]
            if broken("JSONRPC-ERROR-MESSAGE-CONCISE"):
                error["message"] = "Not handled.\nReally not."
            if broken("JSONRPC-RESULT-ON-SUCCESS"):
                reply["result"] = None
            if broken("JSONRPC-ERROR-MEMBER-ON-ERROR"):
                return {**reply, "error": "not handled"}
            return {**reply, "error": error}
        if broken("JSONRPC-RESULT-XOR-ERROR"):
            return reply
        if broken(RESULT_SHAPES.get(method, "")):
            result = {**result, "_meta": 5}
        if broken("CANCEL-REQUEST-MUST-RESPOND") and call.get("toolCallId") == "kit-call-3":
            return {**reply, "error": {"code": -32603, "message": "Internal error"}}
        if broken("JSONRPC-ERROR-MEMBER-ON-ERROR"):
            reply["error"] = None
        return {**reply, "result": result}

    def result(self, method: str, params: dict[str, Any]) -> Any:
        if method == "session/request_permission":
            options = [o for o in params.get("options") or [] if isinstance(o, dict)]
            call = params.get("toolCall") if isinstance(params.get("toolCall"), dict) else {}
            if call.get("toolCallId") == "kit-call-5":  # the user cancels the turn instead
                self.send({"jsonrpc": "2.0", "method": "session/cancel",
                           "params": {"sessionId": params.get("sessionId")}})
                self.cancelled = True
                if not broken("PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS"):
                    return {"outcome": {"outcome": "cancelled"}}
            if not options:
                return {"outcome": {"outcome": "cancelled"}}
            return {"outcome": {"outcome": "selected", "optionId": options[0].get("optionId")}}
        if method == "fs/read_text_file":
            with open(str(params.get("path")), encoding="utf-8") as handle:
                return {"content": handle.read()}
        if method == "fs/write_text_file":
            if not broken("FS-CLIENT-CREATE-FILE"):
                with open(str(params.get("path")), "w", encoding="utf-8") as handle:
                    handle.write(str(params.get("content", "")))
            return {}
        if method == "terminal/create":
            done = subprocess.run([str(params.get("command")), *params.get("args", [])],
                                  capture_output=True, check=False)
            limit = int(params.get("outputByteLimit") or 1 << 20)
            data = done.stdout[-limit:]
            if not broken("TERM-CLIENT-TRUNCATE-AT-CHARACTER-BOUNDARY"):
                while data and (data[0] & 0xC0) == 0x80:  # never start inside a character
                    data = data[1:]
            self.output["t1"] = data.decode("utf-8", errors="replace")
            return {"terminalId": "t1"}
        if method == "terminal/output":
            return {"output": self.output.get("t1", ""), "truncated": True, "exitStatus": {"exitCode": 0}}
        if method == "terminal/wait_for_exit":
            return {"exitCode": 0}
        if method in ("terminal/release", "terminal/kill"):
            return {}
        return None

    def run(self) -> None:
        if broken("TRANSPORT-STDIO-SHOULD"):
            return  # starts the agent, but talks to it some other way (here: not at all)
        caps: dict[str, Any] = {"fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True}
        if broken("INIT-CLIENT-SPECIFY-CAPABILITIES"):
            caps = {}
        version = 2 if broken("INIT-REQUEST-LATEST-VERSION") else 1
        init: dict[str, Any] = {"protocolVersion": version, "clientCapabilities": caps,
                                "clientInfo": {"name": "violating-client", "version": "1.0.0"}}
        if broken("INIT-IMPLEMENTATION-INFO"):
            del init["clientInfo"]
        if broken("AUTH-CLIENT-NO-TERMINAL-METHOD-ID"):
            caps["auth"] = {"terminal": True}
        init = shaped(init, "SCHEMA-INITIALIZE-SHAPE")
        cwd = os.getcwd()
        if broken("INIT-CLIENT-INITIALIZE-FIRST"):
            self.call("session/new", {"cwd": cwd, "mcpServers": []})
        answer = self.call("initialize", init)
        if BREAK == "KIT-INERT":
            return  # a client that exercises nothing: initialize, then it closes the connection
        if broken("INIT-VERSION-AGREEMENT"):
            self.call("initialize", init)  # negotiates again after the agent's answer
        agreed = (answer.get("result") or {}).get("protocolVersion")
        if broken("INIT-CAPABILITIES-OPTIONAL") and "agentCapabilities" not in (answer.get("result") or {}):
            return  # a client that requires the agent's capabilities spelled out
        agent_caps = (answer.get("result") or {}).get("agentCapabilities") or {}
        if broken("EXT-META-NO-ASSUMPTIONS") and "_meta" in (answer.get("result") or {}):
            return  # a client that trusts only the _meta it knows
        if broken("INIT-SUPPORT-ALL-COMBINATIONS") and agent_caps.get("loadSession") is True:
            return  # a client that works only without the optional session methods
        if agreed != 1 and not broken("INIT-CLIENT-UNSUPPORTED-VERSION"):
            return  # an agent speaking another version: close the connection
        if broken("AUTH-CLIENT-NO-TERMINAL-METHOD-ID"):
            self.call("authenticate", {"methodId": "kit-terminal-login"})
        if broken("SCHEMA-AUTHENTICATE-SHAPE"):
            self.call("authenticate", {"methodId": "kit-login", "_meta": 5})
        new: dict[str, Any] = {"cwd": "relative/dir" if broken("SETUP-CWD-ABSOLUTE") else cwd,
                               "mcpServers": []}
        if broken("JSONRPC-PARAM-NAMES-EXACT"):
            new = {"CWD": cwd, "mcpServers": []}
        if broken("SCHEMA-MCP-SERVER-VARIANTS"):
            new["mcpServers"] = [{"name": "x", "command": "true"}]
        if broken("SETUP-CLIENT-CHECK-MCP-TRANSPORT"):
            new["mcpServers"] = [{"type": "http", "name": "x", "url": "http://127.0.0.1:9", "headers": []}]
        if broken("SETUP-CLIENT-ADDITIONAL-DIRS-ONLY-WITH-CAPABILITY"):
            new["additionalDirectories"] = [tempfile.gettempdir()]
        if broken("SCHEMA-NEW-SESSION-SHAPE"):
            new["_meta"] = 5
        if broken("EXT-NO-ROOT-CUSTOM-FIELDS"):
            new["colour"] = "blue"
        new.update(self.dirs(agent_caps))
        if broken("SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY"):
            self.call("session/load", {"sessionId": "kit-session-0", "cwd": cwd, "mcpServers": []})
        if broken("PROMPT-INIT-AND-SETUP-FIRST"):
            self.call("session/prompt", {"sessionId": "kit-session-1", "prompt": [{"type": "text", "text": "hi"}]})
        created = self.call("session/new", new).get("result") or {}
        session = created.get("sessionId")
        categories = {o.get("category") for o in created.get("configOptions") or [] if isinstance(o, dict)}
        if broken("CONFIG-CLIENT-UNKNOWN-CATEGORY") and categories - {None, "mode", "model", "thought_level"}:
            return  # a client that knows only the categories it was written for
        if created.get("modes"):
            self.modes(session)
        if broken("SCHEMA-EXTENSION-METHOD-NAMES"):
            self.send({"jsonrpc": "2.0", "method": "kit-matrix/notice", "params": {}})
        if broken("EXT-CUSTOM-REQUESTS-MAY"):
            self.call("kit-matrix/ask", {})
        if broken("JSONRPC-RPC-PREFIX-RESERVED"):
            self.send({"jsonrpc": "2.0", "method": "rpc.notice", "params": {}})
        if broken("TRANSPORT-CLIENT-STDIN-ONLY-ACP"):
            self.write(b"hello agent\n")
        if broken("TRANSPORT-UTF8"):
            self.write(b'{"jsonrpc":"2.0","method":"_kit_matrix/notice","params":{"t":"\xff"}}\n')
        if broken("TRANSPORT-STDIO-NEWLINE-DELIMITED"):
            self.write(b'{"jsonrpc":"2.0",\n"method":"_kit_matrix/notice","params":{}}\n')
        if broken("JSONRPC-ID-NOT-NULL"):
            self.send({"jsonrpc": "2.0", "id": None, "method": "_kit_matrix/ask", "params": {}})
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "hello"}]
        if broken("PROMPT-CLIENT-RESTRICT-CONTENT"):
            blocks.append({"type": "image", "mimeType": "image/png", "data": "AAAA"})
        if broken("SCHEMA-CONTENT-BLOCK-VARIANTS"):
            blocks.append({"type": "hologram"})
        prompt: dict[str, Any] = {"sessionId": session, "prompt": blocks}
        if broken("SCHEMA-PROMPT-SHAPE"):
            prompt["_meta"] = 5
        if broken("EXT-META-TRACE-KEYS-RESERVED"):
            prompt["_meta"] = {"traceparent": "not a trace"}
        if broken("OVERVIEW-ABSOLUTE-PATHS"):
            self.send({"jsonrpc": "2.0", "method": "_kit_matrix/notice", "params": {"path": "notes.md"}})
        self.call("session/prompt", prompt)
        if broken("SCHEMA-CANCEL-NOTIFICATION-SHAPE"):
            self.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session, "_meta": 5}})
        if broken("SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE"):
            self.send({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": 1, "_meta": 5}})
        advertised = agent_caps.get("sessionCapabilities") or {}
        consulted(*UNADVERTISED)
        method = UNADVERTISED.get(BREAK)
        if method is not None and method.removeprefix("session/") not in advertised:
            self.call(method, {"sessionId": session, "cwd": cwd, "mcpServers": []} if "resume" in method
                      else {} if method in ("logout", "session/list") else {"sessionId": session})
        self.sessions(session, cwd, agent_caps)
        if broken("PROMPT-CLIENT-CANCEL-MAY"):
            self.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "nobody"}})


    def modes(self, session: Any) -> None:
        """Switch mode and a config option to values the agent listed (its "extras" run)."""
        mode = "fly" if broken("MODES-SET-MODE-ID-LISTED") else "code"
        params = {"sessionId": session, "modeId": mode}
        self.call("session/set_mode", shaped(params, "SCHEMA-SET-MODE-SHAPE"))
        value = "fly" if broken("CONFIG-SET-VALUE-VALID") else "code"
        params = {"sessionId": session, "configId": "mode", "value": value}
        self.call("session/set_config_option", shaped(params, "SCHEMA-SET-CONFIG-OPTION-SHAPE"))

    def sessions(self, session: Any, cwd: str, agent_caps: dict[str, Any]) -> None:
        """The optional session methods, each used as advertised (the agent's "capable" run)."""
        advertised = agent_caps.get("sessionCapabilities") or {}
        if "list" in advertised:
            page = self.call("session/list", shaped({}, "SCHEMA-LIST-SESSIONS-SHAPE")).get("result") or {}
            cursor = page.get("nextCursor")
            if broken("LIST-CLIENT-OPAQUE-CURSOR"):
                cursor = "forged"
            if cursor is not None:
                self.call("session/list", {"cursor": cursor})
            if broken("LIST-CLIENT-MISSING-CURSOR-IS-END"):
                self.call("session/list", {"cursor": page.get("nextCursor")})
        where = "relative/dir" if broken("SETUP-LOAD-REQUEST-CONTENTS") else cwd
        if agent_caps.get("loadSession") is True:
            params = {"sessionId": session, "cwd": where, "mcpServers": [], **self.dirs(agent_caps)}
            self.call("session/load", shaped(params, "SCHEMA-LOAD-SESSION-SHAPE"))
        where = "relative/dir" if broken("SETUP-RESUME-REQUEST-CONTENTS") else cwd
        if "resume" in advertised:
            params = {"sessionId": session, "cwd": where, "mcpServers": [], **self.dirs(agent_caps)}
            self.call("session/resume", shaped(params, "SCHEMA-RESUME-SESSION-SHAPE"))
        if "close" in advertised:
            params = {"sessionId": "" if broken("SETUP-CLOSE-REQUEST") else session}
            self.call("session/close", shaped(params, "SCHEMA-CLOSE-SESSION-SHAPE"))
        if "delete" in advertised:
            self.call("session/delete", shaped({"sessionId": session}, "SCHEMA-DELETE-SESSION-SHAPE"))
        if isinstance((agent_caps.get("auth") or {}).get("logout"), dict):
            self.call("logout", shaped({}, "SCHEMA-LOGOUT-SHAPE"))

    @staticmethod
    def dirs(agent_caps: dict[str, Any]) -> dict[str, Any]:
        """additionalDirectories for a session request, when the agent advertises them."""
        if (agent_caps.get("sessionCapabilities") or {}).get("additionalDirectories") is None:
            return {}
        where = "relative/dir" if broken("SETUP-ADDITIONAL-DIRS-ABSOLUTE") else tempfile.gettempdir()
        return {"additionalDirectories": [where]}


def main() -> None:
    client = Client()
    try:
        client.run()
    finally:
        assert client.agent.stdin is not None
        client.agent.stdin.close()
        client.agent.wait(timeout=10)


if __name__ == "__main__":
    main()
