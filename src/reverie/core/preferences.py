"""Structured preferences (Saga): category + key + value + scope, one active value per key."""

from __future__ import annotations

from reverie.core.parts import CoreParts
from reverie.errors import InvalidInput
from reverie.extract.merge import RememberResult, set_preference
from reverie.extract.phrases import GLOBAL, STYLE_KEYS, infer_category, normalize_category, preference_slot
from reverie.store.base import SOURCES, MemoryRow, Source
from reverie.text import keyword_terms, normalize_key

PREFERENCE_SCOPES = ("default", "specific", "always")
PREFERENCES_IN_CONTEXT = 10  # Saga's allocation: the top 10 relevant preferences


class Preferences(CoreParts):
    """Preference methods: a part of :class:`MemoryCore`."""

    def prefer(
        self,
        category: str,
        value: str,
        *,
        source: Source = "explicit",
        confidence: float | None = None,
    ) -> RememberResult:
        """Set a preference of a category; its key (color, brightness, verbosity) is read from the value.

        A way of answering ("verbosity", "formality") is a key of the "global" category.
        """
        if not normalize_key(category):
            raise InvalidInput("A preference needs a category (e.g. verbosity, units, lights)")
        found, key, scope = preference_slot(value, category)
        return self.save_preference(found, key, value, scope=scope, source=source, confidence=confidence)

    def save_preference(
        self,
        category: str,
        key: str,
        value: str,
        *,
        scope: str = "default",
        source: Source = "explicit",
        confidence: float | None = None,
    ) -> RememberResult:
        """Set the preference ``category``/``key`` (Saga): one value per key, a new value replaces the old.

        The same value again reinforces it; the replaced value is kept as its history.
        """
        name, slot = normalize_category(category), normalize_key(key)
        if not normalize_key(category) or not slot:
            raise InvalidInput("A preference needs a category and a key (e.g. lights and color)")
        if scope not in PREFERENCE_SCOPES:
            raise InvalidInput(f"scope must be one of {', '.join(PREFERENCE_SCOPES)}, got {scope!r}")
        if source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
        value = self._guard(value, source)
        level = confidence if confidence is not None else (1.0 if source == "explicit" else 0.5)
        if not 0.0 <= level <= 1.0:
            raise InvalidInput(f"confidence must be between 0 and 1, got {level}")
        return set_preference(
            self.scope,
            name,
            slot,
            value,
            self.clock(),
            source=source,
            confidence=level,
            policy=self.policy,
            service=self.embeddings,
            pref_scope=scope,
        )

    def preferences(self, category: str | None = None, *, limit: int = 50) -> list[MemoryRow]:
        """Active preferences, strongest first: all, or one category's and the global ones."""
        if category is None:
            return self.scope.list_preferences(limit=limit)
        return self.scope.list_preferences([normalize_category(category), GLOBAL], limit=limit)

    def preferences_for(
        self, utterance: str | None, *, limit: int = PREFERENCES_IN_CONTEXT
    ) -> list[MemoryRow]:
        """The preferences for a context (Saga): the utterance's category, then "global", at most ``limit``.

        With no utterance (a context asked for without a message) the strongest of all.
        """
        if not utterance:
            return self.scope.list_preferences(limit=limit)
        found = infer_category(utterance)
        chosen = (
            []
            if found in (GLOBAL, "general") or found in STYLE_KEYS
            else self.scope.list_preferences([found], limit=limit)
        )
        return chosen + self.scope.list_preferences([GLOBAL], limit=limit - len(chosen))

    def preference_history(self, category: str, key: str) -> list[MemoryRow]:
        """Every value the preference ``category``/``key`` had, oldest first (the last is current)."""
        return self.scope.preference_history(normalize_category(category), normalize_key(key))

    def forget_preference(self, what: str = "") -> list[MemoryRow]:
        """Delete a preference: the one set last, or the one ``what`` names ("lights color", "verbosity")."""
        prefs = self.scope.list_preferences(limit=1000)
        if what.strip():
            wanted = set(keyword_terms(what))
            prefs = [
                p
                for p in prefs
                if wanted <= set(keyword_terms(f"{p.category or ''} {(p.key or '').replace('_', ' ')}"))
                or wanted <= set(keyword_terms(p.text))
            ]
        else:
            prefs = sorted(prefs, key=lambda p: (p.updated_at, p.id))[-1:]
        if not prefs:
            return []
        scope, now = self.scope, self.clock()
        with scope.transaction():
            scope.delete_memories([p.id for p in prefs])
            scope.audit(
                "forget",
                now,
                target_kind="preference",
                reason="preference removed on request",
                detail={"ids": [p.id for p in prefs]},
            )
        return prefs


__all__ = ["PREFERENCES_IN_CONTEXT", "PREFERENCE_SCOPES", "Preferences"]
