"""Short numeric secrets: PINs, one-time and verification codes, door and alarm codes, in many languages.

Four to eight digits are a secret only when a word names them as one: "PIN", "one-time code",
"Geheimzahl", "código de verificación", "暗証番号", "인증번호". A flight, order, room or
phone-extension number, a postcode or a year has no such word, so the word and the number are
read together: the word, a few words that say whose or which ("of my bank card", "que me llegó
por SMS"), then "is" or a colon in the text's language, then the digits (grouped as people write
them: "582 193", "12-34"); or the word straight before the digits ("PIN 4071", "PIN码 4071");
or the digits said to be one ("4071 is my PIN"). A code word next to a count ("a 6-digit code")
or a time ("changed my PIN in 2023") has no "is" before its number and is not read as a secret.
"""

from __future__ import annotations

import re

__all__ = ["find_secret_code"]

# Words that name a numeric secret, in the languages the guard reads. Not "code" alone (a dress,
# area, promo or post code), not a booking, order or confirmation code (printed on a ticket).
_CODE_WORDS = (
    r"pin(?:[\s-]?(?:code|number|nummer|nr|no|kode|kod|koodi|kodu|n[uú]mero|num[eé]ro|numer|码|碼|コード|번호))?"
    r"|pin-?cod(?:e|es)|pin-?kod(?:e|en|u|en)?|pin-koodi|puk(?:[\s-]?code)?|passcode|pass\s+code|m-?tan|tan[\s-]?(?:nummer|code)"
    r"|otp|cvv2?|cvc2?"
    r"|(?:phone|sim|card|debit\s+card|credit\s+card|bank\s+card|voicemail|screen|tablet|laptop)\s+(?:pin|passcode"
    r"|unlock\s+code|lock\s+code)"
    r"|(?:one[\s-]?time|single[\s-]use|verification|security|access|unlock|login|sign[\s-]?in|2fa|two[\s-]factor"
    r"|auth(?:entication|entification)?|sms|door|gate|garage(?:\s+door)?|alarm|entry|keypad|lock|locker"
    r"|safe|padlock|intercom|lockbox|key\s+safe|building\s+entry|front\s+door|bike\s+lock)\s+(?:pin|code|passcode"
    r"|combination)"
    r"|(?:safe|lock|locker|padlock)\s+combination|geheimzahl|pin-nummer|einmal(?:code|passwort|kennwort)"
    # a device with one word between ("alarm panel code"), a code "for the building door", a key safe,
    # a card's code ("carte bleue, code"), a lock's combination "to the gym locker"
    r"|(?:door|gate|garage|alarm|entry|keypad|lock|locker|safe|padlock|intercom)\s+[^\W\d_]+\s+(?:pin|code|passcode"
    r"|combination)|(?:code|pin|passcode|combination)\s+(?:for|of|to|at)\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+"
    r"|their\s+|[^\W\d_]+'s\s+)?(?:[^\W\d_]+\s+)?(?:door|gate|garage|alarm|safe|locker|lock|padlock|building"
    r"|entrance|house|flat|apartment|keypad|shed|storage|bike\s+lock|key\s+safe|lockbox)|key\s*safe|key\s*box"
    r"|(?:carte\s+(?:bleue|bancaire)|bank\s*card|debit\s+card|credit\s+card|tarjeta|cart[aã]o|ec-?karte|bankkarte"
    r"|karta|kart)[^\d\n.]{0,20}?(?:code|c[oó]digo|pin|clave|senha|codice|kod|kodu)"
    # a code "to disarm the alarm", "para abrir la caja fuerte", "pour ouvrir", a "Zahlencode"
    r"|(?:code|pin|combination)\s+(?:to|for)\s+(?:disarm|open|unlock|enter|access|get\s+into)\b"
    r"|c[oó]digo\s+para\s+(?:abrir|desbloquear|entrar|desactivar|desarmar)|code\s+pour\s+(?:ouvrir|entrer"
    r"|d[ée]sactiver|acc[ée]der)|code\s+(?:d'entr[ée]e|de\s+l'entr[ée]e)|codice\s+per\s+(?:aprire|entrare|disattivare)"
    r"|(?:zahlen|nummern)code|(?:zahlen|ziffern)kombination|cijfercode|sifferkod"
    r"|(?:best[aä]tigungs|sicherheits|zugangs|verifizierungs|entsperr|t[uü]r|tor|alarm|haust[uü]r|tresor"
    r"|anmelde|freischalt)code|code\s+(?:pin|secret|confidentiel|de\s+(?:v[eé]rification|s[eé]curit[eé]"
    r"|confirmation\s+sms|validation|d[eé]verrouillage|l'alarme|la\s+porte|l'immeuble|acc[eè]s|la\s+carte)"
    r"|d'acc[eè]s|[aà]\s+usage\s+unique|sms)|digicode"
    r"|c[oó]digo\s+(?:de\s+la\s+caja(?:\s+fuerte)?|del\s+candado|do\s+cofre|do\s+cadeado)"
    r"|code\s+(?:du\s+coffre(?:-fort)?|du\s+cadenas)|codice\s+(?:della\s+cassaforte|del\s+lucchetto)"
    r"|(?:tresor|safe|schloss)-?code|kombination\s+(?:des|f[uü]r\s+den)\s+(?:tresors?|safes?)"
    r"|c[oó]digo\s+(?:pin|secreto|de\s+(?:verificaci[oó]n|seguridad|acceso|desbloqueo|un\s+solo\s+uso"
    r"|la\s+(?:alarma|puerta|tarjeta)|verifica[cç][aã]o|seguran[cç]a|acesso|desbloqueio)|do\s+(?:alarme"
    r"|port[aã]o|cart[aã]o)|da\s+(?:porta|alarma)|otp|sms)|clave\s+(?:de\s+(?:la\s+tarjeta|acceso)|num[eé]rica)"
    r"|senha\s+do\s+cart[aã]o|codice\s+(?:pin|segreto|di\s+(?:verifica|sicurezza|accesso|sblocco)"
    r"|dell'allarme|del\s+cancello|della\s+porta|otp)"
    r"|(?:verificatie|beveiligings|toegangs|deur|alarm|inlog|sms|eenmalige\s+)code"
    r"|kod\s+(?:pin|weryfikacyjny|dost[eę]pu|do\s+drzwi|alarmu|jednorazowy|sms|blik)|blik"
    r"|(?:verifierings|s[aä]kerhets|port|larm|eng[aå]ngs|bekr[aæ]ftelses|sikkerheds|sikkerhets|d[oø]r|adgangs"
    r"|engangs)kod(?:e)?|tunnusluku|vahvistuskoodi|turvakoodi|ovikoodi"
    r"|pin\s+kodu|do[gğ]rulama\s+kodu|g[uü]venlik\s+kodu|kap[iı]\s+(?:[sş]ifresi|kodu)|alarm\s+[sş]ifresi"
    r"|tek\s+kullan[iı]ml[iı]k\s+(?:[sş]ifre|kod)"
    r"|пин(?:-?код)?|пін(?:-?код)?|код\s+(?:подтверждения|доступа|от\s+(?:двери|домофона|сигнализации|сейфа)"
    r"|домофона|сигнализации|из\s+смс|підтвердження|доступу)|проверочный\s+код|одноразов\w+\s+код"
    r"|κωδικός\s+(?:pin|επαλήθευσης|πρόσβασης)|ov[eě][rř]ovac[ií]\s+k[oó]d|p[rř][ií]stupov[yý]\s+k[oó]d"
    r"|ellen[oő]rz[oő]\s+k[oó]d|biztons[aá]gi\s+k[oó]d|cod(?:ul)?\s+(?:pin|de\s+verificare|de\s+acces)"
    r"|m[aã]\s+(?:pin|otp|x[aá]c\s+(?:nh[aậ]n|minh))|kode\s+(?:otp|verifikasi|akses|pin)"
    r"|暗証番号|暗証|認証コード|確認コード|ワンタイムパスワード|验证码|驗證碼|动态码|门禁密码|支付密码|取款密码"
    r"|인증\s*번호|인증\s*코드|도어락\s*비밀번호|현관\s*비밀번호|الرقم\s+السري|رمز\s+(?:التحقق|الدخول|pin)"
    r"|קוד\s+(?:pin|אימות|כניסה)|पिन|ओटीपी|सत्यापन\s+कोड|รหัส\s*(?:pin|otp)"
)
# "is" or a colon, in the same languages (CJK particles too).
_IS = (
    r"(?:\s*[:=：]|\s+(?:is|was|are|were|es|era|est|[eé]tait|ist|war|lautet|lautete|é|era|è|jest|by[lł]|to"
    r"|[aä]r|var|er|oli|je|бы[лв]\w*|—|-|–|это|là|adalah|ialah|είναι|היא|הוא)(?:\s*:)?"
    r"(?:\s+(?:el|la|le|der|die|das|the|o|a|il|lo|het|de))?"
    r"|'s|\s*(?:は|が|是|为|為|는|은|이|가))"
)
# A few words that say whose or which code, with no end of sentence in them; a number there
# says which card or door ("PIN for the debit card ending 4421 is 3390"), the code follows "is".
_WHICH = r"(?:[^\W\d_]|[\s'’,()-])"
_WHICH_NUMBERED = r"(?:[^\W_]|[\s'’,()-])"
# Four to eight digits in a row or in groups, with no more digits on either side (not a phone number).
_DIGITS = r"(?<![\d+])\d(?:[ .-]?\d){3,7}(?![ .-]?\d)"
# ...or a keypad code with letters in it ("47B12"): three digits at least, after the code word.
_MIXED = (
    r"(?=[A-Za-z0-9#*]*\d[A-Za-z0-9#*]*\d[A-Za-z0-9#*]*\d)(?=[A-Za-z0-9#*]*[A-Za-z#*])[A-Za-z0-9#*]{4,8}\b"
)
# Counts and durations are not codes: "a 6-digit code", "valid 1000 minutes".
_NOT_AFTER = r"(?!\s*(?:-?\s*digits?|-?\s*stellig|chiffres|cifras|d[ií]gitos|cifre|min|sec|s\b|h\b|hours?"
_NOT_AFTER += (
    r"|minutes?|seconds?|days?|times|attempts|tries|euros?|dollars?|%|€|\$|m\b|km|metres|meters|feet|ft"
)
_NOT_AFTER += r"|miles|kg|lbs?|pounds|years?|people|am\b|pm\b|hrs?))"

# A code word is a whole word in alphabetic scripts ("pin", not "spin" or "pingvin"); CJK and
# Korean words run into their particles ("暗証番号は", "인증번호는").
_LETTER = r"A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"
_EDGE_BEFORE = rf"(?<![{_LETTER}])"
_EDGE_AFTER = rf"(?![{_LETTER}])"

_SECRET_CODE = re.compile(
    rf"{_EDGE_BEFORE}(?:{_CODE_WORDS}){_EDGE_AFTER}"
    rf"(?:{_WHICH}{{0,45}}?{_IS}|\s*[#:：]?\s*)\s*[\"'`«„]?(?:{_DIGITS}{_NOT_AFTER}|{_MIXED})"
    rf"|{_EDGE_BEFORE}(?:{_CODE_WORDS}){_EDGE_AFTER}(?={_WHICH}*\d){_WHICH_NUMBERED}{{0,45}}?\s(?:is|was|lautet|est|es"
    rf"|è|é)\s*:?\s*[\"'`«„]?{_DIGITS}{_NOT_AFTER}"
    # ...or said in words first, the digits after a comma: "the alarm code is Dad's birthday, 0412"
    rf"|{_EDGE_BEFORE}(?:{_CODE_WORDS}){_EDGE_AFTER}{_WHICH}{{0,15}}?\s(?:is|was)\s[^\d\n.!?]{{0,45}}?[,:—–]\s*"
    rf"{_DIGITS}{_NOT_AFTER}(?=\s*(?:[.!;)]|$))"
    rf"|{_EDGE_BEFORE}(?:safe|lock|padlock|locker|door|gate|garage|alarm|keypad)\b[^\d\n.]{{0,30}}?\b(?:opens"
    rf"|unlocks|is\s+unlocked|is\s+opened|disarms|is\s+disarmed)\s+(?:with|using|by)\s+(?:(?:the\s+)?code\s+)?{_DIGITS}"
    rf"|{_DIGITS}\s+(?:is|was)\s+(?:my|the|our|his|her|their|user's|the\s+user's)\s+(?:[\w-]+\s+){{0,2}}?"
    rf"(?:{_CODE_WORDS}){_EDGE_AFTER}"
    # a lock set to its digits: "the safe in our hotel room is set to 3341", "the padlock is 0451",
    # "bike lock combo 0459" (not a locker's, a room's or a street's number)
    rf"|{_EDGE_BEFORE}(?:safe|padlock|lock|locker|suitcase|keypad|key\s*box|lockbox|key\s*safe|combination\s+lock)\b"
    rf"(?:(?!\b(?:number|no|nr|floor|street|road|avenue|lane|model|size|costs?|weighs?|holds?|has|had"
    rf"|takes?|bought|for|since|from)\b)[^\d\n.]){{0,30}}?"
    rf"\b(?:is\s+set\s+to|set\s+to|(?:is|was)|combo|combination|code)\s*[:=]?\s*{_DIGITS}{_NOT_AFTER}",
    re.IGNORECASE,
)


# Most texts hold no four digits in a row or in groups: the long search is skipped for them.
_ANY_DIGITS = re.compile(r"\d(?:[ .-]?\d){3}")


def find_secret_code(text: str) -> str | None:
    """``"PIN or one-time code"`` when ``text`` gives a code word's digits, else None."""
    if _ANY_DIGITS.search(text) is None:
        return None
    return "PIN or one-time code" if _SECRET_CODE.search(text) else None
