# Edit acpgen/shipped/conformance/scripted_client.py, not this file: acpgen generate writes it.
"""The kit's client: drives an agent under test over stdio, answering its requests by script.

Each scenario sets how the client behaves (what it advertised, how it answers permission,
file-system and terminal requests). Every frame in both directions lands in the transcript;
the client never validates anything itself: the checks read the transcript afterwards.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .process import Peer, PeerTimeout
from .wire import Frame

DEFER_WINDOW = 0.3  # seconds a deferred answer waits for the agent's next frame
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602


@dataclass
class ClientBehaviour:
    """How the scripted client answers the agent's requests."""

    fs_read: bool = False
    fs_write: bool = False
    terminal: bool = False
    # "allow": the first allow_* option (else the first option); "reject"; "hold": not
    # answered until the scenario answers it itself.
    permission: str = "allow"
    # The elicitation modes advertised: a form is declined, a URL elicitation accepted once
    # the agent's next frame was read (a deferred answer); any other mode gets -32602.
    elicitation: tuple[str, ...] = ()
    deferred: list[dict[str, Any]] = field(default_factory=list)
    file_text: str = "conformance kit file\n"
    held: list[Frame] = field(default_factory=list)

    def answer(self, frame: Frame) -> dict[str, Any] | None:
        """The response message for an agent request, or None to hold it."""
        method = frame.method or ""
        params = frame.get("params")
        params = params if isinstance(params, dict) else {}
        if method == "session/request_permission":
            if self.permission == "hold":
                self.held.append(frame)
                return None
            return _result(frame, {"outcome": self._permission_outcome(params)})
        if method == "fs/read_text_file" and self.fs_read:
            return _result(frame, {"content": self.file_text})
        if method == "fs/write_text_file" and self.fs_write:
            return _result(frame, {})
        if method.startswith("terminal/") and self.terminal:
            return _result(frame, _terminal_result(method))
        if method == "elicitation/create" and params.get("mode") in self.elicitation:
            if params.get("mode") == "url":
                self.deferred.append(_result(frame, {"action": "accept"}))
                return None
            return _result(frame, {"action": "decline"})
        if method == "elicitation/create":
            return _error(frame, INVALID_PARAMS, "elicitation mode not advertised")
        return _error(frame, METHOD_NOT_FOUND, f"Method not found: {method}")

    def _permission_outcome(self, params: dict[str, Any]) -> dict[str, Any]:
        options = [o for o in params.get("options") or [] if isinstance(o, dict)]
        wanted = "allow" if self.permission == "allow" else "reject"
        chosen = next((o for o in options if str(o.get("kind", "")).startswith(wanted)), None)
        chosen = chosen or (options[0] if options else None)
        if chosen is None:
            return {"outcome": "cancelled"}
        return {"outcome": "selected", "optionId": chosen.get("optionId")}


def _terminal_result(method: str) -> dict[str, Any]:
    if method == "terminal/create":
        return {"terminalId": "kit-terminal-1"}
    if method == "terminal/output":
        return {"output": "", "truncated": False, "exitStatus": {"exitCode": 0}}
    if method == "terminal/wait_for_exit":
        return {"exitCode": 0}
    return {}


def _result(request: Frame, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": result}


def _error(request: Frame, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": code, "message": message}}


class AgentDriver:
    """Requests and notifications to the agent; incoming frames handled as they arrive."""

    def __init__(self, peer: Peer, behaviour: ClientBehaviour, timeout: float) -> None:
        self.peer = peer
        self.behaviour = behaviour
        self.timeout = timeout
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self._ids)

    async def request(
        self,
        method: str,
        params: Any = None,
        *,
        req_id: Any = None,
        timeout: float | None = None,
        omit_params: bool = False,
    ) -> Frame:
        """Send a request and return the agent's response frame (PeerTimeout / PeerClosed)."""
        sent = await self.send_request(method, params, req_id=req_id, omit_params=omit_params)
        return await self.wait_response(sent, timeout, what=method)

    async def send_request(
        self, method: str, params: Any = None, *, req_id: Any = None, omit_params: bool = False
    ) -> Frame:
        message: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": self.next_id() if req_id is None else req_id,
            "method": method,
        }
        if not omit_params:
            message["params"] = params if params is not None else {}
        return await self.peer.send(message)

    async def notify(self, method: str, params: Any = None) -> Frame:
        return await self.peer.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    async def wait_response(
        self, sent: Frame, timeout: float | None = None, what: str = "request"
    ) -> Frame:
        req_id = sent.get("id")
        already = self.peer.transcript.response_to(sent)
        if already is not None:  # handled while waiting for something else
            return already
        limit = self.timeout if timeout is None else timeout
        try:
            return await self.pump(lambda f: f.is_response and _same(f.get("id"), req_id), limit)
        except PeerTimeout:
            raise PeerTimeout(f"did not answer {what} (id {req_id!r}) within {limit:g} s") from None

    async def pump(self, until: Callable[[Frame], bool], timeout: float) -> Frame:
        """Handle incoming frames until one matches ``until``; that frame is returned.

        Deferred answers go out once the agent's next frame was read (what it wrote before it
        could see them shows on the wire as such), or after DEFER_WINDOW without one."""
        deadline = time.monotonic() + timeout
        while True:
            deferred = list(self.behaviour.deferred)
            left = deadline - time.monotonic()
            try:
                frame = await self.peer.next_frame(min(left, DEFER_WINDOW) if deferred else left)
            except PeerTimeout:
                if not deferred or time.monotonic() >= deadline:
                    raise
                frame = None
            if frame is not None and frame.is_request:
                answer = self.behaviour.answer(frame)
                if answer is not None:
                    await self.peer.send(answer)
            for answer in deferred:
                self.behaviour.deferred.remove(answer)
                await self.peer.send(answer)
            if frame is not None and until(frame):
                return frame

    async def quiet(self, seconds: float) -> list[Frame]:
        """Handle whatever arrives during ``seconds``; the frames that came."""
        start = len(self.peer.transcript.frames)
        try:
            await self.pump(lambda f: False, seconds)
        except PeerTimeout:
            pass
        return [f for f in self.peer.transcript.frames[start:] if f.direction == "in"]

    async def answer_held(self, frame: Frame, result: Any) -> None:
        await self.peer.send(_result(frame, result))


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
