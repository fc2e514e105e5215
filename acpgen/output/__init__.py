"""Stage 6, output: format (black), MANIFEST.json, the atomic write, and ``check``."""
