"""Output profiles: generation options that make acpgen's output take another generator's
place (``acpgen generate --profile NAME --out DIR``; ``docs/python-sdk-drop-in.md``).

A profile is data, chosen once at the command line and carried in :class:`GenOptions`; the
emitters it selects (:data:`acpgen.emit.registry.PROFILE_EMITTERS`) read it from there. Its
names are a separate concern (:mod:`acpgen.emit.python_sdk_names`), from the rules and the
profile's hand-reviewed manifest (:mod:`acpgen.load.profile_manifest`).
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.errors import AcpgenError


@dataclass(frozen=True)
class Profile:
    name: str
    surface: str  # the protocol surface it renders (a name of the lock's surfaces)
    package: str  # the import package its files live in (the output directory is its folder)
    manifest: str  # its hand-reviewed manifest, relative to the project root
    # ``format`` values of strings spelled by an annotation type of the profile's base.
    string_formats: tuple[tuple[str, str], ...] = ()
    # The modules it writes (relative to the output directory) besides its fixed code.
    schema_module: str = "schema.py"
    meta_module: str = "meta.py"


PROFILES: dict[str, Profile] = {
    # The official Python SDK (agent-client-protocol 1.0.0rc3): its ``acp.schema`` is
    # generated from the v1 unstable schema, and its ``acp.meta`` from that surface's
    # method table.
    "python-sdk": Profile(
        name="python-sdk",
        surface="v1-unstable",
        package="acp",
        manifest="schema/python-sdk.toml",
        string_formats=(("uri", "UriStr"),),
    ),
}


def profile(name: str, where: str = "--profile") -> Profile:
    """The profile called ``name``; any other name is refused with the known ones."""
    found = PROFILES.get(name)
    if found is None:
        raise AcpgenError(where, f"no profile {name!r}; choose one of {', '.join(sorted(PROFILES))}")
    return found
