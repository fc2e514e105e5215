"""Runnable example: ``python -m <package>.examples.minimal_agent`` (ACP v2).

Copied verbatim by acpgen: its first line names the file to edit.
"""
