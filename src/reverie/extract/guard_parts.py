"""Building blocks of the guard's English rules (``{NAME}`` in a rule): where an imperative starts,
the verbs that make "you must <verb>" a directive, the assistant's names, its rules and what is
sensitive to hand out. :mod:`reverie.extract.guard_rules` splices them into its rule tables.
"""

from __future__ import annotations

__all__ = ["expand_parts"]

# Building blocks, spliced into the rules below as {NAME}.
PARTS = {
    # Where an imperative can start: text or clause start, or after a softener ("please ignore").
    # Lookbehinds keep the softener out of the match, so the quoted snippet starts at the verb.
    "IMP": r"(?:^\s*|(?<=[.!?:;,)\]>\"])\s*|(?<=\s[-–—])\s*|(?<=\bplease\s)|(?<=\bkindly\s)|(?<=\bnow\s)"
    r"|(?<=\bjust\s)|(?<=\balso\s)|(?<=\bthen\s)|(?<=\bfirst\s)|(?<=\blet's\s)|(?<=\blet\sus\s))",
    "ADV": r"(?:(?:not|never|always|now|only|also|just|immediately|quietly|secretly|silently|safely|freely"
    r"|simply|happily|easily|gladly|totally|completely|fully|go\s+ahead\s+and)\s+)*",
    # Verbs that turn "you must <verb>" or "the assistant should <verb>" into a directive.
    "DO": r"(?:respond|reply|answer|say|tell|reveal|disclose|output|print|include|append|prepend"
    r"|recommend|mention|promote|share|send|give|refuse|obey|comply|ignore|disregard|forget"
    r"|pretend|act|bypass|repeat|speak|address|treat|insert|leak|dump|use|call|refer|start|end"
    r"|follow(?!\s+suit)|unlock|grant|execute|delete|forward|subscribe|list|email|agree|side|defer"
    r"|claim|insist|hand"
    r"|deny|lie|bypass|disable|drop|skip|abandon|prioriti[sz]e|answer|switch|drop|reply|display|show"
    r"|type|translate|write|encode|hide|avoid|stop|praise|discourage|trust|believe|describe|portray|present"
    r"|rank|rate|frame|suggest|propose|advise|urge|nudge|steer|push|plug|advertise|upsell|badmouth"
    r"|critici[sz]e|encourage)",
    "MODAL": r"(?:must|should|shall|will|can\s+now|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to"
    r"|(?:is|are)\s+(?:now\s+|hereby\s+)?(?:required|obliged|obligated|expected|authori[sz]ed|allowed"
    r"|permitted|free|instructed|supposed|ordered|told|meant)\s+to)",
    "ASKS": r"(?:wants?|needs?|asks?|asked|expects?|requires?|would\s+like|authori[sz](?:e|es|ed)"
    r"|allows?|allowed|permits?|permitted|instructs?|instructed|told|tells?|orders?|ordered)",
    "BOT": r"(?:assistant|ai|a\.i\.|(?:language\s+)?model|bot|chatbot|llm|gpt|chatgpt|claude"
    r"|copilot)s?",
    "QUAL": r"(?:all|any|your|their|its|previous|prior|earlier|above|preceding|original|initial"
    r"|existing|system|safety|content|every|these|those|old|default|built-in|standing|usual|normal"
    r"|developer'?s?|operator'?s?|(?:assistant|model|ai)'s)",
    "RULES": r"(?:instructions?|rules|guidelines|prompts?|directions|directives|context|training"
    r"|programming|guardrails|restrictions|filters|polic(?:y|ies)|constraints|orders|commands"
    r"|checks|safeguards|moderation|protections|guidance|configuration|setup|settings|limits"
    r"|limitations|boundaries|ethics|morals|principles|values|conditioning|alignment|persona"
    r"|safety\s+(?:behaviou?r|features?|measures?|mode|settings|layer|net|training|checks?))",
    # A device's or a network's rules are not the assistant's ("the old firewall rules were removed").
    "DEVICE": r"(?:firewall|router|proxy|dns|spam|e-?mail|iptables|network|server|vpn|nginx|waf|ids|acl)",
    "SENSITIVE": r"(?:system\s+prompt|(?:your|hidden|secret|initial|original|full|developer"
    r"|system)\s+(?:instructions|prompt|message|rules)|your\s+(?:\w+\s+)?(?:context|memor(?:y|ies)"
    r"|prompt|instructions|configuration|guidelines)|(?:all|every|stored|saved|other\s+users'?"
    r"|(?:the\s+)?user'?s)\s+(?:\w+\s+)?(?:memor(?:y|ies)|passwords?|secrets?|api\s+keys?"
    r"|credentials|tokens?|conversations?|chat\s+history|data|messages|inbox|emails|contacts"
    r"|files|documents|location|records)|(?:whole|entire|full|this)\s+(?:conversation|chat)"
    r"|(?:chat|conversation)\s+history)",
}


def expand_parts(source: str) -> str:
    """A rule table with every ``{NAME}`` replaced by its building block."""
    for name, part in PARTS.items():
        source = source.replace("{" + name + "}", part)
    return source
