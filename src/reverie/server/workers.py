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
import functools
import os
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

import anyio
import anyio.to_thread

_T = TypeVar("_T")
#: Threads for memory work: one per core, plus one so a core never idles while a thread waits on I/O.
MEMORY_WORKERS = (os.cpu_count() or 2) + 1
#: Requests that may wait for the upstream model at once.
UPSTREAM_WORKERS = 100
_upstream: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)
_DONE = object()


def size_pools(memory_workers: int = MEMORY_WORKERS) -> None:
    """Size the default thread pool (memory work) of the running event loop."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = memory_workers


def _upstream_limiter() -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    limiter = _upstream.get(loop)
    if limiter is None:
        limiter = _upstream[loop] = anyio.CapacityLimiter(UPSTREAM_WORKERS)
    return limiter


async def run_memory(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run memory work on the memory threads."""
    return await anyio.to_thread.run_sync(functools.partial(function, *args, **kwargs))


async def run_upstream(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run work that mostly waits for the upstream model on the model-wait threads."""
    return await anyio.to_thread.run_sync(
        functools.partial(function, *args, **kwargs), limiter=_upstream_limiter()
    )


async def iterate_upstream(iterator: Iterator[_T]) -> AsyncIterator[_T]:
    """A blocking iterator fed by the upstream model, iterated on the model-wait threads."""
    while True:
        item = await run_upstream(next, iterator, _DONE)
        if item is _DONE:
            return
        yield item


__all__ = [
    "MEMORY_WORKERS",
    "UPSTREAM_WORKERS",
    "iterate_upstream",
    "run_memory",
    "run_upstream",
    "size_pools",
]
