"""The JSON Schema ``format`` values acpgen gives a meaning to.

The generated models enforce the integer formats as ranges (the schema's own
minimum/maximum narrow them further), and the schema diff compares them as such: both read
the ranges from here, so a model and a compatibility verdict can never disagree on a width.
"""

from __future__ import annotations

# Ranges of the integer formats the schema uses (Rust integer widths).
INTEGER_FORMATS: dict[str, tuple[int, int]] = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}
