"""Stage 3: emitters (see :mod:`acpgen.emit.registry`)."""
