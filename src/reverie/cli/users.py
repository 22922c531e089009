"""``reverie users``: the people Reverie keeps memories for, and their web sign-in."""

from __future__ import annotations

import sys

import click

from reverie.accounts import check_password_strength
from reverie.cli.main import _emit, _json_option, _state, cli, cli_user
from reverie.memory import Memory


@cli.group(invoke_without_command=True)
@_json_option
@click.pass_context
def users(ctx: click.Context, as_json: bool) -> None:
    """The people Reverie keeps memories for; the same accounts sign in to the web UI."""
    if ctx.invoked_subcommand is None:
        _list_users(as_json)


def _list_users(as_json: bool) -> None:
    settings = _state().settings
    me = _state().user_name or cli_user(settings)
    with Memory(settings, user=me) as memory:
        people = memory.list_users()
        passwords = {u.id for u in people if memory.store.password_hash(u.id)}
    if as_json:
        _emit(
            [
                {
                    "name": u.name,
                    "display_name": u.display_name,
                    "is_admin": u.is_admin,
                    "can_sign_in": u.id in passwords,
                    "cli_default": u.name == me,
                }
                for u in people
            ]
        )
        return
    for person in people:
        notes = [
            note
            for note, yes in (
                ("admin", person.is_admin),
                ("web sign-in", person.id in passwords),
                ("the CLI's user", person.name == me),
            )
            if yes
        ]
        shown = f"  {person.display_name}" if person.display_name else ""
        click.echo(f"{person.name}{shown}" + (f"  ({', '.join(notes)})" if notes else ""))


@users.command(name="list")
@_json_option
def users_list(as_json: bool) -> None:
    """List users: who is an admin, who can sign in to the web UI, and whom the CLI acts as."""
    _list_users(as_json)


@users.command(name="remove")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def users_remove(name: str, yes: bool) -> None:
    """Remove a user and everything kept about them (memories, chats, topics, tokens)."""
    if not yes:
        click.confirm(f"Delete {name} and everything kept about them?", abort=True, err=True)
    with Memory(_state().settings, user=cli_user(_state().settings)) as memory:
        memory.remove_user(name)
    click.echo(f"removed user {name}")


def _read_password(from_stdin: bool, confirm: bool = True) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=confirm))


@users.command(name="add")
@click.argument("name")
@click.option("--display-name", default="", help="A friendly name.")
@click.option("--admin", is_flag=True, help="Make the user an administrator (asks for a password).")
@click.option("--password", "ask_password", is_flag=True, help="Set a password for the web UI (prompted).")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of stdin.")
def users_add(name: str, display_name: str, admin: bool, ask_password: bool, password_stdin: bool) -> None:
    """Add a user; an admin (or --password) gets a password to sign in to the web UI."""
    with Memory(_state().settings, user=cli_user(_state().settings)) as memory:
        password = _read_password(password_stdin) if (admin or ask_password or password_stdin) else None
        if password is not None:
            check_password_strength(password)
        user = memory.add_user(name, display_name=display_name, is_admin=admin)
        if password is not None:
            memory.accounts.set_password(user, password)
    click.echo(f"added user {user.name}{' (admin)' if admin else ''}")


@users.command(name="passwd")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of stdin.")
def users_passwd(name: str, password_stdin: bool) -> None:
    """Set a user's password (their browser sessions end)."""
    with Memory(_state().settings) as memory:
        user = memory.for_user(name).user
        assert user is not None
        memory.accounts.set_password(user, _read_password(password_stdin))
    click.echo(f"password set for {name}")


@users.command(name="admin")
@click.argument("name")
@click.option("--revoke", is_flag=True, help="Take the admin role away instead.")
def users_admin(name: str, revoke: bool) -> None:
    """Give a user the admin role (or take it away with --revoke)."""
    with Memory(_state().settings) as memory:
        user = memory.for_user(name).user
        assert user is not None
        memory.store.set_admin(user.id, not revoke)
    click.echo(f"{name} is {'no longer ' if revoke else ''}an admin")


__all__ = ["users"]
