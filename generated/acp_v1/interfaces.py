# Edit templates/runtime/interfaces.py.jinja, not this file: acpgen generate writes it.
"""Typed ``Agent`` and ``Client`` interfaces: one async method per ACP method a side handles.

Subclass :class:`Agent` (or :class:`Client`) and override what your side supports. A request
you do not override answers -32601 (method not found), ``elicitation/create`` -32602 (a client
that does not override it supports no elicitation mode); a notification you do not override
is ignored. Each method takes the validated params model and returns the result model.

``Agent.initialize`` has a default: it answers the negotiated protocol version with the
class attributes ``agent_capabilities``, ``agent_info`` and ``auth_methods``, so a
minimal agent implements ``session_new`` and ``session_prompt`` only. ``on_connect`` keeps
the connection as ``self.connection``, to call the peer from the handlers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from acp_v1 import models
from acp_v1.handlers import HandlerBase, not_handled
from acp_v1.handshake import default_initialize

if TYPE_CHECKING:
    from acp_v1.connection import AgentSideConnection, ClientSideConnection

__all__ = ["Agent", "Client"]


class Agent(HandlerBase):
    """The agent side: handles the methods the schema marks ``x-side: agent``."""

    # What the default ``initialize`` advertises: override them as class attributes.
    agent_capabilities: ClassVar[models.AgentCapabilities] = models.AgentCapabilities()
    agent_info: ClassVar[models.Implementation | None] = None
    auth_methods: ClassVar[Sequence[models.AuthMethod]] = ()

    connection: AgentSideConnection
    """The connection to the client (set by ``on_connect``)."""

    def on_connect(self, connection: AgentSideConnection) -> None:
        """Called once with the connection, to call the client from your handlers;
        keeps it as ``self.connection``."""
        super().on_connect(connection)

    async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
        """Handle ``initialize``: the negotiated protocol version and this class's
        ``agent_capabilities``, ``agent_info`` and ``auth_methods``."""
        return default_initialize(self, params, models.InitializeResponse)

    async def authenticate(self, params: models.AuthenticateRequest) -> models.AuthenticateResponse:
        """Handle ``authenticate`` (request)."""
        raise not_handled("authenticate")

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        """Handle ``session/new`` (request)."""
        raise not_handled("session/new")

    async def session_load(self, params: models.LoadSessionRequest) -> models.LoadSessionResponse:
        """Handle ``session/load`` (request)."""
        raise not_handled("session/load")

    async def session_set_mode(
        self, params: models.SetSessionModeRequest
    ) -> models.SetSessionModeResponse:
        """Handle ``session/set_mode`` (request)."""
        raise not_handled("session/set_mode")

    async def session_set_config_option(
        self, params: models.SetSessionConfigOptionRequest
    ) -> models.SetSessionConfigOptionResponse:
        """Handle ``session/set_config_option`` (request)."""
        raise not_handled("session/set_config_option")

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        """Handle ``session/prompt`` (request)."""
        raise not_handled("session/prompt")

    async def session_cancel(self, params: models.CancelNotification) -> None:
        """Handle ``session/cancel`` (notification); ignored unless overridden."""

    async def session_list(self, params: models.ListSessionsRequest) -> models.ListSessionsResponse:
        """Handle ``session/list`` (request)."""
        raise not_handled("session/list")

    async def session_delete(
        self, params: models.DeleteSessionRequest
    ) -> models.DeleteSessionResponse:
        """Handle ``session/delete`` (request)."""
        raise not_handled("session/delete")

    async def session_resume(
        self, params: models.ResumeSessionRequest
    ) -> models.ResumeSessionResponse:
        """Handle ``session/resume`` (request)."""
        raise not_handled("session/resume")

    async def session_close(
        self, params: models.CloseSessionRequest
    ) -> models.CloseSessionResponse:
        """Handle ``session/close`` (request)."""
        raise not_handled("session/close")

    async def logout(self, params: models.LogoutRequest) -> models.LogoutResponse:
        """Handle ``logout`` (request)."""
        raise not_handled("logout")


class Client(HandlerBase):
    """The client side: handles the methods the schema marks ``x-side: client``."""

    connection: ClientSideConnection
    """The connection to the agent (set by ``on_connect``)."""

    def on_connect(self, connection: ClientSideConnection) -> None:
        """Called once with the connection, to call the agent from your handlers;
        keeps it as ``self.connection``."""
        super().on_connect(connection)

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        """Handle ``session/request_permission`` (request)."""
        raise not_handled("session/request_permission")

    async def session_update(self, params: models.SessionNotification) -> None:
        """Handle ``session/update`` (notification); ignored unless overridden."""

    async def fs_write_text_file(
        self, params: models.WriteTextFileRequest
    ) -> models.WriteTextFileResponse:
        """Handle ``fs/write_text_file`` (request)."""
        raise not_handled("fs/write_text_file")

    async def fs_read_text_file(
        self, params: models.ReadTextFileRequest
    ) -> models.ReadTextFileResponse:
        """Handle ``fs/read_text_file`` (request)."""
        raise not_handled("fs/read_text_file")

    async def terminal_create(
        self, params: models.CreateTerminalRequest
    ) -> models.CreateTerminalResponse:
        """Handle ``terminal/create`` (request)."""
        raise not_handled("terminal/create")

    async def terminal_output(
        self, params: models.TerminalOutputRequest
    ) -> models.TerminalOutputResponse:
        """Handle ``terminal/output`` (request)."""
        raise not_handled("terminal/output")

    async def terminal_release(
        self, params: models.ReleaseTerminalRequest
    ) -> models.ReleaseTerminalResponse:
        """Handle ``terminal/release`` (request)."""
        raise not_handled("terminal/release")

    async def terminal_wait_for_exit(
        self, params: models.WaitForTerminalExitRequest
    ) -> models.WaitForTerminalExitResponse:
        """Handle ``terminal/wait_for_exit`` (request)."""
        raise not_handled("terminal/wait_for_exit")

    async def terminal_kill(
        self, params: models.KillTerminalRequest
    ) -> models.KillTerminalResponse:
        """Handle ``terminal/kill`` (request)."""
        raise not_handled("terminal/kill")

    async def elicitation_create(
        self, params: models.CreateElicitationRequest
    ) -> models.CreateElicitationResponse:
        """Handle ``elicitation/create`` (request)."""
        raise not_handled("elicitation/create")

    async def elicitation_complete(self, params: models.CompleteElicitationNotification) -> None:
        """Handle ``elicitation/complete`` (notification); ignored unless overridden."""
