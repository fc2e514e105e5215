# Edit acpgen/shipped/runtime/errors.py, not this file: acpgen generate writes it.
"""The one JSON-RPC error hierarchy of the runtime, and its local (never sent) errors.

Copied verbatim into every generated package by acpgen.

Wire errors: :class:`RpcError` and one subclass per code of the schema's ``ErrorCode``. A
handler raises one and the peer receives that code; a call whose response is an error raises
the subclass for its code (``RpcError`` itself for a code without one). acpgen checks at
generation time that every code here is the schema's (same name, value and title) and refuses
a schema that disagrees, so the codes are the schema's without being read at run time.

Local errors: :class:`ConnectionClosed`, :class:`MessageTooLarge`, :class:`MalformedResponse`
say what went wrong on this side; nothing is sent for them.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "AUTHENTICATION_REQUIRED",
    "CANCEL_REQUEST_METHOD",
    "ERROR_MESSAGES",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "REQUEST_CANCELLED",
    "RESOURCE_NOT_FOUND",
    "AuthenticationRequiredError",
    "ConnectionClosed",
    "InternalError",
    "InvalidParamsError",
    "InvalidRequestError",
    "MalformedResponse",
    "MessageTooLarge",
    "MethodNotFoundError",
    "ParseError",
    "RequestCancelledError",
    "ResourceNotFoundError",
    "RpcError",
    "error_class",
]

# The codes of the schema's ErrorCode definition (checked against it by acpgen).
PARSE_ERROR = -32700  # Parse error
INVALID_REQUEST = -32600  # Invalid request
METHOD_NOT_FOUND = -32601  # Method not found
INVALID_PARAMS = -32602  # Invalid params
INTERNAL_ERROR = -32603  # Internal error
REQUEST_CANCELLED = -32800  # Request cancelled
AUTHENTICATION_REQUIRED = -32000  # Authentication required
RESOURCE_NOT_FOUND = -32002  # Resource not found

# The protocol-level notification that cancels an in-flight request, which is then answered
# REQUEST_CANCELLED (schema: x-side "protocol"; acpgen checks the name against the schema's
# method table). Defined here, beside the code, so acpgen reads it without importing the
# engine (and asyncio).
CANCEL_REQUEST_METHOD = "$/cancel_request"

ERROR_MESSAGES: dict[int, str] = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    REQUEST_CANCELLED: "Request cancelled",
    AUTHENTICATION_REQUIRED: "Authentication required",
    RESOURCE_NOT_FOUND: "Resource not found",
}


class RpcError(Exception):
    """A JSON-RPC error object: raised by handlers, and by calls answered with an error."""

    default_code: ClassVar[int] = INTERNAL_ERROR
    # The method of our call the peer answered with this error (None: raised on this side).
    # A handler that lets such an error escape is answered -32603, never with the peer's code.
    peer_call: str | None = None

    def __init__(
        self, code: int | None = None, message: str | None = None, data: Any = None
    ) -> None:
        self.code = int(self.default_code if code is None else code)
        self.message = message or ERROR_MESSAGES.get(self.code, "Error")
        self.data = data
        super().__init__(f"{self.code}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"code", "message"[, "data"]}``."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    @classmethod
    def from_json(cls, error: Any) -> RpcError:
        """The error a peer answered, as the subclass for its code."""
        if not isinstance(error, dict) or type(error.get("code")) is not int:
            return MalformedResponse("the error object has no integer code", error)
        code: int = error["code"]
        message = error.get("message") if isinstance(error.get("message"), str) else None
        kind = error_class(code)
        if kind is RpcError:
            return RpcError(code, message, error.get("data"))
        return kind(message, error.get("data"))

    # Shorthands (handlers raise ``RpcError.invalid_params(...)`` or the subclass directly).
    @classmethod
    def parse_error(cls, data: Any = None) -> RpcError:
        return ParseError(data=data)

    @classmethod
    def invalid_request(cls, data: Any = None) -> RpcError:
        return InvalidRequestError(data=data)

    @classmethod
    def method_not_found(cls, method: str) -> RpcError:
        return MethodNotFoundError(data={"method": method})

    @classmethod
    def invalid_params(cls, data: Any = None) -> RpcError:
        return InvalidParamsError(data=data)

    @classmethod
    def internal_error(cls, data: Any = None) -> RpcError:
        return InternalError(data=data)

    @classmethod
    def request_cancelled(cls, data: Any = None) -> RpcError:
        return RequestCancelledError(data=data)

    @classmethod
    def auth_required(cls, data: Any = None) -> RpcError:
        return AuthenticationRequiredError(data=data)

    @classmethod
    def resource_not_found(cls, data: Any = None) -> RpcError:
        return ResourceNotFoundError(data=data)


class _Coded(RpcError):
    """A subclass answers its own code: ``InvalidParamsError("why")`` is a -32602."""

    def __init__(self, message: str | None = None, data: Any = None) -> None:
        super().__init__(self.default_code, message, data)


class ParseError(_Coded, ValueError):
    """-32700: the frame is not UTF-8 JSON."""

    default_code = PARSE_ERROR


class InvalidRequestError(_Coded, ValueError):
    """-32600: JSON, but not a valid request, notification or response."""

    default_code = INVALID_REQUEST


class MethodNotFoundError(_Coded, LookupError):
    """-32601: no such method on this side (or a notification called as a request)."""

    default_code = METHOD_NOT_FOUND


class InvalidParamsError(_Coded, ValueError):
    """-32602: the params do not match the method's schema type."""

    default_code = INVALID_PARAMS


class InternalError(_Coded):
    """-32603: the handler failed, or produced what the schema does not allow."""

    default_code = INTERNAL_ERROR


class RequestCancelledError(_Coded):
    """-32800: the request was cancelled (``$/cancel_request``) before it completed."""

    default_code = REQUEST_CANCELLED


class AuthenticationRequiredError(_Coded):
    """-32000: the agent needs ``authenticate`` first."""

    default_code = AUTHENTICATION_REQUIRED


class ResourceNotFoundError(_Coded):
    """-32002: a session, file or other resource does not exist."""

    default_code = RESOURCE_NOT_FOUND


_BY_CODE: dict[int, type[RpcError]] = {
    cls.default_code: cls
    for cls in (
        ParseError,
        InvalidRequestError,
        MethodNotFoundError,
        InvalidParamsError,
        InternalError,
        RequestCancelledError,
        AuthenticationRequiredError,
        ResourceNotFoundError,
    )
}


def error_class(code: int) -> type[RpcError]:
    """The class for a wire code (:class:`RpcError` for a code without its own)."""
    return _BY_CODE.get(code, RpcError)


class MalformedResponse(InternalError):
    """The peer's response cannot be used: neither ``result`` nor ``error``, an error object
    without an integer code, or a result that does not match the method's schema type.
    Raised to the caller; never sent."""


class ConnectionClosed(ConnectionError):
    """The connection closed (the peer went away, or :meth:`close`) before the call completed."""


class MessageTooLarge(ValueError):
    """An outgoing message is longer than the peer accepts; it was not written."""

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"message of {size} bytes exceeds the {limit}-byte limit: not sent")
