"""Runnable examples: ``python -m <package>.examples.echo_agent``, ``.client`` and ``.minimal_agent``.

Copied verbatim by acpgen: its first line names the file to edit.
"""
