# Edit acpgen/shipped/runtime/runtime_tests/raising_agent.py, not this file: acpgen generate writes it.
"""An agent whose handlers raise the package's errors: ``python -m runtime_tests.raising_agent``.

Copied verbatim into every generated project by acpgen. ``session/new`` raises by its ``cwd``
(``/invalid-params``, ``/method-not-found``, ``/auth``, ``/resource``, ``/cancelled``,
``/boom``; any other: -32000 Authentication required) so that ``test_wire_errors.py`` can
check, over a real stdio pipe, that each error class is answered with its code.
"""

from __future__ import annotations

import asyncio

from ._package import Agent, errors, methods, models, run_agent

RAISES: dict[str, Exception] = {
    "/invalid-params": methods.InvalidParamsError(
        "cwd is not served here", {"cwd": "/invalid-params"}
    ),
    "/method-not-found": methods.MethodNotFoundError(),
    "/auth": errors.AuthenticationRequiredError(),
    "/resource": errors.ResourceNotFoundError(),
    "/cancelled": errors.RequestCancelledError(),
    "/boom": RuntimeError("boom"),
}


class RaisingAgent(Agent):
    async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
        return models.InitializeResponse.model_validate(
            {"protocolVersion": params.protocol_version}
        )

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        raise RAISES.get(str(params.cwd), errors.AuthenticationRequiredError())


if __name__ == "__main__":
    asyncio.run(run_agent(RaisingAgent()))
