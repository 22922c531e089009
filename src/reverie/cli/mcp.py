"""``reverie mcp``: the memory tool as an MCP server on stdio, for desktop assistants.

The assistant starts the command and speaks MCP on its stdin and stdout; nothing else is
written to stdout (logs and errors go to stderr). The user is ``--user``, the configured
``default_user``, or the owner of ``--token`` / ``$REVERIE_TOKEN``.
"""

from __future__ import annotations

import logging

import anyio
import click

from reverie.cli.main import _state, cli
from reverie.errors import InvalidInput, Unauthenticated
from reverie.memory import Memory


def _user_from_token(memory: Memory, token: str) -> Memory:
    """The Memory an API token acts as: its user's, or a device token's voice interface's.

    The token check is the HTTP server's (``Accounts.authenticate_token``), so a revoked token
    stops working here too.
    """
    credential = memory.accounts.authenticate_token(token.strip())
    if credential is None:
        raise Unauthenticated(
            "This API token is unknown or has been revoked; create one with `reverie tokens create`"
        )
    if credential.interface is not None:
        return memory.for_interface(credential.interface)
    return memory.view_as(credential.user)


@cli.command(name="mcp")
@click.option(
    "--token",
    envvar="REVERIE_TOKEN",
    help="Act as the owner of this API token (default: $REVERIE_TOKEN; else --user or default_user).",
)
def mcp_command(token: str | None) -> None:
    """Serve the memory tool over MCP on stdin/stdout (for Claude Desktop and other assistants)."""
    from reverie.mcp_server import build_mcp, serve_stdio  # the MCP SDK takes 0.5 s to import: only here

    logging.basicConfig(level=logging.WARNING, format="reverie mcp: %(levelname)s %(name)s: %(message)s")
    state = _state()
    memory = state.memory
    if token:
        if state.user_name:
            raise InvalidInput("Give either --user or --token, not both: a token decides its user")
        memory = _user_from_token(memory, token)
    if memory.user is not None:
        click.echo(f"reverie mcp: serving {memory.user.name}'s memory on stdio", err=True)
    anyio.run(serve_stdio, build_mcp(lambda: memory, memory.settings.server.mcp_tools))


__all__ = ["mcp_command"]
