"""Templates compiled when the package is built, shipped inside it like its ``.pyc`` files.

Compiling a template (jinja2's lexer, parser and code generator, all pure Python) is about
half of what rendering costs on a fresh runner. So the package build (``hatch_build.py``:
building a wheel, or ``pip install -e .``; :mod:`acpgen.emit.precompile`) compiles every
template once into
``acpgen/_precompiled/``: one Python module per template (jinja2's own compiled form, which
Python byte-compiles like any other module) and ``index.json``, which records for each
template the SHA-256 of the source it was compiled from, plus the jinja2 version and the
environment options that shape compiled code.

A precompiled template is used only when all of these match what this process would compile:
the template's *current* source bytes (an edited template, in a dev checkout or through
``$ACPGEN_TEMPLATES``, is compiled from its source, never answered stale), the installed
jinja2 and the environment. Nothing is written here at run time, so it is not a cache a
runner could inherit: it is part of the installed package. ``tests/test_precompiled.py``
holds it to that; ``tests/test_warm_run.py`` counts the compilations it saves.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

FORMAT = 1
INDEX = "index.json"
# Where the build puts it: inside the package (acpgen/_precompiled), beside the modules.
DIRECTORY = Path(__file__).resolve().parent.parent / "_precompiled"
LOADED: list[str] = []  # templates answered from here by this process (tests count them)


def environment_signature(env: jinja2.Environment) -> str:
    """Every environment option that changes the code jinja2 generates for a template."""
    options = [
        env.block_start_string, env.block_end_string, env.variable_start_string,
        env.variable_end_string, env.comment_start_string, env.comment_end_string,
        env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
        env.newline_sequence, env.keep_trailing_newline, repr(env.autoescape), env.optimized,
        env.is_async, env.finalize is not None, sorted(env.extensions),
        type(env).__module__, type(env).__qualname__,
    ]
    return hashlib.sha256(repr(options).encode("utf-8")).hexdigest()


def _module_name(template: str) -> str:
    return "t_" + hashlib.sha256(template.encode("utf-8")).hexdigest()[:24]


def _source_digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=4)
def _index(directory: str, jinja2_version: str, signature: str) -> dict[str, str]:
    """Template name -> SHA-256 of the source it was compiled from, or {} when the directory
    is missing, damaged, or was built for another jinja2 or environment."""
    try:
        doc = json.loads((Path(directory) / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("jinja2") != jinja2_version \
            or doc.get("environment") != signature or not isinstance(doc.get("templates"), dict):
        return {}
    return {k: v for k, v in doc["templates"].items() if isinstance(k, str) and isinstance(v, str)}


def code_for(env: jinja2.Environment, name: str, source: str, directory: Path | None = None) -> CodeType | None:
    """The compiled code of template ``name`` if it was precompiled from exactly ``source``
    for this jinja2 and environment, else None (the caller compiles it)."""
    import jinja2

    folder = directory or DIRECTORY
    index = _index(str(folder), jinja2.__version__, environment_signature(env))
    if index.get(name) != _source_digest(source):
        return None
    from importlib.machinery import SourceFileLoader

    module = f"acpgen._precompiled.{_module_name(name)}"
    try:
        code = SourceFileLoader(module, str(folder / f"{_module_name(name)}.py")).get_code(module)
    except (OSError, ImportError, SyntaxError, ValueError):
        return None
    if code is None:
        return None
    LOADED.append(name)
    return code


def build(env: jinja2.Environment, templates: Path, out: Path | None = None) -> int:
    """Compile every template under ``templates`` into ``out`` (replaced as a whole); the
    number of templates compiled."""
    import jinja2

    target = out or DIRECTORY
    names = sorted(p.relative_to(templates).as_posix() for p in templates.rglob("*.jinja") if p.is_file())
    staging = Path(tempfile.mkdtemp(prefix=".precompiled-", dir=target.parent))
    try:
        digests: dict[str, str] = {}
        for name in names:
            source = (templates / name).read_text(encoding="utf-8")
            code = env.compile(source, name, f"templates/{name}", raw=True)
            (staging / f"{_module_name(name)}.py").write_text(
                f"# Compiled by jinja2 {jinja2.__version__} from templates/{name}"
                f" (acpgen.emit.precompiled; not edited by hand)\n{code}", encoding="utf-8")
            digests[name] = _source_digest(source)
        index = {"format": FORMAT, "jinja2": jinja2.__version__,
                 "environment": environment_signature(env), "templates": digests}
        (staging / INDEX).write_text(json.dumps(index, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _index.cache_clear()
    return len(names)
