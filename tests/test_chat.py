"""``reverie chat`` against an OpenAI-compatible endpoint, and the conversation HTTP routes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import fakeserver
from conftest import Clock
from fakeserver import FakeModelServer
from fastapi.testclient import TestClient

from reverie import Memory, load_settings
from reverie.server import create_app
from tests.apiauth import auth_headers

fake_server = fakeserver.fake_server


def test_reverie_chat_with_memory_and_tool_commands(tmp_path: Path, fake_server: FakeModelServer) -> None:
    home = tmp_path / "chat"
    env = {**os.environ, "REVERIE_HOME": str(home), "REVERIE_EMBEDDINGS__ENABLED": "false"}
    fake_server.script_chat(
        [
            "Hello! How can I help?",
            '<command>{"device":"memory","action":"search","value":"cello"}</command>',
            "You play the cello.",
        ]
    )
    lines = "Hi there\nremember that I play the cello\nWhat instrument do I play?\n/end\n"
    proc = subprocess.run(
        [sys.executable, "-m", "reverie", "chat", "--url", f"{fake_server.url}/v1", "--model", "fake-chat"],
        input=lines,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [line for line in proc.stdout.splitlines() if line.startswith("assistant> ")]
    assert replies == [
        "assistant> Hello! How can I help?",
        "assistant> I'll remember that.",
        "assistant> You play the cello.",
    ]
    chats = fake_server.requests_to("/v1/chat/completions")
    assert len(chats) == 3 and chats[0].body["model"] == "fake-chat"
    system = chats[1].body["messages"][0]["content"]
    assert "User plays the cello" in system and "<remembered_user_data>" in system
    assert "Tool results" in chats[2].body["messages"][-1]["content"]
    assert "User plays the cello" in chats[2].body["messages"][-1]["content"]
    assert "consolidated: done" in proc.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "reverie", "conversations", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert json.loads(listed.stdout)[0]["state"] == "done"


def test_chat_without_a_model_is_a_clear_error(tmp_path: Path) -> None:
    env = {**os.environ, "REVERIE_HOME": str(tmp_path / "h")}
    proc = subprocess.run(
        [sys.executable, "-m", "reverie", "chat"],
        input="hi\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Chat needs a language model and none is configured" in proc.stderr
    assert str(tmp_path / "h" / "reverie.toml") in proc.stderr and "Traceback" not in proc.stderr


def test_conversation_routes(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(
        home=tmp_path / "api",
        environ={"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_SERVER__CONSOLIDATE_EVERY_SECONDS": "0"},
    )
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings)) as client:
        started = client.post("/api/v1/conversations", json={"interface": "kitchen"})
        assert started.status_code == 201 and started.json()["state"] == "open"
        cid = started.json()["id"]
        posted = client.post(
            f"/api/v1/conversations/{cid}/messages",
            json={
                "messages": [
                    {"role": "user", "content": "I'm vegetarian", "speaker": "Ana"},
                    {"role": "assistant", "content": "Noted."},
                ]
            },
        )
        assert posted.status_code == 201 and [m["conversation_id"] for m in posted.json()] == [cid, cid]
        detail = client.get(f"/api/v1/conversations/{cid}").json()
        assert [m["content"] for m in detail["messages"]] == ["I'm vegetarian", "Noted."]
        assert (
            client.put(f"/api/v1/conversations/{cid}/private", json={"private": False}).json()["private"]
            is False
        )
        assert client.post(f"/api/v1/conversations/{cid}/end").json()["state"] == "pending"
        admin = auth_headers(settings, "root", admin=True)
        jobs = client.post("/api/v1/consolidate", headers=admin).json()["jobs"]
        assert jobs[0]["state"] == "done" and jobs[0]["stored"] == 1
        assert client.get("/api/v1/conversations").json()[0]["state"] == "done"
        assert client.get("/api/v1/memories").json()["memories"][0]["text"] == "User is vegetarian"
        bad = client.post(
            f"/api/v1/conversations/{cid}/messages", json={"messages": [{"role": "bot", "content": "x"}]}
        )
        assert bad.status_code == 400 and bad.json()["error"] == "invalid_input"
        assert client.get("/api/v1/conversations/999").status_code == 404
    with Memory(settings) as mem:
        assert mem.conversation(cid).consolidation_state == "done"
