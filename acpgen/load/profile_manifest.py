"""A profile's hand-reviewed manifest (``schema/python-sdk.toml``): the published names no
rule derives, the named groupings and the per-member coercions, parsed into plain data.

Only the file's shape is checked here (tables of identifiers); whether each name it gives
is a class the profile's surface has is checked against the planned models, where the
classes are known (:mod:`acpgen.emit.python_sdk_names`). Any problem is one line naming the
file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.inputs import toml_manifest
from acpgen.ir.naming import is_identifier

_SECTIONS = ("names", "groupings", "coercions", "literals")


@dataclass(frozen=True)
class ProfileManifest:
    relpath: str  # as the project names it, for every refusal
    names: tuple[tuple[str, str], ...]  # (acpgen's class name, published name), file order
    groupings: tuple[tuple[str, tuple[str, ...]], ...]  # (alias, acpgen class names)
    coercions: tuple[tuple[str, str, str], ...]  # (acpgen class, Python member, coercion)
    literals: tuple[str, ...] = ()  # closed enums also published as module-level Literal aliases


def read_manifest(root: Path, relpath: str) -> bytes:
    blob = toml_manifest.read_optional(root / relpath, relpath)
    if blob is None:
        raise AcpgenError(relpath, "profile manifest missing (the profile needs it)")
    return blob


def parse_manifest(relpath: str, blob: bytes | str) -> ProfileManifest:
    data = toml_manifest.load_toml(relpath, blob)
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise AcpgenError(relpath, f"unknown table {unknown[0]!r} (expected {', '.join(_SECTIONS)})")
    tables = {}
    for section in _SECTIONS:
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise AcpgenError(relpath, f"{section} must be a table ([{section}])")
        tables[section] = table
    names = tuple((_name(relpath, "names", key, key), _name(relpath, "names", key, value))
                  for key, value in tables["names"].items())
    groupings = tuple((_name(relpath, "groupings", key, key), _members(relpath, key, value))
                      for key, value in tables["groupings"].items())
    coercions = tuple(_coercion(relpath, key, value) for key, value in tables["coercions"].items())
    extra = sorted(set(tables["literals"]) - {"published"})
    if extra:
        raise AcpgenError(relpath, f"literals.{extra[0]}: unknown key (expected published)")
    published = tables["literals"].get("published", [])
    if not isinstance(published, list):
        raise AcpgenError(relpath, "literals.published must be a list of enum names")
    literals = tuple(_name(relpath, "literals", "published", v) for v in published)
    return ProfileManifest(relpath, names, groupings, coercions, literals)


def _name(relpath: str, section: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not is_identifier(value) or value.startswith("_"):
        raise AcpgenError(relpath, f"{section}.{key}: {value!r} is not a public Python class name")
    return value


def _members(relpath: str, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) < 2:
        raise AcpgenError(relpath, f"groupings.{key}: must list two or more class names")
    return tuple(_name(relpath, "groupings", key, v) for v in value)


def _coercion(relpath: str, key: str, value: Any) -> tuple[str, str, str]:
    owner, dot, member = key.partition(".")
    if not dot or not is_identifier(owner) or not is_identifier(member):
        raise AcpgenError(relpath, f"coercions.{key}: the key must be Class.member")
    if not isinstance(value, str) or not is_identifier(value):
        raise AcpgenError(relpath, f"coercions.{key}: {value!r} is not a coercion name")
    return owner, member, value
