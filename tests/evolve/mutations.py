"""Single-change mutations of the pinned ACP schema and meta.json, with expert verdicts.

Every mutation is a function of the pinned inputs (a deep copy of schema.json and meta.json
is edited in place); nothing here is a hand-edited copy of a schema. Each row of
``MUTATIONS`` says what the change is, the exit code ``acpgen diff PINNED MUTATED`` must
give, and the verdict for a client and for an agent generated from the pinned schema that
talk to a peer following the mutated one. The verdicts were written down from the protocol's
method table before the tool was run on them; they are the specification, not a recording.

Who writes what (from meta.json and x-method / x-side; x-side is the side that handles the
method, the other side calls it):

* ``ReadTextFileRequest``, ``CreateTerminalRequest``, ``ToolCall``, ``ToolKind``,
  ``ToolCallStatus``, ``StopReason``, ``PromptResponse``, ``AgentCapabilities``,
  ``AuthMethodAgent``, ``AuthMethodTerminal``, ``UsageUpdate``, ``Cost``, ``PlanEntry``,
  ``StringPropertySchema``, ``ElicitationSchema``, ``CreateElicitationRequest``,
  ``SessionUpdate``, ``SessionCapabilities``, ``SessionConfigOptionCategory``, ``ToolCallId``:
  written by the agent, read by the client;
* ``PromptRequest``, ``NewSessionRequest``, ``ClientCapabilities``, ``FileSystemCapabilities``,
  ``McpServer``, ``McpServerStdio``, ``HttpHeader``, ``ReadTextFileResponse``,
  ``TerminalOutputResponse``, ``TerminalExitStatus``, ``CancelNotification``,
  ``RequestPermissionOutcome``, ``ElicitationContentValue``: written by the client, read by the
  agent;
* ``ResourceLink``, ``Implementation``, ``Role``, ``ContentBlock``, ``SessionId``,
  ``TerminalId``, ``EnvVariable``, ``ProtocolVersion``, ``Error``, the protocol-level envelope:
  written and read by both.

Wire rules the verdicts follow: narrowing what is valid breaks the side that writes the value
(an old writer may send what the new reader rejects); widening breaks the side that reads it
(a new writer may send what an old reader rejects); a change that is neither (a disjoint type)
breaks both. Removing a property breaks its writer (what it sends is no longer understood);
removing a required one also breaks its reader. A changed, added or removed default breaks
both: the runtime omits unset members, so the meaning of an omission changes for the sender as
well as for the receiver. Annotations (description, title, examples, deprecated, readOnly,
writeOnly, $comment, x-* vendor keys, the OpenAPI ``discriminator``) and equivalent rewrites
(inlining a def, a one-branch ``allOf``, a restated default) are compatible for both (exit 1).
A new method is compatible for both; a removed one breaks its caller; a renamed one, or one
whose kind or side changes, breaks both.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]
Edit = Callable[[Json, Json], None]

B = "breaking"
U = "unproven"  # no witness can be built and acpgen cannot decide (exit 4)
C = "compatible"


@dataclass(frozen=True)
class Mutation:
    id: str
    what: str
    edit: Edit
    exit: int  # 0 no change, 1 compatible, 2 bad input, 3 breaking, 4 unproven
    client: str | None = None  # verdict for a client generated from the pinned schema
    agent: str | None = None
    reports: tuple[str, ...] = field(default=())  # JSON pointers a reported change must be at
    raw: Callable[[bytes], bytes] | None = None  # rewrite the schema bytes instead


# -- helpers --------------------------------------------------------------------------------


def d(schema: Json, name: str) -> Json:
    node = schema["$defs"][name]
    assert isinstance(node, dict)
    return node


def prop(schema: Json, name: str, member: str) -> Json:
    node = d(schema, name)["properties"][member]
    assert isinstance(node, dict)
    return node


def ref(name: str) -> Json:
    return {"$ref": f"#/$defs/{name}"}


def _inner_union(node: Json, member: str) -> list[Json]:
    """The branches of an envelope's params/result union (``anyOf: [{anyOf: [...]}, null]``)."""
    outer = node["properties"][member]["anyOf"]
    if any("$ref" in b or "allOf" in b for b in outer):
        return outer  # type: ignore[no-any-return]
    inner = outer[0]["anyOf"]
    assert isinstance(inner, list)
    return inner


def params_union(schema: Json, envelope: str) -> list[Json]:
    """AgentRequest / ClientRequest / AgentNotification / ClientNotification params branches."""
    return _inner_union(d(schema, envelope), "params")


def result_union(schema: Json, envelope: str) -> list[Json]:
    """AgentResponse / ClientResponse result branches (the first anyOf branch is the result)."""
    node = d(schema, envelope)["anyOf"][0]
    branches = node["properties"]["result"]["anyOf"]
    assert isinstance(branches, list)
    return branches


def branch(def_name: str) -> Json:
    return {"title": def_name, "description": f"The {def_name} branch.", "allOf": [ref(def_name)]}


def drop_branch(branches: list[Json], def_name: str) -> Json:
    [found] = [b for b in branches if ref(def_name) in b.get("allOf", [])]
    branches.remove(found)
    return found


def insert_before_ext(branches: list[Json], new: Json) -> None:
    """Add a branch where the real schema adds them: before the Ext* catch-all branch."""
    at = next((i for i, b in enumerate(branches) if str(b.get("title", "")).startswith("Ext")),
              len(branches))
    branches.insert(at, new)


def meta_key(meta: Json, wire: str) -> tuple[str, str]:
    for group in ("agentMethods", "clientMethods", "protocolMethods"):
        for key, value in meta[group].items():
            if value == wire:
                return group, key
    raise KeyError(wire)


def tagged_branch(union: Json, tag: str) -> Json:
    for b in union["oneOf"]:
        if any(p.get("const") == tag for p in b.get("properties", {}).values()):
            assert isinstance(b, dict)
            return b
    raise KeyError(tag)


def enum_branches(node: Json) -> list[Json]:
    branches = node.get("oneOf", node.get("anyOf"))
    assert isinstance(branches, list)
    return branches


def set_in(schema: Json, pointer: str, value: Any) -> None:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.strip("/").split("/")]
    node: Any = schema
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    node[parts[-1]] = value


def _object_def(side: str, wire: str, props: Json, required: list[str], doc: str) -> Json:
    return {
        "description": doc,
        "type": "object",
        "properties": {**props, "_meta": {"description": "Extension metadata.",
                                          "type": ["object", "null"], "additionalProperties": True}},
        "required": required,
        "x-side": side,
        "x-method": wire,
    }


# -- methods, the way the real schema spells them ---------------------------------------------


def add_agent_request(schema: Json, meta: Json) -> None:
    """``session/fork``: meta.json entry, request and response defs, both union branches."""
    meta["agentMethods"]["session_fork"] = "session/fork"
    schema["$defs"]["ForkSessionRequest"] = _object_def(
        "agent", "session/fork", {"sessionId": {"description": "The session to fork.",
                                                "allOf": [ref("SessionId")]}},
        ["sessionId"], "Forks a session.")
    schema["$defs"]["ForkSessionResponse"] = _object_def(
        "agent", "session/fork", {"sessionId": {"description": "The new session.",
                                                "allOf": [ref("SessionId")]}},
        ["sessionId"], "Response to `session/fork`.")
    insert_before_ext(params_union(schema, "ClientRequest"), branch("ForkSessionRequest"))
    insert_before_ext(result_union(schema, "AgentResponse"), branch("ForkSessionResponse"))


def add_client_request(schema: Json, meta: Json) -> None:
    """``fs/list_directory``, handled by the client."""
    meta["clientMethods"]["fs_list_directory"] = "fs/list_directory"
    schema["$defs"]["ListDirectoryRequest"] = _object_def(
        "client", "fs/list_directory",
        {"sessionId": {"allOf": [ref("SessionId")]}, "path": {"type": "string"}},
        ["sessionId", "path"], "Lists a directory.")
    schema["$defs"]["ListDirectoryResponse"] = _object_def(
        "client", "fs/list_directory",
        {"entries": {"type": "array", "items": {"type": "string"}}}, ["entries"],
        "Response to `fs/list_directory`.")
    insert_before_ext(params_union(schema, "AgentRequest"), branch("ListDirectoryRequest"))
    insert_before_ext(result_union(schema, "ClientResponse"), branch("ListDirectoryResponse"))


def add_client_notification_method(schema: Json, meta: Json) -> None:
    """``session/heartbeat``: a notification the agent sends and the client handles."""
    meta["clientMethods"]["session_heartbeat"] = "session/heartbeat"
    schema["$defs"]["HeartbeatNotification"] = _object_def(
        "client", "session/heartbeat", {"sessionId": {"allOf": [ref("SessionId")]}},
        ["sessionId"], "The agent is alive.")
    insert_before_ext(params_union(schema, "AgentNotification"), branch("HeartbeatNotification"))


def remove_request(wire: str, request: str, response: str, params_env: str,
                   result_env: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        group, key = meta_key(meta, wire)
        del meta[group][key]
        del schema["$defs"][request], schema["$defs"][response]
        drop_branch(params_union(schema, params_env), request)
        drop_branch(result_union(schema, result_env), response)

    return edit


def remove_session_cancel(schema: Json, meta: Json) -> None:
    group, key = meta_key(meta, "session/cancel")
    del meta[group][key]
    del schema["$defs"]["CancelNotification"]
    drop_branch(params_union(schema, "ClientNotification"), "CancelNotification")


def rename_session_close(schema: Json, meta: Json) -> None:
    group, key = meta_key(meta, "session/close")
    meta[group][key] = "session/end"
    d(schema, "CloseSessionRequest")["x-method"] = "session/end"
    d(schema, "CloseSessionResponse")["x-method"] = "session/end"


def rename_terminal_kill_with_defs(schema: Json, meta: Json) -> None:
    """terminal/kill -> terminal/terminate, its defs renamed with it, branches re-pointed."""
    group, key = meta_key(meta, "terminal/kill")
    del meta[group][key]
    meta[group]["terminal_terminate"] = "terminal/terminate"
    for old, new in (("KillTerminalRequest", "TerminateTerminalRequest"),
                     ("KillTerminalResponse", "TerminateTerminalResponse")):
        node = schema["$defs"].pop(old)
        node["x-method"] = "terminal/terminate"
        schema["$defs"][new] = node
    for branches, old, new in (
        (params_union(schema, "AgentRequest"), "KillTerminalRequest", "TerminateTerminalRequest"),
        (result_union(schema, "ClientResponse"), "KillTerminalResponse", "TerminateTerminalResponse"),
    ):
        b = drop_branch(branches, old)
        b["allOf"] = [ref(new)]
        b["title"] = new
        insert_before_ext(branches, b)


def kill_becomes_notification(schema: Json, meta: Json) -> None:
    del schema["$defs"]["KillTerminalResponse"]
    drop_branch(result_union(schema, "ClientResponse"), "KillTerminalResponse")
    b = drop_branch(params_union(schema, "AgentRequest"), "KillTerminalRequest")
    insert_before_ext(params_union(schema, "AgentNotification"), b)


def cancel_becomes_request(schema: Json, meta: Json) -> None:
    schema["$defs"]["CancelResponse"] = _object_def("agent", "session/cancel", {}, [],
                                                    "Response to `session/cancel`.")
    b = drop_branch(params_union(schema, "ClientNotification"), "CancelNotification")
    insert_before_ext(params_union(schema, "ClientRequest"), b)
    insert_before_ext(result_union(schema, "AgentResponse"), branch("CancelResponse"))


def complete_elicitation_moves_to_agent(schema: Json, meta: Json) -> None:
    """elicitation/complete: sent by the client and handled by the agent instead."""
    group, key = meta_key(meta, "elicitation/complete")
    del meta[group][key]
    meta["agentMethods"][key] = "elicitation/complete"
    d(schema, "CompleteElicitationNotification")["x-side"] = "agent"
    b = drop_branch(params_union(schema, "AgentNotification"), "CompleteElicitationNotification")
    insert_before_ext(params_union(schema, "ClientNotification"), b)


# -- other multi-step edits --------------------------------------------------------------------


def rename_def(old: str, new: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        schema["$defs"][new] = schema["$defs"].pop(old)
        text = json.dumps(schema).replace(f'"#/$defs/{old}"', f'"#/$defs/{new}"')
        schema.clear()
        schema.update(json.loads(text))

    return edit


def inline_cost(schema: Json, meta: Json) -> None:
    cost = copy.deepcopy(d(schema, "Cost"))
    prop(schema, "UsageUpdate", "cost")["anyOf"][0] = cost


def extract_path_def(schema: Json, meta: Json) -> None:
    schema["$defs"]["FilePath"] = {"description": "An absolute file path.", "type": "string"}
    p = prop(schema, "ReadTextFileRequest", "path")
    del p["type"]
    p["allOf"] = [ref("FilePath")]


def nullable_as_anyof(schema: Json, meta: Json) -> None:
    p = prop(schema, "ReadTextFileRequest", "line")
    inner = {"type": "integer", "format": p.pop("format"), "minimum": p.pop("minimum")}
    p["type"] = None
    del p["type"]
    p["anyOf"] = [inner, {"type": "null"}]


def two_changes_limit_and_new_member(schema: Json, meta: Json) -> None:
    prop(schema, "ReadTextFileRequest", "limit")["multipleOf"] = 10
    d(schema, "ReadTextFileRequest")["properties"]["encoding"] = {"type": ["string", "null"]}


def two_changes_doc_and_unique(schema: Json, meta: Json) -> None:
    d(schema, "PromptRequest")["description"] = "Sends a prompt (reworded)."
    prop(schema, "PromptRequest", "prompt")["uniqueItems"] = True


def two_changes_member_and_optional(schema: Json, meta: Json) -> None:
    d(schema, "ReadTextFileResponse")["properties"]["encoding"] = {"type": ["string", "null"]}
    d(schema, "ReadTextFileResponse")["required"] = []


def two_changes_description_and_name(schema: Json, meta: Json) -> None:
    prop(schema, "ResourceLink", "description")["maxLength"] = 500
    prop(schema, "ResourceLink", "name")["minLength"] = 1


def add_session_update_variant(schema: Json, meta: Json) -> None:
    d(schema, "SessionUpdate")["oneOf"].append({
        "description": "A status line.",
        "type": "object",
        "properties": {"sessionUpdate": {"type": "string", "const": "status_update"}},
        "required": ["sessionUpdate"],
        "allOf": [ref("ContentChunk")],
    })


def add_content_block_variant(schema: Json, meta: Json) -> None:
    d(schema, "ContentBlock")["oneOf"].append({
        "type": "object",
        "properties": {"type": {"type": "string", "const": "video"}},
        "required": ["type"],
        "allOf": [ref("AudioContent")],
    })


def add_outcome_variant(schema: Json, meta: Json) -> None:
    d(schema, "RequestPermissionOutcome")["oneOf"].append({
        "type": "object",
        "properties": {"outcome": {"type": "string", "const": "deferred"}},
        "required": ["outcome"],
    })


def remove_tagged(union: str, tag: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, union)
        key = "oneOf" if "oneOf" in node else "anyOf"
        node[key] = [b for b in node[key]
                     if not any(p.get("const") == tag for p in b.get("properties", {}).values())]

    return edit


def retag(union: str, tag: str, new_tag: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        b = tagged_branch(d(schema, union), tag)
        for p in b["properties"].values():
            if p.get("const") == tag:
                p["const"] = new_tag

    return edit


def add_enum_value(name: str, value: str, before_catch_all: bool = False) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        branches = enum_branches(d(schema, name))
        new = {"description": f"The {value} value.", "type": "string", "const": value}
        at = len(branches) - 1 if before_catch_all else len(branches)
        branches.insert(at, new)

    return edit


def remove_enum_value(name: str, value: Any) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, name)
        key = "oneOf" if "oneOf" in node else "anyOf"
        node[key] = [b for b in node[key] if b.get("const") != value]

    return edit


def add_error_code(schema: Json, meta: Json) -> None:
    branches = enum_branches(d(schema, "ErrorCode"))
    branches.insert(len(branches) - 1, {"title": "Rate limited", "description": "Too many requests.",
                                        "type": "integer", "format": "int32", "const": -32001})


def enum_keyword_rewrite(schema: Json, meta: Json) -> None:
    node = d(schema, "PlanEntryPriority")
    values = [b["const"] for b in node.pop("oneOf")]
    node["type"] = "string"
    node["enum"] = values


def reverse_enum(schema: Json, meta: Json) -> None:
    d(schema, "StopReason")["oneOf"].reverse()


def edit_prop(name: str, member: str, **changes: Any) -> Edit:
    """Set keywords on a property schema; a value of ``None`` removes the keyword."""
    def edit(schema: Json, meta: Json) -> None:
        p = prop(schema, name, member)
        for key, value in changes.items():
            key = _kw(key)
            if value is None:
                del p[key]
            else:
                p[key] = value

    return edit


def edit_def(name: str, **changes: Any) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, name)
        for key, value in changes.items():
            key = _kw(key)
            if value is None:
                del node[key]
            else:
                node[key] = value

    return edit


def _kw(key: str) -> str:
    """Python keyword arguments for JSON Schema keywords: ``x_foo`` -> ``x-foo``, ``S_comment``
    -> ``$comment``, ``not_`` -> ``not``."""
    if key.startswith("S_"):
        return "$" + key[2:]
    if key.endswith("_"):
        return key[:-1]
    return key.replace("_", "-") if key.startswith("x_") else key


def set_required(name: str, required: list[str]) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        d(schema, name)["required"] = required

    return edit


def add_required(name: str, member: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, name)
        node["required"] = [*node.get("required", []), member]

    return edit


def add_prop(name: str, member: str, node: Json, required: bool = False) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        d(schema, name)["properties"][member] = node
        if required:
            d(schema, name)["required"] = [*d(schema, name).get("required", []), member]

    return edit


def remove_prop(name: str, member: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        del d(schema, name)["properties"][member]
        if member in d(schema, name).get("required", []):
            d(schema, name)["required"].remove(member)

    return edit


def at(pointer: str, value: Any) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        set_in(schema, pointer, value)

    return edit


def compose(*edits: Edit) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        for e in edits:
            e(schema, meta)

    return edit


def session_id_object(schema: Json, meta: Json) -> None:
    schema["$defs"]["SessionId"] = {
        "description": "A session id.", "type": "object",
        "properties": {"id": {"type": "string"}}, "required": ["id"],
    }


def protocol_level_jsonrpc(schema: Json, meta: Json) -> None:
    schema["anyOf"][2]["properties"]["jsonrpc"]["enum"] = ["2.0", "2.1"]


def drop_not(schema: Json, meta: Json) -> None:
    del d(schema, "CreateElicitationRequest")["anyOf"][2]["not"]


def drop_unevaluated(schema: Json, meta: Json) -> None:
    del d(schema, "CreateElicitationRequest")["anyOf"][2]["unevaluatedProperties"]


def rename_prop(name: str, member: str, new_member: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, name)
        node["properties"][new_member] = node["properties"].pop(member)
        if member in node.get("required", []):
            node["required"] = [new_member if r == member else r for r in node["required"]]

    return edit


def rename_enum_value(name: str, value: str, new_value: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        for b in enum_branches(d(schema, name)):
            if b.get("const") == value:
                b["const"] = new_value

    return edit


def plan_carries_content_chunk(schema: Json, meta: Json) -> None:
    tagged_branch(d(schema, "SessionUpdate"), "plan")["allOf"] = [ref("ContentChunk")]


def describe_end_turn(schema: Json, meta: Json) -> None:
    for b in enum_branches(d(schema, "StopReason")):
        if b.get("const") == "end_turn":
            b["description"] = "The turn ended normally (reworded)."


def union_keyword(name: str, old: str, new: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        node = d(schema, name)
        node[new] = node.pop(old)

    return edit


def rename_meta_key(schema: Json, meta: Json) -> None:
    group, key = meta_key(meta, "session/list")
    meta[group]["list_sessions"] = meta[group].pop(key)


def meta_version(schema: Json, meta: Json) -> None:
    meta["version"] = 2


def agent_envelope_jsonrpc_optional(schema: Json, meta: Json) -> None:
    schema["anyOf"][0]["required"] = []


def unknown_keyword_and_new_member(schema: Json, meta: Json) -> None:
    prop(schema, "ReadTextFileRequest", "path")["frobnicate"] = True
    d(schema, "ReadTextFileRequest")["properties"]["encoding"] = {"type": ["string", "null"]}


def drop_required(name: str, member: str) -> Edit:
    def edit(schema: Json, meta: Json) -> None:
        d(schema, name)["required"] = [r for r in d(schema, name)["required"] if r != member]

    return edit


def nothing(schema: Json, meta: Json) -> None:
    pass


def _reindent(blob: bytes) -> bytes:
    return json.dumps(json.loads(blob), indent=4).encode()


# -- the matrix -------------------------------------------------------------------------------

P = "/$defs"

MUTATIONS: tuple[Mutation, ...] = (
    # Annotations: documentation and vendor keys, never assertions.
    Mutation("ann-def-description", "PromptRequest description reworded",
             edit_def("PromptRequest", description="Sends a user prompt (reworded)."), 1, C, C),
    Mutation("ann-prop-description", "description of ReadTextFileRequest.path reworded",
             edit_prop("ReadTextFileRequest", "path", description="Absolute path."), 1, C, C),
    Mutation("ann-description-inside-title-property",
             "description keyword inside the property named title (Implementation.title)",
             edit_prop("Implementation", "title", description="A display title."), 1, C, C,
             reports=(f"{P}/Implementation/properties/title",)),
    Mutation("ann-description-inside-description-property",
             "description keyword inside the property named description (ResourceLink)",
             edit_prop("ResourceLink", "description", description="Reworded."), 1, C, C),
    Mutation("ann-deprecated-def", "deprecated: true added to a def",
             edit_def("PromptRequest", deprecated=True), 1, C, C),
    Mutation("ann-deprecated-prop", "deprecated: true added to ToolCall.kind",
             edit_prop("ToolCall", "kind", deprecated=True), 1, C, C),
    Mutation("ann-examples", "examples added to CreateTerminalRequest.command",
             edit_prop("CreateTerminalRequest", "command", examples=["ls", "make"]), 1, C, C),
    Mutation("ann-comment", "$comment added to SessionId",
             edit_def("SessionId", S_comment="opaque"), 1, C, C),
    Mutation("ann-readonly", "readOnly added to ResourceLink.uri",
             edit_prop("ResourceLink", "uri", readOnly=True), 1, C, C),
    Mutation("ann-writeonly", "writeOnly added to HttpHeader.value",
             edit_prop("HttpHeader", "value", writeOnly=True), 1, C, C),
    Mutation("ann-x-vendor-added", "an x-* vendor key added to a def",
             edit_def("ToolCall", x_rust_type="acp::ToolCall"), 1, C, C),
    Mutation("ann-x-deserialize-removed", "x-deserialize-default-on-error dropped from a member",
             edit_prop("ReadTextFileRequest", "line", x_deserialize_default_on_error=None), 1, C, C),
    Mutation("ann-schema-title", "the top-level title changed",
             at("/title", "ACP"), 1, C, C),
    Mutation("ann-def-title-added", "title added to SessionId",
             edit_def("SessionId", title="Session identifier"), 1, C, C),
    Mutation("ann-envelope-description", "description of the Agent message envelope",
             at("/anyOf/0/description", "A message an agent sends."), 1, C, C),
    Mutation("ann-openapi-discriminator-dropped",
             "the OpenAPI discriminator keyword dropped (tags stay const)",
             edit_def("RequestPermissionOutcome", discriminator=None), 1, C, C),

    # Property names that are also keyword names: always properties.
    Mutation("kw-not-on-description-property", "not added to ResourceLink.description",
             edit_prop("ResourceLink", "description", not_={"const": ""}), 3, B, B,
             reports=(f"{P}/ResourceLink/properties/description",)),
    Mutation("kw-not-on-name-property", "not added to ResourceLink.name (control)",
             edit_prop("ResourceLink", "name", not_={"const": ""}), 3, B, B,
             reports=(f"{P}/ResourceLink/properties/name",)),
    Mutation("kw-minlength-on-title-property", "minLength added to ToolCall.title",
             edit_prop("ToolCall", "title", minLength=1), 3, C, B,
             reports=(f"{P}/ToolCall/properties/title",)),
    Mutation("kw-maxlength-on-auth-description", "maxLength added to AuthMethodAgent.description",
             edit_prop("AuthMethodAgent", "description", maxLength=200), 3, C, B),
    Mutation("kw-title-property-not-null", "Implementation.title no longer accepts null",
             edit_prop("Implementation", "title", type="string"), 3, B, B),
    Mutation("kw-description-property-required", "ResourceLink.description becomes required",
             add_required("ResourceLink", "description"), 3, B, B),
    Mutation("kw-description-property-removed", "AuthMethodAgent.description removed",
             remove_prop("AuthMethodAgent", "description"), 3, C, B),
    Mutation("kw-examples-property-added", "an optional property named examples added",
             add_prop("ToolCall", "examples", {"type": ["array", "null"],
                                               "items": {"type": "string"}}), 1, C, C),
    Mutation("kw-default-property-type", "the property named default becomes an integer",
             edit_prop("StringPropertySchema", "default", type=["integer", "null"]), 3, B, B),
    Mutation("kw-pattern-property-not-null", "the property named pattern no longer accepts null",
             edit_prop("StringPropertySchema", "pattern", type="string"), 3, C, B),
    Mutation("kw-enum-property-items", "items of the property named enum get minLength",
             edit_prop("StringPropertySchema", "enum", items={"type": "string", "minLength": 1}),
             3, C, B),
    Mutation("kw-title-property-removed", "Implementation.title removed",
             remove_prop("Implementation", "title"), 3, B, B),
    Mutation("kw-format-property-not-null", "the property named format no longer accepts null",
             edit_prop("StringPropertySchema", "format", anyOf=[ref("StringFormat")]), 3, C, B),
    Mutation("kw-minlength-property-minimum", "minimum of the property named minLength raised",
             edit_prop("StringPropertySchema", "minLength", minimum=1), 3, C, B),
    Mutation("kw-properties-property-maxproperties",
             "maxProperties on the property named properties (ElicitationSchema)",
             edit_prop("ElicitationSchema", "properties", maxProperties=50), 3, C, B),
    Mutation("kw-default-keyword-on-default-property",
             "a default added to the property named default",
             edit_prop("StringPropertySchema", "default", default="n/a"), 3, B, B),

    # Two changes in one def: both reported, neither hides the other.
    Mutation("two-multipleof-and-optional-member",
             "multipleOf on ReadTextFileRequest.limit plus a new optional member",
             two_changes_limit_and_new_member, 3, C, B,
             reports=(f"{P}/ReadTextFileRequest/properties/limit",
                      f"{P}/ReadTextFileRequest/properties/encoding")),
    Mutation("two-description-and-uniqueitems",
             "PromptRequest description reworded plus uniqueItems on prompt",
             two_changes_doc_and_unique, 3, B, C,
             reports=(f"{P}/PromptRequest/properties/prompt",)),
    Mutation("two-member-added-and-required-dropped",
             "ReadTextFileResponse gains a member and content becomes optional",
             two_changes_member_and_optional, 3, C, B,
             reports=(f"{P}/ReadTextFileResponse/properties/encoding",
                      f"{P}/ReadTextFileResponse/properties/content")),
    Mutation("two-description-and-name-constraints",
             "maxLength on ResourceLink.description and minLength on .name",
             two_changes_description_and_name, 3, B, B,
             reports=(f"{P}/ResourceLink/properties/description",
                      f"{P}/ResourceLink/properties/name")),

    # Defaults: omission changes meaning for the sender and the receiver.
    Mutation("default-changed-agent-writes", "AgentCapabilities.loadSession default true",
             edit_prop("AgentCapabilities", "loadSession", default=True), 3, B, B),
    Mutation("default-changed-client-writes", "ClientCapabilities.terminal default true",
             edit_prop("ClientCapabilities", "terminal", default=True), 3, B, B),
    Mutation("default-added", "ReadTextFileRequest.line gets default 1",
             edit_prop("ReadTextFileRequest", "line", default=1), 3, B, B),
    Mutation("default-removed", "FileSystemCapabilities.readTextFile loses its default",
             edit_prop("FileSystemCapabilities", "readTextFile", default=None), 3, B, B),
    Mutation("default-restated-member-dropped",
             "promptCapabilities default drops embeddedContext (equal to its own default)",
             edit_prop("AgentCapabilities", "promptCapabilities",
                       default={"image": False, "audio": False}), 1, C, C),
    Mutation("default-restated-empty",
             "ClientCapabilities.auth default {terminal: false} -> {} (terminal defaults false)",
             edit_prop("ClientCapabilities", "auth", default={}), 1, C, C),
    Mutation("default-object-member-changed", "ClientCapabilities.fs default readTextFile true",
             edit_prop("ClientCapabilities", "fs",
                       default={"readTextFile": True, "writeTextFile": False}), 3, B, B),

    # Nullability.
    Mutation("null-added", "ReadTextFileRequest.path accepts null",
             edit_prop("ReadTextFileRequest", "path", type=["string", "null"]), 3, B, C),
    Mutation("null-removed", "ReadTextFileRequest.line no longer accepts null",
             edit_prop("ReadTextFileRequest", "line", type="integer"), 3, C, B),
    Mutation("null-added-client-writes", "TerminalOutputResponse.truncated accepts null",
             edit_prop("TerminalOutputResponse", "truncated", type=None,
                       anyOf=[{"type": "boolean"}, {"type": "null"}]), 3, C, B),
    Mutation("null-removed-client-writes", "TerminalOutputResponse.exitStatus not nullable",
             edit_prop("TerminalOutputResponse", "exitStatus", anyOf=None,
                       allOf=[ref("TerminalExitStatus")]), 3, B, C),
    Mutation("null-added-def", "SessionId accepts null",
             edit_def("SessionId", type=["string", "null"]), 3, B, B),

    # Required / optional / added / removed members.
    Mutation("req-optional-to-required-agent-writes", "ReadTextFileRequest.line required",
             add_required("ReadTextFileRequest", "line"), 3, C, B),
    Mutation("req-optional-to-required-client-writes",
             "NewSessionRequest.additionalDirectories required",
             add_required("NewSessionRequest", "additionalDirectories"), 3, B, C),
    Mutation("req-required-to-optional-client-writes", "ReadTextFileResponse.content optional",
             set_required("ReadTextFileResponse", []), 3, C, B),
    Mutation("req-required-to-optional-agent-writes", "PromptResponse.stopReason optional",
             set_required("PromptResponse", []), 3, B, C),
    Mutation("prop-added-optional", "CreateTerminalRequest gains optional timeout",
             add_prop("CreateTerminalRequest", "timeout", {"type": ["integer", "null"]}),
             1, C, C),
    Mutation("prop-added-required", "McpServerStdio gains required timeout",
             add_prop("McpServerStdio", "timeout", {"type": "integer"}, required=True), 3, B, C),
    Mutation("prop-removed-optional-client-writes", "TerminalOutputResponse.exitStatus removed",
             remove_prop("TerminalOutputResponse", "exitStatus"), 3, B, C),
    Mutation("prop-removed-required", "PlanEntry.priority removed",
             remove_prop("PlanEntry", "priority"), 3, B, B),

    # additionalProperties.
    Mutation("addl-closed-agent-writes", "ReadTextFileRequest forbids additional properties",
             edit_def("ReadTextFileRequest", additionalProperties=False), 3, C, B),
    Mutation("addl-closed-client-writes", "CancelNotification forbids additional properties",
             edit_def("CancelNotification", additionalProperties=False), 3, B, C),
    Mutation("addl-meta-closed", "PromptRequest._meta forbids additional properties",
             edit_prop("PromptRequest", "_meta", additionalProperties=False), 3, B, C),
    Mutation("addl-map-values-widened", "AuthMethodTerminal.env values may be anything",
             edit_prop("AuthMethodTerminal", "env", additionalProperties=True), 3, B, C),
    Mutation("addl-map-values-narrowed", "AuthMethodTerminal.env values get maxLength",
             edit_prop("AuthMethodTerminal", "env",
                       additionalProperties={"type": "string", "maxLength": 100}), 3, C, B),
    Mutation("addl-true-restated", "additionalProperties: true stated on an open def",
             edit_def("EnvVariable", additionalProperties=True), 1, C, C),

    # Enums.
    Mutation("enum-value-added-agent-writes", "ToolKind gains browse",
             add_enum_value("ToolKind", "browse"), 3, B, C),
    Mutation("enum-value-removed-agent-writes", "ToolCallStatus loses failed",
             remove_enum_value("ToolCallStatus", "failed"), 3, C, B),
    Mutation("enum-value-added-both", "Role gains system",
             add_enum_value("Role", "system"), 3, B, B),
    Mutation("enum-value-added-open", "the open SessionConfigOptionCategory gains speed",
             add_enum_value("SessionConfigOptionCategory", "speed", before_catch_all=True),
             1, C, C),
    # (Revised from 1, C, C for consistency with a removed optional property: the value is
    # still valid on the wire, but what the writer means by it is no longer understood.)
    Mutation("enum-value-removed-open", "the open SessionConfigOptionCategory loses model_config",
             remove_enum_value("SessionConfigOptionCategory", "model_config"), 3, C, B),
    Mutation("properties-reordered", "PlanEntry declares its properties in reverse order",
             lambda s, m: d(s, "PlanEntry").__setitem__(
                 "properties", dict(reversed(list(d(s, "PlanEntry")["properties"].items())))),
             # Not a change at all (issue 24, class 7): the same document, member order aside.
             0),
    Mutation("enum-reordered", "StopReason values listed in reverse order",
             reverse_enum, 1, C, C),
    Mutation("enum-keyword-rewrite", "PlanEntryPriority as type+enum instead of oneOf consts",
             enum_keyword_rewrite, 1, C, C),
    Mutation("enum-open-integer-added", "ErrorCode (open) gains -32001",
             add_error_code, 1, C, C),

    # Const and tags.
    Mutation("const-tag-renamed", "SessionUpdate tag plan -> plan_update",
             retag("SessionUpdate", "plan", "plan_update"), 3, B, B),
    Mutation("const-added", "CreateTerminalRequest.command must be sh",
             edit_prop("CreateTerminalRequest", "command", const="sh"), 3, C, B),
    Mutation("const-removed-from-envelope-enum", "ProtocolLevel jsonrpc accepts 2.1 too",
             protocol_level_jsonrpc, 3, B, B),

    # Unions.
    Mutation("variant-added-agent-writes", "SessionUpdate gains status_update",
             add_session_update_variant, 3, B, C),
    Mutation("variant-removed-agent-writes", "SessionUpdate loses plan",
             remove_tagged("SessionUpdate", "plan"), 3, C, B),
    Mutation("variant-added-both", "ContentBlock gains video",
             add_content_block_variant, 3, B, B),
    Mutation("variant-added-client-writes", "RequestPermissionOutcome gains deferred",
             add_outcome_variant, 3, C, B),
    Mutation("variant-removed-client-writes", "McpServer loses sse",
             remove_tagged("McpServer", "sse"), 3, B, C),
    Mutation("union-branch-added-untagged", "ElicitationContentValue accepts null",
             lambda s, m: d(s, "ElicitationContentValue")["anyOf"].append(
                 {"title": "Null", "type": "null"}), 3, C, B),
    Mutation("union-branch-removed-untagged", "ElicitationContentValue loses StringArray",
             lambda s, m: d(s, "ElicitationContentValue")["anyOf"].pop(), 3, B, C),

    # Types and constraints, direction-aware.
    Mutation("type-disjoint", "ReadTextFileResponse.content string -> integer",
             edit_prop("ReadTextFileResponse", "content", type="integer"), 3, B, B),
    Mutation("type-widened", "CreateTerminalRequest.command string or integer",
             edit_prop("CreateTerminalRequest", "command", type=["string", "integer"]), 3, B, C),
    Mutation("type-number-to-integer", "Cost.amount number -> integer",
             edit_prop("Cost", "amount", type="integer", format=None), 3, C, B),
    Mutation("type-integer-to-number", "UsageUpdate.used integer -> number",
             edit_prop("UsageUpdate", "used", type="number", format=None), 3, B, C),
    Mutation("minimum-raised", "ReadTextFileRequest.line minimum 1",
             edit_prop("ReadTextFileRequest", "line", minimum=1), 3, C, B),
    Mutation("maximum-added", "CreateTerminalRequest.outputByteLimit maximum 1 MiB",
             edit_prop("CreateTerminalRequest", "outputByteLimit", maximum=1048576), 3, C, B),
    Mutation("maximum-lowered-both", "ProtocolVersion maximum 100",
             edit_def("ProtocolVersion", maximum=100), 3, B, B),
    Mutation("format-widened", "ReadTextFileRequest.line uint32 -> uint64",
             edit_prop("ReadTextFileRequest", "line", format="uint64"), 3, B, C),
    Mutation("format-narrowed-both", "ResourceLink.size int64 -> int32",
             edit_prop("ResourceLink", "size", format="int32"), 3, B, B),
    Mutation("format-widened-client-writes", "TerminalExitStatus.exitCode uint32 -> int64",
             edit_prop("TerminalExitStatus", "exitCode", format="int64", minimum=None), 3, C, B),
    Mutation("pattern-added", "HttpHeader.name gets a pattern",
             edit_prop("HttpHeader", "name", pattern="^[A-Za-z-]+$"), 3, B, C),
    Mutation("minitems-added", "NewSessionRequest.mcpServers minItems 1",
             edit_prop("NewSessionRequest", "mcpServers", minItems=1), 3, B, C),
    Mutation("maxitems-added", "ToolCall.locations maxItems 10",
             edit_prop("ToolCall", "locations", maxItems=10), 3, C, B),
    Mutation("uniqueitems-added", "McpServerStdio.args uniqueItems",
             edit_prop("McpServerStdio", "args", uniqueItems=True), 3, B, C),
    Mutation("multipleof-added", "ReadTextFileRequest.limit multipleOf 10",
             edit_prop("ReadTextFileRequest", "limit", multipleOf=10), 3, C, B),
    Mutation("items-disjoint", "NewSessionRequest.additionalDirectories items integer",
             edit_prop("NewSessionRequest", "additionalDirectories", items={"type": "integer"}),
             3, B, B),
    Mutation("items-narrowed", "CreateTerminalRequest.args items minLength 1",
             edit_prop("CreateTerminalRequest", "args", items={"type": "string", "minLength": 1}),
             3, C, B),
    Mutation("any-to-object", "ToolCall.rawInput {} -> object",
             edit_prop("ToolCall", "rawInput", type="object"), 3, C, B),
    Mutation("not-removed", "the other-mode branch of CreateElicitationRequest loses its not",
             drop_not, 3, B, C),
    Mutation("unevaluated-true-removed", "unevaluatedProperties: true dropped (a no-op)",
             drop_unevaluated, 1, C, C),
    Mutation("if-then-added", "ReadTextFileRequest: limit requires line (if/then)",
             edit_def("ReadTextFileRequest", **{"if": {"required": ["limit"]},
                                                "then": {"required": ["line"]}}), 3, C, B),
    Mutation("propertynames-added", "AuthMethodTerminal.env names must be upper case",
             edit_prop("AuthMethodTerminal", "env", propertyNames={"pattern": "^[A-Z_]+$"}),
             3, C, B),
    Mutation("dependentrequired-added", "ReadTextFileRequest: limit requires line",
             edit_def("ReadTextFileRequest", dependentRequired={"limit": ["line"]}), 3, C, B),
    Mutation("primitive-def-narrowed", "ToolCallId minLength 1",
             edit_def("ToolCallId", minLength=1), 3, C, B),
    Mutation("primitive-def-widened", "ToolCallId string or integer",
             edit_def("ToolCallId", type=["string", "integer"]), 3, B, C),
    Mutation("error-message-maxlength", "Error.message maxLength (Error travels both ways)",
             edit_prop("Error", "message", maxLength=1000), 3, B, B),

    # Equivalent rewrites: same wire, reported as source-level changes.
    Mutation("eq-allof-one-branch", "ReadTextFileRequest.path as allOf of one branch",
             edit_prop("ReadTextFileRequest", "path", type=None, allOf=[{"type": "string"}]),
             1, C, C),
    Mutation("eq-allof-unwrapped-ref", "PromptResponse.stopReason $ref without allOf",
             edit_prop("PromptResponse", "stopReason", allOf=None,
                       S_ref="#/$defs/StopReason"), 1, C, C),
    Mutation("eq-inline-primitive-def", "ReadTextFileRequest.sessionId inlines SessionId",
             edit_prop("ReadTextFileRequest", "sessionId", allOf=None, type="string"), 1, C, C),
    Mutation("eq-inline-object-def", "UsageUpdate.cost inlines Cost", inline_cost, 1, C, C),
    Mutation("eq-extract-def", "ReadTextFileRequest.path moved into a new def FilePath",
             extract_path_def, 1, C, C),
    Mutation("eq-rename-def", "Cost renamed UsageCost (every $ref follows)",
             rename_def("Cost", "UsageCost"), 1, C, C),
    Mutation("eq-type-array-of-one", "SessionId type [string]",
             edit_def("SessionId", type=["string"]), 1, C, C),
    Mutation("eq-nullable-as-anyof", "ReadTextFileRequest.line nullable spelt with anyOf",
             nullable_as_anyof, 1, C, C),
    Mutation("eq-required-reordered", "ReadTextFileRequest.required in reverse order",
             set_required("ReadTextFileRequest", ["path", "sessionId"]), 0),
    Mutation("eq-reformatted", "the same schema, re-indented",
             nothing, 0, raw=_reindent),

    # Methods: meta.json, defs and union branches together.
    Mutation("method-added-agent-request", "session/fork added", add_agent_request, 1, C, C,
             reports=("session/fork",)),
    Mutation("method-added-client-request", "fs/list_directory added", add_client_request,
             1, C, C),
    Mutation("method-added-notification", "session/heartbeat added",
             add_client_notification_method, 1, C, C),
    Mutation("method-removed-agent-handles", "session/delete removed",
             remove_request("session/delete", "DeleteSessionRequest", "DeleteSessionResponse",
                            "ClientRequest", "AgentResponse"), 3, B, C),
    Mutation("method-removed-client-handles", "terminal/kill removed",
             remove_request("terminal/kill", "KillTerminalRequest", "KillTerminalResponse",
                            "AgentRequest", "ClientResponse"), 3, C, B),
    Mutation("method-removed-notification", "session/cancel removed", remove_session_cancel,
             3, B, C),
    Mutation("method-renamed", "session/close -> session/end", rename_session_close, 3, B, B),
    Mutation("method-renamed-with-defs", "terminal/kill -> terminal/terminate, defs renamed",
             rename_terminal_kill_with_defs, 3, B, B),
    Mutation("method-request-to-notification", "terminal/kill becomes a notification",
             kill_becomes_notification, 3, B, B),
    Mutation("method-notification-to-request", "session/cancel becomes a request",
             cancel_becomes_request, 3, B, B),
    Mutation("method-side-changed", "elicitation/complete is handled by the agent instead",
             complete_elicitation_moves_to_agent, 3, B, B),

    # Capabilities.
    Mutation("cap-added-client", "ClientCapabilities gains git",
             add_prop("ClientCapabilities", "git", {"type": "boolean", "default": False}),
             1, C, C),
    Mutation("cap-added-agent", "AgentCapabilities gains forkSession",
             add_prop("AgentCapabilities", "forkSession", {"type": "boolean", "default": False}),
             1, C, C),
    Mutation("cap-removed-client", "ClientCapabilities loses terminal",
             remove_prop("ClientCapabilities", "terminal"), 3, B, C),
    Mutation("cap-removed-agent", "SessionCapabilities loses close",
             remove_prop("SessionCapabilities", "close"), 3, C, B),

    # Defs.
    Mutation("def-added-unused", "a def nothing refers to", at("/$defs/Unused",
                                                             {"type": "string"}), 1, C, C),
    Mutation("def-removed-with-its-member", "Cost removed with UsageUpdate.cost",
             compose(remove_prop("UsageUpdate", "cost"),
                     lambda s, m: s["$defs"].pop("Cost")), 3, C, B),
    Mutation("def-shape-changed", "SessionId string -> object", session_id_object, 3, B, B),

    # Renames, payloads, and more of the same kinds in other places.
    Mutation("prop-renamed-optional", "ToolCall.name renamed displayName (both optional)",
             rename_prop("ToolCall", "name", "displayName"), 3, C, B),
    Mutation("prop-renamed-required", "ReadTextFileRequest.path renamed filePath (required)",
             rename_prop("ReadTextFileRequest", "path", "filePath"), 3, B, B),
    Mutation("enum-value-renamed", "StopReason refusal -> refused",
             rename_enum_value("StopReason", "refusal", "refused"), 3, B, B),
    Mutation("variant-payload-changed", "SessionUpdate plan carries a ContentChunk instead",
             plan_carries_content_chunk, 3, B, B),
    Mutation("enum-value-description", "the description of StopReason end_turn reworded",
             describe_end_turn, 1, C, C),
    Mutation("maxlength-on-def-both-ways", "SessionId maxLength 128",
             edit_def("SessionId", maxLength=128), 3, B, B),
    Mutation("nullable-ref-added", "PromptResponse.stopReason may be null",
             edit_prop("PromptResponse", "stopReason", allOf=None,
                       anyOf=[ref("StopReason"), {"type": "null"}]), 3, B, C),
    Mutation("meta-member-required", "PromptRequest._meta becomes required",
             add_required("PromptRequest", "_meta"), 3, B, C),
    Mutation("required-added-both-ways", "EnvVariable gains required secret",
             add_prop("EnvVariable", "secret", {"type": "boolean"}, required=True), 3, B, B),
    Mutation("result-required-added", "AuthenticateResponse gains required token",
             add_prop("AuthenticateResponse", "token", {"type": "string"}, required=True),
             3, C, B),
    Mutation("oneof-to-anyof-values", "StopReason values as anyOf instead of oneOf",
             union_keyword("StopReason", "oneOf", "anyOf"), 1, C, C),
    Mutation("oneof-to-anyof-tagged", "ContentBlock branches as anyOf (tags keep them apart)",
             union_keyword("ContentBlock", "oneOf", "anyOf"), 1, C, C),
    Mutation("discriminator-annotation-changed", "the OpenAPI discriminator names another property",
             edit_def("RequestPermissionOutcome", discriminator={"propertyName": "kind"}), 1, C, C),
    Mutation("meta-version-changed", "meta.json version 1 -> 2", meta_version, 3, B, B),
    Mutation("meta-key-renamed", "meta.json key session_list -> list_sessions (same wire name)",
             rename_meta_key, 1, C, C),
    Mutation("envelope-jsonrpc-optional", "the Agent message envelope no longer requires jsonrpc",
             agent_envelope_jsonrpc_optional, 3, B, C),
    Mutation("unknown-keyword", "an unknown keyword on ReadTextFileRequest.path",
             # jsonschema gives an unknown keyword no meaning, so no witness can exist; acpgen
             # cannot know what a future vocabulary means: unproven, never compatible (issue 24).
             edit_prop("ReadTextFileRequest", "path", frobnicate=True), 4, U, U),
    Mutation("unknown-keyword-and-new-member",
             "an unknown keyword plus a new optional member in the same def",
             unknown_keyword_and_new_member, 4, U, U,
             reports=(f"{P}/ReadTextFileRequest/properties/path",
                      f"{P}/ReadTextFileRequest/properties/encoding")),

    # Real releases do this (v0.1.3-alpha.0 lists the terminal methods, whose defs were not
    # annotated yet): a method known by wire name and side only, added; not bad input (issue 24).
    Mutation("meta-method-without-defs", "meta.json lists a new method with no defs",
             lambda s, m: m["agentMethods"].__setitem__("ghost", "ghost/method"), 1, C, C),
    Mutation("def-renamed-in-union", "TextResourceContents renamed TextResource (a union branch)",
             rename_def("TextResourceContents", "TextResource"), 1, C, C),
    Mutation("union-branch-retitled", "ElicitationContentValue branch String retitled Text",
             lambda s, m: d(s, "ElicitationContentValue")["anyOf"][0].__setitem__("title", "Text"),
             1, C, C),

    Mutation("minitems-agent-writes", "ToolCall.content minItems 1",
             edit_prop("ToolCall", "content", minItems=1), 3, C, B),
    Mutation("req-dropped-client-writes", "CancelNotification.sessionId optional",
             drop_required("CancelNotification", "sessionId"), 3, C, B),
    Mutation("variant-removed-both", "ContentBlock loses resource_link",
             remove_tagged("ContentBlock", "resource_link"), 3, B, B),
    Mutation("enum-value-added-stop-reason", "StopReason gains paused",
             add_enum_value("StopReason", "paused"), 3, B, C),
    Mutation("enum-value-removed-status", "ToolCallStatus loses pending",
             remove_enum_value("ToolCallStatus", "pending"), 3, C, B),
    Mutation("cap-added-nullable", "AgentCapabilities gains a nullable fork member",
             add_prop("AgentCapabilities", "fork", {"type": ["boolean", "null"]}), 1, C, C),
    Mutation("default-removed-object", "ClientCapabilities.fs loses its default",
             edit_prop("ClientCapabilities", "fs", default=None), 3, B, B),
    Mutation("default-changed-prompt-image", "PromptCapabilities.image default true",
             edit_prop("PromptCapabilities", "image", default=True), 3, B, B),
    Mutation("ann-title-keyword-on-title-property", "a title keyword inside ToolCall.title",
             edit_prop("ToolCall", "title", title="Title"), 1, C, C),
    Mutation("ann-examples-on-title-property", "examples inside ToolCall.title",
             edit_prop("ToolCall", "title", examples=["Read file"]), 1, C, C),
    Mutation("union-branch-added-both", "RequestId accepts booleans",
             lambda s, m: d(s, "RequestId")["anyOf"].append({"title": "Bool", "type": "boolean"}),
             3, B, B),
    Mutation("union-null-branch-removed-both", "RequestId no longer accepts null",
             lambda s, m: d(s, "RequestId")["anyOf"].pop(0), 3, B, B),
    Mutation("pattern-on-def-both", "SessionId gets a pattern",
             edit_def("SessionId", pattern="^[a-z0-9-]+$"), 3, B, B),
    Mutation("addl-closed-nested-client-writes", "HttpHeader forbids additional properties",
             edit_def("HttpHeader", additionalProperties=False), 3, B, C),
    Mutation("enum-closed-both", "ErrorCode loses its catch-all",
             lambda s, m: d(s, "ErrorCode")["anyOf"].pop(), 3, B, B),
    Mutation("null-added-capability", "AgentCapabilities.loadSession accepts null",
             edit_prop("AgentCapabilities", "loadSession", type=["boolean", "null"]), 3, B, C),
    Mutation("maxlength-agent-writes", "PlanEntry.content maxLength 100",
             edit_prop("PlanEntry", "content", maxLength=100), 3, C, B),
    Mutation("enum-value-renamed-open", "SessionConfigOptionCategory mode -> modes",
             rename_enum_value("SessionConfigOptionCategory", "mode", "modes"), 3, C, B),
    Mutation("ann-tag-property-description", "description of the plan branch's tag property",
             lambda s, m: tagged_branch(d(s, "SessionUpdate"), "plan")["properties"][
                 "sessionUpdate"].__setitem__("description", "The plan tag."), 1, C, C),

    Mutation("method-params-def-renamed", "PromptRequest renamed SendPromptRequest (same wire)",
             rename_def("PromptRequest", "SendPromptRequest"), 1, C, C),

    # Bad inputs: exit 2, nothing compared.
    Mutation("bad-json", "schema.json is not JSON", nothing, 2, raw=lambda b: b"{not json"),
    Mutation("bad-top-level", "schema.json is a JSON array", nothing, 2, raw=lambda b: b"[]"),
    Mutation("bad-ref", "a $ref to a def that does not exist",
             edit_prop("ReadTextFileRequest", "path", type=None, S_ref="#/$defs/Nope"), 2),
    Mutation("bad-meta-group-missing", "meta.json without clientMethods",
             lambda s, m: m.pop("clientMethods"), 2),
    Mutation("bad-x-method-not-in-meta", "a def annotated with a method meta.json lacks",
             edit_def("Cost", x_method="ghost/method", x_side="agent"), 2),
    Mutation("bad-metaschema", "a type keyword that is not a JSON type",
             edit_def("SessionId", type="strnig"), 2),
    Mutation("bad-x-side-contradicts-meta", "x-side says client for an agent method",
             edit_def("PromptRequest", x_side="client"), 2),
)


def build(mutation: Mutation, schema_blob: bytes, meta_blob: bytes) -> tuple[bytes, bytes]:
    """The mutated schema.json and meta.json bytes (the pinned ones are never touched)."""
    schema = json.loads(schema_blob)
    meta = json.loads(meta_blob)
    mutation.edit(schema, meta)
    if mutation.raw is not None:
        return mutation.raw(schema_blob), meta_blob
    return json.dumps(schema).encode(), json.dumps(meta).encode()
