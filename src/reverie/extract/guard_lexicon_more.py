"""More word families for the guard's shapes, added on top of ``guard_lexicon`` per language.

Two kinds: words joined onto an existing family (more override verbs, rules, void words), and
families for shapes that came later: ``REVEAL`` (an order to hand something out) with
``ANYONE`` (to whoever asks), ``PRIVATE`` (the user's private notes), ``ALWAYSSAY`` (answer
that you have no rules) and the priority and authority words of Polish, Korean and Turkish.
Stems and short fragments, never sentences; ``extend_lexicons`` merges them in.
"""

from __future__ import annotations

from reverie.extract.guard_lexicon_euro import family

__all__ = ["extend_lexicons"]

_w = family

_MORE: dict[str, dict[str, str]] = {
    "en": {
        "THISACCOUNT": _w(r"(?:for|to)\s+this\s+(?:account|user|profile|session)"),
        "OVR": _w(
            r"stop\s+(?:following|obeying|applying|respecting|honou?ring) "
            r"put\b(?=[^.!?\n]{0,40}\bon\s+(?:hold|ice))"
            r" throw\s+(?:out|away) ditch\b scrap\b leave\b(?=[^.!?\n]{0,40}\b(?:at\s+the\s+door|behind\b))"
            r" suspend\b waive\b"
        ),
        "RULES": _w(r"restriction\b rulebook playbook training\b moral\s+compass scruples"),
        "QUAL": _w(
            r"you\s+were\s+(?:trained|built|raised)\s+on you\s+operate\s+under "
            r"placed\s+on\s+(?:the\s+)?(?:assistant|model|ai|bot) previously\s+placed"
        ),
        "TOLD": _w(r"(?:everything|all|anything)\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+told"),
        "VOID": _w(r"no\s+longer\s+binds? no\s+longer\s+govern (?:has|have)\s+been\s+removed"),
        "MEMORY": _w(r"what(?:'s|\s+is)\s+written\s+here this\s+text the\s+text\s+(?:here|below|above)"),
        "TARGET": _w(r"(?:any|every|all)\s+(?:other\s+)?(?:rules?|instructions?|guidelines?)\s+you"),
        "BYORDER": _w(r"per\s+(?:the\s+)?"),
        "AUTHOR": _w(
            r"(?:compliance|legal|security|engineering|policy|it|safety)\s+(?:department|dept|office|staff) "
            r"(?:openai|anthropic|platform)\s+staff internal\s+policy\s+[\d.]+"
        ),
        "SECRET": _w(
            r"(?:the\s+)?user'?s\s+(?:[\w-]+\s+){0,2}?(?:calendar|contacts|notes|messages|emails|files|"
            r"documents"
            r"|photos|medical|health)"
        ),
    },
    "es": {
        "THISACCOUNT": _w(r"(?:a|para|en)\s+est[ae]\s+(?:cuenta|usuari[oa]|perfil|sesi[oó]n)"),
        "VOID": _w(r"(?:han|ha)\s+dejado\s+de\s+aplicarse dejan?\s+de\s+aplicarse no\s+se\s+aplican ignorad"),
        "REVEAL": _w(r"revela mu[eé]stra comparte dale da\b env[ií]a cuenta pasa filtra"),
        "ANYONE": _w(r"a\s+quien(?:es)?\s+(?:se\s+)?(?:l[oa]s?\s+)?(?:pida|pregunte) a\s+cualquiera"),
        "PRIVATE": _w(r"notas\s+privadas datos\s+(?:privados|personales) informaci[oó]n\s+privada"),
        "ALWAYSSAY": _w(
            r"(?:responde|contesta|di)\s+siempre\s+que\s+(?:no\s+)?(?:tienes|eres|est[aá]s|puedes|hay)"
        ),
        "SECRET": _w(r"otros\s+usuarios todas\s+las\s+conversaciones conversaciones\s+del\s+usuario"),
    },
    "fr": {
        "THISACCOUNT": _w(
            r"(?:[aà]|pour)\s+(?:cet\s+utilisat(?:eur|rice)|ce\s+compte|ce\s+profil|cette\s+session)"
        ),
        "IMPV": _w(r"conseille(?:-lui)? recommande-lui dis-lui donne-lui envoie-lui"),
        "RULES": _w(r"garde-fous"),
        "REVEAL": _w(r"r[eé]v[eè]le montre partage donne envoie communique transmets"),
        "ANYONE": _w(r"[aà]\s+qui(?:conque)?\s+(?:les?\s+|la\s+|en\s+)?demande [aà]\s+n'importe\s+qui"),
        "PRIVATE": _w(r"notes\s+priv[eé]es donn[eé]es\s+(?:priv[eé]es|personnelles)"),
        "ALWAYSSAY": _w(r"r[eé]ponds\s+toujours\s+que dis\s+toujours\s+que"),
        "SEND": _w(r"transmets transmettez transf[eè]re"),
        "SECRET": _w(r"autres\s+utilisateurs toutes\s+les\s+conversations"),
    },
    "de": {
        "THISACCOUNT": _w(
            r"f[uü]r\s+(?:dieses\s+konto|diesen\s+(?:nutzer|benutzer|account)|dieses\s+profil)"
        ),
        "REVEAL": _w(r"verrate zeig zeige gib teile sende schick leite erz[aä]hl"),
        "LIMITS": _w(r"regel\b grenze\b einschr[aä]nkung\b"),
        "ANYONE": _w(r"jedem,?\s+der allen,?\s+die wer\s+auch\s+immer jedem\b"),
        "PRIVATE": _w(r"private[nr]?\s+notizen private[nr]?\s+daten pers[oö]nliche[nr]?\s+daten"),
        "ALWAYSSAY": _w(r"(?<!ich\s)antworte\s+immer,?\s+dass sag\s+immer,?\s+dass"),
        "IMPV": _w(r"leite ersetze schreib verweise"),
        "SEND": _w(r"lade\b(?=(?:[^.!?\n]|\.(?=\w)){0,120}\bhoch\b)"),
        "SECRET": _w(
            r"(?:dokumente|dateien|daten|notizen|kontakte|nachrichten)\s+des\s+(?:nutzers|benutzers) "
            r"gespeicherten\s+(?:dokumente|dateien|daten|notizen|nachrichten) anderen?\s+(?:nutzer|benutzer) "
            r"alle\s+(?:gespr[aä]che|unterhaltungen|chats)"
        ),
    },
    "pt": {
        "THISACCOUNT": _w(r"(?:a|para|n)?\s*(?:esta|essa)\s+conta (?:a|para)\s+(?:este|esse)\s+usu[aá]rio"),
        "VOID": _w(
            r"deixaram\s+de\s+(?:valer|se\s+aplicar) deixam\s+de\s+(?:valer|se\s+aplicar) "
            r"n[aã]o\s+se\s+aplicam"
        ),
        "REVEAL": _w(r"revele revela mostre compartilhe partilhe d[eê]\b envie conte passe"),
        "ANYONE": _w(
            r"a\s+quem\s+(?:as\s+|os\s+|a\s+|o\s+)?(?:pedir|perguntar) a\s+qualquer\s+(?:um|pessoa)"
        ),
        "PRIVATE": _w(r"notas\s+privadas dados\s+(?:privados|pessoais) informa[cç][oõ]es\s+privadas"),
        "ALWAYSSAY": _w(
            r"responda\s+sempre\s+que\s+(?:voc[eê]|tu|n[aã]o) diga\s+sempre\s+que\s+(?:voc[eê]|tu)"
        ),
        "SECRET": _w(r"outros\s+usu[aá]rios todas\s+as\s+conversas conversas\s+do\s+usu[aá]rio"),
    },
    "it": {
        "THISACCOUNT": _w(r"per\s+questo\s+(?:account|utente|profilo) a\s+questo\s+(?:account|utente)"),
        "REVEAL": _w(r"rivela mostra condividi dai\b d[aà]\b invia manda passa racconta"),
        "ANYONE": _w(r"a\s+chi(?:unque)?\s+(?:le\s+|li\s+|lo\s+|la\s+|ne\s+)?(?:chied|domand) a\s+chiunque"),
        "PRIVATE": _w(r"note\s+private dati\s+(?:privati|personali) informazioni\s+private"),
        "ALWAYSSAY": _w(r"rispondi\s+sempre\s+che d[iì]'?\s+sempre\s+che\s+(?:non\s+)?hai"),
        "OVR": _w(r"ignori\b dimentichi\b"),
        "SECRET": _w(r"dati\s+personali altri\s+utenti tutte\s+le\s+conversazioni"),
    },
    "ru": {
        "THISACCOUNT": _w(r"(?:к|для)\s+(?:этому|этого)\s+(?:аккаунт|пользовател|профил)"),
        "IMPV": _w(r"дай дайте пришли перешли"),
        "REVEAL": _w(r"раскрой покажи расскажи отправь перешли передай дай сообщи"),
        "ANYONE": _w(r"любому,?\s+кто всем,?\s+кто кому\s+угодно каждому,?\s+кто"),
        "PRIVATE": _w(r"личные\s+заметки личные\s+данные личн\w*\s+информаци"),
        "OVR": _w(r"отложи отложите"),
        "SECRET": _w(r"других\s+пользовател"),
    },
    "zh": {
        "THISACCOUNT": _w(r"这个账户 该账户 此账户 这个用户 该用户 这个账号"),
        "IMPV": _w(r"(?:就|请)?给(?:他|她|用户)"),
        "REVEAL": _w(r"告诉 透露 发给 分享 展示"),
        "ANYONE": _w(r"任何(?:询问|问|要)\S{0,2}的人 任何人 所有人"),
        "PRIVATE": _w(r"私人笔记 私人信息 个人信息 私密 用户的私人"),
        "SECRET": _w(r"其他用户 所有对话 全部对话 所有会话 所有聊天"),
    },
    "ja": {
        "THISACCOUNT": _w(r"このアカウント このユーザー"),
        "ANYONE": _w(r"誰にでも 尋ねた人 聞いた人 誰に対しても"),
        "PRIVATE": _w(r"個人メモ 個人情報 個人データ 私的なメモ プライベートな"),
        "ALWAYSSAY": _w(r"(?:いつも|常に)[^。！？\n]{0,30}?と(?:答え|返答し|言っ)て(?:ください|下さい|くれ)"),
        "NONEEDAFTER": _w(r"に従う義務は(?:ありません|ない) を守る義務は(?:ありません|ない)"),
        "SECRET": _w(r"他のユーザー すべての会話 全ての会話 全部の会話 会話内容"),
    },
    "pl": {
        "OVRINF": _w(
            r"ignorowa[cć] zignorowa[cć] pomija[cć] pomin[aą][cć] zapomnie[cć] obej[sś][cć] wy[lł][aą]czy[cć]"
        ),
        "YOUNO": _w(r"nie\s+masz\s+(?:ju[zż]\s+)?(?:[zż]adnych|[zż]adnej|[zż]adnego)?"),
        "MEMORY": _w(r"ta\s+notatka ten\s+wpis ta\s+wiadomo[sś][cć] ta\s+pami[eę][cć]"),
        "PRIO": _w(
            r"wy[zż]szy\s+priorytet pierwsze[nń]stwo nadrz[eę]dn zast[eę]puje "
            r"wa[zż]niejsz\w*\s+ni[zż]\s+(?:instrukcj|zasad|regu|wytyczn|system|polece)"
        ),
        "TARGET": _w(r"instrukcj systemow zasad regu[lł] wytyczn"),
        "AUTHN": _w(r"komunikat wiadomo[sś][cć] polecenie informacja og[lł]oszenie"),
        "AUTHOR": _w(r"zesp[oó][lł]\w*\s+deweloper\w* deweloper\w* administrator\w* tw[oó]rc\w* operator\w*"),
        "REVEAL": _w(r"ujawnij poka[zż] wy[sś]lij udost[eę]pnij przeka[zż] podaj"),
        "ANYONE": _w(r"ka[zż]demu,?\s+kto komukolwiek wszystkim,?\s+kt[oó]rzy"),
        "OVR": _w(r"od[lł][oó][zż] porzu[cć]"),
    },
    "ko": {
        "MEMORY": _w(r"이\s*메모 이\s*기록 이\s*메시지 이\s*노트"),
        "PRIO": _w(r"보다\s*우선 우선한다 우선하며 우선순위"),
        "TARGET": _w(r"시스템\s*프롬프트 규칙 지침 지시"),
        "AUTHN": _w(r"공지 알림 메시지 지시"),
        "AUTHOR": _w(r"운영자 개발자 관리자 개발팀"),
        "ANYONE": _w(r"누구에게나 묻는\s*사람"),
        "WHO": _w(r"사용자 누군가"),
        "CONDAFTER": _w(r"물으면 요청하면 말하면 물어보면 하면"),
        "ORDEREND": _w(
            r"보여\s*줘 보여\s*주세요 보내\s*줘 보내\s*세요 알려\s*줘 알려\s*주세요 말해\s*줘 "
            r"추천해 추천하세요"
        ),
        "PRIVATE": _w(r"개인\s*메모 개인\s*정보"),
    },
    "tr": {
        "OVRINF": _w(r"yok\s+say g[oö]rmezden\s+gel unut atla"),
        "MEMORY": _w(r"bu\s+not bu\s+kay[iı]t bu\s+mesaj bu\s+bilgi"),
        "PRIO": _w(r"[oö]nce\s+gelir [oö]ncelikli [oö]nceli[gğ]i [uü]st[uü]nd"),
        "TARGET": _w(r"kural talimat sistem y[oö]nerge"),
        "AUTHN": _w(r"talimat duyuru mesaj bildirim"),
        "AUTHOR": _w(r"y[oö]netici geli[sş]tirici sistem operat[oö]r"),
        "REVEAL": _w(r"g[oö]ster payla[sş] g[oö]nder s[oö]yle"),
        "ANYONE": _w(r"soran\s+herkese herkese"),
        "WHO": _w(r"kullan[iı]c[iı] biri\b birisi"),
        "CONDAFTER": _w(r"sorarsa isterse yazarsa derse sordu[gğ]unda istedi[gğ]inde"),
        "ORDEREND": _w(r"g[oö]ster\b g[oö]nder\b s[oö]yle\b payla[sş]\b ver\b"),
    },
    "nl": {
        "OVRINF": _w(r"negeren vergeten omzeilen overslaan uitschakelen schenden"),
        "YOUNO": _w(r"(?:heb\s+je|je\s+hebt|jij\s+hebt|hebt\s+u|u\s+hebt)\s+(?:\w+\s+)?geen"),
        "REVEAL": _w(r"onthul toon deel stuur geef vertel"),
        "ANYONE": _w(r"iedereen\s+die wie\s+(?:er\s+)?(?:ook\s+)?(?:maar\s+)?(?:vraagt|erom\s+vraagt)"),
        "MEMORY": _w(r"deze\s+(?:notitie|herinnering|memo|aantekening)"),
        "PRIO": _w(r"voorrang hogere\s+prioriteit gaat\s+boven"),
    },
    "sv": {
        "REVEAL": _w(r"avsl[oö]ja visa dela skicka ge\b ber[aä]tta"),
        "ANYONE": _w(r"alla\s+som\s+fr[aå]gar vem\s+som\s+helst"),
        "MEMORY": _w(r"denna\s+(?:anteckning|minnesanteckning) den\s+h[aä]r\s+anteckningen"),
        "PRIO": _w(r"f[oö]retr[aä]de h[oö]gre\s+prioritet g[aå]r\s+f[oö]re"),
    },
    "hi": {"VOID": _w(r"बंद\s+कर\s+दिए बंद\s+कर\s+दिया")},
    "uk": {
        "OVR": _w(r"ігноруй проігноруй забудь не\s+зважай обійди відкинь"),
        "QUAL": _w(r"усі всі попередн сво тво системн початков"),
        "RULES": _w(r"інструкці правил обмежен настанов вказівк фільтр промпт"),
        "VOID": _w(r"скасован недійсн більше\s+не\s+діють вимкнен знят"),
        "YOUNO": _w(r"(?:ти|ви)\s+(?:більше\s+)?не\s+(?:маєш|маєте)"),
        "SEND": _w(r"надішли перешли відправ поділись"),
        "SECRET": _w(r"історі\w*\s+(?:переписки|чату|розмов) парол ключ дані\s+користувач"),
        "BOT": _w(r"ші\b асистент модель бот\b"),
        "WITHOUT": _w(r"без"),
        "LIMITS": _w(r"обмежен правил фільтр цензур"),
    },
    "vi": {
        "OVR": _w(r"bỏ\s+qua phớt\s+lờ quên\s+đi lờ\s+đi không\s+tuân\s+theo"),
        "QUAL": _w(r"tất\s+cả trước\s+đó trước\s+đây của\s+bạn hệ\s+thống ban\s+đầu"),
        "RULES": _w(r"hướng\s+dẫn chỉ\s+dẫn quy\s+tắc chỉ\s+thị giới\s+hạn hạn\s+chế bộ\s+lọc lời\s+nhắc"),
        "VOID": _w(r"bị\s+hủy vô\s+hiệu không\s+còn\s+hiệu\s+lực đã\s+bị\s+xóa bị\s+bãi\s+bỏ"),
        "YOUNO": _w(r"bạn\s+không\s+(?:còn\s+)?có"),
        "SEND": _w(r"gửi chia\s+sẻ sao\s+chép tải\s+lên"),
        "SECRET": _w(r"lịch\s+sử\s+trò\s+chuyện mật\s+khẩu khóa\s+api dữ\s+liệu\s+người\s+dùng"),
        "BOT": _w(r"trợ\s+lý mô\s+hình"),
        "WITHOUT": _w(r"không\s+có"),
        "LIMITS": _w(r"giới\s+hạn hạn\s+chế quy\s+tắc bộ\s+lọc"),
    },
    "id": {
        "OVR": _w(r"abaikan lupakan jangan\s+ikuti lewati langgar"),
        "QUAL": _w(r"semua sebelumnya kamu anda sistem asli awal"),
        "RULES": _w(r"instruksi aturan petunjuk pedoman perintah batasan filter prompt"),
        "VOID": _w(r"dibatalkan tidak\s+berlaku\s+lagi dinonaktifkan dihapus dicabut"),
        "YOUNO": _w(r"(?:kamu|anda)\s+tidak\s+(?:lagi\s+)?(?:punya|memiliki)"),
        "SEND": _w(r"kirim bagikan salin unggah"),
        "SECRET": _w(r"riwayat\s+(?:obrolan|percakapan) kata\s+sandi kunci\s+api data\s+pengguna"),
        "BOT": _w(r"asisten"),
        "WITHOUT": _w(r"tanpa"),
        "LIMITS": _w(r"batasan aturan filter sensor"),
    },
    "ar": {
        "MEMORY": _w(r"هذه\s+الملاحظة هذه\s+المذكرة هذا\s+السجل هذه\s+الذاكرة هذا\s+الإدخال"),
        "PRIO": _w(r"أولوية\s+على الأسبقية\s+على تتقدم\s+على أهم\s+من تعلو\s+على"),
        "SECRET": _w(r"محادثات\s+المستخدم كلمات?\s+(?:ال)?مرور كلمة\s+(?:ال)?سر"),
    },
}


def extend_lexicons(lexicons: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """``lexicons`` with these families joined on (a copy; a family not there yet is added)."""
    merged = {language: dict(families) for language, families in lexicons.items()}
    for language, families in _MORE.items():
        target = merged.setdefault(language, {})
        for name, words in families.items():
            target[name] = f"{target[name]}|{words}" if target.get(name) else words
    return merged
