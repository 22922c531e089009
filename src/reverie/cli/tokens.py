"""``reverie tokens``: API tokens for assistants, scripts and voice devices."""

from __future__ import annotations

import click

from reverie.cli.main import _emit, _json_option, _state, cli
from reverie.retrieve.timeutil import humanize_ago


@cli.group()
def tokens() -> None:
    """API tokens (Authorization: Bearer ...) of the user chosen with --user."""


@tokens.command(name="create")
@click.argument("name")
@click.option(
    "--interface", help="A device token for this voice interface (acts as its mapped user or a guest)."
)
@_json_option
def tokens_create(name: str, interface: str | None, as_json: bool) -> None:
    """Create a token; its secret is printed once, keep it."""
    memory = _state().memory
    assert memory.user is not None
    row, secret = memory.accounts.create_token(memory.user, name, interface=interface)
    if as_json:
        _emit({"id": row.id, "name": row.name, "interface": row.interface, "token": secret})
        return
    click.echo(secret)
    click.echo(f"token #{row.id} '{row.name}' for {memory.user.name}; it is shown only now", err=True)


@tokens.command(name="list")
@_json_option
def tokens_list(as_json: bool) -> None:
    """The user's tokens (never their secrets)."""
    memory = _state().memory
    assert memory.user is not None
    rows = memory.accounts.list_tokens(memory.user)
    if as_json:
        _emit(
            [
                {
                    "id": r.id,
                    "name": r.name,
                    "prefix": r.prefix,
                    "interface": r.interface,
                    "revoked": r.revoked_at is not None,
                }
                for r in rows
            ]
        )
        return
    if not rows:
        click.echo("No tokens; create one with `reverie tokens create NAME`")
    now = memory.clock()
    for row in rows:
        used = humanize_ago(row.last_used_at, now) if row.last_used_at else "never used"
        device = f" (device: {row.interface})" if row.interface else ""
        state = " [revoked]" if row.revoked_at is not None else ""
        click.echo(f"#{row.id} {row.name}{device}  {row.prefix}…  {used}{state}")


@tokens.command(name="revoke")
@click.argument("token_id", type=int)
def tokens_revoke(token_id: int) -> None:
    """Revoke a token: it stops working at once."""
    memory = _state().memory
    assert memory.user is not None
    row = memory.accounts.revoke_token(memory.user, token_id)
    click.echo(f"revoked token #{row.id} '{row.name}'")


__all__ = ["tokens"]
