"""Stage 1, inputs: the lock, the pinned bytes verified against it, and their parsers.

Every JSON input keeps the limits of ``json_limits.py``; the roster parser is
``roster.py``; nothing here knows the IR.
"""
