"""``python -m reverie`` runs the CLI."""

from reverie.cli import main

main()
