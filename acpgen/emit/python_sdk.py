"""The python-sdk profile's modules (``acpgen generate --profile python-sdk --out DIR``):
what replaces the official Python SDK's generated ``acp/schema.py`` and ``acp/meta.py``,
with the fixed code they build on, self-contained under ``acp/_acpgen/``.

``schema.py`` is acpgen's models module (the same planner and templates as ``models.py``)
rendered from the profile's surface under the official public names
(:mod:`acpgen.emit.python_sdk_names`) on the profile's model base
(``acpgen/shipped/python_sdk/sdk_model.py``); ``meta.py`` is the surface's method table as
the official module spells it. ``docs/python-sdk-drop-in.md`` says what changes for users.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from acpgen.emit import shipped
from acpgen.emit.models_plan import HELPER_NAMES, Block, BlockKind, int_formats, plan_models
from acpgen.emit.python_sdk_names import publish, published_names
from acpgen.emit.render import render
from acpgen.emit.type_tree import Lit, TypeNode, substituted
from acpgen.errors import AcpgenError
from acpgen.load.profile_manifest import ProfileManifest

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel

# The profile base's own annotation types, public beside the models (``UriStr``).
PROFILE_TYPES = frozenset({"UriStr"})
_PACKAGE_INITS = {
    "_acpgen/__init__.py": '"""acpgen\'s fixed code under the python-sdk profile\'s modules (generated: do not edit)."""\n',
    "_acpgen/runtime/__init__.py": '"""acpgen\'s model base, as every generated package ships it (generated: do not edit)."""\n',
}


def emit(model: GenerationModel) -> dict[str, str]:
    profile = model.options.profile
    manifest = model.profile_manifest
    if profile is None or manifest is None:
        return {}
    blocks = with_coercions(plan_models(model.ir, dict(profile.string_formats)), manifest)
    blocks = inline_literals(blocks, manifest)
    blocks = publish(blocks, published_names(blocks, manifest))
    formats = int_formats(model.ir)
    public = sorted({b.name for b in blocks if b.public} | HELPER_NAMES | PROFILE_TYPES | {f.name for f in formats})
    schema = render(
        "models/models.py.jinja",
        package=profile.package,
        protocol_version=model.ir.protocol_version,
        blocks=blocks,
        public=public,
        int_formats=formats,
        profile=profile,
    )
    tables: dict[str, list[tuple[str, str]]] = {"agent": [], "client": [], "protocol": []}
    for m in model.ir.methods:
        for side in (("agent", "client") if m.side == "both" else (m.side,)):
            tables[side].append((m.py_name, m.wire))
    meta = render("python_sdk/meta.py.jinja", profile_name=profile.name,
                  protocol_version=model.ir.protocol_version, **tables)
    files = {profile.schema_module: schema, profile.meta_module: meta, **_PACKAGE_INITS}
    files.update(shipped.copy(shipped.PROFILE_SHIPMENTS[profile.name]))
    return files


def inline_literals(blocks: list[Block], manifest: ProfileManifest) -> list[Block]:
    """Closed string enums as the official module spells them: ``Literal["a", "b", ...]`` at
    each use (values validate and read back as plain strings, which its users compare), with
    no name of their own but for those ``[literals] published`` lists (its named aliases)."""
    literals: dict[str, TypeNode] = {}
    for b in blocks:
        if b.kind == BlockKind.ENUM and b.base == "str":
            values = [m.value for m in b.members]
            literals[b.name] = Lit(values[0], tuple(values[1:]))
    for name in manifest.literals:
        if name not in literals:
            raise AcpgenError(manifest.relpath, f"literals.published: no closed string enum {name!r} in the profile's surface")
    out = []
    for b in blocks:
        if b.name in literals:
            if b.name in manifest.literals:
                out.append(Block(kind=BlockKind.ALIAS, name=b.name, doc=b.doc, public=True, type=literals[b.name]))
            continue
        out.append(replace(
            b,
            deps=b.deps - set(literals),
            lazy=b.lazy - set(literals),
            fields=[replace(f, type=substituted(f.type, literals)) for f in b.fields],
            init=[replace(p, type=substituted(p.type, literals)) for p in b.init],
            type=substituted(b.type, literals) if b.type is not None else None,
        ))
    return out


def with_coercions(blocks: list[Block], manifest: ProfileManifest) -> list[Block]:
    """Each ``[coercions]`` entry on its class (by acpgen's name), refused unless the class
    has that member."""
    by_class: dict[str, list[tuple[str, str]]] = {}
    found = {b.name: b for b in blocks}
    for owner, member, coercion in manifest.coercions:
        block = found.get(owner)
        if block is None or not any(f.py_name == member for f in block.fields):
            raise AcpgenError(manifest.relpath, f"coercions.{owner}.{member}: no member {member!r} of a class {owner!r}")
        by_class.setdefault(owner, []).append((member, coercion))
    return [b if b.name not in by_class else _with(b, by_class[b.name]) for b in blocks]


def _with(block: Block, coercions: list[tuple[str, str]]) -> Block:
    return replace(block, coercions=tuple(coercions))
