"""Vectors held as int8 with one float32 scale per row: a quarter of the memory of float32.

A chat turn adds two vectors (the turn's and its window's), and every search over turns
scores all of them, so a user's whole chat history sits in the index. In float32 that is
3 KB per turn (a year of a hundred turns a day: 110 MB); as int8 codes with a per-row scale
(``row ≈ codes * scale``, scale = the row's largest magnitude / 127) it is 776 bytes. A cosine
moves by a few thousandths at most (tests/test_vector_quantised.py).

Scoring converts a block of rows at a time to float32 (1.5 MB, whatever the matrix's size)
and multiplies it by the query, on one core. Measured on the shared 2-core machine (load
average 10), median of 60 scans of 384-dim rows: 3k rows 0.20 ms against 0.11 for float32, 20k
rows 1.6 ms against 1.0, 73k rows (a year at a hundred turns a day) 18 ms against 10.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]
Codes = npt.NDArray[np.int8]
#: Rows converted to float32 at a time while scoring: 1024 x 384 dims = 1.5 MB, which stays in
#: the core's cache for the product (4096-row blocks took up to 1.6 times as long at 73k rows).
BLOCK_ROWS = 1024


def quantise(vectors: FloatMatrix) -> tuple[Codes, FloatMatrix]:
    """(codes, scales) of a (n, dims) float matrix: ``vectors[i] ≈ codes[i] * scales[i]``.

    A block of rows at a time, so quantising a mapped snapshot holds no float copy of it all."""
    n, dims = vectors.shape
    codes: Codes = np.empty((n, dims), dtype=np.int8)
    scales: FloatMatrix = np.empty(n, dtype=np.float32)
    for first in range(0, n, BLOCK_ROWS):
        block = np.asarray(vectors[first : first + BLOCK_ROWS], dtype=np.float32)
        scale = (np.abs(block).max(axis=1) / np.float32(127.0)).astype(np.float32)
        scales[first : first + len(block)] = scale
        divided = block / np.where(scale > 0, scale, np.float32(1.0))[:, None]
        codes[first : first + len(block)] = np.rint(divided, out=divided).clip(-127, 127, out=divided)
    return codes, scales


def dequantise(codes: Codes, scales: FloatMatrix) -> FloatMatrix:
    """The float32 rows that ``codes`` and ``scales`` stand for."""
    rows: FloatMatrix = codes.astype(np.float32)
    rows *= scales[:, None]
    return rows


def scan(codes: Codes, scales: FloatMatrix, query: FloatMatrix, out: FloatMatrix) -> None:
    """``out[i] = dequantised row i · query``, a block of rows at a time (one core)."""
    for first in range(0, len(codes), BLOCK_ROWS):
        end = min(first + BLOCK_ROWS, len(codes))
        np.einsum("ij,j->i", codes[first:end].astype(np.float32), query, out=out[first:end])
    out *= scales


__all__ = ["BLOCK_ROWS", "dequantise", "quantise", "scan"]
