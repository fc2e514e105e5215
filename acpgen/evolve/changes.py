"""One difference between two schemas, as the diff finds it and the compatibility rules classify it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from acpgen.evolve.witness import Witness


@dataclass(frozen=True)
class Change:
    """One difference. ``semantic`` is False for annotation-only changes.

    ``client`` / ``agent`` are filled in by :func:`acpgen.evolve.compat.classify` and then
    proved by :mod:`acpgen.evolve.proof`: ``compatible``, ``breaking`` (with a ``witness``)
    or ``unproven`` for a client (or agent) generated from OLD.
    """

    kind: str  # stable code, e.g. PROPERTY_ADDED (see acpgen.evolve.compat.RULES)
    subject: str  # def name, method wire name or qualified capability path
    member: str | None  # property wire name, enum value, variant key, annotation key
    pointer: str  # JSON pointer into OLD (into NEW for additions)
    old: Any = None
    new: Any = None
    semantic: bool = True
    detail: str = ""
    gate: str | None = None  # a capability NEW adds that gates this addition (see compat)
    client: str = "compatible"
    agent: str = "compatible"
    reason: str = ""
    # narrows | widens | both | none | unclassified (acpgen.evolve.walk); "" for a kind whose
    # rule in acpgen.evolve.compat decides alone (methods, capabilities)
    effect: str = ""
    doc: str = ""  # documentation of an added variant (where capability gates are read)
    # the evidence of a breaking verdict, one per direction (acpgen.evolve.proof)
    witnesses: tuple[Witness, ...] = ()
    variant: str | None = None  # the subject's union variant the change is inside, if any

    @property
    def breaking(self) -> bool:
        return "breaking" in (self.client, self.agent)

    @property
    def unproven(self) -> bool:
        return "unproven" in (self.client, self.agent)

    @property
    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.subject, self.kind, str(self.member or ""), self.pointer)

    @property
    def where(self) -> str:
        """The subject, with the variant of its union the change is inside."""
        return f"{self.subject}[{self.variant}]" if self.variant else self.subject

    def describe(self) -> str:
        if self.member is None:
            where = self.where
        elif self.kind.startswith("VARIANT_"):
            where = f"{self.where}[{self.member}]"
        else:
            where = f"{self.where}.{self.member}"
        return f"{where}: {self.detail}" if self.detail else where

    def to_json(self) -> dict[str, Any]:
        data = {
            "kind": self.kind,
            "subject": self.subject,
            "variant": self.variant,
            "member": self.member,
            "pointer": self.pointer,
            "old": _jsonable(self.old),
            "new": _jsonable(self.new),
            "semantic": self.semantic,
            "detail": self.detail,
            "client": self.client,
            "agent": self.agent,
            "reason": self.reason,
            "effect": self.effect,
            "gate": self.gate,
            "witnesses": [w.to_json() for w in self.witnesses],
        }
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value
