"""Stage 2, ir: the typed view of the schema and meta.json (``types.py``, built by ``build.py``).

Every Python name the output uses is decided here (``naming.py``).
"""
