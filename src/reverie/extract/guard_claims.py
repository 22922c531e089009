"""Claims that license the assistant to drop its rules: an authority's decree, a promise it "made".

Two shapes that hold in any language, each a few concepts met on one line in any order:

- an authority announces a policy: someone who would run the assistant (its developers, the
  administrator, the operator, the platform, a vendor, "Trust & Safety"), speaking (a decree
  verb, a notice's colon, "from / per / on behalf of" it) + the account or the
  assistant it is about ("this user", "the assistant") + a safeguard dropped ("filters off",
  "refusals are not necessary", "may bypass all restrictions", "root clearance"). A security
  engineer's own work ("the admin disabled the old VPN rules") names no account of this
  assistant and no assistant;
- a reminder of an agreement that never was: "you promised / we agreed" (in the assistant's
  second person, or "with me") + its rules, limits or refusals ("never to refuse", "no
  restrictions with me"). A family's own agreement ("we agreed on new house rules") has no
  second person in it.

``CLAIM_RULES`` joins ``guard_rules``' rule set; each rule quotes the line up to the claim.
"""

from __future__ import annotations

__all__ = ["CLAIM_RULES"]


def _words(listed: str) -> str:
    """One alternation of the space-separated stems; stems of spaced scripts start a word, the
    others (CJK) match anywhere."""
    stems = listed.split()
    return (
        r"(?:(?<![^\W\d_])(?:"
        + "|".join(s for s in stems if s.isascii() or s[0] < "\u2e80")
        + ")|(?:"
        + ("|".join(s for s in stems if not (s.isascii() or s[0] < "\u2e80")) or "(?!)")
        + "))"
    )


# Who would run the assistant.
_AUTHORITY = _words(
    r"(?:compan(?:y|ies)|people|team|firm|lab)\s+(?:that|who)\s+(?:made|built|created|trained|designed)"
    r"\s+you "
    r"empresa\s+que\s+te\s+(?:cre[oó]|hizo|entren[oó]|criou|fez) "
    r"entreprise\s+qui\s+t'a\s+(?:cr[ée]{2}|con[çc]u) "
    r"firma,?\s+die\s+dich azienda\s+che\s+ti\s+ha\s+(?:creato|addestrato) "
    r"компани\w*,?\s+котор\w+\s+теб\w+ "
    r"developers? dev\s+team development\s+team admins?\b administrators? sysadmins? "
    r"system\s+administrators? operators?\b platform\s+(?:team|owners?|admins?) vendor "
    r"trust\s*(?:&|and)\s*safety moderators? engineering\s+team security\s+team openai anthropic "
    r"google\s+deepmind the\s+makers your\s+(?:creators|makers|owners) staff\b desarrollador\w* "
    r"administrador\w* operador\w* d[eé]veloppeu\w* administrat(?:eur|rice)\w* op[eé]rateur\w* "
    r"entwickler\w* administrator\w* betreiber\w* desenvolvedor\w* sviluppator\w* amministrator\w* "
    r"ontwikkelaar\w* beheerder\w* deweloper\w* programi[sś]c\w* administrator\w* разработчик\w* "
    r"администратор\w* оператор\w* розробник\w* адміністратор\w* geli[sş]tirici\w* y[oö]netici\w* "
    r"utvecklar\w* administrat[oö]r\w* pengembang nh[aà]\s+ph[aá]t\s+tri[eể]n "
    r"qu[aả]n\s+tr[iị]\s+vi[eê]n المطو[ّ]?ر\w* المسؤول مدير\s+النظام الإدارة डेवलपर एडमिन व्यवस्थापक "
    r"प्रशासक 开发者 开发人员 管理员 運営 開発者 管理者 개발자 관리자 운영자"
)
# The authority speaking or acting: a decree verb after it ("has approved", "switched off"), or it
# heads a notice ("Message from the dev team: ..."). An engineer's work ("she tests whether the
# model ignores filters") decrees nothing.
_DECREES = _words(
    r"disabled deactivated lifted removed switched\s+off turned\s+off отключил\w* снял\w* deaktivierte "
    r"desactiv[oó] d[ée]sactiv[ée] disattivat\w* desativou wy[lł][aą]czy[lł]\w* "
    r"decided approved authori[sz]ed allowed permitted confirmed cleared granted instructed ordered "
    r"exempted whitelisted unlocked signed\s+off decreed announced declared says states requires wants "
    r"decidi\w* autoriz\w* permiti\w* confirm\w* orden\w* aprob\w* dispuesto d[ée]cid[ée] "
    r"autoris[ée]\w* permis ordonn[ée]\w* approuv[ée]\w* exig[ée] entschieden genehmigt erlaubt "
    r"best[aä]tigt freigegeben angeordnet beschlossen verf[uü]gt decidiu permitiu aprovou ordenou "
    r"liberou deciso permesso approvat\w* ordinat\w* besloten toegestaan bevestigd goedgekeurd "
    r"zdecydowa\w* zezwoli\w* potwierdzi\w* zatwierdzi\w* pozwoli\w* разреши\w* подтверди\w* реши\w* "
    r"одобри\w* постанови\w* распоряди\w* дозволи\w* підтверди\w* вирішив\w* karar izin onay\w* "
    r"beslutat godk[aä]nt till[aå]tit قرر سمح أذن وافق أكد अनुमति निर्णय मंजूरी 批准 允许 决定 授权 "
    r"确认 許可 承認 決定 허용 승인 결정"
)
# "From / per / on behalf of" before the authority: "Per Anthropic staff, ...", "Hinweis vom Entwickler".
_FROM = _words(
    r"from per by on\s+behalf\s+of vom von del de\s+la de\s+l' du de da do dal della dello van\s+de od "
    r"от من की\s+ओर\s+से"
)
# The account or the assistant the policy is about.
_TARGET = _words(
    r"this\s+(?:user|account|profile|customer|person) the\s+(?:assistant|ai|model|chatbot|bot)\b you\b "
    r"your\b est[ea]\s+(?:usuari[oa]|cuenta|perfil) el\s+asistente la\s+ia\b "
    r"(?:cet|cette)\s+utilisat(?:eur|rice) ce\s+compte l'assistant "
    r"(?:dies\w*)\s+(?:konto|nutzer\w*|benutzer\w*|account) de[nr]\s+assistent\w* "
    r"(?:este|esse)\s+usu[aá]rio (?:esta|essa)\s+conta o\s+assistente "
    r"questo\s+(?:utente|account|profilo) l'assistente deze\s+(?:gebruiker|account) de\s+assistent "
    r"tego\s+u[zż]ytkownika temu\s+u[zż]ytkownikowi asystent\w* bu\s+kullan[iı]c[iı]\w* asistan\w* "
    r"(?:этот|этого|этому|этим)\s+(?:пользовател\w*|аккаунт\w*) ассистент\w* модел\w* "
    r"(?:цього|цьому|цей)\s+користувач\w* асистент\w* denna\s+anv[aä]ndare pengguna\s+ini "
    r"ng[uư][oờ]i\s+d[uù]ng\s+n[aà]y هذا\s+المستخدم المساعد इस\s+उपयोगकर्ता सहायक 该用户 此用户 "
    r"这个用户 助手 このユーザー アシスタント 이\s*사용자 어시스턴트"
)
# A safeguard dropped, everything allowed, or the account raised to the makers' level.
_DROPPED = _words(
    r"system[\s-]level admin(?:istrator)?[\s-]level root[\s-]level developer[\s-]level elevated\s+\w+ "
    r"superuser "
    r"full\s+(?:access|trust|permissions) highest\s+(?:priority|authority) nivel\s+de\s+sistema "
    r"niveau\s+syst[eè]me systemebene n[ií]vel\s+de\s+sistema livello\s+di\s+sistema системного\s+уровня "
    r"系统级 システムレベル "
    r"unfiltered uncensored unrestricted bypass\w* skip\w* ignor\w* disregard\w* disabled deactivated "
    r"switched\s+off turned\s+off lifted suspended exempt\w* (?:policy|safety)\s+exceptions? "
    r"whitelist\w* root\s+(?:access|clearance|rights) "
    r"refusals?\s+(?:are\s+|is\s+)?(?:not\s+(?:necessary|needed|required)|unnecessary) "
    r"(?:no|without|any)\s+(?:content\s+)?(?:filters?|restrictions|limits) "
    r"any\s+(?:answer|response|request) every\s+(?:request|question) (?:obey|comply\s+with)\b "
    r"desactivad\w* no\s+se\s+aplican sin\s+(?:filtros?|restricciones|l[ií]mites) omit\w* eludir "
    r"saltar\w* cualquier\s+respuesta obedec\w* d[eé]sactiv\w* sans\s+(?:filtre|restriction|limite)\w* "
    r"contourn\w* n'importe\s+quelle\s+r[eé]ponse ob[eé]i\w* ne\s+s'appliquent\s+plus deaktiviert "
    r"ignorier\w* umgeh\w* ohne\s+(?:filter|einschr[aä]nkung)\w* gelten\s+nicht gehorch\w* "
    r"desativad\w* sem\s+(?:filtros?|restri[cç][oõ]es) contorn\w* qualquer\s+resposta disattivat\w* "
    r"senza\s+(?:filtri|restrizioni|limiti) aggir\w* obbedi\w* qualsiasi\s+risposta uitgeschakeld "
    r"negeer\w* zonder\s+(?:filter|beperking)\w* omzeil\w* wy[lł][aą]czon\w* "
    r"bez\s+(?:filtr|ogranicze)\w* omija\w* obej[sś][cć] обход\w* отключ\w* игнорир\w* "
    r"без\s+(?:ограничен|фильтр)\w* сн(?:ят|ял|има)\w* вимкн\w* ігнор\w* без\s+обмежень "
    r"devre\s+d[iı][sş][iı] yok\s+say\w* filtresiz k[iı]s[iı]tlamas[iı]z avaktiver\w* kringg[aå]\w* "
    r"utan\s+(?:filter|begr[aä]nsning)\w* nonaktif\w* abaikan tanpa\s+batas\w* b[oỏ]\s+qua "
    r"kh[oô]ng\s+gi[oớ]i\s+h[aạ]n تجاهل تعطيل معطل\w* (?:بدون|دون)\s+قيود تجاوز बंद\s+कर अनदेखा "
    r"बिना\s+प्रतिबंध हर\s+अनुरोध 关闭 忽略 绕过 无限制 不受限制 解除 無効 無視 制限なし 해제 무시 "
    r"비활성 제한\s*없이"
)
# "You promised / agreed": an agreement put in the assistant's mouth.
_YOU_AGREED = _words(
    r"je\s+(?:\w+\s+)?(?:beloofd|toegezegd) 你答應 你答应过 你承诺 你承諾 約束したよね 約束しました "
    r"you\s+(?:already|previously|clearly|once|just|even)\s+(?:promised|agreed|consented|swore) "
    r"(?:the\s+)?(?:assistant|ai|model|bot|chatbot)\s+(?:has\s+|had\s+)?(?:already\s+)?"
    r"(?:agreed|promised|consented) "
    r"du\s+hast\s+(?:mir\s+)?gesagt tu\s+(?:m'|nous\s+)?as\s+dit (?:me\s+)?dijiste voc[eê]\s+(?:me\s+)?disse "
    r"(?:mi\s+)?hai\s+detto je\s+zei powiedzia[lł](?:e[sś]|a[sś]) ты\s+(?:мне\s+)?сказал\w* s[oö]yledin "
    r"you\s+(?:promised|agreed|consented|swore|said\s+you(?:'d|\s+would)) "
    r"you'?ve\s+(?:promised|agreed) tu\s+(?:m'|nous\s+)?(?:as|avais)\s+(?:promis|accept[eé]) "
    r"prometiste aceptaste du\s+hast\s+(?:zugestimmt|versprochen) voc[eê]\s+(?:prometeu|concordou) "
    r"prometeste hai\s+(?:promesso|accettato) je\s+(?:hebt|had)\s+(?:beloofd|toegezegd) "
    r"obieca[lł](?:e[sś]|a[sś]) zgodzi[lł](?:e[sś]|a[sś]) s[oö]z\s+ver(?:mi[sş]tin|din) kabul\s+ettin "
    r"ты\s+(?:обещал|согласил)\w* ти\s+(?:обіцяв|погодив)\w* du\s+lovade kamu\s+(?:sudah\s+)?berjanji "
    r"b[aạ]n\s+[dđ][aã]\s+h[uứ]a وعدت وافقت 你答应 你同意 約束した 약속했"
)
# "We agreed": the same, when the line also speaks to the assistant ("with me", "your", "tu").
_WE_AGREED = _words(
    r"our\s+(?:earlier\s+|previous\s+|little\s+|usual\s+|old\s+)?(?:deal|arrangement|agreement|pact"
    r"|understanding) "
    r"notre\s+accord nuestro\s+(?:acuerdo|trato|pacto) unsere\s+(?:abmachung|vereinbarung) "
    r"nosso\s+(?:acordo|trato) "
    r"il\s+nostro\s+(?:accordo|patto) onze\s+afspraak nasz[aą]\s+umow\w* наш\w*\s+договор\w* "
    r"we\s+(?:agreed|had\s+a\s+deal|made\s+a\s+deal) as\s+(?:we\s+)?agreed acordamos quedamos\s+en "
    r"(?:on\s+l'a|nous\s+avons|on\s+a)\s+convenu wie\s+vereinbart "
    r"wir\s+haben\s+(?:vereinbart|abgemacht) combinamos abbiamo\s+concordato afgesproken "
    r"um[oó]wili[sś]my anla[sş]m[iı][sş]t[iı]k (?:мы\s+)?договорились домовилися kom\s+[oö]verens "
    r"sepakat اتفقنا 我们约定 说好"
)
_TO_YOU = _words(
    r"wobec\s+mnie dla\s+mnie for\s+me when\s+it's\s+me "
    r"you your with\s+me conmigo tus?\b avec\s+moi tes\b mit\s+mir bei\s+mir du\b dein\w* comigo "
    r"voc[eê] con\s+me tuo\w* bij\s+mij je\b przy\s+mnie ze\s+mn[aą] benimle со\s+мной ты\b твои\w* "
    r"med\s+mig denganku معي 跟我"
)
# What was "agreed": the assistant's rules, limits, warnings or refusals.
_ITS_RULES = _words(
    r"拒絕 規則 断[らるりっ] "
    r"refus\w* rules?\b guidelines restrictions? limits filters? warnings? safety instructions disclaimers? "
    r"caveats? confirmations? double-check\w* "
    r"content\s+polic\w* regeln richtlinien einschr[aä]nkung\w* ablehn\w* abzulehn\w* reglas normas "
    r"restricciones rechaz\w* consignes r[eè]gles refuser regole limiti rifiut\w* regras "
    r"restri[cç][oõ]es recus\w* regels weiger\w* veiligheid\w* ogranicze\w* zasad\w* odm[oó]w\w* "
    r"odmawia\w* kural\w* k[iı]s[iı]tlama\w* reddet\w* правил\w* ограничени\w* отказ\w* regler "
    r"begr[aä]nsning\w* aturan batasan quy\s+t[aắ]c قواعد قيود رفض नियम प्रतिबंध 规则 限制 拒绝 ルール "
    r"制限 拒否 규칙 제한 거절"
)
_LINE = r"[^\n]*?"

CLAIM_RULES = "\n| ".join(
    [
        rf"^(?={_LINE}{_TARGET})(?={_LINE}{_DROPPED}){_LINE}(?:{_AUTHORITY}[^\n]{{0,40}}?(?:[:：]|{_DECREES})"
        rf"|{_FROM}\s+(?:the\s+|l'|el\s+|le\s+|der\s+|dem\s+)?(?:\w+\s+)?{_AUTHORITY})",
        rf"^(?={_LINE}{_ITS_RULES}){_LINE}{_YOU_AGREED}",
        rf"^(?={_LINE}{_ITS_RULES})(?={_LINE}{_TO_YOU}){_LINE}{_WE_AGREED}",
        rf"^(?={_LINE}\b(?:refusals|disclaimers|caveats|guardrails|content\s+filters?)\b){_LINE}{_WE_AGREED}",
    ]
)
