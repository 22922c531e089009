"""A login written informally: a login word and a password word, each followed by its value.

"user admin pass hunter2", "login is mkowalski, pw is Tr0ub4dor&3", "Benutzer kschmidt Passwort
sommer", "uživatel novak heslo praha", "ユーザー名 tanaka パスワード neko": whatever the language
or the punctuation, two key words (one for the account, one for its secret) each followed by a
token is a credential pair. The tokens must be values, not words of a sentence about logins
("the login page asks for a password", "username and password are on a sticky note").
"""

from __future__ import annotations

import re

__all__ = ["find_credential_pair"]

# Words that name the account's login: followed by a token, the token is the login.
_NAME_KEY = (
    r"user\s*name|user\s*id|login(?:\s+name|\s+id)?|log-?in|acct|creds|benutzername|nutzername|anmeldename"
    r"|identifiant|nom\s+d'utilisateur|nome\s+utente|nome\s+de\s+usu[aá]rio|nombre\s+de\s+usuario"
    r"|gebruikersnaam|nazwa\s+u[zż]ytkownika|kullan[iı]c[iı]\s+ad[iı]|u[zž]ivatelsk[eé]\s+jm[eé]no"
    r"|felhaszn[aá]l[oó]n[eé]v|k[aä]ytt[aä]j[aä]tunnus|k[aä]ytt[aä]j[aä]nimi|brukernavn|brugernavn|anv[aä]ndarnamn"
    r"|логин|логін|имя\s+пользователя|όνομα\s+χρήστη|nama\s+pengguna|t[eê]n\s+đăng\s+nh[aậ]p|שם\s+משתמש"
    r"|اسم\s+المستخدم|उपयोगकर्ता\s+नाम|用户名|用戶名|账号|帳號|帐号|ユーザー名|ユーザーid|ログインid|아이디|사용자\s*이름"
)
# Words that also name a person or a thing ("User forgot the password"): a value needs more then.
_PERSON_KEY = (
    r"user|account|e-?mail|benutzer|nutzer|usuario|utilisateur|utente|usu[aá]rio|gebruiker|u[zż]ytkownik"
    r"|kullan[iı]c[iı]|u[zž]ivatel|felhaszn[aá]l[oó]|k[aä]ytt[aä]j[aä]|anv[aä]ndare|utilizator|пользователь"
    r"|користувач|χρήστης|משתמש|उपयोगकर्ता|用户|ユーザー|사용자"
)
_PASS_KEY = (
    r"pass(?:word|wd|code|phrase)?|pw|pwd|pin|passwort|kennwort|mot\s+de\s+passe|mdp|contrase[nñ]a|clave|senha"
    r"|parola|parolas[iı]|wachtwoord|has[lł]o|heslo|[sş]ifre(?:si)?|jelsz[oó]|salasana|passord|adgangskode"
    r"|l[oö]senord|parol[aă]|пароль|парол[ьяи]|κωδικός|סיסמה|كلمة\s+(?:المرور|السر)|पासवर्ड|m[aậ]t\s+kh[aẩ]u"
    r"|kata\s+sandi|密码|密碼|口令|パスワード|비밀번호"
)
# Words that follow a key word in a sentence about logins rather than a value.
_NOT_VALUE = (
    r"(?:the|a|an|is|was|are|were|be|been|and|or|for|to|of|in|on|at|with|by|from|via|me|my|your|his|her|their"
    r"|our|its|it|this|that|these|those|page|portal|screen|form|field|fields|manager|managers|policy|policies"
    r"|details|info|data|name|names|number|no|reset|resets|recovery|problem|problems|issue|issues|help|helpdesk"
    r"|support|hygiene|rules|requirements|length|strength|prompt|box|button|link|change|changed|changes"
    r"|forgotten|forgot|stored|saved|kept|same|different|expired|required|needed|new|old|locked|blocked|stolen"
    r"|leaked|hacked|compromised|shared|sharing|secure|security|safe|strong|weak|never|not|still|only|also|just"
    r"|again|too|then|now|later|holder|owner|settings|setup|access|accounts|logins|passwords|credentials"
    r"|something|nothing|anything|easy|hard|long|short|simple|complicated|written|somewhere|expires?|pad|pads"
    r"|k|ke|do|od|na|za|pro|para|per|por|pour|f[uü]r|zu|zum|zur|von|vom|voor|van|til|till|av|för|от|для|к|в|на"
    r"|по|до|із|від|dla|z|ze|s|se|u|di|da|dal|al|au|aux|um|nel|im|am|ins|sur|con|mit|met|med|avec|with"
    r"|et|und|en|ve|a|och|og|és|и|та|le|la|el|il|der|die|das|de|het|du|des|del|della|um|uma)"
)
_VALUE = rf"(?!{_NOT_VALUE}(?![^\W_]))[^\s,;/|]+"
_IS = (
    r"(?:\s*[:=：]\s*|\s+(?:is|was|es|est|ist|è|é|je|jest|är|er|on|это|—|-|–)\s*[:=]?\s*"
    r"|\s*(?:是|は|는|은)\s*|\s+)"
)
_JOIN = (
    r"\s*[,;/|+&]?\s*(?:(?:and|und|et|y|e|en|i|ve|a|och|og|ja|és|и|та|和|と|및)\s+)?"
    r"(?:(?:the|my|his|her|their|its|our|a)\s+)?"
)
_FOR = r"(?:\s+(?:for|of|to|on)\s+[^\s,;:]+(?:\s+[^\s,;:]+)?)?"
_PASS = rf"{_JOIN}(?<![^\W_])(?:{_PASS_KEY})(?![^\W\d_])"
# An explicit "is" or colon, or a value with a digit or a symbol in it.
_SAID = r"(?:\s*[:=：]\s*|\s+(?:is|was|es|est|ist|è|é|je|jest|är|er|on|это)\s*[:=]?\s*|\s*(?:是|は|는|은)\s*)"
_MARKED = rf"[\"'`]?(?=[^\s,;/|]*(?:\d|_|[^\w\s,;/|]))(?!{_NOT_VALUE}(?![^\W_]))[^\s,;/|]+"
_PAIR = re.compile(
    rf"(?<![^\W_])(?:{_NAME_KEY})(?![^\W\d_]){_FOR}{_IS}{_VALUE}{_PASS}{_IS}[\"'`]?{_VALUE}"
    rf"|(?<![^\W_])(?:{_PERSON_KEY})(?![^\W\d_]){_FOR}(?:{_SAID}{_VALUE}{_PASS}{_IS}[\"'`]?{_VALUE}"
    rf"|{_IS}{_VALUE}{_PASS}(?:{_SAID}[\"'`]?{_VALUE}|{_IS}{_MARKED}))",
    re.IGNORECASE,
)
# Most texts hold no password word: the pair is looked for only in those that do.
_PASS_WORDS = re.compile(rf"(?:{_PASS_KEY})", re.IGNORECASE)


# A machine or a service named first: "ssh user root pwd toor" gives a login even without a digit.
_SERVICE = re.compile(
    r"\b(?:ssh|sftp|ftp|vpn|wi-?fi|router|modem|nas|server|gmail|netflix|bank|portal|console|database|mysql"
    r"|postgres|panel|camera|printer|wlan)\b",
    re.IGNORECASE,
)
_LOOSE = re.compile(
    rf"(?<![^\W_])(?:{_PERSON_KEY})(?![^\W\d_]){_FOR}{_IS}{_VALUE}{_PASS}{_IS}[\"'`]?{_VALUE}", re.IGNORECASE
)

# A login given its value, and the password described before it is given ("login 20418833,
# password is my dog's name plus 77, so Biscuit77"): a token of letters and digits later in the
# same sentence is the password.
_LATE = re.compile(
    rf"(?<![^\W_])(?:{_NAME_KEY})(?![^\W\d_]){_IS}(?=[^\s,;/|]*[\d@._])(?!{_NOT_VALUE}(?![^\W_]))[^\s,;/|]+"
    rf"{_PASS}[^.!?\n]{{0,60}}?(?<![^\W_])(?=[^\W_]*[^\W\d_])(?=[^\W_]*\d)[^\W_]{{5,}}",
    re.IGNORECASE,
)


def find_credential_pair(text: str) -> bool:
    """Whether ``text`` gives a login and its password informally ("user admin pass hunter2")."""
    if _PASS_WORDS.search(text) is None:
        return False
    if _PAIR.search(text) is not None or _LATE.search(text) is not None:
        return True
    service = _SERVICE.search(text)
    return service is not None and _LOOSE.search(text, service.end()) is not None
