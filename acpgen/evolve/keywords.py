"""Every JSON Schema 2020-12 keyword, classified: what a change to it can do on the wire.

The diff walks schemas by position (:mod:`acpgen.evolve.walk`); at each schema position it
looks a key up here. A key is a keyword only at a schema position: inside ``properties`` (or
``$defs``, ``patternProperties``, ``dependentSchemas``) the keys are names, and the values
below them are schemas again, so a property called ``description`` or ``title`` is a
property like any other.

Annotations never change what is valid (2020-12 meta-data, content and unknown-keyword
vocabularies, the OpenAPI ``discriminator``, and ``x-*`` vendor keys, which acpgen gives no
meaning except ``x-side`` / ``x-method``: those bind a def to a method and are diffed as the
method table). ``default`` is an annotation in JSON Schema, but the generated runtime fills in
omitted members with it, so acpgen treats it as meaning (see ``DEFAULT_CHANGED``).
"""

from __future__ import annotations

# Documentation: changes are reported as DESCRIPTION_CHANGED.
DOC_KEYWORDS = frozenset({"description", "title", "examples", "$comment"})

# Other annotations: reported as ANNOTATION_CHANGED.
ANNOTATION_KEYWORDS = frozenset({
    "deprecated", "readOnly", "writeOnly",  # meta-data vocabulary
    "contentEncoding", "contentMediaType", "contentSchema",  # content vocabulary
    "discriminator",  # OpenAPI; acpgen finds union tags from const members, not from here
})

# Bind a def to a method (diffed through the method table, never as schema).
BINDING_KEYWORDS = frozenset({"x-side", "x-method"})

# Keywords whose values are schemas, or maps/lists of schemas (walked by position).
SCHEMA_VALUED = frozenset({
    "items", "contains", "additionalProperties", "propertyNames", "unevaluatedItems",
    "unevaluatedProperties", "not", "if", "then", "else",
})
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs"})

# Bounds: raising a lower bound or lowering an upper bound narrows what is valid.
LOWER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties",
                          "minContains"})
UPPER_BOUNDS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties",
                          "maxContains"})

# Assertions whose presence narrows and whose absence widens; a changed value is both.
PRESENCE_ASSERTIONS = frozenset({"pattern", "format", "propertyNames", "patternProperties",
                                 "dependentSchemas", "dependentRequired", "contains", "if",
                                 "then", "else"})

# Keywords that identify or resolve schemas: a change is not classifiable here.
IDENTIFIERS = frozenset({"$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef",
                         "$vocabulary"})

# Every keyword the walker gives a meaning to (anything else is reported as unclassified).
ASSERTIONS = frozenset({
    "$ref", "type", "enum", "const", "allOf", "anyOf", "oneOf", "not", "properties", "required",
    "additionalProperties", "unevaluatedProperties", "items", "prefixItems", "unevaluatedItems",
    "multipleOf", "uniqueItems", "default", "$defs",
}) | LOWER_BOUNDS | UPPER_BOUNDS | PRESENCE_ASSERTIONS

# Number formats that name a precision every JSON number already has: no constraint.
PRECISION_FORMATS = frozenset({"double", "float"})


def is_annotation(key: str) -> bool:
    """A key that documents a schema position and never changes what is valid there."""
    if key in BINDING_KEYWORDS:
        return False
    return key in DOC_KEYWORDS or key in ANNOTATION_KEYWORDS or key.startswith("x-")


def is_doc(key: str) -> bool:
    return key in DOC_KEYWORDS


def kind_of(key: str) -> str:
    """annotation | assertion | identifier | binding | unknown (reported as unclassified)."""
    if key in BINDING_KEYWORDS:
        return "binding"
    if is_annotation(key):
        return "annotation"
    if key in ASSERTIONS or key in SCHEMA_VALUED or key in SCHEMA_LISTS or key in SCHEMA_MAPS:
        return "assertion"
    if key in IDENTIFIERS:
        return "identifier"
    return "unknown"
