"""Headless Chromium driven through the DevTools protocol, with nothing but the standard
library: a minimal WebSocket client (RFC 6455 text frames, client-masked) over one socket.

``with Browser(path, profile_dir) as browser: page = browser.page()`` gives a :class:`Page`
with ``call(method, **params)``, ``evaluate(js)`` and the events received (console messages,
exceptions, network requests), which tests read to prove a page opened cleanly.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import signal
import socket
import struct
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Self

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-port=0",
    "--window-size=1400,900",
)
TIMEOUT = 60.0  # seconds any one step may take: a hang guard, not a budget


class WebSocket:
    def __init__(self, url: str) -> None:
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        assert match, url
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the browser closed the DevTools connection during the handshake"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, text: str) -> None:
        data = text.encode()
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exact(self, n: int) -> bytes:
        data = bytearray()
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the browser closed the DevTools connection"
            data += chunk
        return bytes(data)

    def recv(self) -> str:
        message = bytearray()
        while True:
            first, second = self._exact(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exact(8))[0]
            payload = self._exact(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("the browser closed the DevTools connection")
            if opcode in (0x9, 0xA):  # ping / pong: not part of a message
                continue
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


class Page:
    def __init__(self, url: str) -> None:
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str) -> dict[str, Any]:
        seen = [e for e in self.events if e.get("method") == method]
        while not seen:
            message = json.loads(self.ws.recv())
            self.events.append(message)
            if message.get("method") == method:
                return message
        return seen[0]

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> float:
        """Navigate to ``url``; the seconds until its load event."""
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.events.clear()  # the load event awaited is this navigation's
        start = time.perf_counter()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        return time.perf_counter() - start

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        found = []
        for e in self.events:
            params = e.get("params", {})
            if e.get("method") == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args")))
            elif e.get("method") == "Runtime.exceptionThrown":
                found.append(json.dumps(params.get("exceptionDetails")))
            elif e.get("method") == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(params["entry"].get("text", ""))
        return found

    def requests(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


class Browser:
    def __init__(self, executable: str, profile: Path) -> None:
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        assert self.process.stderr is not None
        deadline = time.monotonic() + TIMEOUT
        line = b""
        while b"DevTools listening on" not in line:
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            line = self.process.stderr.readline()
            assert line or self.process.poll() is None, "chromium exited at start"
        self.port = int(re.search(rb"127\.0\.0\.1:(\d+)/", line).group(1))  # type: ignore[union-attr]
        # Its later logging must not fill the pipe and stall it.
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        self.pages: list[Page] = []

    def page(self) -> Page:
        url = f"http://127.0.0.1:{self.port}/json/list"
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            targets = json.loads(answer.read())
        target = next(t for t in targets if t.get("type") == "page")
        page = Page(target["webSocketDebuggerUrl"])
        self.pages.append(page)
        return page

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        for page in self.pages:
            page.ws.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # its own group: every helper process
        self.process.wait(timeout=TIMEOUT)
        if self.process.stderr is not None:
            self.process.stderr.close()
