"""The context an assistant reads never carries a fact under ``[memory.extraction] confidence_min``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import Clock
from fastapi.testclient import TestClient

from reverie import Settings
from reverie.server.app import create_app
from tests.apiauth import auth_headers

API = "/api/v1"
STAMP = "2026-01-10T09:00:00Z"


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings)) as test_client:
        yield test_client


def _fact(text: str, confidence: float) -> dict[str, object]:
    return {
        "kind": "fact",
        "text": text,
        "source": "inferred",
        "confidence": confidence,
        "created_at": STAMP,
        "updated_at": STAMP,
    }


def _load(client: TestClient, *facts: dict[str, object]) -> None:
    document = {"format": "reverie-export", "version": 1, "memories": list(facts), "summaries": []}
    response = client.post(f"{API}/import", json=document)
    assert response.status_code == 200, response.text


def test_a_fact_under_confidence_min_stays_out_of_the_context(client: TestClient) -> None:
    _load(
        client,
        _fact("User may keep bees on the roof", 0.3),
        _fact("User plays the violin in an orchestra", 0.9),
        _fact("User probably owns a sailing boat", 0.59),
        _fact("User often sails on the lake", 0.6),
    )
    # Asked about the very subject of the weak facts: they are relevant, and still left out.
    text = client.get(f"{API}/context", params={"q": "bees on the roof and the sailing boat"}).json()["text"]
    assert "violin" in text and "sails on the lake" in text
    assert "bees" not in text and "sailing boat" not in text
    assert "low confidence" not in text
    # They are kept, though: the user still sees them.
    listed = client.get(f"{API}/memories", params={"limit": 10}).json()["memories"]
    assert len(listed) == 4


def test_the_floor_follows_the_setting(settings: Settings, clock: Clock) -> None:
    settings.memory.extraction.confidence_min = 0.2
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings)) as client:
        _load(client, _fact("User may keep bees on the roof", 0.3), _fact("User might like opera", 0.1))
        text = client.get(f"{API}/context", params={"q": "bees"}).json()["text"]
    assert "bees" in text and "low confidence" in text
    assert "opera" not in text
