"""Runnable example: ``python -m <package>.examples.minimal_agent`` (ACP v2).

Copied verbatim by acpgen from acpgen/shipped/runtime/examples_v2/. Do not edit: run `acpgen generate`.
"""
