"""Where each emitted file comes from, said mechanically in the file and in ``MANIFEST.json``.

Every emitted text is :class:`acpgen.emit.render.Sourced`: :func:`render` marks it with its
template, the shipped copier (:mod:`acpgen.emit.shipped`) with the shipped file it copies.
:func:`sourced` gives every Python file a first line naming that file (:data:`HEADER`), so a
newcomer finds, from any generated file, the one to edit; :func:`origin` is what the
manifest records beside the file's hash (``origins``). A file an emitter writes itself
(``py.typed``) names the emitter.
"""

from __future__ import annotations

from collections.abc import Callable

from acpgen.emit.render import Sourced

HEADER = "# Edit {origin}, not this file: acpgen generate writes it.\n"


def origin(text: str, emitter: Callable[..., object]) -> str:
    """The file a contributor edits to change ``text``: its template or shipped source, or
    else the emitter's own module."""
    if isinstance(text, Sourced) and text.origin:
        return text.origin
    return emitter.__module__.replace(".", "/") + ".py"


def sourced(rel: str, text: str, emitter: Callable[..., object]) -> Sourced:
    """``text`` as the file ``rel``: a Python file gets :data:`HEADER` as its first line (the
    text keeps its class, so the format stage treats it as before)."""
    where = origin(text, emitter)
    if not rel.endswith(".py") or not text:
        return text if isinstance(text, Sourced) else Sourced(text, where)
    kind = type(text) if isinstance(text, Sourced) else Sourced
    return kind(HEADER.format(origin=where) + text, where)
