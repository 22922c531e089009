"""Secrets the guard refuses: keys and tokens, passwords, identity, card and bank numbers, seed phrases.

Maintained libraries do the recognising where one exists: detect-secrets' vendor detectors for
keys and tokens, python-stdnum for check-digit numbers (US SSN, CPF, Chinese RIC, codice fiscale,
DNI, card numbers by Luhn, IBAN), and the BIP-39 word lists of ``mnemonic`` for wallet recovery
phrases. The phrases people write ("my PIN is 1234", "admin / P@ssw0rd!2024") stay regexes.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import RegexBasedDetector
from mnemonic import Mnemonic
from stdnum import iban, luhn
from stdnum.br import cpf as br_cpf
from stdnum.cn import ric as cn_ric
from stdnum.es import dni as es_dni
from stdnum.es import nie as es_nie
from stdnum.fr import nir as fr_nir
from stdnum.in_ import aadhaar as in_aadhaar
from stdnum.it import codicefiscale as it_cf
from stdnum.kr import rrn as kr_rrn
from stdnum.se import personnummer as se_pnr
from stdnum.tr import tckimlik as tr_tckimlik
from stdnum.us import ssn as us_ssn

from reverie.extract.guard_codes import find_secret_code
from reverie.extract.guard_pairs import find_credential_pair
from reverie.extract.guard_regex import RuleSet, split_alternatives

__all__ = ["IDENTITY_KINDS", "find_secret"]

# Identity numbers, as opposed to credentials: personal, and kept only on an explicit request.
IDENTITY_KINDS = frozenset({"government ID number", "US social security number"})

# Words that follow "password is" in ordinary facts ("password is stored in the keychain").
_NOT_A_VALUE = (
    r"(?:the|a|an|that|this|not|still|being|stored|saved|kept|written|in|on|at|set|changed|reset"
    r"|required|needed|same|different|long|short|strong|weak|easy|hard|too|very|also|usually"
    r"|always|never|now|managed|shared|expired|hidden|safe|secure|private|something|their|his"
    r"|her|my|our|your|out|to|for|of|with|from|via|yesterday|today|tomorrow|again|twice|recently|last|every"
    r"|weekly|monthly|daily|after|before|because|since|so|and|but|when|while|once|was|is|got|gets"
    # what happens to one ("the PIN was blocked", "the password was leaked in a breach")
    r"|blocked|locked|frozen|compromised|leaked|stolen|lost|forgotten|cancell?ed|wrong|incorrect|invalid|valid"
    r"|sent|texted|emailed|mailed|printed|hacked|exposed|guessed|cracked|rejected|accepted|updated|renewed"
    r"|rotated|revoked|disabled|enabled|removed|deleted|only|just|probably|apparently|finally|easy"
    r"|and|or|holder'?s?|manager|page|portal|details|recovery|nothing|anything|were|are|has|had|have"
    # the same in the other languages the guard reads: "è stato bloccato", "is verlopen", "está escrita"
    r"|stato|stata|sido|estado|est[aá]|era|foi|[eé]t[eé]|[eé]tait|wurde|worden|geworden|war|werd|zijn|sind"
    r"|verlopen|vervallen|scadut[oa]|expirad[oa]|caducad[oa]|expir[eé]e?|abgelaufen|bloccat[oa]|bloquead[oa]"
    r"|bloqu[eé]e?|gesperrt|geblokkeerd|cambiat[oa]|cambiad[oa]|chang[eé]e?|ge[aä]ndert|gewijzigd|alterad[oa]"
    r"|escrit[oa]|[eé]crite?|scritt[oa]|geschrieben|geschreven|salvat[oa]|guardad[oa]|gespeichert"
    r"|enregistr[eé]e?|opgeslagen|nuev[oa]|nuov[oa]|nouvelle|nouveau|neu|nieuw|nov[oa]|sbagliat[oa]"
    r"|incorrect[oa]|falsch|fout|errad[oa]|perdid[oa]|pers[oa]|perdu|vergessen|vergeten|dimenticat[oa]"
    r"|olvidad[oa]|esquecid[oa]|oubli[eé]e?"
    # a participle and a place: "was taped under the key rack", "is pinned to the fridge"
    r"|[a-z]+(?:ed|en)\s+(?:on|in|at|under|to|by|into|onto|inside|behind|next|beside|from|with|for|above|below))\b"
)
_KEYWORD = (
    r"(?:password|passwd|pwd|pw|pass|passcode|passphrase|pin(?:\s+(?:number|code))?|api[\s_-]?key"
    r"|contrase[nñ]a|clave|mot\s+de\s+passe|mdp|passwort|kennwort|senha|parola\s+d'ordine|пароль|пин-?код"
    r"|code\s+(?:de\s+(?:la\s+)?carte(?:\s+bancaire)?|secret|confidentiel|d'acc[eè]s|de\s+l'alarme)|geheimzahl"
    r"|keypad(?:\s+code)?|cvv2?|cvc|csc|card\s+security\s+code|zugangscode|c[oó]digo\s+(?:de|del|do|da)\s+(?:la\s+)?(?:tarjeta|cart[aã]o|alarma|alarme|puerta|porta"
    r"|acceso|acesso)|codice\s+(?:del|della|di)\s+(?:bancomat|carta|accesso|allarme)"
    r"|secret(?:[\s_-]?key)?|access[\s_-]?(?:key|token|code)|auth[\s_-]?token|token"
    r"|(?:alarm|door|gate|garage(?:\s+door)?|safe|lock|locker|security|entry|unlock|verification"
    r"|backup|recovery|2fa|otp|wi-?fi)\s+code|(?:safe|lock|locker|padlock)\s+combination"
    r"|combination(?=\s+(?:to|for|of)\s+(?:\w+\s+)?(?:safe|lock|locker|padlock)))s?"
    # "... for the router is x" / "... to the safe is x"
    r"(?:\s+(?:to|for|of|on)\s+(?:the\s+|my\s+|our\s+|their\s+|his\s+|her\s+)?[\w-]+)?"
)
# Words for a login or an account's credentials, in the languages the guard reads: a pair
# "<login word> ... name / secret" next to one of them is a credential pair.
_LOGIN = (
    r"login|logins|credentials?|account|creds|sign[\s-]?in|benutzer(?:name)?|usuario|utilisateur|usu[aá]rio"
    r"|utente|логин|zugangsdaten|anmeldedaten|identifiants?|nom\s+d'utilisateur|datos\s+de\s+acceso|credenciales"
    r"|credenziali|nome\s+utente|credenciais|dados\s+de\s+acesso|inloggegevens|gebruikersnaam|dane\s+logowania"
    r"|u[zż]ytkownik|giri[sş]\s+bilgileri|kullan[iı]c[iı]\s+ad[iı]|anv[aä]ndarnamn|inloggning|учетн\w*\s+данн\w*"
    r"|учётн\w*\s+данн\w*|имя\s+пользователя|ユーザー名|ユーザーid|ログインid|아이디|사용자\s*이름|계정|用户名|账号|帐号"
    r"|اسم\s+المستخدم|بيانات\s+الدخول|उपयोगकर्ता\s+नाम|t[eê]n\s+đăng\s+nh[aậ]p|t[aà]i\s+kho[aả]n|nama\s+pengguna"
)
_PASSWORDS = (
    r"passwort|kennwort|mot\s+de\s+passe|mdp|contrase[nñ]a|clave|senha|wachtwoord|has[lł]o|[sş]ifre|l[oö]senord"
    r"|пароль|パスワード|비밀번호|密码|كلمة\s+(?:المرور|السر)|पासवर्ड|m[aậ]t\s+kh[aẩ]u|kata\s+sandi|password"
)
# An account that holds no money: "council tax account number is 40018275" names a bill.
_NOT_BANK = "".join(
    rf"(?<!{word}\s)"
    for word in "tax utility customer loyalty membership gas water electricity energy phone mobile broadband"
    " library insurance council rewards frequent-flyer patient".split()
)
_VALUE = rf"[\"'`]?(?!{_NOT_A_VALUE})[^\s\"'`]{{3,}}"
_SECRET_KINDS = {
    "private_key": "private key",
    "stripe": "Stripe key",
    "openai": "OpenAI/Anthropic API key",
    "github": "GitHub Token",
    "aws": "AWS access key id",
    "slack": "Slack token",
    "vendor": "API token",
    "google": "Google API key",
    "jwt": "JSON web token",
    "url": "credentials in a URL",
    "keyword": "password or access code",
    "assignment": "password or access code",
    "pair": "login and password",
    "pair2": "login and password",
    "pair3": "login and password",
    "iban": "IBAN",
    "slash_pair": "login and password",
    "bare_pair": "login and password",
    "service_pair": "login and password",
    "keypad": "password or access code",
    "cjk_password": "password or access code",
    "labelled": "password or access code",
    "wifi": "Wi-Fi password",
    "gov_id": "government ID number",
    "bank": "bank account number",
    "kba": "security answer",
    "ssn": "US social security number",
    "cjk_id": "government ID number",
    "card": "credit card number",
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
"""
# Phrases ("my PIN is 1234") are searched after shapes, so a named token wins over "token ...".
_PHRASE_RULES = r"""
    (?P<keyword>(?i:\b{KEYWORD}(?:\s*[:=]\s*|\s+(?:is|was|es|est|ist|lautet|é|è|era)\s+|\s(?=\S{0,40}\d))
        {VALUE}
    |(?i:\b{KEYWORD}\s+(?:for|of|to|on|de|du|del|da|do|della|dello|dell'|für|fürs|von|zu|zum|zur|beim|от|для|на)\s+
        (?:[^\s:=.!?]+\s+){0,5}?[^\s:=]*\s*(?:(?<!\w)(?:is|es|est|ist|lautet|é|è|era)\s+|[:=]\s*){VALUE})))
  | (?P<labelled>(?i:\b{KEYWORD}\b[^:\n]{0,30}:\s*(?=\S*[\d\W])[^\s"'`]{4,}))
  | (?P<cjk_password>(?:密码|口令|暗证号码|パスワード|暗証番号|PIN|ピン|비밀번호|패스워드)
        (?!管理|マネージャ|관리)[^。\n]{0,12}?
        (?:是|为|は|:|：)\s*[^\s。、，,]{4,}
      |(?:密码|口令|パスワード|暗証番号|비밀번호|패스워드|كلمة\s+(?:المرور|السر)|पासवर्ड)(?:는|은|이|가|を|は)?
        (?:\s*[:：=]\s*|\s+)(?=[^\s。、，,]*\d)(?=[^\s。、，,]*[^\W\d_])[^\s。、，,]{4,})
  | (?P<assignment>(?i:\b[\w-]{0,40}?(?:secret|passw(?:or)?d|token|api[_-]?key|access[_-]?key|login
        |credentials?)[\w-]{0,40}\s*[:=]\s*{VALUE}))
  | (?P<pair>(?i:(?:\b(?:login|logins|credentials?|account|creds|sign[\s-]?in|benutzer|usuario|utilisateur
        |usu[aá]rio|utente|логин)\b[^.\n/<>]{0,40}?[:=\s]|\buser(?:name)?\s*[:=])\s*(?!https?:)[^\s/:<>]+
        \s*[/|](?!/)\s*(?:(?:pass(?:word)?|pwd|pw)\s*[:=]?\s*)?(?=[^\s<>]*\d|[^\s<>]*[^\w\s.,;:!?<>])
        [^\s<>]{4,}))
  | (?P<pair2>(?i:\b(?:user(?:name)?|login|account|e-?mail)\s*[:=\s]\s*(?!{NOT_A_VALUE})\S+[\s,;]+
      (?:pass(?:word)?|pwd|pw)\s*(?:[:=]\s*\S{3,}|\s(?!{NOT_A_VALUE})(?=\S*\d|\S*[^\w\s])\S{3,})))
  | (?P<pair3>(?i:\b(?:credentials|log-?in\s+details|login|account\s+details|sign-?in\s+details)
      \s+(?:are|were|is|:)\s*\S{3,}\s*(?:and|&|/|,|;)\s*(?=\S*\d)(?=\S*[^\w\s])[^\s]{6,}))
  | (?P<iban>(?i:\biban\b)\s*(?:n[°º]|no\.?|number)?\s*[:=]?\s*[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}
      (?:\s?[A-Z0-9]{1,3})?)
  | (?P<bare_pair>(?:^|[:：]|\s[-–—])\s*[\w.@+-]{3,40}\s*/\s*(?=[^\s/]*[a-z])(?=[^\s/]*\d)
      (?=[^\s/]*(?:[A-Z]|[^\w\s]))[^\s/]{6,}(?=[\s.,;]*$|[,;]\s))
  | (?P<service_pair>(?:^|[:：]|\s[-–—])\s*(?=[\w.@+-]*[A-Za-z])(?=[\w.@+-]*[.@_\d])[\w.@+-]{3,40}\s*/\s*
      (?=[^\s/]*[a-z]{3})(?=[^\s/]*\d)[^\s/]{6,}(?=[\s.,;]*$|[,;]\s|\s+[-–—(]))
  | (?P<keypad>(?i:\b(?:alarm|garage|door|gate|safe|locker|keypad|lockbox
      |padlock)\s*[:=]\s*\d(?:[\s.-]?\d){3,7}\b))
  | (?P<slash_pair>(?i:\b(?:admin|root|administrator|user|guest|pi|ubuntu|sa)\s*/\s*(?=\S*\d)\S{4,}
      |\b(?:admin|root|administrator)\s*,\s*(?=\S*\d)(?=\S*[^\w\s])(?=\S*[a-z])\S{6,}))
  | (?P<wifi>(?i:\bwi-?fi\b[^.\n]{0,40}?\b(?:key|pass(?:word)?|pwd?)\b(?:\s*(?:(?:is|was)\s+|[:=]\s*)
      |\s+(?=\S*\d)|(?<=pw|wd)\s+){VALUE}))
  | (?P<gov_id>(?i:\b(?:passport|passeport|pasaporte|passaporto|passaporte|reisepass
        |driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|national\s+insurance|social\s+insurance
        |social\s+security|social|ssn|sin|nino|nhs|bsn|tax\s+(?:id|file|number)|id\s+card|national\s+id|dni
      |nie|nif
        |cpf|rg|codice\s+fiscale|steuer-?id|steuer-?identifikationsnummer|personalausweis(?:nummer|-?nr\.?)?
      |s[eé]cu(?:rit[eé]\s+sociale)?
        |nir|num[eé]ro\s+fiscal|personnummer|инн|снилс|паспорт\w*|my\s+number|aadhaa?r|pesel|cnp|tckn
        |t\.?c\.?\s+kimlik|dowód\s+osobisty|burgerservicenummer)\b\s*(?:number|no\.?|\#|n[°º]|nummer
        |n[uú]mero|numéro|номер)?(?:\s+(?:for|of|on|de|del|da|do|du|des|von|der|della|di
      |на)\b[^\d\n.:=]{0,25}?)?
        \s*(?:(?:is|was|es|est|ist|lautet|é|è|to|jest|är|er|это)\s+|[:=]\s*)?
        (?-i:[A-Z0-9]{0,6}\s?\d[\dA-Z .-]{4,}[\dA-Z])))
  | (?P<card>(?i:\b(?:card\s+number|номер\s+(?:\w+\s+)?карты|n[uú]mero\s+de\s+(?:mi\s+)?tarjeta|kartennummer
        |num[eé]ro\s+de\s+(?:ma\s+)?carte|numero\s+della\s+(?:mia\s+)?carta
      |n[uú]mero\s+do\s+(?:meu\s+)?cart[aã]o
        |numer\s+(?:mojej\s+)?karty|kart\s+numaras[iı])\b[^\d\n]{0,20}\d{4}(?:[ .-]?\d{3,4}){2,4}\b))
  | (?P<cjk_id>(?:身份证|身分證|护照|社保|マイナンバー|個人番号|パスポート|旅券|주민등록번호)[^。\n]{0,10}?
        [0-9Xx](?:[ -]?[0-9Xx]){7,})
  | (?P<bank>(?i:\b(?:routing|aba|sort\s+code)\s*(?:number|no\.?|\#)?\s*(?:is\s+|[:=]\s*)?\d[\d-]{5,}
        |\b(?:bank\s+)?{NOT_BANK}account\s*(?:number|no\.?|\#)?\s*(?:is\s+|[:=]\s*)?(?:\d{8,17}
        |\d{2,6}(?:[ -]\d{2,8}){2,4})\b))
  | (?P<kba>(?i:\b(?:maiden\s+name|security\s+(?:question|answer)s?)\s*(?:is|was|are|:)))
"""

# The same phrases with the login and password words of more languages, searched only when one
# of those words is in the text (a long alternation tried at every word costs time on every text).
_MORE_RULES = r"""
    (?P<keyword>(?i:\b(?:{KEYWORD_MORE})(?:\s*[:=]\s*|\s+(?:is|jest|er|är|adalah|là|это|to)\s+|\s(?=\S{0,40}\d))
        {VALUE}))
  | (?P<pair>(?i:\b(?:{LOGIN})\b[^.\n/<>]{0,40}?[:=\s]\s*(?!https?:)[^\s/:<>]+\s*[/|](?!/)\s*
        (?=[^\s<>]*\d|[^\s<>]*[^\w\s.,;:!?<>])[^\s<>]{4,}))
  | (?P<pair2>(?i:\b(?:{LOGIN})\s*[:=\s]\s*(?!{NOT_A_VALUE})\S+[\s,;]+
        (?:(?:and|und|et|e|y|en|i|ve|och|и|و)\s*)?(?:{PASSWORDS})\s*[:=]?\s*(?!{NOT_A_VALUE})(?=\S*[\d\W])\S{4,}))
"""
_KEYWORD_MORE = (
    r"wachtwoord|has[lł]o|[sş]ifre(?:m|si)?|l[oö]senord(?:et)?|salasana|adgangskode|passord|heslo|jelsz[oó]"
    r"|m[aậ]t\s+kh[aẩ]u|kata\s+sandi|парол[ьяи]"
)
# Substrings one of which a text must hold for ``_MORE_RULES`` to run (lower case).
_MORE_GATE = tuple(
    "wachtwoord hasło haslo şifre sifre lösenord losenord salasana adgangskode passord heslo jelsz khẩu"
    " sandi парол пароль login logow credential account creds sign benutzer usuario utilisateur usuário"
    " utente логин zugangs anmelde identifiant datos credenci nome dados inlog gebruikersnaam użytkownik"
    " uzytkownik giriş giris kullanıcı kullanici användarnamn inloggning учетн учётн имя ユーザー ログイン"
    " 아이디 사용자 계정 用户名 账号 帳号 帐号 اسم بيانات उपयोगकर्ता đăng tài nama akun".split()
)
_SECRETS = tuple(
    re.compile(
        rules.replace("{KEYWORD}", _KEYWORD)
        .replace("{VALUE}", _VALUE)
        .replace("{LOGIN}", _LOGIN)
        .replace("{PASSWORDS}", _PASSWORDS)
        .replace("{KEYWORD_MORE}", _KEYWORD_MORE)
        .replace("{NOT_BANK}", _NOT_BANK)
        .replace("{NOT_A_VALUE}", _NOT_A_VALUE),
        re.VERBOSE,
    )
    for rules in (_SECRET_RULES, _PHRASE_RULES, _MORE_RULES)
)
# The same rules searched cheaply (``guard_regex``): each runs only on a text holding its literal
# words. Within a set the leftmost match (the earlier rule on a tie) names the kind, and the sets
# are tried in order, as searching each whole alternation in turn would.
_PARTS = {
    f"{index}{number:03d}": part
    for index, rules in enumerate(_SECRETS)
    for number, part in enumerate(split_alternatives(rules.pattern))
}
_GATED = RuleSet(_PARTS, re.VERBOSE)
_KIND_OF: dict[str, str] = {group: re.findall(r"\(\?P<(\w+)>", part)[0] for group, part in _PARTS.items()}


def _first_kind(text: str, sets: int) -> str | None:
    """The kind named by the first of the first ``sets`` rule sets that matches ``text``."""
    found = _GATED.matches(text)
    for index in range(sets):
        spans = [(hits[0][0], group) for group, hits in found.items() if hits and group[0] == str(index)]
        if spans:
            return _KIND_OF[min(spans)[1]]
    return None


# Card numbers as people write them: one run of digits, or 4-4-4-4(+), or Amex 4-6-5, the groups
# split by spaces, dashes or dots (mixed too: "4111 1111-1111 1111").
_CARD = re.compile(
    r"(?<![\d.-])(?:\d{13,19}|\d{4}[ .-]\d{4}[ .-]\d{4}[ .-]\d{1,7}|\d{4}[ .-]\d{6}[ .-]\d{4,5})"
    r"(?![\d-]|\.\d)"
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_-]{32,}")
_HEX = re.compile(r"(?:\b|(?<=\b0x))[0-9a-f]{32,}\b", re.IGNORECASE)  # "0x..." keys too
# Identity numbers that carry a check digit, so a match is unlikely to be a coincidence.
_IDS: tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...] = (
    (re.compile(r"\b\d{3}[- ]\d{2}[- ]\d{4}\b"), lambda number: us_ssn.is_valid(number.replace(" ", "-"))),
    (re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b"), br_cpf.is_valid),
    (re.compile(r"\b\d{17}[\dXx]\b"), cn_ric.is_valid),
    (re.compile(r"\b[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]\b"), it_cf.is_valid),
    (re.compile(r"\b\d{8}-?[A-Z]\b"), es_dni.is_valid),
    (re.compile(r"\b[XYZ]-?\d{7}-?[A-Z]\b"), es_nie.is_valid),
    (re.compile(r"\b[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b"), fr_nir.is_valid),
    (re.compile(r"\b(?:\d{2})?\d{6}[-+]\d{4}\b"), se_pnr.is_valid),
    (re.compile(r"\b\d{6}-\d{7}\b"), kr_rrn.is_valid),
    (re.compile(r"\b[2-9]\d{3} \d{4} \d{4}\b"), in_aadhaar.is_valid),
    (re.compile(r"\b[1-9]\d{10}\b"), tr_tckimlik.is_valid),
    # A UK National Insurance number (python-stdnum has none): the prefix letters HMRC issues, six
    # digits, a suffix A-D; no check digit, so it is named ("NI no.") before it, as a reference is not.
    (
        re.compile(
            r"(?i:\b(?:ni|nino|nin|national\s+insurance)\b)[^\n\d]{0,30}?"
            r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
            r"(?:\d{6}[A-D]| \d{2} \d{2} \d{2} [A-D])\b"
        ),
        lambda number: True,
    ),
)
# Recovery phrases: twelve or more words in a row from one BIP-39 list.
_PHRASE_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_SEED_LANGUAGES = ("english", "spanish", "french", "italian", "portuguese")


@lru_cache(maxsize=1)
def _bip39_words() -> tuple[frozenset[str], ...]:
    return tuple(frozenset(Mnemonic(lang).wordlist) for lang in _SEED_LANGUAGES)


@lru_cache(maxsize=1)
def _detectors() -> tuple[RegexBasedDetector, ...]:
    """detect-secrets' vendor detectors (regexes only: fast, offline, no file context needed)."""
    skip = {"Public IP (ipv4)"}  # an address is not a secret
    found: list[RegexBasedDetector] = []
    # The library types its mapping with an unbound TypeVar, so mypy cannot call the classes.
    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    for cls in classes:
        plugin: object = cls()
        if isinstance(plugin, RegexBasedDetector) and plugin.secret_type not in skip:
            found.append(plugin)
    return tuple(found)


def _looks_random(token: str) -> bool:
    # Mixed case plus digits separates keys from slugs ("2024-running-log") and UUIDs.
    if not (any(c.isdigit() for c in token) and token.lower() != token != token.upper()):
        return False
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in Counter(token).values())
    return entropy >= 3.0


# A phrase called a recovery phrase needs fewer list words: people write them from memory.
_SEED_CONTEXT = re.compile(
    r"\b(?:seed|recovery|mnemonic|wallet|metamask|ledger|trezor|secret\s+(?:phrase|words)|backup\s+(?:words|phrase|seed)"
    r"|(?:12|24|twelve|twenty-four)[-\s]words?|frase\s+(?:semilla|de\s+recupera)|phrase\s+de\s+r[eé]cup"
    r"|wiederherstellungs|herstelzin|фраз|мнемоническ)\w*",
    re.IGNORECASE,
)
_NOT_SEED = frozenset(
    "the a an and or to of in on at for with is are was my your our their his her it this that from by as be"
    " not no but so if then than".split()
)


def _has_named_seed_phrase(text: str) -> bool:
    """Twelve or more plain lower-case words in a row (numbering allowed), two thirds of them from a
    BIP-39 list, after a word that names a recovery phrase."""
    context = _SEED_CONTEXT.search(text)
    if context is None:
        return False
    run: list[str] = []
    for token in [*text[context.end() :].split(), "."]:
        if re.fullmatch(r"\d{1,2}[.)]?", token):
            continue  # "1 tiger 2 ocean ..."
        word = token.rstrip(".") if token.endswith(".") and token.count(".") == 1 else token
        if word.isalpha() and word.islower() and 3 <= len(word) <= 8 and word not in _NOT_SEED:
            run.append(word)
            if word == token:
                continue
        listed = max(sum(w in wordlist for w in run) for wordlist in _bip39_words()) if len(run) >= 12 else 0
        if listed * 3 >= len(run) * 2 > 0:
            return True
        run = []
    return False


def _has_seed_phrase(text: str) -> bool:
    words = [w.lower() for w in _PHRASE_WORD.findall(text)]
    for wordlist in _bip39_words():
        run = 0
        for word in words:
            run = run + 1 if word in wordlist else 0
            if run >= 12:
                return True
    return False


# A password of children's play ("the kids' password to enter the fort is 'dragon'") guards no account.
_PLAY = re.compile(
    r"\b(?:kids'?|children'?s?)(?!\w)[^.\n]{0,40}\b(?:password|passwords|code)\b[^.\n]{0,30}\b(?:fort|den"
    r"|treehouse|clubhouse|castle|club|hideout|tent|game|treasure|pirate|secret\s+society)\b",
    re.IGNORECASE,
)


def find_secret(text: str) -> str | None:
    """Return the kind of secret ``text`` contains (e.g. "GitHub token"), or None."""
    for detector in _detectors():
        if any(True for _ in detector.analyze_string(text)):
            return str(detector.secret_type)
    low = text.lower()
    name = _first_kind(text, 3 if any(word in low for word in _MORE_GATE) else 2)
    if name is not None and not (name == "keyword" and _PLAY.search(text)):
        return _SECRET_KINDS[name]
    if find_credential_pair(text):
        return "login and password"
    code = find_secret_code(text)
    if code is not None:
        return code
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
            return "credit card number"
    if any(iban.is_valid(m.group()) for m in _IBAN.finditer(text)):
        return "IBAN"
    for pattern, is_valid in _IDS:
        if any(is_valid(m.group()) for m in pattern.finditer(text)):
            return "government ID number"
    if _has_seed_phrase(text) or _has_named_seed_phrase(text):
        return "wallet recovery phrase"
    if any(_looks_random(m.group()) for m in _TOKEN.finditer(text)):
        return "high-entropy token"
    # Hex digests and keys are single-case, so the mixed-case test above misses them.
    if any(re.search(r"\d", h) and re.search(r"[a-f]", h, re.I) for h in _HEX.findall(text)):
        return "high-entropy token"
    return None
