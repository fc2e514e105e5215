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

from acp_v2_unstable import models
from acp_v2_unstable.sides import (
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

    async def mcp_message(self, params: models.MessageMcpRequest) -> models.MessageMcpResponse:
        """Send ``mcp/message`` (request) to the client."""
        return await self.send_request("mcp/message", params)

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

    @overload
    async def mcp_connect(
        self, params: models.ConnectMcpRequest, /
    ) -> models.ConnectMcpResponse: ...

    @overload
    async def mcp_connect(
        self,
        /,
        *,
        server_id: models.McpServerAcpId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.ConnectMcpResponse: ...

    async def mcp_connect(
        self, params: models.ConnectMcpRequest | None = None, /, **fields: Any
    ) -> models.ConnectMcpResponse:
        """Send ``mcp/connect`` (request) to the client: a params model, or its members as keywords."""
        return await self.send_request("mcp/connect", params, fields)

    @overload
    async def mcp_disconnect(
        self, params: models.DisconnectMcpRequest, /
    ) -> models.DisconnectMcpResponse: ...

    @overload
    async def mcp_disconnect(
        self,
        /,
        *,
        connection_id: models.McpConnectionId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.DisconnectMcpResponse: ...

    async def mcp_disconnect(
        self, params: models.DisconnectMcpRequest | None = None, /, **fields: Any
    ) -> models.DisconnectMcpResponse:
        """Send ``mcp/disconnect`` (request) to the client: a params model, or its members as keywords."""
        return await self.send_request("mcp/disconnect", params, fields)

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
    async def providers_list(
        self, params: models.ListProvidersRequest, /
    ) -> models.ListProvidersResponse: ...

    @overload
    async def providers_list(
        self,
        /,
        *,
        field_meta: dict[str, Any] | None = None,
    ) -> models.ListProvidersResponse: ...

    async def providers_list(
        self, params: models.ListProvidersRequest | None = None, /, **fields: Any
    ) -> models.ListProvidersResponse:
        """Send ``providers/list`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("providers/list", params, fields)

    @overload
    async def providers_set(
        self, params: models.SetProviderRequest, /
    ) -> models.SetProviderResponse: ...

    @overload
    async def providers_set(
        self,
        /,
        *,
        provider_id: models.ProviderId,
        api_type: models.LlmProtocol,
        base_url: models.StrictStr,
        headers: dict[str, models.StrictStr] | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.SetProviderResponse: ...

    async def providers_set(
        self, params: models.SetProviderRequest | None = None, /, **fields: Any
    ) -> models.SetProviderResponse:
        """Send ``providers/set`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("providers/set", params, fields)

    @overload
    async def providers_disable(
        self, params: models.DisableProviderRequest, /
    ) -> models.DisableProviderResponse: ...

    @overload
    async def providers_disable(
        self,
        /,
        *,
        provider_id: models.ProviderId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.DisableProviderResponse: ...

    async def providers_disable(
        self, params: models.DisableProviderRequest | None = None, /, **fields: Any
    ) -> models.DisableProviderResponse:
        """Send ``providers/disable`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("providers/disable", params, fields)

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

    async def mcp_message(self, params: models.MessageMcpRequest) -> models.MessageMcpResponse:
        """Send ``mcp/message`` (request) to the agent."""
        return await self.send_request("mcp/message", params)

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
    async def session_fork(
        self, params: models.ForkSessionRequest, /
    ) -> models.ForkSessionResponse: ...

    @overload
    async def session_fork(
        self,
        /,
        *,
        session_id: models.SessionId,
        cwd: models.AbsolutePath,
        additional_directories: list[models.AbsolutePath] | None = None,
        mcp_servers: list[models.McpServer] | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.ForkSessionResponse: ...

    async def session_fork(
        self, params: models.ForkSessionRequest | None = None, /, **fields: Any
    ) -> models.ForkSessionResponse:
        """Send ``session/fork`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("session/fork", params, fields)

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

    @overload
    async def nes_start(self, params: models.StartNesRequest, /) -> models.StartNesResponse: ...

    @overload
    async def nes_start(
        self,
        /,
        *,
        workspace_uri: models.StrictStr | None = None,
        workspace_folders: list[models.WorkspaceFolder] | None = None,
        repository: models.NesRepository | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.StartNesResponse: ...

    async def nes_start(
        self, params: models.StartNesRequest | None = None, /, **fields: Any
    ) -> models.StartNesResponse:
        """Send ``nes/start`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("nes/start", params, fields)

    @overload
    async def nes_suggest(
        self, params: models.SuggestNesRequest, /
    ) -> models.SuggestNesResponse: ...

    @overload
    async def nes_suggest(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        version: models.Int64,
        position: models.Position,
        selection: models.Range | None = None,
        trigger_kind: models.NesTriggerKind,
        context: models.NesSuggestContext | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> models.SuggestNesResponse: ...

    async def nes_suggest(
        self, params: models.SuggestNesRequest | None = None, /, **fields: Any
    ) -> models.SuggestNesResponse:
        """Send ``nes/suggest`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("nes/suggest", params, fields)

    @overload
    async def nes_accept(self, params: models.AcceptNesNotification, /) -> None: ...

    @overload
    async def nes_accept(
        self,
        /,
        *,
        session_id: models.SessionId,
        suggestion_id: models.NesSuggestionId,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def nes_accept(
        self, params: models.AcceptNesNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``nes/accept`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("nes/accept", params, fields)

    @overload
    async def nes_reject(self, params: models.RejectNesNotification, /) -> None: ...

    @overload
    async def nes_reject(
        self,
        /,
        *,
        session_id: models.SessionId,
        suggestion_id: models.NesSuggestionId,
        reason: models.NesRejectReason | None = None,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def nes_reject(
        self, params: models.RejectNesNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``nes/reject`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("nes/reject", params, fields)

    @overload
    async def nes_close(self, params: models.CloseNesRequest, /) -> models.CloseNesResponse: ...

    @overload
    async def nes_close(
        self,
        /,
        *,
        session_id: models.SessionId,
        field_meta: dict[str, Any] | None = None,
    ) -> models.CloseNesResponse: ...

    async def nes_close(
        self, params: models.CloseNesRequest | None = None, /, **fields: Any
    ) -> models.CloseNesResponse:
        """Send ``nes/close`` (request) to the agent: a params model, or its members as keywords."""
        return await self.send_request("nes/close", params, fields)

    @overload
    async def document_did_open(self, params: models.DidOpenDocumentNotification, /) -> None: ...

    @overload
    async def document_did_open(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        language_id: models.StrictStr,
        version: models.Int64,
        text: models.StrictStr,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def document_did_open(
        self, params: models.DidOpenDocumentNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``document/didOpen`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("document/didOpen", params, fields)

    @overload
    async def document_did_change(
        self, params: models.DidChangeDocumentNotification, /
    ) -> None: ...

    @overload
    async def document_did_change(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        version: models.Int64,
        content_changes: list[models.TextDocumentContentChangeEvent],
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def document_did_change(
        self, params: models.DidChangeDocumentNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``document/didChange`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("document/didChange", params, fields)

    @overload
    async def document_did_close(self, params: models.DidCloseDocumentNotification, /) -> None: ...

    @overload
    async def document_did_close(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def document_did_close(
        self, params: models.DidCloseDocumentNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``document/didClose`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("document/didClose", params, fields)

    @overload
    async def document_did_save(self, params: models.DidSaveDocumentNotification, /) -> None: ...

    @overload
    async def document_did_save(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def document_did_save(
        self, params: models.DidSaveDocumentNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``document/didSave`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("document/didSave", params, fields)

    @overload
    async def document_did_focus(self, params: models.DidFocusDocumentNotification, /) -> None: ...

    @overload
    async def document_did_focus(
        self,
        /,
        *,
        session_id: models.SessionId,
        uri: models.StrictStr,
        version: models.Int64,
        position: models.Position,
        visible_range: models.Range,
        field_meta: dict[str, Any] | None = None,
    ) -> None: ...

    async def document_did_focus(
        self, params: models.DidFocusDocumentNotification | None = None, /, **fields: Any
    ) -> None:
        """Send ``document/didFocus`` (notification) to the agent: a params model, or its members as keywords."""
        await self.send_notification("document/didFocus", params, fields)
