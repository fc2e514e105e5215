"""The fixed part of the generated runtime, as real Python.

These modules do not vary with the schema: the runtime emitter copies their bytes into each
generated package (``errors``, ``framing``, ``rpc``, ``stdio``; they import each other
relatively, so no package name is substituted) and ``runtime_tests/`` into the generated
project. They are linted, type-checked and unit-tested here, where they are written
(``tests/test_runtime_engine.py``). acpgen imports only their constants, to check them
against the schema (:mod:`acpgen.emit.runtime`).
"""
