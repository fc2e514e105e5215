"""Every JSON Schema 2020-12 keyword is classified, and the walker treats it by its class.

The keyword lists come from the 2020-12 vocabulary metaschemas shipped with jsonschema, not
from acpgen, so a keyword acpgen forgot makes these tests fail.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema_specifications import REGISTRY

from acpgen.evolve.keywords import kind_of
from acpgen.evolve.walk import ANNOTATION, NONE, UNCLASSIFIED, Walker

VOCABULARIES = sorted(u for u in REGISTRY if "/draft/2020-12/meta/" in u)
KEYWORDS = sorted({k for u in VOCABULARIES for k in REGISTRY.contents(u).get("properties", {})})

# A value for each keyword that makes a schema {"type": "string"} differ.
SAMPLE: dict[str, Any] = {
    "additionalProperties": False, "allOf": [{"minLength": 1}, {"maxLength": 9}],
    "anyOf": [{"minLength": 1}, {"maxLength": 9}], "contains": {"type": "string"},
    "dependentSchemas": {"a": {"required": ["b"]}}, "else": {"minLength": 2},
    "if": {"minLength": 1}, "items": {"type": "string"}, "not": {"const": ""},
    "oneOf": [{"minLength": 1}, {"maxLength": 9}], "patternProperties": {"^x": {"type": "string"}},
    "prefixItems": [{"type": "string"}], "properties": {"a": {"type": "string"}},
    "propertyNames": {"maxLength": 3}, "then": {"minLength": 2},
    "contentEncoding": "base64", "contentMediaType": "text/plain",
    "contentSchema": {"type": "object"}, "$anchor": "here", "$comment": "note",
    "$defs": {"X": {"type": "string"}}, "$dynamicAnchor": "meta", "$dynamicRef": "#meta",
    "$id": "https://example.com/t", "$ref": "#/$defs/Other", "$schema": "https://example.com/s",
    "$vocabulary": {"https://example.com/v": True}, "format": "uri", "default": "x",
    "deprecated": True, "description": "doc", "examples": ["a"], "readOnly": True, "title": "T",
    "writeOnly": True, "unevaluatedItems": False, "unevaluatedProperties": False, "const": "a",
    "dependentRequired": {"a": ["b"]}, "enum": ["a", "b"], "exclusiveMaximum": 9,
    "exclusiveMinimum": 1, "maxContains": 2, "maxItems": 2, "maxLength": 9, "maxProperties": 2,
    "maximum": 9, "minContains": 1, "minItems": 1, "minLength": 1, "minProperties": 1,
    "minimum": 1, "multipleOf": 2, "pattern": "^a", "required": ["a"], "type": "integer",
    "uniqueItems": True,
}
ANNOTATIONS = {"$comment", "description", "title", "examples", "deprecated", "readOnly",
               "writeOnly", "contentEncoding", "contentMediaType", "contentSchema"}


def test_the_vocabularies_were_found() -> None:
    assert len(VOCABULARIES) >= 8 and len(KEYWORDS) >= 55
    assert set(KEYWORDS) <= set(SAMPLE)


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_every_keyword_has_a_class(keyword: str) -> None:
    expected = "annotation" if keyword in ANNOTATIONS else (
        "identifier" if keyword in {"$anchor", "$dynamicAnchor", "$dynamicRef", "$id", "$schema",
                                    "$vocabulary"} else "assertion")
    assert kind_of(keyword) == expected


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_adding_a_keyword_is_reported_by_its_class(keyword: str) -> None:
    old = {"type": "string"}
    new = {**old, keyword: SAMPLE[keyword]}
    defs = {"Other": {"type": "string", "minLength": 3}}
    findings = Walker(defs, defs).compare(old, new, "/$defs/T")
    assert findings, keyword
    effects = {f.effect for f in findings}
    if kind_of(keyword) == "annotation":
        assert effects == {ANNOTATION}
    elif kind_of(keyword) == "identifier":
        assert effects == {UNCLASSIFIED}
    elif keyword == "properties":  # an optional member on an open object: valid before too
        assert [f.kind for f in findings] == ["PROPERTY_ADDED"]
    else:
        assert effects - {ANNOTATION, NONE, UNCLASSIFIED}, (keyword, findings)


def test_vendor_keys_are_annotations_except_the_method_bindings() -> None:
    assert kind_of("x-deserialize-default-on-error") == "annotation"
    assert kind_of("x-anything") == "annotation"
    assert kind_of("x-method") == kind_of("x-side") == "binding"
    assert kind_of("frobnicate") == "unknown"


def test_a_property_named_like_a_keyword_is_a_property() -> None:
    """The same edit under properties/description and properties/name: the same finding."""
    def edit(prop: str) -> list[tuple[str, str, str]]:
        old = {"type": "object", "properties": {"description": {"type": "string"},
                                                "name": {"type": "string"}}}
        new = {"type": "object", "properties": {**old["properties"],  # type: ignore[dict-item]
                                                prop: {"type": "string", "not": {"const": ""}}}}
        return [(f.kind, f.effect, f.pointer.rsplit("/", 1)[1])
                for f in Walker({}, {}).compare(old, new, "/$defs/T")]

    assert edit("description") == [("CONSTRAINT_TIGHTENED", "narrows", "description")]
    assert edit("name") == [("CONSTRAINT_TIGHTENED", "narrows", "name")]
