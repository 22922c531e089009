"""Configuration: file, environment overrides, defaults from DAWN §7, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie import ConfigError, load_settings


def test_defaults_follow_dawn(tmp_path: Path) -> None:
    s = load_settings(home=tmp_path, environ={})
    assert s.memory.context_budget_tokens == 800 and s.memory.session_timeout_minutes == 15
    assert s.memory.extraction.provider == ""  # unset: the [llm] model, or rules without one (DAWN §3.2)
    d = s.memory.decay
    assert (d.hour, d.inferred_weekly, d.explicit_weekly, d.preference_weekly) == (2, 0.95, 0.98, 0.97)
    assert (d.inferred_floor, d.explicit_floor, d.preference_floor, d.prune_threshold) == (
        0.0,
        0.5,
        0.4,
        0.25,
    )
    assert d.summary_retention_days == 30 and d.access_reinforcement_boost == 0.05
    assert (s.rag.chunk_size_tokens, s.rag.chunk_overlap_tokens, s.rag.max_results) == (256, 50, 5)
    assert (s.embeddings.hybrid.keyword_weight, s.embeddings.hybrid.vector_weight) == (0.3, 0.7)
    assert s.embeddings.cache.max_entries == 10000
    assert s.database_path == tmp_path / "reverie.db"
    assert (s.server.host, s.server.port) == ("127.0.0.1", 8765)


def test_file_in_home_then_env_overrides(tmp_path: Path) -> None:
    (tmp_path / "reverie.toml").write_text(
        '[memory]\ncontext_budget_tokens = 1000\n[memory.voice_mapping]\nlocal_mic = "krisk"\n'
        "[memory.decay]\nhour = 4\n"
    )
    s = load_settings(home=tmp_path, environ={"REVERIE_MEMORY__DECAY__HOUR": "5"})
    assert s.memory.context_budget_tokens == 1000
    assert s.memory.voice_mapping == {"local_mic": "krisk"}
    assert s.memory.decay.hour == 5


def test_explicit_path_and_reverie_config_var(tmp_path: Path) -> None:
    cfg = tmp_path / "elsewhere.toml"
    cfg.write_text("[server]\nport = 9000\n")
    assert load_settings(cfg, home=tmp_path, environ={}).server.port == 9000
    assert load_settings(home=tmp_path, environ={"REVERIE_CONFIG": str(cfg)}).server.port == 9000
    assert load_settings(environ={"REVERIE_HOME": str(tmp_path)}).home == tmp_path


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[memory]\ncontext_budget = 5\n", "unknown key 'memory.context_budget'"),
        ("[memroy]\nenabled = true\n", "unknown key 'memroy'"),
        ('[memory]\ncontext_budget_tokens = "lots"\n', "'memory.context_budget_tokens'"),
        ("[memory.decay]\nhour = 25\n", "'memory.decay.hour'"),
        ('[memory.extraction]\nprovider = ["gpt"]\n', "'memory.extraction.provider'"),
        ("[memory\n", "not valid TOML"),
    ],
)
def test_bad_config_names_the_key(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "reverie.toml").write_text(toml)
    with pytest.raises(ConfigError, match=message):
        load_settings(home=tmp_path, environ={})


def test_bad_env_names_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="memory.context_budget_tokens"):
        load_settings(home=tmp_path, environ={"REVERIE_MEMORY__CONTEXT_BUDGET_TOKENS": "many"})
    with pytest.raises(ConfigError, match="unknown key 'memory.typo'"):
        load_settings(home=tmp_path, environ={"REVERIE_MEMORY__TYPO": "1"})


def test_missing_explicit_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.toml", home=tmp_path, environ={})


def test_dump_masks_secrets(tmp_path: Path) -> None:
    s = load_settings(home=tmp_path, environ={"REVERIE_EMBEDDINGS__API_KEY": "sk-secret"})
    assert s.dump()["embeddings"]["api_key"] == "***"
