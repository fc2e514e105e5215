"""Code acpgen ships: real Python that does not vary with the schema, copied byte for byte.

``runtime/`` goes into the generated package (and ``runtime/runtime_tests/`` beside the
requirement tests), ``conformance/`` into ``<tests_dir>/_acp_kit/``, ``reqchecks/`` into
``<tests_dir>/``. Each is linted, type-checked and unit-tested here, where it is written.
"""
