"""Verb-first memory functions (mem.db §4) and the working-state device of the memory tool.

``create_memory``, ``update_memory``, ``delete_memory``, ``list_memories``, ``search_memory``
and ``forget_memory`` act on the caller's own memories (a user's, or a thread's), go through
the same guardrails as every other write, and answer with the memory's id so an assistant can
update or delete what it just stored.

``{"device": "state", "action": "timer|reminder|task|done|summary|remove|show", ...}`` reads and
changes the working state of a conversation (the caller's latest open one unless
``"conversation"`` names it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from reverie.errors import Conflict, InvalidInput
from reverie.extract.phrases import preference_slot
from reverie.tools.schemas import function_schema
from reverie.working import answer_proposals, change_working_state, propose, working_state

if TYPE_CHECKING:
    from reverie.core import MemoryCore
    from reverie.store.base import MemoryRow

MEMORY_TYPES = ("fact", "preference", "profile", "task", "note")
_ID = {"type": "integer", "minimum": 1, "description": "the memory's id, as returned when it was created"}
VERB_SCHEMAS: list[dict[str, Any]] = [
    function_schema(
        "create_memory",
        "Store something the user wants kept; answers with its id. Phrase it self-describing "
        "('User is vegetarian'). A preference needs a category (lights, climate, or 'global' for how "
        "to answer) and a key (color, temperature, verbosity); a profile is who the user is (name, "
        "language, time zone).",
        {
            "content": {"type": "string", "description": "the memory, under 512 bytes"},
            "memory_type": {"type": "string", "enum": list(MEMORY_TYPES), "description": "default fact"},
            "key": {
                "type": "string",
                "description": "normalized key (timezone, language, color ...); replaces the old one",
            },
            "category": {"type": "string", "description": "a preference's category, e.g. lights"},
            "scope": {
                "type": "string",
                "enum": ["default", "specific", "always"],
                "description": "a preference's scope, default unless it holds only at a time or place",
            },
            "sensitive": {
                "type": "boolean",
                "description": "true only when the user explicitly asks to keep a secret "
                "(password, ID number) as sensitive",
            },
        },
        ["content"],
    ),
    function_schema(
        "update_memory",
        "Correct the text of a memory by id.",
        {"id": _ID, "content": {"type": "string", "description": "the corrected text"}},
        ["id", "content"],
    ),
    function_schema("delete_memory", "Delete one memory by id.", {"id": _ID}, ["id"]),
    function_schema(
        "list_memories",
        "List the user's memories, newest first, with their ids.",
        {
            "memory_type": {"type": "string", "enum": list(MEMORY_TYPES)},
            "limit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "default 20"},
        },
        [],
    ),
    function_schema(
        "search_memory",
        "Search the user's memories by keywords and meaning; answers with ids and scores.",
        {
            "query": {"type": "string", "description": "a few keywords"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "default 10"},
        },
        ["query"],
    ),
    function_schema(
        "forget_memory",
        "Forget: delete the memories matching all the given keywords (or one id).",
        {"query": {"type": "string", "description": "keywords"}, "id": _ID},
        [],
    ),
]
VERBS = frozenset(str(schema["function"]["name"]) for schema in VERB_SCHEMAS)


def _string(args: dict[str, Any], name: str, *, required: bool = True) -> str:
    value = args.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ValueError(f"'{name}' must be a non-empty string")
    return value


def _int(args: dict[str, Any], name: str, default: int | None = None) -> int:
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"'{name}' must be an integer")
    if abs(value) > _MAX_ID:
        raise ValueError(f"'{name}' is out of range (at most {_MAX_ID})")
    return value


def _memory_dict(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "content": row.text,
        "memory_type": "preference" if row.kind == "preference" else row.type,
        "key": row.key,
        **({"category": row.category, "scope": row.scope} if row.kind == "preference" else {}),
        "confidence": round(row.confidence, 3),
        "source": row.source,
        "sensitive": row.sensitive,
    }


def _create(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    content = _string(args, "content")
    kind = args.get("memory_type") or "fact"
    if kind not in MEMORY_TYPES:
        raise ValueError(f"'memory_type' must be one of {', '.join(MEMORY_TYPES)}")
    key = _string(args, "key", required=False) or None
    if kind == "preference":
        category = _string(args, "category", required=False)
        if not key and not category:
            raise ValueError("a preference needs a 'category' and a 'key' (e.g. lights and color)")
        if category:  # Saga's structured preference; without a key, the key is read from the content
            slot = key or preference_slot(content, category)[1]
            preferred = memory.save_preference(category, slot, content, scope=_scope(args))
        else:  # the older form: 'key' names the category
            preferred = memory.prefer(key or "", content)
        return {
            "status": preferred.status,
            "id": preferred.memory.id,
            "memory": _memory_dict(preferred.memory),
        }
    sensitive = args.get("sensitive", False)
    if not isinstance(sensitive, bool):
        raise ValueError("'sensitive' must be true or false")
    result = memory.remember_words(
        content, key, type="general" if kind == "fact" else kind, sensitive=sensitive
    )
    return {"status": result.status, "id": result.memory.id, "memory": _memory_dict(result.memory)}


def _scope(args: dict[str, Any]) -> str:
    scope = args.get("scope", "default")
    if scope not in ("default", "specific", "always"):
        raise ValueError("'scope' must be one of default, specific, always")
    return str(scope)


def _update(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    row = memory.edit(_int(args, "id"), _string(args, "content"))
    return {"status": "updated", "id": row.id, "memory": _memory_dict(row)}


def _delete(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    row = memory.delete(_int(args, "id"))
    return {"status": "deleted", "id": row.id}


def _of_type(row: MemoryRow, kind: str | None) -> bool:
    if kind in ("task", "note", "profile"):
        return row.kind == "fact" and row.type == kind
    if kind == "fact":
        return row.kind == "fact" and row.type not in ("task", "note", "profile")
    return True


def _list(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    limit = max(1, min(_int(args, "limit", 20), 200))
    kind = args.get("memory_type")
    if kind is not None and kind not in MEMORY_TYPES:
        raise ValueError(f"'memory_type' must be one of {', '.join(MEMORY_TYPES)}")
    rows: list[MemoryRow] = []
    offset = 0
    while len(rows) < limit:  # filtered page by page, so rows of other types never eat the limit
        page = memory.list_memories(
            kind="preference" if kind == "preference" else None, limit=200, offset=offset
        )
        rows += [row for row in page if _of_type(row, kind)]
        if len(page) < 200:
            break
        offset += len(page)
    return {"count": len(rows[:limit]), "memories": [_memory_dict(row) for row in rows[:limit]]}


def _search(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    found = memory.search(_string(args, "query"), limit=max(1, min(_int(args, "limit", 10), 50)))
    hits = [
        {**_memory_dict(hit.memory), "score": round(hit.score, 4)}
        for hit in (*found.facts, *found.preferences)
    ]
    return {"count": len(hits), "results": hits}


def _forget(memory: MemoryCore, args: dict[str, Any]) -> dict[str, Any]:
    if args.get("id") is not None:
        row = memory.delete(_int(args, "id"))
        return {"status": "forgotten", "ids": [row.id]}
    rows = memory.forget(_string(args, "query"))
    return {"status": "forgotten" if rows else "not_found", "ids": [row.id for row in rows]}


VERB_HANDLERS: dict[str, Callable[[MemoryCore, dict[str, Any]], dict[str, Any]]] = {
    "create_memory": _create,
    "update_memory": _update,
    "delete_memory": _delete,
    "list_memories": _list,
    "search_memory": _search,
    "forget_memory": _forget,
}


# the working-state device ----------------------------------------------------------------
STATE_ACTIONS = (
    "show",
    "timer",
    "reminder",
    "task",
    "done",
    "summary",
    "remove",
    "propose",
    "confirm",
    "decline",
)


_MAX_ID = 2**63 - 1  # the largest id a database column holds
_MAX_REMINDER_SECONDS = 3653 * 86400


def _conversation(memory: MemoryCore, command: dict[str, Any]) -> int:
    named = command.get("conversation")
    if named is not None:
        if isinstance(named, bool) or not isinstance(named, int) or not 1 <= named <= _MAX_ID:
            raise ValueError("'conversation' must be a conversation id (a whole number from 1)")
        return named
    open_ones = memory.scope.open_conversations()
    if not open_ones:
        raise Conflict("No conversation is open; start one first (or name it with 'conversation')")
    return max(open_ones, key=lambda row: row.last_activity).id


def _due(memory: MemoryCore, command: dict[str, Any]) -> float:
    if command.get("in") is not None:
        seconds = command["in"]
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError("'in' must be a number of seconds")
        if not 0 < seconds <= _MAX_REMINDER_SECONDS:  # NaN fails this too
            raise ValueError("'in' must be seconds from now: more than 0 and at most ten years (315619200)")
        return memory.clock() + float(seconds)
    due = command.get("due")
    if not isinstance(due, str):
        raise ValueError("a reminder needs 'due' (YYYY-MM-DDTHH:MM, local time) or 'in' (seconds)")
    try:
        when = datetime.fromisoformat(due)
    except ValueError as exc:
        raise ValueError(f"'due' is not a date and time: {due!r}") from exc
    return (when if when.tzinfo else when.replace(tzinfo=memory.tz)).timestamp()


def _proposal_id(value: Any) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_ID:
        raise ValueError("'value' names one observation by its id (leave it out to answer them all)")
    return value


def run_state(memory: MemoryCore, command: dict[str, Any]) -> dict[str, Any]:
    """One working-state command; answers the changed item and the state."""
    action = command.get("action")
    if action not in STATE_ACTIONS:
        raise ValueError(f"the state device's actions are {', '.join(STATE_ACTIONS)}")
    conversation = _conversation(memory, command)
    now = memory.clock()
    value = command.get("value")
    if action == "show":
        return {"conversation": conversation, "state": working_state(memory, conversation).to_dict(now)}
    if action == "propose":
        if memory.conversation(conversation).is_private:
            raise Conflict("This conversation is private: nothing said in it is kept, so nothing is proposed")
        proposal = propose(memory, conversation, _string(command, "value"))
        return {
            "status": "proposed",
            "conversation": conversation,
            "item": {"id": proposal.id, "text": proposal.text},
            "say": "Ask the user whether to remember it; it is kept only if they say yes.",
        }
    if action in ("confirm", "decline"):
        which = None if value is None else _proposal_id(value)
        results = answer_proposals(memory, conversation, confirm=action == "confirm", item=which)
        return {
            "status": "remembered" if action == "confirm" else "declined",
            "conversation": conversation,
            "memories": [{"id": r.memory.id, "text": r.memory.text, "status": r.status} for r in results],
            "state": working_state(memory, conversation).to_dict(now),
        }

    def change(state: Any) -> Any:
        if action == "timer":
            seconds = command.get("seconds")
            if isinstance(seconds, bool) or not isinstance(seconds, int | float):
                raise ValueError("a timer needs 'seconds'")
            return state.add_timer(_string(command, "value"), float(seconds), now)
        if action == "reminder":
            return state.add_reminder(_string(command, "value"), _due(memory, command))
        if action == "task":
            return state.add_task(_string(command, "value"), command.get("status") or "open")
        if action == "done":
            item = (
                value if isinstance(value, int) and not isinstance(value, bool) else _string(command, "value")
            )
            if isinstance(item, str) and item.isdigit():
                item = int(item)
            return state.set_task_status(item, command.get("status") or "done")
        if action == "summary":
            state.set_summary(_string(command, "value", required=False))
            return None
        item_id = value if isinstance(value, int) else int(_string(command, "value"))
        state.remove(item_id)
        return None

    try:
        item = change_working_state(memory, conversation, change)
    except (TypeError, KeyError) as exc:
        raise InvalidInput(f"Bad state command: {exc}") from exc
    answer: dict[str, Any] = {"status": "ok", "conversation": conversation}
    if item is not None:
        answer["item"] = {"id": item.id, **{k: v for k, v in vars(item).items() if k != "id"}}
    answer["state"] = working_state(memory, conversation).to_dict(now)
    return answer


__all__ = ["MEMORY_TYPES", "STATE_ACTIONS", "VERBS", "VERB_HANDLERS", "VERB_SCHEMAS", "run_state"]
