"""Statements per chat turn: the SQL one ``/v1/chat/completions`` turn sends, on SQLite or PostgreSQL.

The app runs in this process (FastAPI's TestClient) in front of the fake model
(tests/fakeserver.py), with ``--memories`` facts for the user and the local embedder (as
bench/chat_load.py serves it). Each of ``--turns`` turns goes to one conversation named by
``X-Reverie-Conversation`` (chat_load's turn), after one warm-up turn. Every statement the
store sends is counted (tests/sqlcount.py: SQLite's trace callback, a counting psycopg
cursor), split into the request's own and the deferred ones (the turn indexer's and the
background tasks' threads). Prints statements per turn and those the request runs more
than once, with their count per turn.

    .venv/bin/python bench/chat_statements.py                     # SQLite
    .venv/bin/python bench/chat_statements.py --engine postgres   # the embedded PostgreSQL
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/chat_statements.py   # another checkout's code

Every request goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import fakeserver  # noqa: E402
from chat_load import _QUESTIONS, fact  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from sqlcount import StatementLog  # noqa: E402

from reverie.config import load_settings  # noqa: E402
from reverie.memory import Memory  # noqa: E402
from reverie.server import create_app  # noqa: E402


def _environment(args: argparse.Namespace, home: Path, model_url: str) -> tuple[dict[str, str], Any]:
    env = {
        "REVERIE_HOME": str(home),
        "REVERIE_DEFAULT_USER": "bench",
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_LLM__PROVIDER": "openai_compatible",
        "REVERIE_LLM__ENDPOINT": f"{model_url}/v1",
        "REVERIE_LLM__MODEL": "fake-chat",
        "REVERIE_LLM__MAX_ATTEMPTS": "1",
        "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
        "REVERIE_SERVER__CONSOLIDATE_EVERY_SECONDS": "0",
    }
    pg = None
    if args.engine == "postgres":
        import pgserver
        import psycopg

        pg = pgserver.start()
        with psycopg.connect(pg.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE reverie_statements")
        env["REVERIE_STORE__URL"] = pg.url("reverie_statements")
    return env, pg


def _seed(env: dict[str, str], home: Path, memories: int) -> str:
    memory = Memory(load_settings(home=home, environ=env))
    try:
        rnd = random.Random(7)
        for i in range(memories):
            memory.remember(fact(i, rnd))
        user = memory.user
        assert user is not None
        _, secret = memory.accounts.create_token(user, "chat-statements")
    finally:
        memory.close()
    return secret


def _short(sql: str, width: int = 150) -> str:
    return sql if len(sql) <= width else sql[: width - 3] + "..."


def run(args: argparse.Namespace) -> None:
    """Seed, serve in process, count the turns' statements and print them."""
    home = Path(tempfile.mkdtemp(prefix="reverie-statements-"))
    model = fakeserver.FakeModelServer(default_reply="Sure, I remember that.").start()
    env, pg = _environment(args, home, model.url)
    try:
        secret = _seed(env, home, args.memories)
        app = create_app(load_settings(home=home, environ=env))
        with TestClient(app, headers={"Authorization": f"Bearer {secret}"}) as client:
            root = app.state.memory
            log = StatementLog().attach(root.store)
            conversation = client.post("/api/v1/conversations", json={"interface": "chat"}).json()["id"]
            headers = {"X-Reverie-Conversation": str(conversation)}
            rnd = random.Random(3)
            request, deferred, repeated = [], [], Counter[str]()
            for turn in range(args.turns + 1):
                body = {
                    "model": "x",
                    "messages": [{"role": "user", "content": f"{rnd.choice(_QUESTIONS)} [t{turn}]"}],
                    "stream": args.stream,
                }
                log.clear()
                with log.recording():
                    answered = client.post("/v1/chat/completions", json=body, headers=headers)
                    assert answered.status_code == 200, answered.text
                    root.wait_indexed(60)
                    root.background.wait(60)
                if turn == 0:
                    continue  # the warm-up: vectors and statements loaded once per process
                request.append(len(log.statements()))
                deferred.append(len(log.statements(deferred=True)))
                repeated.update(log.repeated())
            if args.show:
                for sql in log.statements():
                    print("  ", _short(sql))
    finally:
        model.stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(home, ignore_errors=True)
    turns = len(request)
    print(f"engine {args.engine}, {args.memories} memories, {turns} turns, stream={args.stream}")
    print(
        f"statements per turn: request {sum(request) / turns:.1f} (min {min(request)}, max {max(request)}),"
        f" deferred {sum(deferred) / turns:.1f}"
    )
    for sql, count in repeated.most_common():
        print(f"  {count / turns:4.1f}x  {_short(sql)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--memories", type=int, default=200)
    parser.add_argument("--stream", action="store_true", help="streamed turns")
    parser.add_argument("--show", action="store_true", help="print the last turn's statements")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
