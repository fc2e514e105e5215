"""Runnable examples: ``python -m <package>.examples.echo_agent``, ``.client`` and ``.minimal_agent``.

Copied verbatim by acpgen from acpgen/shipped/runtime/examples/. Do not edit: run `acpgen generate`.
"""
