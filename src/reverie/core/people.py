"""Who a memory is for: users, threads and interfaces, each a view of the same database."""

from __future__ import annotations

import uuid
from typing import Self

from reverie.core.build import check_user_name
from reverie.core.parts import CoreParts
from reverie.core.speakers import SpeakerBoard, speaker_named
from reverie.errors import Conflict, InvalidInput, NotFound
from reverie.extract.merge import ScopeMerge, merge_memories
from reverie.store.base import User
from reverie.text import normalize_key


class People(CoreParts):
    """Users, threads and interface views: a part of :class:`MemoryCore`."""

    speakers: SpeakerBoard  # set by MemoryCore, shared by its views

    def _resolve_user(self, name: str) -> User:
        user = self.store.get_user(name)
        if user is not None:
            return user
        if name == self.settings.default_user:
            return self.store.add_user(check_user_name(name), self.clock())
        raise NotFound(f"No user named '{name}'; add one with `reverie users add {name}`")

    def _view(self, user: User | None, interface: str | None) -> Self:
        """The same memory (store, models, caches: all shared) seen as another user or interface."""
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._owns_store = False
        view.user, view.interface = user, interface
        return view

    def for_user(self, name: str) -> Self:
        """The same database seen as another user (NotFound if there is no such user)."""
        return self._view(self._resolve_user(name), None)

    def view_of(self, user_id: int) -> Self:
        """The same database seen as the user with this id."""
        user = next((u for u in self.store.list_users() if u.id == user_id), None)
        if user is None:
            raise NotFound(f"No user with id {user_id}")
        return self._view(user, None)

    def view_as(self, user: User) -> Self:
        """The same database seen as this user, as just read (e.g. a credential's): nothing is read again."""
        return self._view(user, None)

    def for_interface(self, interface: str) -> Self:
        """The memory of whoever speaks on an interface: the user it is mapped to, or the one who
        said "This is ..." on it (:meth:`switch_speaker`); unmapped: a guest, or its thread.

        With ``[memory] unmapped_interfaces = "thread"`` an unmapped interface keeps memories in
        a thread of its own (used only there) until a person claims it with :meth:`merge_thread`.
        """
        speaking = self.speakers.current(
            interface, self.clock(), self.settings.memory.session_timeout_minutes * 60.0
        )
        if speaking is not None:  # someone said "This is ..." on it (switch_speaker)
            user = next((u for u in self._interface_users(interface) if u.id == speaking), None)
            if user is not None:
                return self._view(user, interface)
            self.speakers.clear(interface)  # no longer one of its users
        name = self.settings.memory.voice_mapping.get(interface)
        if name is not None:
            return self._view(self._resolve_user(name), interface)
        user_id = self.store.interface_user(interface)
        user = self.store.get_user_by_id(user_id) if user_id else None
        if user is None and self.settings.memory.unmapped_interfaces == "thread":
            thread = f"thread-{normalize_key(interface).replace('_', '-')[:40] or 'device'}"
            user = self.store.get_user(thread) or self.store.add_thread(
                thread, f"interface {interface}", self.clock()
            )
        return self._view(user, interface)

    def _interface_users(self, interface: str) -> list[User]:
        """Who may speak on an interface: the user it is mapped to (config or database) and
        those of ``[memory.voice_speakers]``."""
        allowed = [*self.settings.memory.voice_speakers.get(interface, ())]
        allowed.append(self.settings.memory.voice_mapping.get(interface, ""))
        mapped = self.store.interface_user(interface)
        users = [u for u in (self.store.get_user(n) for n in allowed if n) if u is not None]
        users += [u for u in [self.store.get_user_by_id(mapped)] if u is not None] if mapped else []
        return users

    def for_speaker(self, interface: str, name: str) -> Self | None:
        """The memory of ``name`` speaking on ``interface`` ("This is Alice", Saga), or None.

        Only the interface's users may: the one it is mapped to (config or database) and those
        of ``[memory.voice_speakers]``. ``name`` is a user name or display name, in any case.
        """
        wanted = name.strip().casefold()
        for user in self._interface_users(interface):
            if wanted in (user.name.casefold(), (user.display_name or "").casefold()):
                return self._view(user, interface)
        return None

    def switch_speaker(self, text: str) -> Self | None:
        """A user turn on a shared voice interface that says who speaks ("This is Alice").

        When the name is one of the interface's users, that user speaks on it from now on, for
        every door (until ``session_timeout_minutes`` of silence), the previous speaker's open
        conversations there end (what was said so far was theirs) and their memory is returned;
        the turn itself is not a message to record. None for any other turn, a name that is not
        one of the interface's users ("this is great"), and outside an interface.
        """
        interface = self.interface
        name = speaker_named(text) if interface is not None else None
        found = self.for_speaker(interface, name) if interface is not None and name else None
        if interface is None or found is None or found.user is None:
            return None
        if self.user is not None and found.user.id != self.user.id:
            for conversation in self.scope.open_conversations(interface):
                self.scope.end_conversation(conversation.id, self.clock())
        self.speakers.set(interface, found.user.id, self.clock())
        return found

    # threads (mem.db scopes) ---------------------------------------------------------
    def start_thread(self, label: str = "") -> Self:
        """A new thread: memories kept for a conversation whose person is not known yet."""
        name = f"thread-{uuid.uuid4().hex[:12]}"
        return self._view(self.store.add_thread(name, label.strip()[:100], self.clock()), None)

    def for_thread(self, name: str) -> Self:
        """The memory of a thread (NotFound if there is no such thread)."""
        thread = self.store.get_user(name)
        if thread is None or thread.kind != "thread":
            raise NotFound(f"No thread named '{name}'")
        return self._view(thread, None)

    def threads(self) -> list[User]:
        """Threads not merged into a user yet."""
        return self.store.list_threads()

    def merge_thread(self, thread: str, into: str) -> ScopeMerge:
        """Move a thread's memories to a user in one transaction; duplicates: the newest wins.

        The thread then ends: its conversations and their turns go with it to the user.
        """
        source = self.for_thread(thread)
        target = self.for_user(into)
        assert source.user is not None and target.user is not None
        if target.user.kind != "person":
            raise InvalidInput(f"'{into}' is a thread; merge into a person")
        now = self.clock()
        with self.store.transaction():
            report = merge_memories(
                source.scope,
                target.scope,
                now,
                reason=f"merged thread {thread}",
                policy=self.policy,
                service=self.embeddings,
                index=self.semantic.index if self.semantic else None,
            )
            target.scope.audit(
                "merge_thread",
                now,
                target_kind="thread",
                reason=f"thread {thread} merged into {into}",
                detail={"moved": report.moved, "superseded": report.superseded},
            )
            self.store.delete_user(source.user.id)
        return report

    # users -------------------------------------------------------------------------
    def add_user(self, name: str, *, display_name: str = "", is_admin: bool = False) -> User:
        """Create a user."""
        return self.store.add_user(
            check_user_name(name), self.clock(), display_name=display_name, is_admin=is_admin
        )

    def list_users(self) -> list[User]:
        """Every user in the database."""
        return self.store.list_users()

    def remove_user(self, name: str) -> User:
        """Delete a user and everything kept about them (never the last admin)."""
        user = self.store.get_user(name)
        if user is None:
            raise NotFound(f"No user named '{name}'; `reverie users list` shows who there is")
        if user.is_admin and self.store.count_admins() <= 1:
            raise Conflict(
                f"'{name}' is the only admin: make someone else an admin first "
                "(`reverie users admin NAME` or the Users page)"
            )
        self._before_user_removed(user)
        self.store.delete_user(user.id)
        return user

    def _before_user_removed(self, user: User) -> None:
        """Hook: delete what is kept about ``user`` outside the database (the composition root's features)."""


__all__ = ["People"]
