# Edit templates/runtime/connection.py.jinja, not this file: acpgen generate writes it.
"""Typed ACP connections: :class:`AgentSideConnection` (dispatches to an ``Agent``, calls
the client) and :class:`ClientSideConnection` (dispatches to a ``Client``, calls the agent).

Each typed call takes its params model, or the model's members as keyword arguments
(``await connection.session_update(session_id=sid, update=...)``; an optional member left
out or given as None is omitted). Everything else an end does (dispatch, version negotiation,
cancellation, validation, leniency, the capability guards) is the shipped ``sides.py``.
"""

# The typed calls return what the runtime validated into their route's result model (Any to mypy).
# mypy: no-warn-return-any

from __future__ import annotations

from typing import Annotated, Any, overload

from pydantic import Field

from acp_v2 import models
from acp_v2.sides import (
    AGENT_ROUTES,
    CLIENT_ROUTES,
    AgentEnd,
    ClientEnd,
    Route,
    from_peer,
    from_wire,
    to_wire,
)

__all__ = [
    "AGENT_ROUTES",
    "CLIENT_ROUTES",
    "AgentSideConnection",
    "ClientSideConnection",
    "Route",
    "from_peer",
    "from_wire",
    "to_wire",
]


class AgentSideConnection(AgentEnd):
    """The agent's end: dispatches to an :class:`Agent`, calls the client."""

    @overload
    async def session_request_permission(
        self, params: models.RequestPermissionRequest, /
    ) -> models.RequestPermissionResponse: ...

    @overload
    async def session_request_permission(
        self,
        /,
        *,
        session_id: models.SessionId,
        title: models.StrictStr,
        description: models.StrictStr | None = None,
        subject: models.RequestPermissionSubject | None = None,
        options: Annotated[list[models.PermissionOption], Field(min_length=1)],
        field_meta: dict[str, Any] | None = None,
    ) -> models.RequestPermissionResponse: ...

    async def session_request_permission(
        self, params: models.RequestPermissionRequest | None = None, /, **fields: Any
    ) -> models.RequestPermissionResponse:
        """Send ``session/request_permission`` (request) to the client: a params model, or its members as keywords."""
        return await self.send_request("session/request_permission", params, fields)

    @overload
    async def session_update(self, params: models.UpdateSessionNotification, /) -> None: ...

    @overload
    async def session_update(
        self,
        /,
        *,
        session_id: models.SessionId,
        update: models.SessionUpdate,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def session_update(
        self, params: models.UpdateSessionNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``session/update`` (notification) to the client: a params model, or its members as keywords."""
        await self.send_notification("session/update", params, fields)

    async def elicitation_create(
        self, params: models.CreateElicitationRequest
    ) -> models.CreateElicitationResponse:
        """Send ``elicitation/create`` (request) to the client."""
        return await self.send_request("elicitation/create", params)

    @overload
    async def elicitation_complete(
        self, params: models.CompleteElicitationNotification, /
    ) -> None: ...

    @overload
    async def elicitation_complete(
        self,
        /,
        *,
        elicitation_id: models.ElicitationId,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def elicitation_complete(
        self, params: models.CompleteElicitationNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``elicitation/complete`` (notification) to the client: a params model, or its members as keywords."""
        await self.send_notification("elicitation/complete", params, fields)


class ClientSideConnection(ClientEnd):
    """The client's end: dispatches to a :class:`Client`, calls the agent."""

    @overload
    async def initialize(
        self, params: models.InitializeRequest, /
    ) -> models.InitializeResponse: ...

    @overload
    async def initialize(
        self,
        /,
        *,
        protocol_version: models.ProtocolVersion,
        info: models.Implementation,
        capabilities: models.ClientCapabilities | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.InitializeResponse: ...

    async def initialize(
        self, params: models.InitializeRequest | None = None, /, **fields: Any
    ) -> models.InitializeResponse:
        """Send ``initialize`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("initialize", params, fields)

    @overload
    async def auth_login(self, params: models.LoginAuthRequest, /) -> models.LoginAuthResponse: ...

    @overload
    async def auth_login(
        self,
        /,
        *,
        method_id: models.AuthMethodId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.LoginAuthResponse: ...

    async def auth_login(
        self, params: models.LoginAuthRequest | None = None, /, **fields: Any
    ) -> models.LoginAuthResponse:
        """Send ``auth/login`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("auth/login", params, fields)

    @overload
    async def session_new(
        self, params: models.NewSessionRequest, /
    ) -> models.NewSessionResponse: ...

    @overload
    async def session_new(
        self,
        /,
        *,
        cwd: models.AbsolutePath,
        additional_directories: list[models.AbsolutePath] | None = None,
        mcp_servers: list[models.McpServer] | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.NewSessionResponse: ...

    async def session_new(
        self, params: models.NewSessionRequest | None = None, /, **fields: Any
    ) -> models.NewSessionResponse:
        """Send ``session/new`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/new", params, fields)

    async def session_set_config_option(
        self, params: models.SetSessionConfigOptionRequest
    ) -> models.SetSessionConfigOptionResponse:
        """Send ``session/set_config_option`` (request) to the agent."""
        return await self.send_request("session/set_config_option", params)

    @overload
    async def session_prompt(self, params: models.PromptRequest, /) -> models.PromptResponse: ...

    @overload
    async def session_prompt(
        self,
        /,
        *,
        session_id: models.SessionId,
        prompt: list[models.ContentBlock],
        field_meta: dict[str, Any] | None = None,
    ) -> models.PromptResponse: ...

    async def session_prompt(
        self, params: models.PromptRequest | None = None, /, **fields: Any
    ) -> models.PromptResponse:
        """Send ``session/prompt`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/prompt", params, fields)

    @overload
    async def session_cancel(self, params: models.CancelSessionNotification, /) -> None: ...

    @overload
    async def session_cancel(
        self,
        /,
        *,
        session_id: models.SessionId,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def session_cancel(
        self, params: models.CancelSessionNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``session/cancel`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("session/cancel", params, fields)

    @overload
    async def session_list(
        self, params: models.ListSessionsRequest, /
    ) -> models.ListSessionsResponse: ...

    @overload
    async def session_list(
        self,
        /,
        *,
        cwd: models.AbsolutePath | None = None,
        cursor: models.SessionListCursor | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.ListSessionsResponse: ...

    async def session_list(
        self, params: models.ListSessionsRequest | None = None, /, **fields: Any
    ) -> models.ListSessionsResponse:
        """Send ``session/list`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/list", params, fields)

    @overload
    async def session_delete(
        self, params: models.DeleteSessionRequest, /
    ) -> models.DeleteSessionResponse: ...

    @overload
    async def session_delete(
        self,
        /,
        *,
        session_id: models.SessionId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.DeleteSessionResponse: ...

    async def session_delete(
        self, params: models.DeleteSessionRequest | None = None, /, **fields: Any
    ) -> models.DeleteSessionResponse:
        """Send ``session/delete`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/delete", params, fields)

    @overload
    async def session_resume(
        self, params: models.ResumeSessionRequest, /
    ) -> models.ResumeSessionResponse: ...

    @overload
    async def session_resume(
        self,
        /,
        *,
        session_id: models.SessionId,
        cwd: models.AbsolutePath,
        additional_directories: list[models.AbsolutePath] | None = None,
        mcp_servers: list[models.McpServer] | None = None,
        replay_from: models.ReplayFrom | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.ResumeSessionResponse: ...

    async def session_resume(
        self, params: models.ResumeSessionRequest | None = None, /, **fields: Any
    ) -> models.ResumeSessionResponse:
        """Send ``session/resume`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/resume", params, fields)

    @overload
    async def session_close(
        self, params: models.CloseSessionRequest, /
    ) -> models.CloseSessionResponse: ...

    @overload
    async def session_close(
        self,
        /,
        *,
        session_id: models.SessionId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.CloseSessionResponse: ...

    async def session_close(
        self, params: models.CloseSessionRequest | None = None, /, **fields: Any
    ) -> models.CloseSessionResponse:
        """Send ``session/close`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/close", params, fields)

    @overload
    async def auth_logout(
        self, params: models.LogoutAuthRequest, /
    ) -> models.LogoutAuthResponse: ...

    @overload
    async def auth_logout(
        self,
        /,
        *,
        field_meta: dict[str, Any] | None = None,
    ) -> models.LogoutAuthResponse: ...

    async def auth_logout(
        self, params: models.LogoutAuthRequest | None = None, /, **fields: Any
    ) -> models.LogoutAuthResponse:
        """Send ``auth/logout`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("auth/logout", params, fields)
