"""Tests of the generated runtime (JSON-RPC, handshake, cancellation, faults, examples).

In acpgen this file only marks the folder as a package; in a generated project it is
rendered from ``templates/runtime/tests/__init__.py.jinja`` and names the package under test.
"""

PACKAGE = "acp_v1"  # the generated package these tests drive
