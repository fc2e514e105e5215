# Edit acpgen/shipped/runtime/runtime_tests/test_wire_errors.py, not this file: acpgen generate writes it.
"""The one error hierarchy on the wire: a handler's error is answered with its class's code.

Copied verbatim into every generated project by acpgen. The errors ``methods`` exports are
the runtime's own (``errors.py``), so raising ``methods.InvalidParamsError`` in a handler is
answered -32602, over a real stdio pipe to a spawned agent (``raising_agent.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ._package import errors, methods, rpc
from .helpers import subprocess_env

req = pytest.mark.acp_requirement

EXPECTED = {
    "/invalid-params": -32602,
    "/method-not-found": -32601,
    "/auth": -32000,
    "/resource": -32002,
    "/cancelled": -32800,
    "/boom": -32603,
}


def test_the_package_has_one_error_hierarchy() -> None:
    assert methods.InvalidParamsError is errors.InvalidParamsError
    assert methods.MethodNotFoundError is errors.MethodNotFoundError
    assert methods.InvalidRequestError is errors.InvalidRequestError
    assert methods.JsonRpcError is errors.RpcError is rpc.RpcError
    assert (methods.INVALID_PARAMS, methods.METHOD_NOT_FOUND) == (errors.INVALID_PARAMS, -32601)


@req(
    "ACP-V1-SCHEMA-ERROR-OBJECT",
    "ACP-V1-JSONRPC-ERROR-CODE-INTEGER",
    "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR",
)
def test_each_error_a_handler_raises_is_answered_with_its_code_over_stdio() -> None:
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}}]
    lines += [
        {
            "jsonrpc": "2.0",
            "id": cwd,
            "method": "session/new",
            "params": {"cwd": cwd, "mcpServers": []},
        }
        for cwd in EXPECTED
    ]
    done = subprocess.run(
        [sys.executable, "-m", f"{__package__}.raising_agent"],
        input=b"".join(json.dumps(line).encode() + b"\n" for line in lines),
        capture_output=True,
        env=subprocess_env(),
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    replies = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert replies[0]["result"]["protocolVersion"] == 1
    assert {cwd: replies[cwd]["error"]["code"] for cwd in EXPECTED} == EXPECTED
    assert replies["/invalid-params"]["error"] == {
        "code": -32602,
        "message": "cwd is not served here",
        "data": {"cwd": "/invalid-params"},
    }
