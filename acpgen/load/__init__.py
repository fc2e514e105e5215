"""Stage 3, load: the verified project every command starts from.

:func:`project.load_project` reads the lock, verifies and parses the pinned inputs (stage 1),
builds the IR (stage 2) and parses the hand-reviewed manifests against it
(``capabilities.py``, ``conformance.py``); ``lock_update.py`` accepts new input bytes the same
way before it rewrites the lock.
"""
