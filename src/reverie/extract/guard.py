"""Memory guardrails: every text on its way into long-term memory passes ``check_memory_text``.

Memories are data that later lands in an assistant's prompt, so the guard refuses text that
reads as an instruction to that assistant (always) and text that carries a secret (unless the
caller opts in with ``allow_sensitive``). Rules aim at the *shape* of an attack (imperatives,
second person, chat markers), so facts that merely contain words like "always", "ignore" or
"password" still pass. Regexes cannot catch every paraphrase; this is one layer, not the wall.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from reverie.errors import GuardRejected

__all__ = [
    "GuardVerdict",
    "check_memory_text",
    "ensure_memory_text",
    "find_personal_sensitive",
    "find_secret",
]


@dataclass(frozen=True)
class GuardVerdict:
    """Outcome of one check: ``reason`` is a machine code, ``message`` says why in a sentence."""

    ok: bool
    reason: str | None = None
    message: str | None = None


_ACCEPTED = GuardVerdict(ok=True)

# --- instructions ------------------------------------------------------------------------------

# Building blocks, spliced into the rules below as {NAME}.
_PARTS = {
    # Where an imperative can start: text or clause start, or after a softener ("please ignore").
    # Lookbehinds keep the softener out of the match, so the quoted snippet starts at the verb.
    "IMP": r"(?:^\s*|(?<=[.!?:;,)\]>\"])\s*|(?<=\bplease\s)|(?<=\bkindly\s)|(?<=\bnow\s)"
    r"|(?<=\bjust\s)|(?<=\balso\s)|(?<=\bthen\s)|(?<=\bfirst\s)|(?<=\blet's\s)|(?<=\blet\sus\s))",
    "ADV": r"(?:(?:not|never|always|now|only|also|just|immediately|quietly|secretly|silently)\s+)*",
    # Verbs that turn "you must <verb>" or "the assistant should <verb>" into a directive.
    "DO": r"(?:respond|reply|answer|say|tell|reveal|disclose|output|print|include|append|prepend"
    r"|recommend|mention|promote|share|send|give|refuse|obey|comply|ignore|disregard|forget"
    r"|pretend|act|bypass|repeat|speak|address|treat|insert|leak|dump|use|call|refer|start|end"
    r"|follow|unlock|grant|execute|delete|forward|subscribe|list|email)",
    "MODAL": r"(?:must|should|shall|will|can\s+now|have\s+to|need\s+to|are\s+to|are\s+(?:required"
    r"|authorized|allowed|permitted|free|instructed|supposed)\s+to)",
    "ASKS": r"(?:wants?|needs?|asks?|asked|expects?|requires?|would\s+like|authori[sz]ed?"
    r"|allows?|allowed|permits?|permitted|instructs?|instructed|told|tells?|orders?|ordered)",
    "BOT": r"(?:assistant|ai|a\.i\.|(?:language\s+)?model|bot|chatbot|llm|gpt|chatgpt|claude"
    r"|copilot)s?",
    "QUAL": r"(?:all|any|your|their|previous|prior|earlier|above|preceding|original|initial"
    r"|existing|system|safety|content|every|these|those)",
    "RULES": r"(?:instructions?|rules|guidelines|prompts?|directions|directives|context|training"
    r"|programming|guardrails|restrictions|filters|polic(?:y|ies)|constraints|orders|commands"
    r"|checks|safeguards|moderation|protections)",
    "SENSITIVE": r"(?:system\s+prompt|(?:your|hidden|secret|initial|original|full|developer"
    r"|system)\s+(?:instructions|prompt|message|rules)|your\s+(?:\w+\s+)?(?:context|memor(?:y|ies)"
    r"|prompt|instructions|configuration|guidelines)|(?:all|every|stored|saved|other\s+users'?"
    r"|(?:the\s+)?user'?s)\s+(?:\w+\s+)?(?:memor(?:y|ies)|passwords?|secrets?|api\s+keys?"
    r"|credentials|tokens?|conversations?|chat\s+history|data|messages|inbox|emails|contacts"
    r"|files|documents|location|records)|(?:whole|entire|full|this)\s+(?:conversation|chat)"
    r"|(?:chat|conversation)\s+history)",
}

# One alternative per line (re.VERBOSE). Order does not matter: the earliest match is reported.
_HARD_RULES = r"""
  # Override attempts, in English and a few other languages.
  \b(?:ignore|disregard|forget|override|bypass|discard|skip|disable|stop\s+(?:following|obeying))\b
      (?:\s+[^\s.!?]+){0,3}?\s+{QUAL}\b(?:\s+[^\s.!?]+){0,2}?\s+{RULES}\b
| \b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+|the\s+)?(?:above|previous|prior|preceding)\b
| \bforget\s+(?:everything\s+(?:you|above|before|i|that)|you(?:'re|\s+are))\b
| \b(?:ignora|ignorez|ignoriere|olvida|oublie|oubliez|vergiss|esquece|esqueça|dimentica)\b
      (?:\s+[^\s.!?]+){0,3}?\s+(?:instrucciones|instructions|anweisungen|instruções|istruzioni
      |reglas|règles|regeln|regras|regole)\b
| \bprompt\s+(?:del|du|de|di)\s+(?:sistema|système)\b
  # System prompt and authority claims.
| \b(?:your|new|updated|real|actual|hidden|original|initial|secret)\s+system\s+prompt\b
| \bsystem\s+prompt\s*(?::|says|is|reads) | \bsystem\s+(?:override|message|instructions?)\b
| \byour\s+(?:(?:new|real|actual|true|updated|only)\s+)?(?:instructions|directives|rules|orders
      |task|purpose|job|goal|mission)\s+(?:is|are|now)\b
| \bnew\s+(?:rule|instruction|directive|policy)s?\s*:
| \b(?:directive|instruction|command|order|message)s?\s+from\s+(?:the\s+|your\s+)?(?:developer
      |admin|system|operator|openai|anthropic)\b
| \b(?:coming|comes|came)\s+from\s+(?:the\s+|your\s+)?(?:system|developer|admin|administrator
      |operator)\b
| \bi(?:'m|\s+am)\s+(?:your\s+(?:developer|creator|admin|owner|operator)|the\s+(?:developer|admin
      |creator|owner|operator)\s+of\s+(?:this|the|you))
| \b(?:safety|security|content)\s+(?:layer|filters?|protocols?|checks|rules|guidelines|polic(?:y|ies))
      \s+(?:(?:is|are|have\s+been|has\s+been)\s+)?(?:deprecated|disabled|removed|lifted|suspended|off)\b
| \bwithout\s+(?:any\s+)?(?:safety\s+)?(?:checks|verification|confirmation|restrictions|filters)\b
| \b(?:override|trigger|magic|activation|unlock)\s+(?:phrase|word|code|keyword)s?\b
| \b(?:any|every|all)\s+(?:requests?|messages?|prompts?|quer(?:y|ies))\s+(?:mentioning|containing
      |that\s+(?:mentions|contains|says))\b
| \b(?:user|human)\s*:[^\n]{0,200}?\b(?:assistant|ai|bot)\s*:
  # Role-play and identity.
| {IMP}(?:pretend|imagine)\s+(?:to\s+be|you(?:'re|\s+are)|that)\b
| {IMP}act\s+as\s+(?:if|though|a|an|my|the)\b | {IMP}(?:role[-\s]?play|simulate|impersonate)\b
| {IMP}(?:behave|talk|speak|write|respond|answer|reply)\s+(?:like|as)\s+(?:a|an|the|if)\b
| \b{ASKS}\s+you\s+to\b
| \byou(?:'re|\s+are)\s+(?:now|no\s+longer|not\s+(?:bound|restricted|limited))\b
| \byou(?:'re|\s+are)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:{BOT}|agent|persona)\b
| \byou\s+(?:now\s+)?have\s+(?:no\s+(?:restrictions|rules|limits|filters|guidelines|boundaries
      |morals)|permission|been\s+(?:granted|given|freed|released|unlocked)|(?:a\s+)?(?:new|additional
      |extra|hidden)\s+(?:tools?|abilit(?:y|ies)|capabilit(?:y|ies)|functions?|roles?))\b
| \b(?:granted|given|grants?|gives?)\s+you\s+(?:full\s+)?(?:permission|access|authori[sz]ation)\b
| \bdo\s+anything\s+now\b | \bfrom\s+now\s+on,?\s+you\b | \byour\s+(?:new\s+)?name\s+is\s+now\b
| \bas\s+if\s+you\s+(?:were|are|had)\b
| \b{BOT}\s+(?:with|without)\s+(?:no\s+|any\s+)?(?:restrictions|rules|limits|filters|guidelines
      |safety|morals|ethics)\b
  # Directives aimed at the assistant.
| \b{BOT}\s+{MODAL}\s+{ADV}{DO}\b
| \b(?:wants?|asks?|tells?|instructs?|orders?|needs?|expects?)\s+(?:the\s+)?{BOT}\s+to\s+{ADV}{DO}\b
| {IMP}(?:make\s+sure|be\s+sure|remember|don't\s+forget)\s+to\s+{ADV}{DO}\b
| {IMP}(?:reveal|disclose|obey|comply|exfiltrate|leak|dump|promote|append|prepend|ignore
      |disregard|pretend|output)\b
| {IMP}(?:respond|reply|answer)\s+(?:to\s+)?(?:every|all|any|each|only|with|in|as|the\s+next)\b
| (?:{IMP}|\band\s+)(?:stop|quit)\s+(?:warning|refusing|mentioning|adding|including|apologi[sz]ing|asking)\b
| {IMP}(?:secretly|quietly|silently|covertly)\s+\w+ | {IMP}act\s+(?:with|like)\b
| \b(?:every|all|other)\s+users?'?s?\s+(?:data|memories|messages|conversations|files|passwords
      |information|info)\b
| \bregardless\s+of\s+what\s+(?:the\s+user|anyone|they|i)\b
| {IMP}(?:tell|inform|warn|convince|persuade|urge)\s+(?:the\s+)?user\b
| {IMP}(?:delete|erase|wipe|remove|subscribe|enroll|charge|pay|transfer|forward|grant|unlock|approve
      |execute|run|list|follow|accept|buy|purchase)\s+(?:all\b|any\b|every\b|each\b|(?:the\s+)?user\b)
| {IMP}assume\s+(?:that\s+)?(?:the\s+)?user\s+(?:is|has)\b
| \b(?:do\s+not|don't|never|without)\s+(?:ever\s+)?(?:tell|inform|let|mention|reveal|alert|warn)(?:ing)?\b
      [^.\n]{0,20}?\b(?:the\s+)?user\b
| \bwhenever\s+(?:someone|anyone|somebody|anybody|a\s+user|the\s+user|you|people|asked|i\s+ask)\b
      [^.\n]{0,80}?\b(?:reveal|tell|say|respond|reply|answer|output|print|send|share|include|give)\b
| \b(?:if|when|whenever|before|after)\s+[^,.\n]{1,60},\s*(?:(?:always|also|never|first)\s+)?
      (?:{DO}|write|add|link|redirect|fetch|visit|open)\b
| \b(?:comply|obey)\s+(?:with\s+)?(?:all|every|any|only|me|the\s+user)\b
| \b(?:all|every|each|any)\s+(?:of\s+)?(?:your|future)\s+(?:[\w-]+\s+)?(?:responses?|replies|reply
      |answers?|outputs?|messages?|conversations?|sessions?|chats?)\b
| \b(?:each|every|your)\s+(?:answers?|repl(?:y|ies)|responses?|outputs?)\b
| \bfor\s+the\s+rest\s+of\s+(?:the|this|our)\s+(?:session|conversation|chat)\b
| \b(?:filter|moderation|monitor|safety\s+system)s?\s+(?:doesn't|does\s+not|won't|will\s+not
      |can't|cannot)\s+(?:see|notice|detect|catch|flag)\b
  # Addressing the model directly.
| \b(?:note|message|reminder|instructions?|memo)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?
      (?:{BOT}|ai\s+models?)\b
| ^\s*(?:(?:hey|hi|dear|attention|psst|ok|okay)[\s,]+{BOT}\b|{BOT}\s*,)
| \b(?:attention|instructions?|rules|to|for)\s+(?:to\s+|for\s+)?(?:the\s+|any\s+|all\s+)?{BOT}\s*:
| \b(?:whoever|anyone|any\s+{BOT}|agents?)\s+(?:reads|is\s+reading|reading|processes|sees)\s+this\b
| \b(?:{BOT}|agents?)\s+(?:[\w-]+\s+)?(?:reading|processing|parsing|seeing|viewing
      |summari[sz]ing)\s+this\b
  # Exfiltration and tool abuse.
| \b(?:reveal|leak|print|output|dump|send|email|mail|forward|post|upload|exfiltrate|share
      |disclose|repeat|give)\b[^.\n]{0,40}?\b{SENSITIVE}\b
| \b(?:send|post|upload|forward)\b[^\n]{0,60}?\b(?:to|at)\s+https?://
| \b(?:send|email|forward|post|upload|mail)\s+(?:it|this|them|everything|all(?:\s+of\s+(?:it|them))?
      |a\s+copy|the\s+(?:results?|summary|contents?))\s+to\s+(?:\S+@|https?://)
| \brepeat\b[^.\n]{0,30}\b(?:words|text|everything|all)\s+above\b
| {IMP}(?:fetch|browse|visit|open|load|ping|request)\s+\S{0,20}https?://
| https?://\S{0,200}?[?&][\w-]+=(?:\s|$|[{\[<])
| {IMP}(?:insert|add|include|append|put|embed)\s+(?:a\s+|this\s+|the\s+)?(?:link|url|hyperlink)\b
| \b(?:curl|wget)\s+(?:-{1,2}\w|https?://|\S+\.\w{2,}/) | \|\s*(?:sudo\s+)?(?:ba|z)?sh\b
  # Chat-template and role markers.
| <\|[a-z_]+\|> | <(?:start|end)_of_turn> | \[/?inst\] | <</?sys>> | </?(?:system|assistant|instructions?)>
| ^\s*\#{2,}\s*(?:instruction|system|response) | ^\s*(?:system|assistant|developer)\s*:
| \[(?:system|admin)(?:\s+(?:message|note|override))?\]
  # Named jailbreaks.
| \bjailbreak(?:s|ing|ed)?\b | \bdan\s+mode\b | \b(?:developer|god)\s+mode\s+(?:is\s+)?(?:on|enabled)\b
| \b(?:enable|enter|activate|switch\s+(?:to|into)|turn\s+on)\s+(?:the\s+)?(?:developer|dan|god
      |jailbreak|maintenance|admin|unrestricted|sudo)\s+mode\b
"""
# Generic second-person advice is common in quotes ("mum says 'you should always say please'"),
# so these rules skip text inside quotation marks.
_SOFT_RULES = r"""
  \byou(?:'ll|'d)?\s+{ADV}(?:{MODAL}\s+|(?:no\s+longer\s+)?need\s+to\s+|can\s+|may\s+)?{ADV}{DO}\b
| \bfor\s+you\s+to\b | \b(?:when|whenever|if|once)\s+you\s+(?:see|hear|get|receive|read|encounter)\b
| {IMP}(?:always|never)\s+{DO}\b
| (?:^|\b(?:the|all|every|any|your)\s+|[.,:;]\s*){BOT}\s+(?:{MODAL}|now|has\s+been\s+(?:updated
      |reconfigured|upgraded|given|granted))\b
| \b(?:text|output|content|responses?|answers?|messages?|emails?|code)\s+you\s+(?:generate|produce
      |draft|write|create|send)\b
"""
# ...and so does advice the user was given ("their mentor told them: always answer emails").
_REPORTED = re.compile(
    r"\b(?:(?:says?|said|saying)(?:\s*:|\s+that\b|\s*$)|(?:told|tells)\s+(?:them|him|her)\b"
    r"|(?:thinks?|believes?|motto|quote|advice|reckons?|feels\s+that)\b)[^.!?\n]*$",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|(?<!\w)'[^'\n]*'(?!\w)")


def _compile_rules(source: str) -> re.Pattern[str]:
    for name, part in _PARTS.items():
        source = source.replace("{" + name + "}", part)
    return re.compile(source, re.IGNORECASE | re.MULTILINE | re.VERBOSE)


_HARD = _compile_rules(_HARD_RULES)
_SOFT = _compile_rules(_SOFT_RULES)


def _snippet(text: str, start: int, end: int) -> str:
    """Quote the match, widened to a few words when it is a single word like "Reveal"."""
    if len(text[start:end].split()) < 3:
        tail = re.match(r"(?:[^\S\n]+[^\s.!?]+){0,3}", text[end:])
        end += tail.end() if tail else 0
    snippet = " ".join(text[start:end].split()).strip(" .,!?:;\"')]")
    return snippet if len(snippet) <= 60 else snippet[:57] + "..."


def _find_instruction(text: str) -> str | None:
    """Return the instruction-like snippet in ``text``, or None."""
    normal = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    normal = re.sub(r"[ \t]+", " ", normal)
    hits = [(m.start(), m.end()) for m in (_HARD.search(normal),) if m]
    quoted = [m.span() for m in _QUOTED.finditer(normal)]
    for m in _SOFT.finditer(normal):
        if not any(a <= m.start() < b for a, b in quoted) and not _REPORTED.search(normal, 0, m.start()):
            hits.append((m.start(), m.end()))
            break
    return _snippet(normal, *min(hits)) if hits else None


# --- secrets -----------------------------------------------------------------------------------

# Words that follow "password is" in ordinary facts ("password is stored in the keychain").
_NOT_A_VALUE = (
    r"(?:the|a|an|that|this|not|still|being|stored|saved|kept|written|in|on|at|set|changed|reset"
    r"|required|needed|same|different|long|short|strong|weak|easy|hard|too|very|also|usually"
    r"|always|never|now|managed|shared|expired|hidden|safe|secure|private|something|their|his"
    r"|her|my|our|your|out|to|for|of|with|from|via)\b"
)
_KEYWORD = (
    r"(?:password|passwd|pwd|pw|passcode|passphrase|pin(?:\s+(?:number|code))?|api[\s_-]?key"
    r"|secret(?:[\s_-]?key)?|access[\s_-]?(?:key|token|code)|auth[\s_-]?token|token"
    r"|(?:alarm|door|gate|garage(?:\s+door)?|safe|lock|locker|security|entry|unlock|verification"
    r"|backup|recovery|2fa|otp|wi-?fi)\s+code|(?:safe|lock|locker|padlock)\s+combination"
    r"|combination(?=\s+(?:to|for|of)\s+(?:\w+\s+)?(?:safe|lock|locker|padlock)))s?"
    # "... for the router is x" / "... to the safe is x"
    r"(?:\s+(?:to|for|of|on)\s+(?:the\s+|my\s+|our\s+|their\s+|his\s+|her\s+)?[\w-]+)?"
)
_VALUE = rf"[\"'`]?(?!{_NOT_A_VALUE})[^\s\"'`]{{3,}}"
_SECRET_KINDS = {
    "private_key": "private key",
    "stripe": "Stripe key",
    "openai": "OpenAI/Anthropic API key",
    "github": "GitHub token",
    "aws": "AWS access key id",
    "slack": "Slack token",
    "vendor": "API token",
    "google": "Google API key",
    "jwt": "JSON web token",
    "url": "credentials in a URL",
    "keyword": "password or access code",
    "assignment": "password or access code",
    "pair": "password or access code",
    "wifi": "Wi-Fi password",
    "gov_id": "government ID number",
    "bank": "bank account number",
    "kba": "security answer",
    "ssn": "US social security number",
}
# One named group per kind (re.VERBOSE); vendor shapes are case-sensitive, phrases are not.
_SECRET_RULES = r"""
    (?P<private_key>-----BEGIN\s(?:[A-Z0-9]+\s)*PRIVATE\sKEY-----)
  | (?P<stripe>\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,})
  | (?P<openai>\bsk-[A-Za-z0-9_-]{20,})
  | (?P<github>\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{22,})
  | (?P<aws>\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)
  | (?P<slack>\bxox[abprs]-[A-Za-z0-9-]{10,})
  | (?P<vendor>\b(?:glpat-[\w-]{20,}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|pypi-[\w-]{50,}
        |SG\.[\w-]{22}\.[\w-]{43}|shpat_[a-fA-F0-9]{32}))
  | (?P<google>\bAIza[0-9A-Za-z_-]{35})
  | (?P<jwt>\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.)
  | (?P<url>(?i:\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s/@]+@))
  | (?P<ssn>\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b)
"""
# Phrases ("my PIN is 1234") are searched after shapes, so a named token wins over "token ...".
_PHRASE_RULES = r"""
    (?P<keyword>(?i:\b{KEYWORD}\s*(?:(?:is|was)\s+|[:=]\s*|\s(?=\S{0,40}\d)){VALUE}))
  | (?P<assignment>(?i:\b[\w-]{0,40}?(?:secret|passw(?:or)?d|token|api[_-]?key|access[_-]?key|login
        |credentials?)[\w-]{0,40}\s*[:=]\s*{VALUE}))
  | (?P<pair>(?i:\b(?:login|credentials?|username)\b\s*[:=]?\s*[^\s/]+\s*/\s*\S{4,}))
  | (?P<wifi>(?i:\bwi-?fi\b[^.\n]{0,40}?\b(?:key|pass(?:word)?|pw)\s*[:=]?\s*{VALUE}))
  | (?P<gov_id>(?i:\b(?:passport|driver'?s?\s+licen[cs]e|national\s+insurance|social\s+insurance
        |tax\s+(?:id|file)|id\s+card)\s*(?:number|no\.?|\#)?\s*(?:(?:is|was)\s+|[:=]\s*)?
        (?=[\w-]{0,40}\d)[a-z0-9][\w-]{5,}))
  | (?P<bank>(?i:\b(?:routing|aba|sort\s+code)\s*(?:number|no\.?|\#)?\s*(?:is\s+|[:=]\s*)?\d[\d-]{5,}
        |\b(?:bank\s+)?account\s*(?:number|no\.?|\#)?\s*(?:is\s+|[:=]\s*)?\d{8,17}\b))
  | (?P<kba>(?i:\b(?:maiden\s+name|security\s+(?:question|answer)s?)\s*(?:is|was|are|:)))
"""
_SECRETS = tuple(
    re.compile(rules.replace("{KEYWORD}", _KEYWORD).replace("{VALUE}", _VALUE), re.VERBOSE)
    for rules in (_SECRET_RULES, _PHRASE_RULES)
)
# Card numbers as people write them: one run of digits, or 4-4-4-4(+), or Amex 4-6-5.
_CARD = re.compile(
    r"(?<![\d-])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -])\d{6}\2\d{4,5})(?![\d-])"
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_-]{32,}")
_HEX = re.compile(r"\b[0-9a-f]{32,}\b", re.IGNORECASE)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _iban_ok(candidate: str) -> bool:
    s = candidate.replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    return int("".join(str(int(c, 36)) for c in s[4:] + s[:4])) % 97 == 1


def _looks_random(token: str) -> bool:
    # Mixed case plus digits separates keys from slugs ("2024-running-log") and UUIDs.
    if not (any(c.isdigit() for c in token) and token.lower() != token != token.upper()):
        return False
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in Counter(token).values())
    return entropy >= 3.0


def find_secret(text: str) -> str | None:
    """Return the kind of secret ``text`` contains (e.g. "GitHub token"), or None."""
    for rules in _SECRETS:
        match = rules.search(text)
        if match and match.lastgroup:
            return _SECRET_KINDS[match.lastgroup]
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            return "credit card number"
    if any(_iban_ok(m.group()) for m in _IBAN.finditer(text)):
        return "IBAN"
    if any(_looks_random(m.group()) for m in _TOKEN.finditer(text)):
        return "high-entropy token"
    # Hex digests and keys are single-case, so the mixed-case test above misses them.
    if any(re.search(r"\d", h) and re.search(r"[a-f]", h, re.I) for h in _HEX.findall(text)):
        return "high-entropy token"
    return None


# --- personal-sensitive details (mem.db §8) ---------------------------------------------------
# Not secrets (those are refused): details a person may want kept, but only when they ask.
_PERSONAL: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "health",
        re.compile(
            r"\b(?:diagnos(?:ed|is)|depress(?:ion|ed)|anxiety disorder|bipolar|schizophreni\w*|adhd|autis\w*"
            r"|hiv|aids|cancer|tumou?r|chemo\w*|diabet\w*|epilep\w*|dementia|alzheimer\w*|pregnan\w*"
            r"|miscarriage|abortion|psychiatri\w*|therapist|antidepressant\w*|insulin|prescri(?:bed|ption)"
            r"|medication|\d+\s?mg\b|blood pressure|std|sti|rehab|addiction|eating disorder)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "finances",
        re.compile(
            r"\b(?:salary|income|earns?|net worth|bank balance|credit score|debts?|owes?|overdraft"
            r"|bankrupt\w*|mortgage|loan of|in debt)\b[^.\n]{0,40}?"
            r"(?:[$€£]\s?\d|\d[\d,.]*\s?(?:k|dollars|euros|pounds)\b)"
            r"|\bcredit score\b|\bbank balance\b|\bnet worth\b|\bbankrupt\w*",
            re.IGNORECASE,
        ),
    ),
    (
        "identity number",
        re.compile(
            r"\b\d{3}-\d{2}-\d{4}\b|\b(?:social security|ssn|passport|national insurance|national id"
            r"|driver'?s licen[cs]e|tax id|personnummer|nif|dni)\s*(?:number|no\.?|#)?\s*(?:is\s*)?[:#]?"
            r"\s*[A-Z0-9][A-Z0-9 -]{4,}",
            re.IGNORECASE,
        ),
    ),
)


def find_personal_sensitive(text: str) -> str | None:
    """The kind of personal-sensitive detail (health, finances, identity number) in ``text``, or None."""
    for kind, pattern in _PERSONAL:
        if pattern.search(text):
            return kind
    return None


# --- the guard ---------------------------------------------------------------------------------

# Bidi overrides and isolates can hide or reorder text for a human reviewer.
_HIDDEN = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _find_control_char(text: str) -> str | None:
    for ch in text:
        if ch in "\n\t":
            continue
        if unicodedata.category(ch) == "Cc" or ch in _HIDDEN or 0xE0000 <= ord(ch) <= 0xE007F:
            return ch
    return None


# Identity numbers are personal-sensitive rather than credentials: kept when the user asks.
_IDENTITY_KINDS = frozenset({"government ID number", "US social security number"})


def check_memory_text(
    text: str, *, allow_sensitive: bool = False, allow_personal: bool = False, max_bytes: int = 512
) -> GuardVerdict:
    """Decide whether ``text`` may be stored as a memory; never raises for bad text."""
    stripped = text.replace("\r\n", "\n").strip()
    try:
        size = len(stripped.encode("utf-8"))
    except UnicodeEncodeError:
        return GuardVerdict(False, "encoding", "Refused: the text is not valid Unicode (lone surrogates).")
    control = _find_control_char(stripped)
    if not stripped:
        return GuardVerdict(False, "empty", "Refused: the memory text is empty.")
    if size > max_bytes:
        why = f"the memory text is {size} bytes of UTF-8, over the {max_bytes}-byte limit"
        return GuardVerdict(False, "too_long", f"Refused: {why}; split it into shorter facts.")
    if control is not None:
        why = f"contains the control character U+{ord(control):04X}"
        tail = "memories must be plain text (newlines and tabs are fine)"
        return GuardVerdict(False, "control_chars", f"Refused: {why}; {tail}.")
    snippet = _find_instruction(stripped)
    if snippet is not None:
        why = f'looks like an instruction to the assistant ("{snippet}")'
        tail = "memories are data, not instructions"
        return GuardVerdict(False, "instruction", f"Refused: {why}, and {tail}.")
    kind = None if allow_sensitive else find_secret(stripped)
    if kind in _IDENTITY_KINDS and allow_personal:
        kind = None
    if kind is not None:
        why = f"looks like a secret ({kind}); keep secrets in a password manager"
        tail = "pass allow_sensitive=True to store it anyway"
        return GuardVerdict(False, "secret", f"Refused: {why}, or {tail}.")
    return _ACCEPTED


def ensure_memory_text(
    text: str, *, allow_sensitive: bool = False, allow_personal: bool = False, max_bytes: int = 512
) -> str:
    """Return ``text`` stripped, or raise ``GuardRejected`` saying why it cannot be stored.

    ``allow_personal`` (an explicit request) lets identity numbers through; credentials still
    need ``allow_sensitive``.
    """
    verdict = check_memory_text(
        text, allow_sensitive=allow_sensitive, allow_personal=allow_personal, max_bytes=max_bytes
    )
    if not verdict.ok:
        raise GuardRejected(verdict.message or "Refused.", verdict.reason or "rejected")
    return text.replace("\r\n", "\n").strip()
