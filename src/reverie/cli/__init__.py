"""The ``reverie`` command."""

from reverie.cli.main import cli, main

__all__ = ["cli", "main"]
