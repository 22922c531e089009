"""Reverie's HTTP server: a thin FastAPI adapter over :class:`reverie.Memory`."""

from reverie.server.app import build_server, create_app, run_server

__all__ = ["build_server", "create_app", "run_server"]
