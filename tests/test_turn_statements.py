"""What a chat turn asks of the database: the statements it needs, each once (on SQLite and PostgreSQL).

A ``/v1/chat/completions`` turn reads the conversation once and its last turn once, records the
user's turn and the reply, and builds the context. A regression that reads them again, or
writes row by row, shows here as more statements (counted by tests/sqlcount.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from reverie import Settings
from reverie.server import create_app
from reverie.store.conversations import CONVERSATION_COLUMNS, MESSAGE_COLUMNS
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for
from tests.sqlcount import StatementLog

WAIT = 60.0  # a deadline, not a delay
#: The request's own statements for one turn of a conversation named by its header (auth included),
#: by engine: SQLite indexes a turn's keywords by two statements of its own (FTS5), PostgreSQL by
#: triggers. Before the conversation and the last turn were passed down: about 46 and 41.
MOST_PER_TURN = {"sqlite": 34, "postgres": 29}


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    with FakeModelServer(default_reply="Sure, noted.") as server:
        yield server


@pytest.fixture
def client(settings: Settings, fake: FakeModelServer, clock: Clock) -> Iterator[TestClient]:
    """The app with the fake model and the local embedder on (the turn's vectors come in the background)."""
    chat = chat_settings_for(settings, fake)
    chat.embeddings.enabled = True
    with TestClient(create_app(chat, clock=clock), headers=auth_headers(chat, "bob")) as test_client:
        yield test_client


def _turn(client: TestClient, log: StatementLog, text: str, conversation: int, *, stream: bool) -> list[str]:
    """One turn's statements on the request's threads (the deferred work is waited for, not counted)."""
    root = client.app.state.memory  # type: ignore[attr-defined]
    body = {"model": "x", "messages": [{"role": "user", "content": text}], "stream": stream}
    log.clear()
    with log.recording():
        answered = client.post(
            "/v1/chat/completions", json=body, headers={"X-Reverie-Conversation": str(conversation)}
        )
        assert answered.status_code == 200, answered.text
        assert root.wait_indexed(WAIT)
        root.background.wait(WAIT)
    return log.statements()


@pytest.mark.parametrize("stream", [False, True])
def test_a_turn_reads_the_conversation_and_its_last_turn_once(client: TestClient, stream: bool) -> None:
    root = client.app.state.memory  # type: ignore[attr-defined]
    root.view_of(root.store.get_user("bob").id).remember("User's sister Mia loves jazz records")
    log = StatementLog().attach(root.store)
    conversation = client.post("/api/v1/conversations", json={"interface": "chat"}).json()["id"]
    _turn(client, log, "Hello there", conversation, stream=stream)  # the first turn loads what is cached
    statements = _turn(client, log, "What does my sister like?", conversation, stream=stream)
    shown = "\n".join(statements)
    conversation_reads = [sql for sql in statements if sql.startswith(f"SELECT {CONVERSATION_COLUMNS} FROM")]
    assert len(conversation_reads) <= 1, shown
    last_turn_reads = [sql for sql in statements if sql.startswith(f"SELECT {MESSAGE_COLUMNS} FROM messages")]
    assert len(last_turn_reads) <= 1, shown
    assert len(statements) <= MOST_PER_TURN[root.store.db.name], shown
