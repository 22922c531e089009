"""Speech to text as a device and its owner meet it: which audio is taken, what a refusal says to
set, and how long and how often a failing speech model is asked.

Written for the mutants of llm/transcribe.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from reverie.config import TranscriptionSettings
from reverie.errors import InvalidInput, NotConfigured, ProviderError, ProviderUnavailable
from reverie.llm.transcribe import AUDIO_TYPES, Transcriber, transcriber_from_settings
from tests.fakeserver import FakeModelServer

SPEECH = "/v1/audio/transcriptions"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server that transcribes."""
    with FakeModelServer() as server:
        yield server


def _transcriber(fake: FakeModelServer, timeout: float = 5.0) -> Transcriber:
    return Transcriber(
        TranscriptionSettings(
            provider="openai_compatible", endpoint=f"{fake.url}/v1", timeout_seconds=timeout
        )
    )


def test_a_media_type_with_several_parameters_is_read_by_its_type(fake: FakeModelServer) -> None:
    heard = _transcriber(fake).transcribe(b"Good morning", "audio/wav; rate=16000; channels=1")
    assert heard == "Good morning"
    assert fake.requests_to(SPEECH)[-1].body["file"] == b"Good morning"


def test_a_refused_upload_says_which_types_are_taken_and_nothing_is_sent(fake: FakeModelServer) -> None:
    speech = _transcriber(fake)
    with pytest.raises(InvalidInput) as refused:
        speech.transcribe(b"hi", "text/plain")
    listed = ", ".join(AUDIO_TYPES)
    assert str(refused.value) == f"Send the audio with a Content-Type of one of: {listed} (got text/plain)"
    assert listed.startswith("audio/flac, audio/m4a, audio/mp3, ")
    with pytest.raises(InvalidInput) as empty:
        speech.transcribe(b"", "audio/wav")
    assert str(empty.value) == "The audio is empty"
    assert fake.requests_to(SPEECH) == []


def test_without_a_speech_model_the_answer_gives_the_settings_to_write() -> None:
    with pytest.raises(NotConfigured) as unset:
        transcriber_from_settings(TranscriptionSettings())
    assert str(unset.value) == (
        'Speech needs a transcription model: set [transcription] provider = "openai_compatible" '
        'and its endpoint (or provider = "openai" with an api_key) in the config file'
    )
    with pytest.raises(NotConfigured) as no_endpoint:
        transcriber_from_settings(TranscriptionSettings(provider="openai_compatible"))
    assert str(no_endpoint.value) == (
        '[transcription] provider = "openai_compatible" needs an endpoint, '
        'e.g. endpoint = "http://127.0.0.1:8000/v1"'
    )


def test_a_failing_speech_model_says_which_settings_to_check(fake: FakeModelServer) -> None:
    fake.set_mode("error", status=503, path=SPEECH)
    with pytest.raises(ProviderUnavailable) as failed:
        _transcriber(fake).transcribe(b"hi", "audio/wav")
    assert str(failed.value) == (
        f"the transcription server at {fake.url}/v1 answered HTTP 503; "
        "check endpoint and model under [transcription]"
    )


def test_a_speech_model_failing_once_is_asked_again_and_never_a_third_time(fake: FakeModelServer) -> None:
    speech = _transcriber(fake)
    fake.fail_times(1, "error", path=SPEECH)
    assert speech.transcribe(b"Turn the lights on", "audio/wav") == "Turn the lights on"
    assert len(fake.requests_to(SPEECH)) == 2
    # A device waits for its answer, and a paid speech model bills each try: two at most.
    fake.fail_times(2, "error", path=SPEECH)
    with pytest.raises(ProviderUnavailable, match="answered HTTP 500"):
        speech.transcribe(b"Turn the lights off", "audio/wav")
    assert len(fake.requests_to(SPEECH)) == 4


def test_a_speech_model_that_does_not_answer_is_given_up_after_its_timeout(fake: FakeModelServer) -> None:
    fake.set_mode("slow", path=SPEECH, delay=6.0)
    started = time.monotonic()
    with pytest.raises(ProviderUnavailable, match=r"did not answer within 0\.4 s"):
        _transcriber(fake, timeout=0.4).transcribe(b"hi", "audio/wav")
    assert time.monotonic() - started < 4.0  # two tries of 0.4 s and a 0.5 s pause, not the 6 s reply


def test_a_reply_that_is_no_json_object_is_a_provider_error(fake: FakeModelServer) -> None:
    fake.set_mode("wrong_shape", path=SPEECH, body=["hello"])
    with pytest.raises(ProviderError, match="answered without a text field"):
        _transcriber(fake).transcribe(b"hello", "audio/wav")
