"""The ``reverie`` command."""

from reverie.cli import chat as _chat  # noqa: F401  (registers chat, conversations, consolidate)
from reverie.cli import docs as _docs  # noqa: F401  (registers docs)
from reverie.cli import mcp as _mcp  # noqa: F401  (registers mcp)
from reverie.cli import migrate as _migrate  # noqa: F401  (registers migrate)
from reverie.cli import tokens as _tokens  # noqa: F401  (registers tokens)
from reverie.cli import topics as _topics  # noqa: F401  (registers topics)
from reverie.cli import users as _users  # noqa: F401  (registers users)
from reverie.cli import working as _working  # noqa: F401  (registers state, threads)
from reverie.cli.main import cli, main

__all__ = ["cli", "main"]
