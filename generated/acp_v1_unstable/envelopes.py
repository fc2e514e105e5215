# Edit acpgen/shipped/runtime/envelopes.py, not this file: acpgen generate writes it.
"""The JSON-RPC 2.0 envelopes of ACP messages that do not depend on the method: requests,
notifications and responses in general, error objects, extension messages.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/envelopes.py``);
``methods.py`` (rendered from the method table) adds one typed envelope per method.

Envelope types (JSON-RPC 2.0 message shape), all with ``extra="forbid"``:
    ``JsonRpcRequest``          ``jsonrpc: Literal["2.0"]``, ``id: RequestId``, ``method: str``,
                                ``params`` (an object or array, or omitted; untyped shape check)
    ``JsonRpcNotification``     the same without ``id`` (a message with ``id`` is not one)
    ``JsonRpcSuccessResponse``  ``jsonrpc``, ``id``, ``result`` (required)
    ``JsonRpcErrorResponse``    ``jsonrpc``, ``id``, ``error: JsonRpcErrorObject``
    ``JsonRpcResponse``         either of the two: ``result`` XOR ``error``; a message with
                                both, or neither, validates as neither
    ``JsonRpcErrorObject``      ``code: StrictInt`` (an integer, never 1.0, "1" or true),
                                ``message: StrictStr``, optional ``data``
"""

from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from .errors import InvalidParamsError, InvalidRequestError

JSONRPC_VERSION: Final = "2.0"
EXTENSION_PREFIX: Final = "_"


def is_extension_method(wire: str) -> bool:
    """Extension methods start with ``_`` (ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES)."""
    return wire.startswith(EXTENSION_PREFIX)


from .schema import RequestId

# ---- JSON-RPC 2.0 envelopes ----------------------------------------------------------------


class JsonRpcErrorObject(BaseModel):
    """The ``error`` member of an error response: integer ``code``, string ``message``."""

    model_config = ConfigDict(extra="forbid")

    code: StrictInt
    message: StrictStr
    data: Any = None


class JsonRpcRequest(BaseModel):
    """Any request: has an ``id``; ``params`` not yet typed (see the per-method envelopes)."""

    model_config = ConfigDict(extra="forbid")

    jsonrpc: Literal["2.0"]
    id: RequestId
    method: StrictStr
    params: dict[str, Any] | list[Any] | None = None


class JsonRpcNotification(BaseModel):
    """Any notification: no ``id`` member at all."""

    model_config = ConfigDict(extra="forbid")

    jsonrpc: Literal["2.0"]
    method: StrictStr
    params: dict[str, Any] | list[Any] | None = None


class JsonRpcSuccessResponse(BaseModel):
    """A successful response: ``result`` and no ``error``."""

    model_config = ConfigDict(extra="forbid")

    jsonrpc: Literal["2.0"]
    id: RequestId
    result: Any


class JsonRpcErrorResponse(BaseModel):
    """An error response: ``error`` and no ``result``."""

    model_config = ConfigDict(extra="forbid")

    jsonrpc: Literal["2.0"]
    id: RequestId
    error: JsonRpcErrorObject


JsonRpcResponse: TypeAlias = JsonRpcSuccessResponse | JsonRpcErrorResponse
"""A response: exactly one of ``result`` and ``error`` (``extra="forbid"`` on both)."""


class ExtensionRequestMessage(JsonRpcRequest):
    """A request for an extension method (name starts with ``_``; params are arbitrary JSON)."""

    method: Annotated[StrictStr, Field(pattern=r"^_")]


class ExtensionNotificationMessage(JsonRpcNotification):
    """A notification for an extension method (name starts with ``_``)."""

    method: Annotated[StrictStr, Field(pattern=r"^_")]


_RESPONSE: Final[TypeAdapter[JsonRpcResponse]] = TypeAdapter(JsonRpcResponse)


def parse_envelope(data: Any, lookup: Callable[[str], Any]) -> BaseModel:
    """``methods.parse_message``: ``data`` in the envelope of its method, as ``lookup`` (the
    method table's) finds it: a stable method's own envelope (``.message``), an extension
    method's (``.extension``), or a response. Unknown methods raise what ``lookup`` raises."""
    if not isinstance(data, Mapping):
        raise InvalidRequestError("A JSON-RPC message must be an object")
    try:
        if "method" not in data:
            return _RESPONSE.validate_python(data)
        wire = data["method"]
        if not isinstance(wire, str):
            raise InvalidRequestError("method must be a string")
        spec = lookup(wire)
        if spec.extension:
            envelope: type[BaseModel] = ExtensionNotificationMessage
            if "id" in data:
                envelope = ExtensionRequestMessage
            return envelope.model_validate(data)
        if ("id" in data) != spec.is_request:
            raise InvalidRequestError(
                f"{wire} is a {spec.kind}: it {'needs' if spec.is_request else 'takes no'} id",
                data={"method": wire},
            )
        own: type[BaseModel] = spec.message
        return own.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        in_params = bool(errors) and all(e["loc"][:1] == ("params",) for e in errors)
        cls = InvalidParamsError if in_params else InvalidRequestError
        raise cls(f"Invalid message: {exc.error_count()} error(s)") from exc
