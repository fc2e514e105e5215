"""The integer formats' ranges: one table, read by the models and by the schema diff."""

from __future__ import annotations

from acpgen.emit import models_plan
from acpgen.evolve import walk
from acpgen.ir.formats import INTEGER_FORMATS


def test_the_ranges_are_the_rust_integer_widths() -> None:
    assert INTEGER_FORMATS == {
        "int8": (-128, 127),
        "int16": (-32768, 32767),
        "int32": (-2147483648, 2147483647),
        "int64": (-9223372036854775808, 9223372036854775807),
        "uint8": (0, 255),
        "uint16": (0, 65535),
        "uint32": (0, 4294967295),
        "uint64": (0, 18446744073709551615),
    }


def test_the_models_and_the_diff_read_the_same_table() -> None:
    assert models_plan.INTEGER_FORMATS is INTEGER_FORMATS
    assert walk.INTEGER_FORMATS is INTEGER_FORMATS
