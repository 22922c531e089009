"""Embedding providers behind one protocol (:mod:`reverie.embed.base`), and the vector index.

The built-in providers (``local``, ``remote``) register themselves in the registry of
:mod:`reverie.embed.base` when first needed: this package, which sits above both, tells the
registry how to load them, so the base module imports none of its providers.
"""

from __future__ import annotations

from reverie.embed.base import embedders


def _load_builtins() -> None:
    from reverie.embed import local, local_bge, remote  # noqa: F401


embedders.load_builtins_with(_load_builtins)
