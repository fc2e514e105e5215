"""Format a whole emitted tree: black-layout files as they are, cached results next, the rest
with black, big files in parallel.

black dominates generation time (seconds for the models module, milliseconds for the rest).
A file rendered by a template that declares black's layout (:class:`BlackLayout`) is taken
as it is whenever :func:`acpgen.output.layout.black_layout` vouches that black would leave
it unchanged, else black formats the whole file (one authority per file);
fixed code copied as it is (:class:`Verbatim`) is taken as it is; everything else goes
through black. Each file is formatted independently and results are collected by path, so
running the big ones in forked worker processes cannot change a byte; it only overlaps
their cost.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from acpgen import disk_cache
from acpgen.emit.render import BlackLayout, Verbatim
from acpgen.errors import AcpgenError
from acpgen.output.format import format_python, formatter_id
from acpgen.output.layout import black_layout
from acpgen.output.work_stats import STATS

PARALLEL_MIN_CHARS = 20_000  # below this, a worker process costs more than it saves


def format_tree(sources: dict[str, str]) -> dict[str, str]:
    """Like :func:`acpgen.output.format.format_tree`, with a cache and parallel workers."""
    out: dict[str, str] = {}
    todo: dict[str, str] = {}
    directory: Path | None = None
    ident = ""
    for rel, source in sources.items():
        if not rel.endswith(".py") or isinstance(source, Verbatim):
            out[rel] = str(source)
            continue
        laid_out = black_layout(source) if isinstance(source, BlackLayout) else None
        if laid_out is not None:
            out[rel] = laid_out
            continue
        if not ident:
            directory = disk_cache.cache_dir()
            ident = formatter_id()
        hit = disk_cache.load(directory, disk_cache.key(source, ident)) if directory else None
        if hit is None:
            todo[rel] = source
        else:
            out[rel] = hit
    STATS.sent_to_black.extend(todo)
    for rel, text in _format_uncached(todo).items():
        out[rel] = text
        if directory:
            disk_cache.store(directory, disk_cache.key(todo[rel], ident), text)
    return {rel: out[rel] for rel in sources}  # the emitters' order, whatever finished first


def _workers(big: int) -> int:
    if big < 2 or not sys.platform.startswith("linux"):
        return 0  # fork is the cheap start method (black already imported); Linux only
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    workers = min(big, cpus)
    return workers if workers >= 2 else 0


def _format_uncached(todo: dict[str, str]) -> dict[str, str]:
    big = [rel for rel in todo if len(todo[rel]) >= PARALLEL_MIN_CHARS]
    workers = _workers(len(big))
    if not workers:
        return {rel: format_python(rel, source) for rel, source in todo.items()}
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    share = _balance(todo, workers)  # share 0 stays in this process, the rest go to workers
    results: dict[str, str] = {}
    pool = ProcessPoolExecutor(workers - 1, mp_context=multiprocessing.get_context("fork"))
    try:
        futures = {rel: pool.submit(_format_in_worker, rel, todo[rel])
                   for rel in sorted(todo, key=lambda r: (-len(todo[r]), r)) if share[rel]}
        for rel, source in todo.items():
            if not share[rel]:
                results[rel] = format_python(rel, source)
        for rel, future in futures.items():
            ok, text = future.result()
            if not ok:
                raise AcpgenError(rel, text)
            results[rel] = text
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # on an error, queued files are dropped
    return results


def _balance(todo: dict[str, str], bins: int) -> dict[str, int]:
    """Longest first into the least-loaded bin (size as the cost estimate): near-equal shares."""
    load = [0] * bins
    share: dict[str, int] = {}
    for rel in sorted(todo, key=lambda r: (-len(todo[r]), r)):
        chosen = min(range(bins), key=lambda i: (load[i], i))
        share[rel] = chosen
        load[chosen] += len(todo[rel])
    return share


def _format_in_worker(rel: str, source: str) -> tuple[bool, str]:
    # AcpgenError does not survive pickling (custom __init__): send back plain data.
    try:
        return True, format_python(rel, source)
    except AcpgenError as exc:
        return False, exc.message
