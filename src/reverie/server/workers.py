"""The server's threads: memory work on as many threads as there are cores, model waits on many.

Memory work (recording a turn, the context, searches, every sync route and dependency) is CPU:
SQLite, numpy and ONNX. On more threads than cores, concurrent requests only fight over the
cores and the GIL and all get slower, so anyio's default thread pool, which runs all of it,
is sized to the cores (:func:`size_pools`, at startup). Waiting for the upstream model is not
CPU and may take seconds: it runs on a pool of its own (:func:`run_upstream`), so a slow
model never holds a memory thread and memory work never queues behind a model.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import os
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import numpy as np

from reverie.config import Settings

log = logging.getLogger(__name__)
_T = TypeVar("_T")
#: Threads for memory work: one per core, plus one so a core never idles while a thread waits on I/O.
MEMORY_WORKERS = (os.cpu_count() or 2) + 1
#: Requests that may wait for the upstream model at once.
UPSTREAM_WORKERS = 100
_upstream: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)
_DONE = object()
_M_ARENA_MAX = -8  # glibc's mallopt parameter


def size_pools(memory_workers: int = MEMORY_WORKERS) -> None:
    """Size the default thread pool (memory work) of the running event loop."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = memory_workers


def one_thread_per_request(settings: Settings) -> None:
    """Numerics on one thread per request: the parallelism is the concurrent requests.

    The local embedder gets one ONNX thread unless ``[embeddings] threads`` is set, and numpy's
    OpenBLAS one thread. With more, each request's matrix products and inference spread over
    every core and wait on each other: measured on 2 busy cores, a 2,000 x 384 product took
    8 ms on OpenBLAS's threads and 0.3 ms on one.
    """
    if "threads" not in settings.embeddings.model_fields_set:
        settings.embeddings.threads = 1
    _few_malloc_arenas()
    folder = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    names = (
        "scipy_openblas_set_num_threads64_",
        "scipy_openblas_set_num_threads",
        "openblas_set_num_threads",
    )
    try:
        libraries = [entry for entry in os.listdir(folder) if "openblas" in entry]
    except OSError:
        libraries = []
    for entry in libraries:
        try:
            library = ctypes.CDLL(os.path.join(folder, entry))  # the copy numpy loaded: same handle
        except OSError as exc:
            log.debug("OpenBLAS threads left as they are: %s", exc)
            continue
        setter = next((getattr(library, name) for name in names if hasattr(library, name)), None)
        if setter is not None:
            setter(1)
            return


def _upstream_limiter() -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    limiter = _upstream.get(loop)
    if limiter is None:
        limiter = _upstream[loop] = anyio.CapacityLimiter(UPSTREAM_WORKERS)
    return limiter


def _few_malloc_arenas() -> None:
    """glibc gives each new thread a malloc arena (up to 8 per core) that keeps what was freed in it.

    Requests hop between many threads (memory work, model waits), so resident memory grew
    from run to run; two arenas keep it flat. Elsewhere than glibc this does nothing.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_ARENA_MAX, 2)
    except (OSError, AttributeError) as exc:
        log.debug("malloc arenas left as they are: %s", exc)


async def run_memory(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run memory work on the memory threads."""
    return await anyio.to_thread.run_sync(functools.partial(function, *args, **kwargs))


async def run_upstream(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run work that mostly waits for the upstream model on the model-wait threads."""
    return await anyio.to_thread.run_sync(
        functools.partial(function, *args, **kwargs), limiter=_upstream_limiter()
    )


async def iterate_upstream(
    iterator: Iterator[_T], known: Callable[[], bool] | None = None
) -> AsyncIterator[_T]:
    """A blocking iterator fed by the upstream model, iterated on the model-wait threads.

    Once ``known()`` is true the rest waits for no model (a reply that came whole): it is
    iterated here, without a thread hop per item.
    """
    while True:
        item = await run_upstream(next, iterator, _DONE)
        if item is _DONE:
            return
        yield item
        if known is not None and known():
            for item in iterator:
                yield item
            return


__all__ = [
    "MEMORY_WORKERS",
    "UPSTREAM_WORKERS",
    "iterate_upstream",
    "one_thread_per_request",
    "run_memory",
    "run_upstream",
    "size_pools",
]
