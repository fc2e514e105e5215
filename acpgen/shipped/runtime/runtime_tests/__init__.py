"""Tests of the generated runtime: JSON-RPC, handshake, cancellation, faults, examples.

Copied verbatim into every generated project by acpgen.
They reach the generated package only through ``_package.py``, which acpgen renders beside
them with the package's name (in acpgen itself that module does not exist).
"""
