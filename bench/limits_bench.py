"""Huge inputs are answered or refused at once: time per door for ~1 MB of text.

    .venv/bin/python bench/limits_bench.py [--repeat 5]

Goal (issue "Hardening"): a 1 MB message is answered or refused in under 1 s, and keyword
extraction is linear in its input. Each case runs against the app in-process (FastAPI's
TestClient, a fake model answering at once); the table gives the status and the median time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402

from reverie.config import load_settings  # noqa: E402
from reverie.server import create_app  # noqa: E402
from reverie.text import keyword_terms  # noqa: E402
from tests.apiauth import auth_headers  # noqa: E402
from tests.fakeserver import FakeModelServer, chat_settings_for  # noqa: E402


def _median_ms(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), result


def main() -> None:
    """Print one row per case."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    words = " ".join(f"w{i}" for i in range(120_000))[:1_000_000]
    rows = []
    for size in (100_000, 1_000_000):
        ms, _ = _median_ms(lambda size=size: keyword_terms(words[:size]), args.repeat)
        rows.append((f"keyword_terms, {size // 1000} kB", "-", ms))
    with tempfile.TemporaryDirectory() as home, FakeModelServer() as fake:
        settings = chat_settings_for(load_settings(home=Path(home), environ={}), fake)
        with TestClient(create_app(settings), headers=auth_headers(settings, admin=True)) as client:
            client.post("/chat/text", json={"text": "hello"})  # a warm server
            cases = [
                ("/chat/text", {"text": words}),
                ("/v1/chat/completions", {"model": "x", "messages": [{"role": "user", "content": words}]}),
                ("/api/v1/observe", {"utterance": "remember that " + words}),
                ("/api/v1/tool", {"action": "search", "value": words[:270_000]}),
                ("/api/v1/forget", {"query": words[:270_000]}),
            ]
            for path, body in cases:
                ms, response = _median_ms(
                    lambda path=path, body=body: client.post(path, json=body), args.repeat
                )
                rows.append((f"POST {path}, {len(str(body)) // 1000} kB", str(response.status_code), ms))  # type: ignore[attr-defined]
    print("| case | status | median ms | goal |\n|---|---|---|---|")
    for case, status, ms in rows:
        print(f"| {case} | {status} | {ms:.1f} | < 1000 |")


if __name__ == "__main__":
    main()
