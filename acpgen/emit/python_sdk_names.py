"""The python-sdk profile's public names: which class of acpgen's models module is published
under which name in the official SDK's ``acp.schema``.

The rules, in order (``schema/python-sdk.toml`` explains them to its reviewers):

1. every class keeps acpgen's name (a ``$def`` its own; a union branch ``{Union}{Tag}``, the
   name the official generator infers too for a branch it was given no name for);
2. a class the manifest's ``[names]`` lists takes the published name given there (the names
   the official SDK chose by hand; no rule derives them from the schema);
3. a class whose name a class of rule 2 now takes is published as ``{Name}Base`` (the
   official module's ``AvailableCommandsUpdateBase``);
4. each ``[groupings]`` entry is a union alias of the classes it lists.

Any key that names no class, and any two classes that would share a name, are refused with
the manifest's path and the entry, before anything is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from acpgen.emit.models_plan import Block, BlockKind
from acpgen.emit.type_tree import Named, UnionOf, names, renamed
from acpgen.errors import AcpgenError
from acpgen.load.profile_manifest import ProfileManifest

BASE_SUFFIX = "Base"


@dataclass(frozen=True)
class PublishedNames:
    renames: dict[str, str]  # acpgen's class name -> its published name (rules 2 and 3)
    groupings: tuple[Block, ...]  # rule 4: alias blocks, in manifest order

    def of(self, name: str) -> str:
        return self.renames.get(name, name)


def published_names(blocks: list[Block], manifest: ProfileManifest) -> PublishedNames:
    where = manifest.relpath
    classes = {b.name for b in blocks}
    renames: dict[str, str] = {}
    for old, new in manifest.names:
        if old not in classes:
            raise AcpgenError(where, f"names.{old}: no class {old!r} in the profile's surface")
        renames[old] = new
    taken = set(renames.values())
    for b in blocks:
        if b.name in taken and b.name not in renames:
            renames[b.name] = b.name + BASE_SUFFIX
    groupings = []
    for alias, members in manifest.groupings:
        for member in members:
            if member not in classes:
                raise AcpgenError(where, f"groupings.{alias}: no class {member!r} in the profile's surface")
        typ = UnionOf(tuple(Named(renames.get(m, m)) for m in members))
        groupings.append(Block(kind=BlockKind.ALIAS, name=alias, doc=f"One of: {', '.join(names_in(typ))}.",
                               public=True, type=typ, deps=names(typ)))
    seen: dict[str, str] = {}
    for b in blocks:
        final = renames.get(b.name, b.name)
        if final in seen:
            raise AcpgenError(where, f"classes {seen[final]} and {b.name} would both be published as {final}")
        seen[final] = b.name
    for g in groupings:
        if g.name in seen:
            raise AcpgenError(where, f"groupings.{g.name}: the name is taken by class {seen[g.name]}")
        seen[g.name] = g.name
    return PublishedNames(renames, tuple(groupings))


def names_in(typ: UnionOf) -> list[str]:
    return [m.name for m in typ.members if isinstance(m, Named)]


def publish(blocks: list[Block], published: PublishedNames) -> list[Block]:
    """The blocks under their published names (every reference renamed with them), then the
    groupings (after every class they name)."""
    table = published.renames

    def one(b: Block) -> Block:
        return replace(
            b,
            name=table.get(b.name, b.name),
            bases=[table.get(x, x) for x in b.bases],
            deps={table.get(x, x) for x in b.deps},
            lazy={table.get(x, x) for x in b.lazy},
            fields=[replace(f, type=renamed(f.type, table)) for f in b.fields],
            init=[replace(p, type=renamed(p.type, table)) for p in b.init],
            type=renamed(b.type, table) if b.type is not None else None,
        )

    return [one(b) for b in blocks] + list(published.groupings)
