"""Words that say the opposite of each other: verbs ("likes" / "dislikes") and traits ("shy" /
"outgoing"). Tables only, read by ``reverie.extract.claims_compare`` through ``claim_words``.
"""

from __future__ import annotations


def _both_ways(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Each word of each pair mapped to all the words it is paired with, either way round."""
    found: dict[str, frozenset[str]] = {}
    for one, other in pairs:
        found[one] = found.get(one, frozenset()) | {other}
        found[other] = found.get(other, frozenset()) | {one}
    return found


# Verbs that say the opposite of each other (with the same particle): "eats breakfast" / "skips
# breakfast", "remembers names" / "forgets names". "dis-" and "mis-" verbs are found by their prefix.
ANTONYMS = [
    ("like", "dislike"),
    ("like", "avoid"),
    ("seek", "avoid"),
    ("eat", "skip"),
    ("attend", "skip"),
    ("remember", "forget"),
    ("accept", "reject"),
    ("accept", "refuse"),
    ("support", "oppose"),
    ("win", "lose"),
    ("pass", "fail"),
    ("trust", "doubt"),
    ("include", "exclude"),
    ("allow", "forbid"),
    ("allow", "ban"),
    ("like", "fear"),
]
ANTONYM = _both_ways(ANTONYMS)
# Opposite traits: "is shy" then "is outgoing" is a contradiction, not a second trait.
OPPOSITES = [
    ("shy", "outgoing"),
    ("introvert", "extrovert"),
    ("introverted", "extroverted"),
    ("friendly", "aggressive"),
    ("friendly", "hostile"),
    ("calm", "anxious"),
    ("healthy", "sick"),
    ("single", "married"),
    ("married", "divorced"),
    ("employed", "unemployed"),
    ("awake", "asleep"),
    ("vegetarian", "carnivore"),
    ("left-handed", "right-handed"),
    ("early", "late"),
    ("morning", "night"),
    ("tidy", "messy"),
    ("quiet", "loud"),
    ("patient", "impatient"),
    ("optimistic", "pessimistic"),
    ("religious", "atheist"),
    ("sober", "drinker"),
    ("good", "bad"),
    ("strong", "weak"),
    ("older", "younger"),
    ("easy", "hard"),
    ("easy", "difficult"),
    ("fast", "slow"),
    ("high", "low"),
    ("big", "small"),
    ("cheap", "expensive"),
    ("safe", "dangerous"),
    ("allowed", "forbidden"),
    ("open", "closed"),
    ("enabled", "disabled"),
    ("light", "heavy"),
    ("warm", "cold"),
    ("quiet", "noisy"),
    ("good", "terrible"),
    ("good", "poor"),
    ("good", "awful"),
    ("clean", "dirty"),
    ("relaxed", "stressed"),
    ("confident", "insecure"),
    ("rich", "poor"),
    ("generous", "stingy"),
    ("lazy", "hardworking"),
    ("happy", "sad"),
    ("polite", "rude"),
    ("brave", "cowardly"),
    ("careful", "careless"),
    ("talkative", "quiet"),
    ("sociable", "unsociable"),
    ("comfortable", "terrified"),
    ("comfortable", "scared"),
    ("calm", "nervous"),
    ("dry", "wet"),
    ("new", "used"),
    ("new", "old"),
    ("young", "old"),
    ("confident", "nervous"),
    ("confident", "anxious"),
    ("tall", "short"),
    ("long", "short"),
    ("thin", "thick"),
    ("wide", "narrow"),
    ("fit", "unfit"),
    ("relaxing", "stressful"),
    ("boring", "interesting"),
    ("healthy", "ill"),
    ("alive", "dead"),
    ("alive", "deceased"),
    ("valid", "expired"),
    ("male", "female"),
    ("kind", "rude"),
    ("kind", "cruel"),
    ("indoor", "outdoor"),
    ("vaccinated", "unvaccinated"),
    ("sighted", "blind"),
    ("legal", "illegal"),
    ("present", "absent"),
    ("smoker", "non-smoker"),
    ("alone", "team"),
    ("alone", "together"),
    ("alone", "others"),
]
OPPOSITE = _both_ways(OPPOSITES)


__all__ = ["ANTONYM", "ANTONYMS", "OPPOSITE", "OPPOSITES"]
