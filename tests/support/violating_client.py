"""An ACP client for the conformance kit's violation matrix (tests/test_conformance_matrix.py).

Run as ``python violating_client.py REQUIREMENT-ID|"" AGENT-COMMAND...``. It starts the agent,
initializes (advertising fs and terminal), opens a session, sends one prompt and answers
what the agent asks (permission, fs, terminal; -32601 for what it does not know, -32602 for
an elicitation mode it did not advertise, -32700 / -32600 for lines that are no request),
batches included, then exits once the turn ended. With an ID it breaks exactly that
requirement. Standard library only.
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


def broken(name: str) -> bool:
    return BREAK == name


class Client:
    def __init__(self) -> None:
        self.agent = subprocess.Popen(AGENT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
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
        if broken("JSONRPC-ERROR-MEMBER-ON-ERROR"):
            reply["error"] = None
        return {**reply, "result": result}

    def result(self, method: str, params: dict[str, Any]) -> Any:
        if method == "session/request_permission":
            options = [o for o in params.get("options") or [] if isinstance(o, dict)]
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
        caps: dict[str, Any] = {"fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True}
        if broken("INIT-CLIENT-SPECIFY-CAPABILITIES"):
            caps = {}
        version = 2 if broken("INIT-REQUEST-LATEST-VERSION") else 1
        init: dict[str, Any] = {"protocolVersion": version, "clientCapabilities": caps,
                                "clientInfo": {"name": "violating-client", "version": "1.0.0"}}
        if broken("INIT-IMPLEMENTATION-INFO"):
            del init["clientInfo"]
        cwd = os.getcwd()
        if broken("INIT-CLIENT-INITIALIZE-FIRST"):
            self.call("session/new", {"cwd": cwd, "mcpServers": []})
        answer = self.call("initialize", init)
        agreed = (answer.get("result") or {}).get("protocolVersion")
        if agreed != 1 and not broken("INIT-CLIENT-UNSUPPORTED-VERSION"):
            return  # an agent speaking another version: close the connection
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
        if broken("SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY"):
            self.call("session/load", {"sessionId": "kit-session-0", "cwd": cwd, "mcpServers": []})
        session = (self.call("session/new", new).get("result") or {}).get("sessionId")
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
        self.call("session/prompt", prompt)
        if broken("PROMPT-CLIENT-CANCEL-MAY"):
            self.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "nobody"}})


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
