# Edit acpgen/shipped/conformance/__init__.py, not this file: acpgen generate writes it.
"""The ACP conformance kit: black-box checks of an agent or a client over stdio.

Fixed Python, copied verbatim by ``acpgen generate`` into ``<tests_dir>/_acp_kit/`` (see
docs/conformance.md); it imports only the standard library, pytest and the generated package.
"""
