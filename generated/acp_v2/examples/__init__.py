# Edit acpgen/shipped/runtime/examples_v2/__init__.py, not this file: acpgen generate writes it.
"""Runnable example: ``python -m <package>.examples.minimal_agent`` (ACP v2).

Copied verbatim by acpgen: its first line names the file to edit.
"""
