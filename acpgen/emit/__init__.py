"""Stage 5, emit: one emitter per output, ``{relative path: text}`` (see :mod:`acpgen.emit.registry`)."""
