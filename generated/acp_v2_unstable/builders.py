# Edit templates/builders/builders.py.jinja, not this file: acpgen generate writes it.
"""Typed builders: one function per branch of every tagged union of the schema.

Each builder is named after its branch's tag and takes the branch's members as keyword
arguments; the tag is filled in, and an optional member left out (or given as None) is
omitted. A tag two unions share is qualified by its union (``terminal_tool_call_content``).

    from acp_v2_unstable import builders

    update = builders.agent_message_chunk(content=builders.text(text="Hello"))
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from acp_v2_unstable import models
from acp_v2_unstable.building import given as _given

__all__ = [
    "accept",
    "acp",
    "add",
    "agent",
    "agent_message",
    "agent_message_chunk",
    "agent_thought",
    "agent_thought_chunk",
    "array",
    "audio",
    "available_commands_update",
    "boolean_elicitation_property_schema",
    "boolean_session_config_option",
    "boolean_set_session_config_option_request",
    "cancel",
    "cancelled",
    "command",
    "compaction_summary_chunk",
    "compaction_update",
    "config_option_update",
    "content",
    "copy_",
    "decline",
    "delete",
    "diff",
    "edit",
    "file",
    "form_request",
    "form_session",
    "http",
    "id",
    "idle",
    "image",
    "integer",
    "items",
    "jump",
    "markdown",
    "modify",
    "move",
    "number",
    "plan_removed",
    "plan_update",
    "rename",
    "requires_action",
    "resource",
    "resource_link",
    "running",
    "search_and_replace",
    "select",
    "selected",
    "session_info_update",
    "start",
    "state_update_idle",
    "state_update_other",
    "state_update_requires_action",
    "state_update_running",
    "stdio",
    "string_elicitation_property_schema",
    "string_multi_select_items",
    "terminal_auth_method",
    "terminal_output_chunk",
    "terminal_tool_call_content",
    "terminal_update",
    "text_available_command_input",
    "text_content_block",
    "titled_multi_select_items",
    "tool_call",
    "tool_call_content_chunk",
    "tool_call_update",
    "url_request",
    "url_session",
    "usage_update",
    "user_message",
    "user_message_chunk",
]


def accept(
    *,
    content: dict[str, models.ElicitationContentValue] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationResponseAccept:
    """``CreateElicitationResponse`` branch ``action: accept`` (``CreateElicitationResponseAccept``)."""
    return models.CreateElicitationResponseAccept(
        **_given(
            content=content,
            field_meta=field_meta,
        ),
    )


def acp(
    *,
    name: models.StrictStr,
    server_id: models.McpServerAcpId,
    field_meta: dict[str, Any] | None = None,
) -> models.AcpMcpServer:
    """``McpServer`` branch ``type: acp`` (``AcpMcpServer``)."""
    return models.AcpMcpServer(
        name=name,
        server_id=server_id,
        **_given(
            field_meta=field_meta,
        ),
    )


def add(
    *,
    path: models.AbsolutePath,
    file_type: models.DiffFileType | None = None,
    mime_type: models.MediaType | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.DiffChangeAdd:
    """``DiffChange`` branch ``operation: add`` (``DiffChangeAdd``)."""
    return models.DiffChangeAdd(
        path=path,
        **_given(
            file_type=file_type,
            mime_type=mime_type,
            field_meta=field_meta,
        ),
    )


def agent(
    *,
    method_id: models.AuthMethodId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.AgentAuthMethod:
    """``AuthMethod`` branch ``type: agent`` (``AgentAuthMethod``)."""
    return models.AgentAuthMethod(
        method_id=method_id,
        name=name,
        **_given(
            description=description,
            field_meta=field_meta,
        ),
    )


def agent_message(
    *,
    message_id: models.MessageId,
    content: list[models.ContentBlock] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentMessage:
    """``SessionUpdate`` branch ``sessionUpdate: agent_message`` (``SessionUpdateAgentMessage``)."""
    return models.SessionUpdateAgentMessage(
        message_id=message_id,
        **_given(
            content=content,
            field_meta=field_meta,
        ),
    )


def agent_message_chunk(
    *,
    message_id: models.MessageId,
    content: models.ContentBlock,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentMessageChunk:
    """``SessionUpdate`` branch ``sessionUpdate: agent_message_chunk`` (``SessionUpdateAgentMessageChunk``)."""
    return models.SessionUpdateAgentMessageChunk(
        message_id=message_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def agent_thought(
    *,
    message_id: models.MessageId,
    content: list[models.ContentBlock] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentThought:
    """``SessionUpdate`` branch ``sessionUpdate: agent_thought`` (``SessionUpdateAgentThought``)."""
    return models.SessionUpdateAgentThought(
        message_id=message_id,
        **_given(
            content=content,
            field_meta=field_meta,
        ),
    )


def agent_thought_chunk(
    *,
    message_id: models.MessageId,
    content: models.ContentBlock,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentThoughtChunk:
    """``SessionUpdate`` branch ``sessionUpdate: agent_thought_chunk`` (``SessionUpdateAgentThoughtChunk``)."""
    return models.SessionUpdateAgentThoughtChunk(
        message_id=message_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def array(
    *,
    items: models.MultiSelectItems,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    min_items: models.Uint64 | None = None,
    max_items: models.Uint64 | None = None,
    default: list[models.StrictStr] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ElicitationPropertySchemaArray:
    """``ElicitationPropertySchema`` branch ``type: array`` (``ElicitationPropertySchemaArray``)."""
    return models.ElicitationPropertySchemaArray(
        items=items,
        **_given(
            title=title,
            description=description,
            min_items=min_items,
            max_items=max_items,
            default=default,
            field_meta=field_meta,
        ),
    )


def audio(
    *,
    data: models.StrictStr,
    mime_type: models.MediaType,
    annotations: models.Annotations | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockAudio:
    """``ContentBlock`` branch ``type: audio`` (``ContentBlockAudio``)."""
    return models.ContentBlockAudio(
        data=data,
        mime_type=mime_type,
        **_given(
            annotations=annotations,
            field_meta=field_meta,
        ),
    )


def available_commands_update(
    *,
    available_commands: list[models.AvailableCommand],
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAvailableCommandsUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: available_commands_update`` (``SessionUpdateAvailableCommandsUpdate``)."""
    return models.SessionUpdateAvailableCommandsUpdate(
        available_commands=available_commands,
        **_given(
            field_meta=field_meta,
        ),
    )


def boolean_elicitation_property_schema(
    *,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    default: models.StrictBool | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ElicitationPropertySchemaBoolean:
    """``ElicitationPropertySchema`` branch ``type: boolean`` (``ElicitationPropertySchemaBoolean``)."""
    return models.ElicitationPropertySchemaBoolean(
        **_given(
            title=title,
            description=description,
            default=default,
            field_meta=field_meta,
        ),
    )


def boolean_session_config_option(
    *,
    current_value: models.StrictBool,
    config_id: models.SessionConfigId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    category: models.SessionConfigOptionCategory | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionConfigOptionBoolean:
    """``SessionConfigOption`` branch ``type: boolean`` (``SessionConfigOptionBoolean``)."""
    return models.SessionConfigOptionBoolean(
        current_value=current_value,
        config_id=config_id,
        name=name,
        **_given(
            description=description,
            category=category,
            field_meta=field_meta,
        ),
    )


def boolean_set_session_config_option_request(
    *,
    session_id: models.SessionId,
    config_id: models.SessionConfigId,
    value: models.StrictBool,
    field_meta: dict[str, Any] | None = None,
) -> models.SetSessionConfigOptionRequestBoolean:
    """``SetSessionConfigOptionRequest`` branch ``type: boolean`` (``SetSessionConfigOptionRequestBoolean``)."""
    return models.SetSessionConfigOptionRequestBoolean(
        session_id=session_id,
        config_id=config_id,
        value=value,
        **_given(
            field_meta=field_meta,
        ),
    )


def cancel(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationResponseCancel:
    """``CreateElicitationResponse`` branch ``action: cancel`` (``CreateElicitationResponseCancel``)."""
    return models.CreateElicitationResponseCancel(
        **_given(
            field_meta=field_meta,
        ),
    )


def cancelled() -> models.RequestPermissionOutcomeCancelled:
    """``RequestPermissionOutcome`` branch ``outcome: cancelled`` (``RequestPermissionOutcomeCancelled``)."""
    return models.RequestPermissionOutcomeCancelled()


def command(
    *,
    command: models.StrictStr,
    cwd: models.AbsolutePath,
    tool_call_id: models.ToolCallId | None = None,
    terminal_id: models.TerminalId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.RequestPermissionSubjectCommand:
    """``RequestPermissionSubject`` branch ``type: command`` (``RequestPermissionSubjectCommand``)."""
    return models.RequestPermissionSubjectCommand(
        command=command,
        cwd=cwd,
        **_given(
            tool_call_id=tool_call_id,
            terminal_id=terminal_id,
            field_meta=field_meta,
        ),
    )


def compaction_summary_chunk(
    *,
    compaction_id: models.CompactionId,
    content: models.ContentBlock,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateCompactionSummaryChunk:
    """``SessionUpdate`` branch ``sessionUpdate: compaction_summary_chunk`` (``SessionUpdateCompactionSummaryChunk``)."""
    return models.SessionUpdateCompactionSummaryChunk(
        compaction_id=compaction_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def compaction_update(
    *,
    compaction_id: models.CompactionId,
    status: models.CompactionStatus,
    summary: list[models.ContentBlock] | None = None,
    error: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateCompactionUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: compaction_update`` (``SessionUpdateCompactionUpdate``)."""
    return models.SessionUpdateCompactionUpdate(
        compaction_id=compaction_id,
        status=status,
        **_given(
            summary=summary,
            error=error,
            field_meta=field_meta,
        ),
    )


def config_option_update(
    *,
    config_options: list[models.SessionConfigOption],
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateConfigOptionUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: config_option_update`` (``SessionUpdateConfigOptionUpdate``)."""
    return models.SessionUpdateConfigOptionUpdate(
        config_options=config_options,
        **_given(
            field_meta=field_meta,
        ),
    )


def content(
    *,
    content: models.ContentBlock,
    field_meta: dict[str, Any] | None = None,
) -> models.ToolCallContentContent:
    """``ToolCallContent`` branch ``type: content`` (``ToolCallContentContent``)."""
    return models.ToolCallContentContent(
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def copy_(
    *,
    old_path: models.AbsolutePath,
    path: models.AbsolutePath,
    file_type: models.DiffFileType | None = None,
    mime_type: models.MediaType | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.DiffChangeCopy:
    """``DiffChange`` branch ``operation: copy`` (``DiffChangeCopy``)."""
    return models.DiffChangeCopy(
        old_path=old_path,
        path=path,
        **_given(
            file_type=file_type,
            mime_type=mime_type,
            field_meta=field_meta,
        ),
    )


def decline(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationResponseDecline:
    """``CreateElicitationResponse`` branch ``action: decline`` (``CreateElicitationResponseDecline``)."""
    return models.CreateElicitationResponseDecline(
        **_given(
            field_meta=field_meta,
        ),
    )


def delete(
    *,
    path: models.AbsolutePath,
    file_type: models.DiffFileType | None = None,
    mime_type: models.MediaType | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.DiffChangeDelete:
    """``DiffChange`` branch ``operation: delete`` (``DiffChangeDelete``)."""
    return models.DiffChangeDelete(
        path=path,
        **_given(
            file_type=file_type,
            mime_type=mime_type,
            field_meta=field_meta,
        ),
    )


def diff(
    *,
    changes: list[models.DiffChange],
    patch: models.DiffPatch | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ToolCallContentDiff:
    """``ToolCallContent`` branch ``type: diff`` (``ToolCallContentDiff``)."""
    return models.ToolCallContentDiff(
        changes=changes,
        **_given(
            patch=patch,
            field_meta=field_meta,
        ),
    )


def edit(
    *,
    suggestion_id: models.NesSuggestionId,
    uri: models.StrictStr,
    edits: Annotated[list[models.NesTextEdit], Field(min_length=1)],
    cursor_position: models.Position | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionEdit:
    """``NesSuggestion`` branch ``kind: edit`` (``NesSuggestionEdit``)."""
    return models.NesSuggestionEdit(
        suggestion_id=suggestion_id,
        uri=uri,
        edits=edits,
        **_given(
            cursor_position=cursor_position,
            field_meta=field_meta,
        ),
    )


def file(
    *,
    plan_id: models.PlanId,
    uri: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.PlanUpdateContentFile:
    """``PlanUpdateContent`` branch ``type: file`` (``PlanUpdateContentFile``)."""
    return models.PlanUpdateContentFile(
        plan_id=plan_id,
        uri=uri,
        **_given(
            field_meta=field_meta,
        ),
    )


def form_request(
    *,
    request_id: models.RequestId,
    requested_schema: models.ElicitationSchema,
    message: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationRequestFormRequest:
    """``CreateElicitationRequest`` branch ``mode: form`` (``CreateElicitationRequestFormRequest``)."""
    return models.CreateElicitationRequestFormRequest(
        request_id=request_id,
        requested_schema=requested_schema,
        message=message,
        **_given(
            field_meta=field_meta,
        ),
    )


def form_session(
    *,
    session_id: models.SessionId,
    requested_schema: models.ElicitationSchema,
    message: models.StrictStr,
    tool_call_id: models.ToolCallId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationRequestFormSession:
    """``CreateElicitationRequest`` branch ``mode: form`` (``CreateElicitationRequestFormSession``)."""
    return models.CreateElicitationRequestFormSession(
        session_id=session_id,
        requested_schema=requested_schema,
        message=message,
        **_given(
            tool_call_id=tool_call_id,
            field_meta=field_meta,
        ),
    )


def http(
    *,
    name: models.StrictStr,
    url: models.StrictStr,
    headers: list[models.HttpHeader] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.HttpMcpServer:
    """``McpServer`` branch ``type: http`` (``HttpMcpServer``)."""
    return models.HttpMcpServer(
        name=name,
        url=url,
        **_given(
            headers=headers,
            field_meta=field_meta,
        ),
    )


def id(
    *,
    session_id: models.SessionId,
    config_id: models.SessionConfigId,
    value: models.SessionConfigValueId,
    field_meta: dict[str, Any] | None = None,
) -> models.SetSessionConfigOptionRequestId:
    """``SetSessionConfigOptionRequest`` branch ``type: id`` (``SetSessionConfigOptionRequestId``)."""
    return models.SetSessionConfigOptionRequestId(
        session_id=session_id,
        config_id=config_id,
        value=value,
        **_given(
            field_meta=field_meta,
        ),
    )


def idle(
    *,
    stop_reason: models.StopReason | None = None,
    usage: models.Usage | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.StateUpdateIdle:
    """``StateUpdate`` branch ``state: idle`` (``StateUpdateIdle``)."""
    return models.StateUpdateIdle(
        **_given(
            stop_reason=stop_reason,
            usage=usage,
            field_meta=field_meta,
        ),
    )


def image(
    *,
    data: models.StrictStr,
    mime_type: models.MediaType,
    uri: models.StrictStr | None = None,
    annotations: models.Annotations | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockImage:
    """``ContentBlock`` branch ``type: image`` (``ContentBlockImage``)."""
    return models.ContentBlockImage(
        data=data,
        mime_type=mime_type,
        **_given(
            uri=uri,
            annotations=annotations,
            field_meta=field_meta,
        ),
    )


def integer(
    *,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    minimum: models.Int64 | None = None,
    maximum: models.Int64 | None = None,
    default: models.Int64 | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ElicitationPropertySchemaInteger:
    """``ElicitationPropertySchema`` branch ``type: integer`` (``ElicitationPropertySchemaInteger``)."""
    return models.ElicitationPropertySchemaInteger(
        **_given(
            title=title,
            description=description,
            minimum=minimum,
            maximum=maximum,
            default=default,
            field_meta=field_meta,
        ),
    )


def items(
    *,
    plan_id: models.PlanId,
    entries: list[models.PlanEntry],
    field_meta: dict[str, Any] | None = None,
) -> models.PlanUpdateContentItems:
    """``PlanUpdateContent`` branch ``type: items`` (``PlanUpdateContentItems``)."""
    return models.PlanUpdateContentItems(
        plan_id=plan_id,
        entries=entries,
        **_given(
            field_meta=field_meta,
        ),
    )


def jump(
    *,
    suggestion_id: models.NesSuggestionId,
    uri: models.StrictStr,
    position: models.Position,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionJump:
    """``NesSuggestion`` branch ``kind: jump`` (``NesSuggestionJump``)."""
    return models.NesSuggestionJump(
        suggestion_id=suggestion_id,
        uri=uri,
        position=position,
        **_given(
            field_meta=field_meta,
        ),
    )


def markdown(
    *,
    plan_id: models.PlanId,
    content: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.PlanUpdateContentMarkdown:
    """``PlanUpdateContent`` branch ``type: markdown`` (``PlanUpdateContentMarkdown``)."""
    return models.PlanUpdateContentMarkdown(
        plan_id=plan_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def modify(
    *,
    path: models.AbsolutePath,
    file_type: models.DiffFileType | None = None,
    mime_type: models.MediaType | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.DiffChangeModify:
    """``DiffChange`` branch ``operation: modify`` (``DiffChangeModify``)."""
    return models.DiffChangeModify(
        path=path,
        **_given(
            file_type=file_type,
            mime_type=mime_type,
            field_meta=field_meta,
        ),
    )


def move(
    *,
    old_path: models.AbsolutePath,
    path: models.AbsolutePath,
    file_type: models.DiffFileType | None = None,
    mime_type: models.MediaType | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.DiffChangeMove:
    """``DiffChange`` branch ``operation: move`` (``DiffChangeMove``)."""
    return models.DiffChangeMove(
        old_path=old_path,
        path=path,
        **_given(
            file_type=file_type,
            mime_type=mime_type,
            field_meta=field_meta,
        ),
    )


def number(
    *,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    minimum: models.StrictFloat | None = None,
    maximum: models.StrictFloat | None = None,
    default: models.StrictFloat | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ElicitationPropertySchemaNumber:
    """``ElicitationPropertySchema`` branch ``type: number`` (``ElicitationPropertySchemaNumber``)."""
    return models.ElicitationPropertySchemaNumber(
        **_given(
            title=title,
            description=description,
            minimum=minimum,
            maximum=maximum,
            default=default,
            field_meta=field_meta,
        ),
    )


def plan_removed(
    *,
    plan_id: models.PlanId,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdatePlanRemoved:
    """``SessionUpdate`` branch ``sessionUpdate: plan_removed`` (``SessionUpdatePlanRemoved``)."""
    return models.SessionUpdatePlanRemoved(
        plan_id=plan_id,
        **_given(
            field_meta=field_meta,
        ),
    )


def plan_update(
    *,
    plan: models.PlanUpdateContent,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdatePlanUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: plan_update`` (``SessionUpdatePlanUpdate``)."""
    return models.SessionUpdatePlanUpdate(
        plan=plan,
        **_given(
            field_meta=field_meta,
        ),
    )


def rename(
    *,
    suggestion_id: models.NesSuggestionId,
    uri: models.StrictStr,
    position: models.Position,
    new_name: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionRename:
    """``NesSuggestion`` branch ``kind: rename`` (``NesSuggestionRename``)."""
    return models.NesSuggestionRename(
        suggestion_id=suggestion_id,
        uri=uri,
        position=position,
        new_name=new_name,
        **_given(
            field_meta=field_meta,
        ),
    )


def requires_action(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.StateUpdateRequiresAction:
    """``StateUpdate`` branch ``state: requires_action`` (``StateUpdateRequiresAction``)."""
    return models.StateUpdateRequiresAction(
        **_given(
            field_meta=field_meta,
        ),
    )


def resource(
    *,
    resource: models.EmbeddedResourceResource,
    annotations: models.Annotations | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockResource:
    """``ContentBlock`` branch ``type: resource`` (``ContentBlockResource``)."""
    return models.ContentBlockResource(
        resource=resource,
        **_given(
            annotations=annotations,
            field_meta=field_meta,
        ),
    )


def resource_link(
    *,
    name: models.StrictStr,
    uri: models.StrictStr,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    icons: list[models.Icon] | None = None,
    mime_type: models.MediaType | None = None,
    size: models.Int64 | None = None,
    annotations: models.Annotations | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockResourceLink:
    """``ContentBlock`` branch ``type: resource_link`` (``ContentBlockResourceLink``)."""
    return models.ContentBlockResourceLink(
        name=name,
        uri=uri,
        **_given(
            title=title,
            description=description,
            icons=icons,
            mime_type=mime_type,
            size=size,
            annotations=annotations,
            field_meta=field_meta,
        ),
    )


def running(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.StateUpdateRunning:
    """``StateUpdate`` branch ``state: running`` (``StateUpdateRunning``)."""
    return models.StateUpdateRunning(
        **_given(
            field_meta=field_meta,
        ),
    )


def search_and_replace(
    *,
    suggestion_id: models.NesSuggestionId,
    uri: models.StrictStr,
    search: models.StrictStr,
    replace: models.StrictStr,
    is_regex: models.StrictBool | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionSearchAndReplace:
    """``NesSuggestion`` branch ``kind: searchAndReplace`` (``NesSuggestionSearchAndReplace``)."""
    return models.NesSuggestionSearchAndReplace(
        suggestion_id=suggestion_id,
        uri=uri,
        search=search,
        replace=replace,
        **_given(
            is_regex=is_regex,
            field_meta=field_meta,
        ),
    )


def select(
    *,
    current_value: models.SessionConfigValueId,
    options: models.SessionConfigSelectOptions,
    config_id: models.SessionConfigId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    category: models.SessionConfigOptionCategory | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionConfigOptionSelect:
    """``SessionConfigOption`` branch ``type: select`` (``SessionConfigOptionSelect``)."""
    return models.SessionConfigOptionSelect(
        current_value=current_value,
        options=options,
        config_id=config_id,
        name=name,
        **_given(
            description=description,
            category=category,
            field_meta=field_meta,
        ),
    )


def selected(
    *,
    option_id: models.PermissionOptionId,
    field_meta: dict[str, Any] | None = None,
) -> models.RequestPermissionOutcomeSelected:
    """``RequestPermissionOutcome`` branch ``outcome: selected`` (``RequestPermissionOutcomeSelected``)."""
    return models.RequestPermissionOutcomeSelected(
        option_id=option_id,
        **_given(
            field_meta=field_meta,
        ),
    )


def session_info_update(
    *,
    title: models.StrictStr | None = None,
    updated_at: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateSessionInfoUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: session_info_update`` (``SessionUpdateSessionInfoUpdate``)."""
    return models.SessionUpdateSessionInfoUpdate(
        **_given(
            title=title,
            updated_at=updated_at,
            field_meta=field_meta,
        ),
    )


def start(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.StartReplayFrom:
    """``ReplayFrom`` branch ``type: start`` (``StartReplayFrom``)."""
    return models.StartReplayFrom(
        **_given(
            field_meta=field_meta,
        ),
    )


def state_update_idle(
    *,
    stop_reason: models.StopReason | None = None,
    usage: models.Usage | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateStateUpdateIdle:
    """``SessionUpdate`` branch ``sessionUpdate: state_update`` (``SessionUpdateStateUpdateIdle``)."""
    return models.SessionUpdateStateUpdateIdle(
        **_given(
            stop_reason=stop_reason,
            usage=usage,
            field_meta=field_meta,
        ),
    )


def state_update_other(
    *,
    state: models.StrictStr,
) -> models.SessionUpdateStateUpdateOther:
    """``SessionUpdate`` branch ``sessionUpdate: state_update`` (``SessionUpdateStateUpdateOther``)."""
    return models.SessionUpdateStateUpdateOther(
        state=state,
    )


def state_update_requires_action(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateStateUpdateRequiresAction:
    """``SessionUpdate`` branch ``sessionUpdate: state_update`` (``SessionUpdateStateUpdateRequiresAction``)."""
    return models.SessionUpdateStateUpdateRequiresAction(
        **_given(
            field_meta=field_meta,
        ),
    )


def state_update_running(
    *,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateStateUpdateRunning:
    """``SessionUpdate`` branch ``sessionUpdate: state_update`` (``SessionUpdateStateUpdateRunning``)."""
    return models.SessionUpdateStateUpdateRunning(
        **_given(
            field_meta=field_meta,
        ),
    )


def stdio(
    *,
    name: models.StrictStr,
    command: models.AbsolutePath,
    args: list[models.StrictStr] | None = None,
    env: list[models.EnvVariable] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.StdioMcpServer:
    """``McpServer`` branch ``type: stdio`` (``StdioMcpServer``)."""
    return models.StdioMcpServer(
        name=name,
        command=command,
        **_given(
            args=args,
            env=env,
            field_meta=field_meta,
        ),
    )


def string_elicitation_property_schema(
    *,
    title: models.StrictStr | None = None,
    description: models.StrictStr | None = None,
    min_length: models.Uint32 | None = None,
    max_length: models.Uint32 | None = None,
    pattern: models.StrictStr | None = None,
    format: models.StringFormat | None = None,
    default: models.StrictStr | None = None,
    enum: Annotated[list[models.StrictStr], Field(min_length=1)] | None = None,
    one_of: Annotated[list[models.EnumOption], Field(min_length=1)] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ElicitationPropertySchemaString:
    """``ElicitationPropertySchema`` branch ``type: string`` (``ElicitationPropertySchemaString``)."""
    return models.ElicitationPropertySchemaString(
        **_given(
            title=title,
            description=description,
            min_length=min_length,
            max_length=max_length,
            pattern=pattern,
            format=format,
            default=default,
            enum=enum,
            one_of=one_of,
            field_meta=field_meta,
        ),
    )


def string_multi_select_items(
    *,
    enum: Annotated[list[models.StrictStr], Field(min_length=1)],
    field_meta: dict[str, Any] | None = None,
) -> models.MultiSelectItemsString:
    """``MultiSelectItems`` branch ``type: string`` (``MultiSelectItemsString``)."""
    return models.MultiSelectItemsString(
        enum=enum,
        **_given(
            field_meta=field_meta,
        ),
    )


def terminal_auth_method(
    *,
    method_id: models.AuthMethodId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    args: list[models.StrictStr] | None = None,
    env: list[models.EnvVariable] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.TerminalAuthMethod:
    """``AuthMethod`` branch ``type: terminal`` (``TerminalAuthMethod``)."""
    return models.TerminalAuthMethod(
        method_id=method_id,
        name=name,
        **_given(
            description=description,
            args=args,
            env=env,
            field_meta=field_meta,
        ),
    )


def terminal_output_chunk(
    *,
    terminal_id: models.TerminalId,
    data: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateTerminalOutputChunk:
    """``SessionUpdate`` branch ``sessionUpdate: terminal_output_chunk`` (``SessionUpdateTerminalOutputChunk``)."""
    return models.SessionUpdateTerminalOutputChunk(
        terminal_id=terminal_id,
        data=data,
        **_given(
            field_meta=field_meta,
        ),
    )


def terminal_tool_call_content(
    *,
    terminal_id: models.TerminalId,
    field_meta: dict[str, Any] | None = None,
) -> models.ToolCallContentTerminal:
    """``ToolCallContent`` branch ``type: terminal`` (``ToolCallContentTerminal``)."""
    return models.ToolCallContentTerminal(
        terminal_id=terminal_id,
        **_given(
            field_meta=field_meta,
        ),
    )


def terminal_update(
    *,
    terminal_id: models.TerminalId,
    command: models.StrictStr | None = None,
    cwd: models.AbsolutePath | None = None,
    output: models.TerminalOutput | None = None,
    exit_status: models.TerminalExitStatus | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateTerminalUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: terminal_update`` (``SessionUpdateTerminalUpdate``)."""
    return models.SessionUpdateTerminalUpdate(
        terminal_id=terminal_id,
        **_given(
            command=command,
            cwd=cwd,
            output=output,
            exit_status=exit_status,
            field_meta=field_meta,
        ),
    )


def text_available_command_input(
    *,
    hint: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.AvailableCommandInputText:
    """``AvailableCommandInput`` branch ``type: text`` (``AvailableCommandInputText``)."""
    return models.AvailableCommandInputText(
        hint=hint,
        **_given(
            field_meta=field_meta,
        ),
    )


def text_content_block(
    *,
    text: models.StrictStr,
    annotations: models.Annotations | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockText:
    """``ContentBlock`` branch ``type: text`` (``ContentBlockText``)."""
    return models.ContentBlockText(
        text=text,
        **_given(
            annotations=annotations,
            field_meta=field_meta,
        ),
    )


def titled_multi_select_items(
    *,
    any_of: Annotated[list[models.EnumOption], Field(min_length=1)],
    field_meta: dict[str, Any] | None = None,
) -> models.TitledMultiSelectItems:
    """``MultiSelectItems`` branch ``type: (none)`` (``TitledMultiSelectItems``)."""
    return models.TitledMultiSelectItems(
        any_of=any_of,
        **_given(
            field_meta=field_meta,
        ),
    )


def tool_call(
    *,
    tool_call: models.ToolCallUpdate,
) -> models.RequestPermissionSubjectToolCall:
    """``RequestPermissionSubject`` branch ``type: tool_call`` (``RequestPermissionSubjectToolCall``)."""
    return models.RequestPermissionSubjectToolCall(
        tool_call=tool_call,
    )


def tool_call_content_chunk(
    *,
    tool_call_id: models.ToolCallId,
    content: models.ToolCallContent,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateToolCallContentChunk:
    """``SessionUpdate`` branch ``sessionUpdate: tool_call_content_chunk`` (``SessionUpdateToolCallContentChunk``)."""
    return models.SessionUpdateToolCallContentChunk(
        tool_call_id=tool_call_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )


def tool_call_update(
    *,
    tool_call_id: models.ToolCallId,
    name: models.StrictStr | None = None,
    title: models.StrictStr | None = None,
    kind: models.ToolKind | None = None,
    status: models.ToolCallStatus | None = None,
    content: list[models.ToolCallContent] | None = None,
    locations: list[models.ToolCallLocation] | None = None,
    raw_input: Any | None = None,
    raw_output: Any | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateToolCallUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: tool_call_update`` (``SessionUpdateToolCallUpdate``)."""
    return models.SessionUpdateToolCallUpdate(
        tool_call_id=tool_call_id,
        **_given(
            name=name,
            title=title,
            kind=kind,
            status=status,
            content=content,
            locations=locations,
            raw_input=raw_input,
            raw_output=raw_output,
            field_meta=field_meta,
        ),
    )


def url_request(
    *,
    request_id: models.RequestId,
    elicitation_id: models.ElicitationId,
    url: models.StrictStr,
    message: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationRequestUrlRequest:
    """``CreateElicitationRequest`` branch ``mode: url`` (``CreateElicitationRequestUrlRequest``)."""
    return models.CreateElicitationRequestUrlRequest(
        request_id=request_id,
        elicitation_id=elicitation_id,
        url=url,
        message=message,
        **_given(
            field_meta=field_meta,
        ),
    )


def url_session(
    *,
    session_id: models.SessionId,
    elicitation_id: models.ElicitationId,
    url: models.StrictStr,
    message: models.StrictStr,
    tool_call_id: models.ToolCallId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.CreateElicitationRequestUrlSession:
    """``CreateElicitationRequest`` branch ``mode: url`` (``CreateElicitationRequestUrlSession``)."""
    return models.CreateElicitationRequestUrlSession(
        session_id=session_id,
        elicitation_id=elicitation_id,
        url=url,
        message=message,
        **_given(
            tool_call_id=tool_call_id,
            field_meta=field_meta,
        ),
    )


def usage_update(
    *,
    used: models.Uint64,
    size: models.Uint64,
    cost: models.Cost | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateUsageUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: usage_update`` (``SessionUpdateUsageUpdate``)."""
    return models.SessionUpdateUsageUpdate(
        used=used,
        size=size,
        **_given(
            cost=cost,
            field_meta=field_meta,
        ),
    )


def user_message(
    *,
    message_id: models.MessageId,
    content: list[models.ContentBlock] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateUserMessage:
    """``SessionUpdate`` branch ``sessionUpdate: user_message`` (``SessionUpdateUserMessage``)."""
    return models.SessionUpdateUserMessage(
        message_id=message_id,
        **_given(
            content=content,
            field_meta=field_meta,
        ),
    )


def user_message_chunk(
    *,
    message_id: models.MessageId,
    content: models.ContentBlock,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateUserMessageChunk:
    """``SessionUpdate`` branch ``sessionUpdate: user_message_chunk`` (``SessionUpdateUserMessageChunk``)."""
    return models.SessionUpdateUserMessageChunk(
        message_id=message_id,
        content=content,
        **_given(
            field_meta=field_meta,
        ),
    )
