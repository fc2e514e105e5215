"""Stage 4, model: the immutable ``GenerationModel`` every emitter receives (``generation.py``),
with what the roster derives (claims, verdicts) and the package name rules.
"""
