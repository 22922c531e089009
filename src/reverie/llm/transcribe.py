"""Speech to text for ``POST /chat/audio``: an OpenAI-compatible ``/audio/transcriptions``.

Lo-Bug's device sends what the user said as audio; the server turns it into text with the
speech model configured under ``[transcription]`` (OpenAI's, or a local server speaking the
same protocol: faster-whisper-server, LocalAI, whisper.cpp's server) and the text goes on as a
chat turn. With ``provider = "none"`` (the default) there is no transcriber and the route
answers 503 saying which section to set.
"""

from __future__ import annotations

from reverie.config import TranscriptionSettings
from reverie.errors import InvalidInput, NotConfigured, ProviderError
from reverie.net import post_json

OPENAI_ENDPOINT = "https://api.openai.com/v1"
# The media types a speech model takes, by the file name the upload is sent under.
_EXTENSIONS = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/mp4": "m4a",
    "audio/m4a": "m4a",
    "audio/x-m4a": "m4a",
    "audio/ogg": "ogg",
    "audio/webm": "webm",
    "audio/flac": "flac",
    "audio/x-flac": "flac",
}


AUDIO_TYPES = tuple(sorted(_EXTENSIONS))


class Transcriber:
    """One configured speech model."""

    def __init__(self, settings: TranscriptionSettings) -> None:
        self.settings = settings
        default = OPENAI_ENDPOINT if settings.provider == "openai" else ""
        self.endpoint = (settings.endpoint or default).rstrip("/")
        if not self.endpoint:
            raise NotConfigured(
                f'[transcription] provider = "{settings.provider}" needs an endpoint, '
                'e.g. endpoint = "http://127.0.0.1:8000/v1"'
            )

    def transcribe(self, audio: bytes, media_type: str) -> str:
        """The text spoken in ``audio`` (InvalidInput for an empty or unknown format)."""
        media = media_type.split(";", 1)[0].strip().lower()
        extension = _EXTENSIONS.get(media)
        if extension is None:
            known = ", ".join(sorted(set(_EXTENSIONS)))
            got = media or "none"
            raise InvalidInput(f"Send the audio with a Content-Type of one of: {known} (got {got})")
        if not audio:
            raise InvalidInput("The audio is empty")
        fields = {"model": self.settings.model, "response_format": "json"}
        if self.settings.language:
            fields["language"] = self.settings.language
        headers = {"Authorization": f"Bearer {self.settings.api_key}"} if self.settings.api_key else {}
        where = f"the transcription server at {self.endpoint}"
        reply = post_json(
            f"{self.endpoint}/audio/transcriptions",
            fields,
            files={"file": (f"speech.{extension}", audio, media)},
            what=where,
            hint="check endpoint and model under [transcription]",
            headers=headers,
            timeout=self.settings.timeout_seconds,
            attempts=2,
        )
        text = reply.get("text") if isinstance(reply, dict) else None
        if not isinstance(text, str):
            raise ProviderError(f"{where} answered without a text field")
        return text.strip()


def transcriber_from_settings(settings: TranscriptionSettings) -> Transcriber:
    """The configured transcriber, or NotConfigured (a 503 on the route) saying how to set one."""
    if settings.provider == "none":
        raise NotConfigured(
            "Speech needs a transcription model: set [transcription] provider = \"openai_compatible\" "
            "and its endpoint (or provider = \"openai\" with an api_key) in the config file"
        )
    return Transcriber(settings)


__all__ = ["AUDIO_TYPES", "Transcriber", "transcriber_from_settings"]
