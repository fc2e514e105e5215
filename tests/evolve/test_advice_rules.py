"""One small fixture pair per change kind: the report names it by its kind and says what the
SDK's user changes (issue 36).

Each pair is the tiny ACP-shaped schema of test_witness_rules (``ping``: a request the client
sends and the agent handles; ``note``: a notification the agent sends) and a copy with one
edit. The diff must report exactly the expected kind there, ``--explain`` must take that
kind, and the "do" line (:mod:`acpgen.evolve.advice`) must name what to do, written down here
for each kind: a broken side is never told "nothing required", a compatible change never told
to change its code.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from acpgen.evolve.advice import advice, kind_of
from acpgen.evolve.compat import RULES, explain
from tests.evolve.test_witness_rules import META, _base, _diff

Json = dict[str, Any]
Edit = Callable[[Json], None]


def _set(path: str, value: Any) -> Edit:
    def edit(s: Json) -> None:
        node = s["$defs"]
        *parents, last = path.split("/")
        for key in parents:
            node = node[key]
        node[last] = value
    return edit


def _delete(path: str) -> Edit:
    def edit(s: Json) -> None:
        node = s["$defs"]
        *parents, last = path.split("/")
        for key in parents:
            node = node[key]
        del node[last]
    return edit


def _both(*edits: Edit) -> Edit:
    def edit(s: Json) -> None:
        for e in edits:
            e(s)
    return edit


def _nothing(s: Json) -> None:
    pass


MODE = {"type": "string", "enum": ["a", "b"]}
IMAGE = {"type": "object", "properties": {"kind": {"type": "string", "const": "image"},
                                          "uri": {"type": "string"}}, "required": ["kind", "uri"]}
with_mode = _both(_set("Mode", MODE), _set("PingResponse/properties/mode", {"$ref": "#/$defs/Mode"}))

# id: (edit of OLD, edit of NEW, kind, (client, agent), words the "do" line must contain)
PAIRS: dict[str, tuple[Edit, Edit, str, tuple[str, str], str]] = {
    "def-added": (_nothing, _set("Extra", {"type": "string"}), "DEF_ADDED",
                  ("compatible", "compatible"), "nothing required; the generated models gain Extra"),
    "def-removed": (_set("Extra", {"type": "string"}), _nothing, "DEF_REMOVED",
                    ("compatible", "compatible"), "stop importing Extra"),
    "property-added": (_nothing, _set("PingResponse/properties/total", {"type": "integer"}),
                       "PROPERTY_ADDED", ("compatible", "compatible"), "PingResponse.total is there"),
    "property-added-required": (
        _nothing, _both(_set("PingRequest/properties/cwd", {"type": "string"}),
                        _set("PingRequest/required", ["sessionId", "cwd"])),
        "PROPERTY_ADDED", ("breaking", "compatible"), "set cwd wherever your client builds PingRequest"),
    "property-removed": (_nothing, _delete("PingResponse/properties/count"), "PROPERTY_REMOVED",
                         ("compatible", "breaking"), "stop setting (and relying on) PingResponse.count in your agent"),
    "property-required": (_nothing, _set("PingResponse/required", ["count"]), "PROPERTY_REQUIRED",
                          ("compatible", "breaking"), "always set PingResponse.count where your agent builds"),
    "property-optional": (_nothing, _set("PingRequest/required", []), "PROPERTY_OPTIONAL",
                          ("compatible", "breaking"), "handle a missing PingRequest.sessionId"),
    "nullable-added": (_nothing, _set("PingResponse/properties/count", {"type": ["integer", "null"]}),
                       "NULLABLE_ADDED", ("breaking", "compatible"), "handle null (None) in PingResponse.count where your client"),
    "nullable-removed": (_set("PingResponse/properties/count", {"type": ["integer", "null"]}), _nothing,
                         "NULLABLE_REMOVED", ("compatible", "breaking"), "never send null in PingResponse.count"),
    "type-widened": (_nothing, _set("PingResponse/properties/count", {"type": "number"}),
                     "TYPE_WIDENED", ("breaking", "compatible"), "accept the wider type of PingResponse.count"),
    "type-narrowed": (_set("PingResponse/properties/count", {"type": "number"}), _nothing,
                      "TYPE_NARROWED", ("compatible", "breaking"), "send only values of NEW's type in PingResponse.count"),
    "type-changed": (_nothing, _set("PingResponse/properties/count", {"type": "string"}),
                     "TYPE_CHANGED", ("breaking", "breaking"), "follow NEW's type of PingResponse.count"),
    "constraint-tightened": (_nothing, _set("PingResponse/properties/count", {"type": "integer", "minimum": 0}),
                             "CONSTRAINT_TIGHTENED", ("compatible", "breaking"), "send only values NEW accepts in PingResponse.count"),
    "constraint-relaxed": (_set("PingResponse/properties/count", {"type": "integer", "minimum": 0}), _nothing,
                           "CONSTRAINT_RELAXED", ("breaking", "compatible"), "accept the values NEW allows in PingResponse.count"),
    "enum-value-added": (with_mode, _both(with_mode, _set("Mode", {"type": "string", "enum": ["a", "b", "c"]})),
                         "ENUM_VALUE_ADDED", ("breaking", "compatible"), "handle the value c of Mode where your client"),
    "enum-value-removed": (with_mode, _both(with_mode, _set("Mode", {"type": "string", "enum": ["a"]})),
                           "ENUM_VALUE_REMOVED", ("compatible", "breaking"), "stop sending the value b of Mode"),
    "variant-added": (_nothing, lambda s: s["$defs"]["Update"]["oneOf"].append(IMAGE), "VARIANT_ADDED",
                      ("breaking", "compatible"), "handle the variant image of Update where your client reads it"),
    "variant-removed": (lambda s: s["$defs"]["Update"]["oneOf"].append(IMAGE), _nothing, "VARIANT_REMOVED",
                        ("compatible", "breaking"), "stop sending the variant image of Update"),
    "object-closed": (_nothing, _set("PingResponse/additionalProperties", False), "OBJECT_CLOSED",
                      ("compatible", "breaking"), "send no members PingResponse does not list"),
    "object-opened": (_set("PingResponse/additionalProperties", False), _nothing, "OBJECT_OPENED",
                      ("breaking", "compatible"), "accept unlisted members in PingResponse"),
    "default-changed": (_nothing, _set("PingResponse/properties/count", {"type": "integer", "default": 1}),
                        "DEFAULT_CHANGED", ("breaking", "breaking"), "set PingResponse.count explicitly"),
    "capability-added": (_nothing, _set("ClientCapabilities/properties/terminal", {"type": "boolean"}),
                         "CAPABILITY_ADDED", ("compatible", "compatible"), "advertise clientCapabilities.terminal once"),
    "capability-removed": (_nothing, _delete("FileSystemCapability/properties/readTextFile"),
                           "CAPABILITY_REMOVED", ("breaking", "compatible"), "stop advertising clientCapabilities.fs.readTextFile"),
    "constraint-changed": (_set("PingResponse/properties/count", {"type": "integer", "minimum": 0, "maximum": 5}),
                           _set("PingResponse/properties/count", {"type": "integer", "minimum": 10, "maximum": 20}),
                           "CONSTRAINT_CHANGED", ("breaking", "breaking"), "follow NEW's constraint on PingResponse.count"),
    "unclassified": (_nothing, _set("PingResponse/frobnicate", 1), "UNCLASSIFIED",
                     ("unproven", "unproven"), "review PingResponse"),
}


def _with_echo(s: Json) -> None:
    """The ``echo`` request (client -> agent) added as the real schema adds a method."""
    s["$defs"]["EchoRequest"] = {"type": "object", "x-method": "echo", "x-side": "agent",
                                 "properties": {"text": {"type": "string"}}}
    s["$defs"]["EchoResponse"] = {"type": "object", "x-method": "echo", "x-side": "agent",
                                  "properties": {"text": {"type": "string"}}}
    s["$defs"]["ClientRequest"]["properties"]["params"]["anyOf"].append({"$ref": "#/$defs/EchoRequest"})
    s["$defs"]["AgentResponse"]["anyOf"][0]["properties"]["result"]["anyOf"].append(
        {"$ref": "#/$defs/EchoResponse"})


@pytest.mark.parametrize(("added", "kind", "sides", "words"), [
    (True, "METHOD_ADDED", ("compatible", "compatible"), "nothing required; implement Agent.echo to support echo"),
    (False, "METHOD_REMOVED", ("breaking", "compatible"), "stop calling echo from your client"),
])
def test_a_method_added_or_removed_says_what_to_do(added: bool, kind: str, sides: tuple[str, str],
                                                  words: str) -> None:
    plain, grown = _base(), _base()
    _with_echo(grown)
    meta = copy.deepcopy(META)
    meta["agentMethods"]["echo"] = "echo"
    diff = (_diff(plain, grown, meta_new=meta) if added else _diff(grown, plain, meta_old=meta))
    [c] = [c for c in diff.semantic if c.kind == kind]
    assert (c.client, c.agent) == sides
    do = advice(c, (), {"echo": "Agent.echo", "ping": "Agent.ping"})
    assert words in do, do


def _change(pair: str) -> Any:
    old_edit, new_edit, kind, _, _ = PAIRS[pair]
    old, new = _base(), _base()
    old_edit(old)
    new_edit(new)
    diff = _diff(old, copy.deepcopy(new))
    found = [c for c in diff.semantic if c.kind == kind]
    assert found, (pair, [(c.kind, c.describe()) for c in diff.semantic])
    return found[0]


@pytest.mark.parametrize("pair", list(PAIRS))
def test_each_kind_says_what_to_do(pair: str) -> None:
    _, _, kind, sides, words = PAIRS[pair]
    c = _change(pair)
    assert (c.client, c.agent) == sides, (pair, c.describe(), c.client, c.agent)
    assert kind_of(kind) == kind and explain(kind) is not None
    do = advice(c, ("method note",) if "client" in sides else (),
                {"note": "Client.note", "ping": "Agent.ping"})
    assert words in do, (pair, do)
    if "breaking" in sides or "unproven" in sides:
        assert not do.startswith("nothing required"), do
    else:
        assert do.startswith("nothing required") or kind == "DEF_REMOVED", do


def test_the_pairs_cover_the_kinds_a_schema_edit_makes() -> None:
    covered = {p[2] for p in PAIRS.values()}
    # Methods: test_a_method_added_or_removed_says_what_to_do here, the others in the mutation
    # matrix. The rest are non-semantic or need more than one edit of this schema; their
    # advice is the generic line ("nothing required" or "review ... (KIND)").
    rest = {k for k in RULES if not k.startswith("METHOD_")} - covered
    assert rest == {"ENUM_OPENED", "ENUM_CLOSED", "EQUIVALENT_REWRITE", "DESCRIPTION_CHANGED",
                    "ANNOTATION_CHANGED", "CAPABILITY_CHANGED"}, rest
