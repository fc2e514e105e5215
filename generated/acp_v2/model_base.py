# Edit acpgen/shipped/runtime/model_base.py, not this file: acpgen generate writes it.
"""The fixed base of the generated message models: strict primitives, enums, tags, ``Model``.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/model_base.py``);
``models.py`` (rendered from the schema) builds one class, enum or alias per ``$def`` on it.
"""

from __future__ import annotations

import json
import logging
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from operator import attrgetter
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Final,
    Literal,
    TypeAlias,
    TypeVar,
    cast,
    get_args,
    get_origin,
)

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    Strict,
    ValidationError,
)
from pydantic_core import core_schema

logger = logging.getLogger(__name__)

# The primitive types of member annotations. Strict: JSON types are never coerced (a number
# is not a string), as the schema requires.
StrictStr = Annotated[str, Strict()]
"""A JSON string."""
StrictInt = Annotated[int, Strict()]
"""A JSON integer (a boolean is not one)."""
StrictFloat = Annotated[float, Strict()]
"""A JSON number."""
StrictBool = Annotated[bool, Strict()]
"""A JSON boolean."""


_T = TypeVar("_T")
if TYPE_CHECKING:
    # An optional member that is not nullable reads as ``X | None`` to a type checker
    # (None when omitted) ...
    Omittable: TypeAlias = _T | None
else:

    class Omittable:
        """An optional member that may be omitted but is never null on the wire.

        Type checkers read ``Omittable[X]`` as ``X | None`` (None when omitted); pydantic
        validates it as plain ``X``: absent is fine (the default None is never validated or
        dumped with exclude_unset), and valid input pays nothing for the check. An explicit
        None from Python (construction, ``model_validate``) means absent (``Model``); a JSON
        null is rejected with one error, unless the schema marks the member
        ``x-deserialize-default-on-error``."""

        def __class_getitem__(cls, item: Any) -> Any:
            return item

        @classmethod
        def __get_pydantic_core_schema__(
            cls, source: Any, handler: GetCoreSchemaHandler
        ) -> core_schema.CoreSchema:
            # Bare ``Omittable`` (no ``[X]``) as a type: anything, like a bare ``Optional``.
            return core_schema.any_schema()


class StrEnumBase(str, Enum):
    """The base of the schema's closed string enums."""

    if not TYPE_CHECKING:
        # pydantic reads ``.value`` of every enum member it dumps to JSON, and Enum's own
        # ``value`` is a Python-level descriptor; a property over the stored ``_value_``
        # (C-level get) makes such dumps markedly cheaper. Same value, same semantics.
        value = property(attrgetter("_value_"))


class IntEnumBase(int, Enum):
    """The base of the schema's closed integer enums."""

    if not TYPE_CHECKING:
        value = property(attrgetter("_value_"))  # see StrEnumBase


_ABSENT = object()


def tag(value: _T, wire: str | None = None) -> _T:
    """The tag member of a union branch class (``type: Literal["text"] = tag("text")``).

    Type checkers see the constant as the member's default, so ``ContentBlockText(text="hi")``
    type-checks; at run time the member is required (validated input always carries it, so
    it is always dumped, also with exclude_unset/exclude_defaults) and ``Model`` fills it in
    on construction.
    """
    if wire is None:
        return cast(_T, Field())
    return cast(_T, Field(validation_alias=wire, serialization_alias=wire))


def tag_in(
    wire: str, attr: str, known: list[str], *, other: str | None, untagged: str | None
) -> Callable[[Any], str | None]:
    """The discriminator of a union whose tag may be absent or open-ended.

    A listed tag picks its branch; another string picks the catch-all branch (if any, else
    the untagged branch); a missing or non-string tag picks the untagged branch (if any).
    Otherwise ``None``: pydantic reports ONE error, which names the tag member.
    """
    listed = frozenset(known)
    # Dumping asks for the tag of every instance: a class whose tag is fixed (a Literal
    # member, or no such member) is answered from this cache after its first instance.
    by_class: dict[type, str | None] = {}

    def of(tag: Any) -> str | None:
        if isinstance(tag, str):
            if tag in listed:
                return tag
            return other if other is not None else untagged
        return untagged

    def pick(value: Any) -> str | None:
        if isinstance(value, dict):
            return of(value.get(wire, _ABSENT))
        cls = value.__class__
        if cls in by_class:
            return by_class[cls]
        # A model instance: its declared members live in __dict__ (getattr() on a model
        # without the member would raise and catch AttributeError every time).
        picked = of(getattr(value, "__dict__", {}).get(attr, _ABSENT))
        declared = getattr(cls, "__pydantic_fields__", {}).get(attr)
        if declared is None or (
            get_origin(declared.annotation) is Literal and len(get_args(declared.annotation)) == 1
        ):
            by_class[cls] = picked
        return picked

    return pick


class _DumpByClass:
    """Marks a union alias: its values dump through their own class's serializer.

    pydantic otherwise asks the union's discriminator which branch a value is before
    dumping it -- for a callable discriminator a Python call per value, which made such
    dumps several times slower than a plain union's. Every branch is a distinct class, so
    the value's class alone decides; validation is unchanged.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        cast(dict[str, Any], schema)["serialization"] = core_schema.simple_ser_schema("any")
        return schema


BY_CLASS = _DumpByClass()


# -- Repairs: an explicit None read as absent, the schema's leniency markers ----------------
#
# Validation is strict and pays nothing extra when the input is valid: only a failed
# validation looks for a place it may repair, repairs it in a copy of the input and validates
# again. Two kinds of place:
#
# - From Python (construction, ``model_validate``), ``None`` for an optional member whose
#   schema allows no null means "absent": the member is left out, so it stays unset and is
#   not dumped (a member whose schema allows null keeps None as its value: null can mean
#   something there, "clear" in a patch). JSON input never gets this: a JSON ``null`` where
#   the schema allows none is an error unless a marker below repairs it.
# - The schema's ``x-deserialize-default-on-error`` (an invalid value is read as the
#   member's default: the member is left out, or set to the schema's default when it is
#   required) and ``x-deserialize-skip-invalid-items`` (an invalid array item is dropped),
#   as the official Rust SDK reads them; each repair is logged. A model class lists its
#   marked members in ``__acp_lenient__`` (rendered per schema).

NO_DEFAULT: Final = "<no default>"
"""In a marker: the model's own default applies (the member is left out)."""

Marker: TypeAlias = tuple[bool, bool, Any]
"""(default-on-error, skip-invalid-items, the schema's default or NO_DEFAULT)."""
Lenient: TypeAlias = Mapping[str, Marker]
"""A class's marked members: wire name -> marker (``Model.__acp_lenient__``)."""

_MAX_REPAIRS = 1000  # bounds the work one input can cause


def validate_repairing(
    validate: Callable[[Any], _T],
    annotation: Any,
    data: Any,
    *,
    none_is_absent: bool,
    lenient: bool,
    error: ValidationError | None = None,
) -> _T:
    """``validate(data)``; when that fails, repair the place the first error names and try
    again (``error``: the failure of a first attempt the caller already made).

    ``annotation`` is what ``validate`` validates (a model class or any type over them).
    ``none_is_absent``: input from Python (an explicit None of an optional member whose
    schema allows no null is left out). ``lenient``: apply the schema's markers. Errors at
    places neither repairs raise, as ``ValidationError``. The caller's data is never changed
    (the dicts and lists on the way are copied; model instances in it are kept as they are).
    """
    if error is None:
        try:
            return validate(data)
        except ValidationError as first:
            error = first
    if not (none_is_absent or lenient):
        raise error
    data = _copy_containers(data)
    for _ in range(_MAX_REPAIRS):
        errors = error.errors(include_url=False, include_context=False, include_input=False)
        if not errors or not _repair(annotation, data, errors[0]["loc"], none_is_absent, lenient):
            raise error
        try:
            return validate(data)
        except ValidationError as again:
            error = again
    raise error


def _copy_containers(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _copy_containers(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_copy_containers(item) for item in data]
    return data


class _Member:
    """What a repair needs to know of one member of the models it may belong to."""

    __slots__ = ("marker", "none_is_absent", "options")

    def __init__(self) -> None:
        self.marker: Marker | None = None
        self.none_is_absent = False
        self.options: list[Any] = []


def _repair(
    annotation: Any, data: Any, loc: tuple[int | str, ...], none_is_absent: bool, lenient: bool
) -> bool:
    """Repair the innermost repairable place on ``loc``; False when there is none."""
    steps: list[tuple[Any, int | str, _Member | None]] = []
    options = _flatten(annotation)
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            found = _member(options, part)
            steps.append((node, part, found))
            options = found.options
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            options = [item for option in options for item in _flatten(_item_type(option))]
            steps.append((node, part, None))
            node = node[part]
        else:  # a union branch label (a tag or class name): narrow to that branch
            options = [o for o in options if _labelled(o, part)] or options
    if none_is_absent and node is None and steps:
        container, key, last = steps[-1]
        if isinstance(container, dict) and last is not None and last.none_is_absent:
            del container[key]
            return True
    if not lenient:
        return False
    for index in range(len(steps) - 1, -1, -1):
        container, key, member = steps[index]
        if isinstance(container, list) and index > 0:
            owner = steps[index - 1][2]
            if owner is not None and owner.marker is not None and owner.marker[1]:
                logger.warning(
                    "dropped an invalid item of %r (x-deserialize-skip-invalid-items)",
                    steps[index - 1][1],
                )
                assert isinstance(key, int)
                del container[key]
                return True
        marker = None if member is None else member.marker
        if isinstance(container, dict) and marker is not None and marker[0]:
            assert isinstance(key, str)
            logger.warning(
                "replaced an invalid %r by its default (x-deserialize-default-on-error)", key
            )
            if marker[2] == NO_DEFAULT:
                del container[key]
            else:
                container[key] = _copy_containers(marker[2])
            return True
    return False


def _flatten(annotation: Any) -> list[Any]:
    """The alternatives an annotation allows (unions, Optional and Annotated unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _flatten(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [alt for arg in typing.get_args(annotation) for alt in _flatten(arg)]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        root = annotation.model_fields.get("root")
        if root is not None and getattr(annotation, "__pydantic_root_model__", False):
            return [annotation, *_flatten(root.annotation)]
    return [annotation]


def _item_type(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (list, tuple, set, frozenset) and args:
        return args[0]
    return Any


def _admits_none(annotation: Any) -> bool:
    return any(alt is Any or alt is None or alt is type(None) for alt in _flatten(annotation))


def _member(options: list[Any], key: str) -> _Member:
    """Member ``key`` (its wire name, or its Python name in input by name) of the model
    options: its marker, whether None means absent there, and its alternatives."""
    found = _Member()
    for option in options:
        if isinstance(option, type) and issubclass(option, BaseModel):
            fields = option.model_fields
            # Members keep their wire name in validation_alias (construction is by Python
            # name, so the models do not use alias=); the wire name wins a clash.
            named = [
                (name, field)
                for name, field in fields.items()
                if (field.validation_alias if isinstance(field.validation_alias, str) else name)
                == key
            ] or ([(key, fields[key])] if key in fields else [])
            for name, field in named:
                found.options.extend(_flatten(field.annotation))
                if not field.is_required() and not _admits_none(field.annotation):
                    found.none_is_absent = True
                wire = field.validation_alias if isinstance(field.validation_alias, str) else name
                for cls in option.__mro__:
                    marks: Lenient = cls.__dict__.get("__acp_lenient__", {})
                    found.marker = found.marker or marks.get(wire)
        elif typing.get_origin(option) is dict:
            args = typing.get_args(option)
            found.options.extend(_flatten(args[1]) if len(args) == 2 else [Any])
    return found


def _labelled(option: Any, label: int | str) -> bool:
    """Whether a union branch is the one pydantic names ``label`` in an error location."""
    if not (isinstance(option, type) and issubclass(option, BaseModel)):
        return False
    if any(cls.__name__ == label for cls in option.__mro__):
        return True
    for field in option.model_fields.values():
        if typing.get_origin(field.annotation) is typing.Literal and label in typing.get_args(
            field.annotation
        ):
            return True
    return False


def _init_by_name(tags: list[tuple[str, str, Any]]) -> Callable[..., None]:
    """``__init__`` of a model: members by Python name (or wire name), and each tag member
    that was not given supplied; an explicit None of an optional member whose schema allows
    no null leaves it out (see ``validate_repairing``)."""

    def __init__(self: Any, /, **data: Any) -> None:
        for name, wire, value in tags:
            if name not in data and wire not in data:
                data[name] = value
        validator = self.__pydantic_validator__
        try:
            validator.validate_python(data, self_instance=self, by_name=True)
        except ValidationError as error:
            validate_repairing(
                lambda d: validator.validate_python(d, self_instance=self, by_name=True),
                type(self),
                data,
                none_is_absent=True,
                lenient=False,
                error=error,
            )

    # pydantic treats a subclass whose __init__ is not its own as having a custom __init__
    # and calls it on every validation; this one does nothing validation needs.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]
    return __init__


class Model(BaseModel):
    # The schema's x-deserialize-* markers of the class's own members, by wire name (rendered
    # per class; a subclass's members are looked up through the MRO): see validate_repairing.
    __acp_lenient__: ClassVar[Lenient] = {}

    # Open objects: unknown members are kept and dumped back (extra="allow"). Input (dicts,
    # JSON) is read by wire names only, as the schema says; construction takes Python names
    # (the __init__ installed below); dumps use wire names.
    model_config = ConfigDict(
        extra="allow",
        validate_by_name=False,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    if not TYPE_CHECKING:

        @classmethod
        def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
            super().__pydantic_init_subclass__(**kwargs)
            # A required member whose type is one constant is a tag: construction may omit it.
            tags = [
                (name, info.serialization_alias or name, get_args(info.annotation)[0])
                for name, info in cls.__pydantic_fields__.items()
                if info.is_required()
                and get_origin(info.annotation) is Literal
                and len(get_args(info.annotation)) == 1
            ]
            # Installed after pydantic built the class, so validation never calls it.
            cls.__init__ = _init_by_name(tags)

        # Validation from Python reads an explicit None of an optional member whose schema
        # allows no null as absent, and applies the schema's leniency markers; from JSON only
        # the markers apply, as on the wire (``validate_repairing``). Valid input costs one
        # call more than BaseModel's; only invalid input is searched for repairs.

        # Without options the validator is called directly (what BaseModel's method does
        # after checking its options): no frame more than BaseModel's on the hot path.

        @classmethod
        def model_validate(cls, obj: Any, **options: Any) -> Any:
            try:
                if options:
                    return super().model_validate(obj, **options)
                return cls.__pydantic_validator__.validate_python(obj)
            except ValidationError as error:
                validate = super().model_validate
                return validate_repairing(
                    lambda d: validate(d, **options),
                    cls,
                    obj,
                    none_is_absent=True,
                    lenient=True,
                    error=error,
                )

        @classmethod
        def model_validate_json(cls, json_data: Any, **options: Any) -> Any:
            try:
                if options:
                    return super().model_validate_json(json_data, **options)
                return cls.__pydantic_validator__.validate_json(json_data)
            except ValidationError as error:
                try:
                    data = json.loads(json_data)
                except ValueError:
                    raise error from None
                validator = cls.__pydantic_validator__
                return validate_repairing(
                    lambda d: validator.validate_python(d, **options),
                    cls,
                    data,
                    none_is_absent=False,
                    lenient=True,
                    error=error,
                )
