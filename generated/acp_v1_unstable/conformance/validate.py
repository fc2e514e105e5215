# Edit acpgen/shipped/conformance/validate.py, not this file: acpgen generate writes it.
"""Validate received messages with the generated models (the package under ``package``).

Only this module knows the generated package's API (``methods.parse_params`` /
``parse_result`` / ``METHODS``), so the rest of the kit deals in plain JSON and messages.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

STABLE_ERROR_CODES = {
    -32700: "parse error",
    -32600: "invalid request",
    -32601: "method not found",
    -32602: "invalid params",
    -32603: "internal error",
    -32800: "request cancelled",
    -32000: "authentication required",
    -32002: "resource not found",
}


@dataclass(frozen=True)
class Verdict:
    """The outcome of validating one params or result value."""

    problem: str | None  # why it is invalid, None when it is valid
    extra: tuple[str, ...] = ()  # paths of members the schema does not declare

    @property
    def ok(self) -> bool:
        return self.problem is None


class Validator:
    def __init__(self, package: str) -> None:
        self.package = package
        self._methods: ModuleType = importlib.import_module(f"{package}.methods")
        self._models: ModuleType = importlib.import_module(f"{package}.models")
        self._adapters: dict[str, Any] = {}

    def unstable(self) -> Validator | None:
        """The same protocol version's unstable surface (``<package>_unstable``), when it was
        generated beside this one: a member it declares is ACP's, not a custom field."""
        if not hasattr(self, "_unstable"):
            try:
                self._unstable: Validator | None = Validator(f"{self.package}_unstable")
            except ImportError:
                self._unstable = None
        return self._unstable

    def stable_methods(self) -> frozenset[str]:
        return frozenset(self._methods.METHODS)

    def is_request(self, method: str) -> bool | None:
        spec = self._methods.METHODS.get(method)
        return None if spec is None else bool(spec.is_request)

    def params(self, method: str, params: Any) -> Verdict:
        return self._check(method, "params", params)

    def result(self, method: str, result: Any) -> Verdict:
        return self._check(method, "result", result)

    def declared(self, method: str) -> frozenset[str]:
        """The wire names of the members a stable method's params declare at their root."""
        spec = self._methods.METHODS.get(method)
        fields = getattr(getattr(spec, "params", None), "model_fields", None) or {}
        names = set()
        for name, info in fields.items():
            alias = info.serialization_alias or info.alias
            names.add(alias if isinstance(alias, str) else name)
        return frozenset(names)

    def definition(self, name: str, data: Any) -> Verdict:
        """Validate ``data`` as the schema definition ``name`` (``ContentBlock``, ...)."""
        from pydantic import TypeAdapter, ValidationError  # the generated package's own

        if name not in self._adapters:
            self._adapters[name] = TypeAdapter(getattr(self._models, name))
        try:
            value = self._adapters[name].validate_python(data)
        except ValidationError as exc:
            return Verdict(f"{name}: {_describe(exc.errors())}")
        return Verdict(None, tuple(extra_members(value)))

    def _check(self, method: str, which: str, data: Any) -> Verdict:
        if method not in self._methods.METHODS:
            return Verdict(None)  # extension methods carry arbitrary JSON
        parse = self._methods.parse_params if which == "params" else self._methods.parse_result
        try:
            value = parse(method, data)
        except ValueError as exc:  # the generated InvalidParamsError, the pydantic error chained
            return Verdict(f"{method} {which}: {_first_error(exc)}")
        return Verdict(None, tuple(extra_members(value)))


def _first_error(exc: BaseException) -> str:
    errors = getattr(exc.__cause__, "errors", None)
    details = errors() if callable(errors) else None
    return _describe(details) if details else str(exc)


def _describe(details: Any) -> str:
    first = details[0]
    loc = ".".join(str(p) for p in first.get("loc", ()))
    more = f" (and {len(details) - 1} more)" if len(details) > 1 else ""
    return f"{loc or '<root>'}: {first.get('msg')}{more}"


def extra_members(value: Any, path: str = "") -> Iterator[str]:
    """Paths of members that no model declares (kept by ``extra="allow"``), depth first."""
    extra = getattr(value, "__pydantic_extra__", None)
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        for key in sorted(extra or {}):
            yield f"{path}/{key}"
        is_root = bool(getattr(type(value), "__pydantic_root_model__", False))
        for name, info in fields.items():
            # The models keep wire names in serialization_alias (construction is by Python name).
            alias = info.serialization_alias or info.alias
            wire = alias if isinstance(alias, str) else name
            if wire == "_meta":
                continue  # arbitrary JSON by design
            yield from extra_members(
                getattr(value, name, None), path if is_root else f"{path}/{wire}"
            )
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from extra_members(item, f"{path}/{index}")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from extra_members(item, f"{path}/{key}")
