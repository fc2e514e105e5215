"""The fixed part of the generated runtime, as real Python.

These modules do not vary with the schema: the runtime emitter copies their bytes into each
generated package (they import each other relatively, so no package name is substituted).
They are linted, type-checked and unit-tested here, where they are written. acpgen itself
never imports them.
"""
