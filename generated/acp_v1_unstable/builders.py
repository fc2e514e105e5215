# Edit templates/builders/builders.py.jinja, not this file: acpgen generate writes it.
"""Typed builders: one function per branch of every tagged union of the schema.

Each builder is named after its branch's tag and takes the branch's members as keyword
arguments; the tag is filled in, and an optional member left out (or given as None) is
omitted. A tag two unions share is qualified by its union (``terminal_tool_call_content``).

    from acp_v1_unstable import builders

    update = builders.agent_message_chunk(content=builders.text(text="Hello"))
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from acp_v1_unstable import models
from acp_v1_unstable.building import entries_of
from acp_v1_unstable.building import given as _given

__all__ = [
    "accept",
    "acp",
    "agent_message_chunk",
    "agent_thought_chunk",
    "array",
    "audio",
    "auth_method_agent",
    "available_commands_update",
    "boolean_elicitation_property_schema",
    "boolean_session_config_option",
    "boolean_set_session_config_option_request",
    "cancel",
    "cancelled",
    "compaction_summary_chunk",
    "compaction_update",
    "config_option_update",
    "content",
    "current_mode_update",
    "decline",
    "diff",
    "edit",
    "file",
    "form_request",
    "form_session",
    "http",
    "image",
    "integer",
    "items",
    "jump",
    "markdown",
    "mcp_server_stdio",
    "notice",
    "number",
    "plan",
    "plan_from",
    "plan_removed",
    "plan_update",
    "rename",
    "resource",
    "resource_link",
    "search_and_replace",
    "select",
    "selected",
    "session_info_update",
    "set_session_config_option_request_value_id",
    "sse",
    "string_elicitation_property_schema",
    "string_multi_select_items",
    "terminal_auth_method",
    "terminal_tool_call_content",
    "text",
    "text_chunk",
    "titled_multi_select_items",
    "tool_call",
    "tool_call_pair",
    "tool_call_update",
    "url_request",
    "url_session",
    "usage_update",
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


def agent_message_chunk(
    *,
    content: models.ContentBlock,
    message_id: models.MessageId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentMessageChunk:
    """``SessionUpdate`` branch ``sessionUpdate: agent_message_chunk`` (``SessionUpdateAgentMessageChunk``)."""
    return models.SessionUpdateAgentMessageChunk(
        content=content,
        **_given(
            message_id=message_id,
            field_meta=field_meta,
        ),
    )


def agent_thought_chunk(
    *,
    content: models.ContentBlock,
    message_id: models.MessageId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateAgentThoughtChunk:
    """``SessionUpdate`` branch ``sessionUpdate: agent_thought_chunk`` (``SessionUpdateAgentThoughtChunk``)."""
    return models.SessionUpdateAgentThoughtChunk(
        content=content,
        **_given(
            message_id=message_id,
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
    mime_type: models.StrictStr,
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


def auth_method_agent(
    *,
    id: models.AuthMethodId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.AuthMethodAgent:
    """``AuthMethod`` branch ``type: (none)`` (``AuthMethodAgent``)."""
    return models.AuthMethodAgent(
        id=id,
        name=name,
        **_given(
            description=description,
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
    id: models.SessionConfigId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    category: models.SessionConfigOptionCategory | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionConfigOptionBoolean:
    """``SessionConfigOption`` branch ``type: boolean`` (``SessionConfigOptionBoolean``)."""
    return models.SessionConfigOptionBoolean(
        current_value=current_value,
        id=id,
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


def current_mode_update(
    *,
    current_mode_id: models.SessionModeId,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateCurrentModeUpdate:
    """``SessionUpdate`` branch ``sessionUpdate: current_mode_update`` (``SessionUpdateCurrentModeUpdate``)."""
    return models.SessionUpdateCurrentModeUpdate(
        current_mode_id=current_mode_id,
        **_given(
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


def diff(
    *,
    path: models.StrictStr,
    new_text: models.StrictStr,
    old_text: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ToolCallContentDiff:
    """``ToolCallContent`` branch ``type: diff`` (``ToolCallContentDiff``)."""
    return models.ToolCallContentDiff(
        path=path,
        new_text=new_text,
        **_given(
            old_text=old_text,
            field_meta=field_meta,
        ),
    )


def edit(
    *,
    id: models.NesSuggestionId,
    uri: models.StrictStr,
    edits: list[models.NesTextEdit],
    cursor_position: models.Position | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionEdit:
    """``NesSuggestion`` branch ``kind: edit`` (``NesSuggestionEdit``)."""
    return models.NesSuggestionEdit(
        id=id,
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
    headers: list[models.HttpHeader],
    field_meta: dict[str, Any] | None = None,
) -> models.HttpMcpServer:
    """``McpServer`` branch ``type: http`` (``HttpMcpServer``)."""
    return models.HttpMcpServer(
        name=name,
        url=url,
        headers=headers,
        **_given(
            field_meta=field_meta,
        ),
    )


def image(
    *,
    data: models.StrictStr,
    mime_type: models.StrictStr,
    annotations: models.Annotations | None = None,
    uri: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockImage:
    """``ContentBlock`` branch ``type: image`` (``ContentBlockImage``)."""
    return models.ContentBlockImage(
        data=data,
        mime_type=mime_type,
        **_given(
            annotations=annotations,
            uri=uri,
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
    id: models.NesSuggestionId,
    uri: models.StrictStr,
    position: models.Position,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionJump:
    """``NesSuggestion`` branch ``kind: jump`` (``NesSuggestionJump``)."""
    return models.NesSuggestionJump(
        id=id,
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


def mcp_server_stdio(
    *,
    name: models.StrictStr,
    command: models.StrictStr,
    args: list[models.StrictStr],
    env: list[models.EnvVariable],
    field_meta: dict[str, Any] | None = None,
) -> models.McpServerStdio:
    """``McpServer`` branch ``type: (none)`` (``McpServerStdio``)."""
    return models.McpServerStdio(
        name=name,
        command=command,
        args=args,
        env=env,
        **_given(
            field_meta=field_meta,
        ),
    )


def notice(
    *,
    severity: models.NoticeSeverity,
    title: Annotated[models.StrictStr, Field(min_length=1)],
    description: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateNotice:
    """``SessionUpdate`` branch ``sessionUpdate: notice`` (``SessionUpdateNotice``)."""
    return models.SessionUpdateNotice(
        severity=severity,
        title=title,
        **_given(
            description=description,
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


def plan(
    *,
    entries: list[models.PlanEntry],
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdatePlan:
    """``SessionUpdate`` branch ``sessionUpdate: plan`` (``SessionUpdatePlan``)."""
    return models.SessionUpdatePlan(
        entries=entries,
        **_given(
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
    id: models.NesSuggestionId,
    uri: models.StrictStr,
    position: models.Position,
    new_name: models.StrictStr,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionRename:
    """``NesSuggestion`` branch ``kind: rename`` (``NesSuggestionRename``)."""
    return models.NesSuggestionRename(
        id=id,
        uri=uri,
        position=position,
        new_name=new_name,
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
    annotations: models.Annotations | None = None,
    description: models.StrictStr | None = None,
    mime_type: models.StrictStr | None = None,
    size: models.Int64 | None = None,
    title: models.StrictStr | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.ContentBlockResourceLink:
    """``ContentBlock`` branch ``type: resource_link`` (``ContentBlockResourceLink``)."""
    return models.ContentBlockResourceLink(
        name=name,
        uri=uri,
        **_given(
            annotations=annotations,
            description=description,
            mime_type=mime_type,
            size=size,
            title=title,
            field_meta=field_meta,
        ),
    )


def search_and_replace(
    *,
    id: models.NesSuggestionId,
    uri: models.StrictStr,
    search: models.StrictStr,
    replace: models.StrictStr,
    is_regex: models.StrictBool | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.NesSuggestionSearchAndReplace:
    """``NesSuggestion`` branch ``kind: searchAndReplace`` (``NesSuggestionSearchAndReplace``)."""
    return models.NesSuggestionSearchAndReplace(
        id=id,
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
    id: models.SessionConfigId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    category: models.SessionConfigOptionCategory | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionConfigOptionSelect:
    """``SessionConfigOption`` branch ``type: select`` (``SessionConfigOptionSelect``)."""
    return models.SessionConfigOptionSelect(
        current_value=current_value,
        options=options,
        id=id,
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


def set_session_config_option_request_value_id(
    *,
    session_id: models.SessionId,
    config_id: models.SessionConfigId,
    value: models.SessionConfigValueId,
    field_meta: dict[str, Any] | None = None,
) -> models.SetSessionConfigOptionRequestValueId:
    """``SetSessionConfigOptionRequest`` branch ``type: (none)`` (``SetSessionConfigOptionRequestValueId``)."""
    return models.SetSessionConfigOptionRequestValueId(
        session_id=session_id,
        config_id=config_id,
        value=value,
        **_given(
            field_meta=field_meta,
        ),
    )


def sse(
    *,
    name: models.StrictStr,
    url: models.StrictStr,
    headers: list[models.HttpHeader],
    field_meta: dict[str, Any] | None = None,
) -> models.SseMcpServer:
    """``McpServer`` branch ``type: sse`` (``SseMcpServer``)."""
    return models.SseMcpServer(
        name=name,
        url=url,
        headers=headers,
        **_given(
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
    enum: list[models.StrictStr] | None = None,
    one_of: list[models.EnumOption] | None = None,
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
    enum: list[models.StrictStr],
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
    id: models.AuthMethodId,
    name: models.StrictStr,
    description: models.StrictStr | None = None,
    args: list[models.StrictStr] | None = None,
    env: dict[str, models.StrictStr] | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.TerminalAuthMethod:
    """``AuthMethod`` branch ``type: terminal`` (``TerminalAuthMethod``)."""
    return models.TerminalAuthMethod(
        id=id,
        name=name,
        **_given(
            description=description,
            args=args,
            env=env,
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


def text(
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
    any_of: list[models.EnumOption],
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
    tool_call_id: models.ToolCallId,
    title: models.StrictStr,
    name: models.StrictStr | None = None,
    kind: models.ToolKind | None = None,
    status: models.ToolCallStatus | None = None,
    content: list[models.ToolCallContent] | None = None,
    locations: list[models.ToolCallLocation] | None = None,
    raw_input: Any | None = None,
    raw_output: Any | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateToolCall:
    """``SessionUpdate`` branch ``sessionUpdate: tool_call`` (``SessionUpdateToolCall``)."""
    return models.SessionUpdateToolCall(
        tool_call_id=tool_call_id,
        title=title,
        **_given(
            name=name,
            kind=kind,
            status=status,
            content=content,
            locations=locations,
            raw_input=raw_input,
            raw_output=raw_output,
            field_meta=field_meta,
        ),
    )


def tool_call_update(
    *,
    tool_call_id: models.ToolCallId,
    kind: models.ToolKind | None = None,
    status: models.ToolCallStatus | None = None,
    title: models.StrictStr | None = None,
    name: models.StrictStr | None = None,
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
            kind=kind,
            status=status,
            title=title,
            name=name,
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


def user_message_chunk(
    *,
    content: models.ContentBlock,
    message_id: models.MessageId | None = None,
    field_meta: dict[str, Any] | None = None,
) -> models.SessionUpdateUserMessageChunk:
    """``SessionUpdate`` branch ``sessionUpdate: user_message_chunk`` (``SessionUpdateUserMessageChunk``)."""
    return models.SessionUpdateUserMessageChunk(
        content=content,
        **_given(
            message_id=message_id,
            field_meta=field_meta,
        ),
    )


def text_chunk(text: str) -> models.SessionUpdateAgentMessageChunk:
    """An agent message chunk carrying one text block."""
    return agent_message_chunk(content=models.ContentBlockText(text=text))


def tool_call_pair(
    tool_call_id: str, title: str, **members: Any
) -> tuple[models.SessionUpdateToolCall, models.SessionUpdateToolCallUpdate]:
    """A tool call's start (``tool_call``) and an update of the same call, to fill in and send
    later (``update.model_copy(update={...})`` or ``tool_call_update(tool_call_id=...)``)."""
    return tool_call(tool_call_id=tool_call_id, title=title, **members), tool_call_update(
        tool_call_id=tool_call_id
    )


def plan_from(*entries: tuple[str, str, str] | models.PlanEntry) -> models.SessionUpdatePlan:
    """A plan update from its entries: ``PlanEntry`` models or ``(content, priority, status)``."""
    return plan(entries=entries_of(entries, models.PlanEntry))
