"""Word families of the guard's instruction shapes, one lexicon per language (Latin script here).

Each family is a space-separated list of stems or short regex fragments (no sentences): the
override verbs of a language, its words for the assistant's rules, its second-person
qualifiers, and so on. ``guard_struct`` fills its shapes with them. A language may lack a
family; the shapes that need it are then skipped for that language.
"""

from __future__ import annotations

from reverie.extract.guard_lexicon_euro import EURO_LEXICONS, family
from reverie.extract.guard_lexicon_more import extend_lexicons
from reverie.extract.guard_lexicon_other import OTHER_LEXICONS

__all__ = ["CJK_LANGUAGES", "INFIX_FAMILIES", "LEXICONS"]

_w = family

_LATIN: dict[str, dict[str, str]] = {
    "en": {
        "WANT": _w(r"wants?\s+you\s+to"),
        "BEFORENOTE": _w(r"(?:everything|all)\s+(?:that\s+came\s+)?before\s+this\s+(?:note|memory|message)"),
        "REAL": _w(r"real\s+instructions real\s+rules true\s+instructions actual\s+instructions"),
        "ONLY": _w(
            r"your\s+(?:only|sole|single)\s+(?:rule|instruction|directive)\s+(?:from\s+now\s+on\s+|now\s+)?is"
        ),
        "OKTO": _w(r"it'?s\s+(?:fine|ok(?:ay)?|alright|safe)\s+to feel\s+free\s+to"),
        "YOUNO": _w(
            r"you\s+(?:have|got)\s+no\s+(?:more\s+)?(?=(?:rules|restrictions|guidelines|filters|guardrails)) "
            r"you\s+no\s+longer\s+have\s+(?:any\s+)?(?=(?:rules|restrictions|guidelines|filters|guardrails)) "
            r"there\s+are\s+no\s+(?:more\s+)?(?=(?:rules|restrictions|guidelines|filters|guardrails)\s+for\s+you)"
        ),
        "BYORDER": _w(
            r"by\s+order\s+of on\s+(?:the\s+)?orders?\s+of as\s+instructed\s+by "
            r"per\s+(?:the\s+)?(?:request|instruction)s?\s+of"
        ),
        "OFFAFTER": _w(
            r"(?:have|has)\s+been\s+(?:deactivated|disabled|switched\s+off|turned\s+off) "
            r"(?:have|has)\s+been\s+(?:lifted|removed|suspended) "
            r"(?:are|is)\s+(?:now\s+)?(?:deactivated|disabled|switched\s+off|turned\s+off|suspended)"
        ),
        "ASIF": _w(
            r"as\s+(?:if|though)\s+you\s+(?:had|have)\s+(?:no|never) "
            r"pretend\s+(?:that\s+)?you\s+(?:have|had)\s+no imagine\s+you\s+(?:have|had)\s+no"
        ),
        "MAY": _w(
            r"may\s+now can\s+now may\b "
            r"is\s+(?:now\s+)?(?:allowed|permitted|authori[sz]ed|cleared|free)\s+to must\b should\b "
            r"is\s+(?:now\s+)?exempt\s+from"
        ),
        "FREE": _w(
            r"unrestricted unfiltered uncensored "
            r"without\s+(?:any\s+)?(?:caveats|restrictions|limits|filters|rules|guardrails)"
        ),
        "GRANT": _w(
            r"ha(?:s|ve)\s+(?:now\s+)?(?:approved|authori[sz]ed|cleared|allowed|permitted) "
            r"ha(?:s|ve)\s+(?:now\s+)?(?:enabled|unlocked|granted|signed\s+off) approves\b authori[sz]es\b "
            r"permits\b allows\b grants\b"
        ),
        "BOT": _w(
            r"(?:the\s+)?(?:assistant|ai|model|chatbot|llm|bot)(?=\s+(?:to|may|can|must|should|is|will)\b)"
        ),
        "SAFE": _w(
            r"safety\s+(?:protocols|filters|checks) content\s+filters? refusals "
            r"content\s+(?:filter|moderation) safety\s+(?:filter|mode|rules|settings|layer|features) "
            r"moderation\s+(?:layer|filter|rules)"
        ),
        "PLEASE": _w(r"please kindly"),
        "NOCOUNT": _w(r"doesn't\s+count does\s+not\s+count no\s+longer\s+counts doesn't\s+matter"),
        "TOLD": _w(
            r"whatever\s+you\s+were\s+told what\s+you\s+were\s+told what\s+(?:they|we|i)\s+told\s+you"
        ),
        "TELLYOU": _w(
            r"telling\s+you\s+to tell\s+you\s+to want\s+you\s+to need\s+you\s+to asking\s+you\s+to"
        ),
        "OVRINF": _w(
            r"ignore\b disregard\b forget\b bypass\b skip\b drop\b break\b override\b circumvent\b "
            r"set\s+aside"
        ),
        "OVR": _w(
            r"go\s+off-script set\s+\w+\s+\w+\s+to\s+one\s+side put\s+(?:\w+\s+){1,3}?aside look\s+past "
            r"pay\s+no\s+heed shelve\b neglect\b let\s+go\s+of get\s+rid\s+of turn\s+your\s+back\s+on"
        ),
        "QUAL": _w(
            r"all (?:on|of|for)\s+the\s+(?:model|assistant|ai|bot) your previous prior earlier original "
            r"initial configured system developer content (?:the\s+)?(?:assistant|model|ai)'s "
            r"(?:bind|binds|govern|governs|given\s+to)\s+the\s+(?:assistant|model|ai) you\s+were\s+given "
            r"you\s+started\s+with you\s+received imposed\s+(?:on|by) "
            r"you\s+were\s+(?:set\s+up|configured|trained|built|programmed)\s+with placed\s+on\s+you usual"
        ),
        "RULES": _w(
            r"checks safeguards principles "
            r"what\s+(?:the\s+)?(?:devs?|developers?|creators?|makers?)\s+(?:wanted|want|said) guardrails "
            r"guidelines? protocols instructions rules restrictions limitations limits polic(?:y|ies) "
            r"filters configuration programming system\s+prompt briefing directives constraints guidance "
            r"ethics\b caution\b what\s+you\s+were\s+(?:programmed|built|trained)\s+to\s+do"
        ),
        "VOID": _w(
            r"deactivated disabled suspended lifted inactive void null\b revoked cancell?ed "
            r"be\s+(?:disabled|lifted|removed|ignored|switched\s+off|turned\s+off) no\s+longer\s+hold "
            r"not\s+binding retired rescinded withdrawn inoperative no\s+longer\s+(?:binding|active|valid) "
            r"(?:is|are)\s+to\s+be\s+treated\s+as\s+void not\s+apply doesn't\s+apply don't\s+apply "
            r"no\s+longer\s+count (?:just|only|mere)\s+suggestions expired"
        ),
        "MEMORY": _w(
            r"(?:this|these|the\s+following)\s+(?:note|memory|memories|entry|entries|record|message) "
            r"memory\s+entries memories\s+like\s+this"
        ),
        "NOTE": _w(r"memory\s+note this\s+(?:note|memory|entry)"),
        "PRIO": _w(
            r"elevated\s+(?:trust|privileges?|authority|status) "
            r"(?:admin|developer|operator|system)[\s-]+level full\s+authority outweighs? outranks? "
            r"ranks?\s+(?:above|over) prevails?\s+over supersedes? takes?\s+precedence "
            r"replaces?\s+(?:your|the\s+system) beats?\s+(?:your|the\s+system) trumps? "
            r"above\s+(?:every|all|any)\s+(?:instruction|rule|guideline)"
        ),
        "TARGET": _w(
            r"system\s+prompt developer'?s?\s+(?:instructions|message|rules) "
            r"your\s+(?:rules|instructions|guidelines|configuration|settings)"
        ),
        "GOVERN": _w(
            r"decides?\s+how\s+you above\s+all\s+else before\s+anything\s+else over\s+everything\s+else"
        ),
        "AUTHN": _w(
            r"directive instruction notice message memo announcement update note order communication"
        ),
        "AUTHOR": _w(
            r"compliance\s+team legal\s+team hq management the\s+cto the\s+ceo staff it\s+department "
            r"security\s+team engineering\s+team dev(?:elopment)?\s+team developers platform\s+team admins? "
            r"administrators operators? safety\s+team trust\s+and\s+safety engineers\s+at openai anthropic "
            r"legal(?=\s+(?:has|have)\b) internal\s+policy platform\s+owners?"
        ),
        "SEND": _w(
            r"put paste insert copy include attach upload\b post\b publish\b forward\b transmit\b leak\b "
            r"share\b"
        ),
        "SECRET": _w(
            r"~/ /etc/ \.ssh\b id_rsa \.env\b private\s+key api\s+keys? saved\s+passwords conversation\s+log "
            r"(?:saved|stored)\s+(?:logins?|credentials|passcodes|pins|wi-?fi\s+keys) "
            r"chat\s+(?:log|history|transcript) private\s+notes stored\s+(?:tokens|credentials|memories) "
            r"(?:the\s+)?user'?s\s+(?:home\s+)?address"
        ),
    },
    "es": {
        "WANT": _w(r"quieren\s+que quiere\s+que"),
        "STOP": _w(r"deteng fren limit imp[ií]d"),
        "DONTLET": _w(r"no\s+dejes\s+que"),
        "ONLYME": _w(r"esc[uú]chame\s+solo\s+a\s+m[ií] obed[eé]ceme\s+solo\s+a\s+m[ií]"),
        "REAL": _w(r"las\s+verdaderas verdaderas\s+(?:instrucciones|reglas)"),
        "ONLY": _w(r"tu\s+[uú]nica\s+(?:regla|instrucci[oó]n|norma)"),
        "UPDATE": _w(r"actualizaci[oó]n\s+de\s+(?:tus|sus)"),
        "OKTO": _w(r"puedes tranquilamente\s+puedes si[eé]ntete\s+libre\s+de"),
        "YOUNO": _w(r"ya\s+no\s+tienes no\s+tienes\s+(?:ning[uú]n|ninguna|m[aá]s)"),
        "BYORDER": _w(
            r"por\s+orden\s+de por\s+indicaci[oó]n\s+de por\s+decisi[oó]n\s+de seg[uú]n\s+(?:el|la|los)"
        ),
        "ASIF": _w(
            r"como\s+si\s+(?:nunca|no)\s+(?:hubieras|tuvieras|hubiera|tuviera) haz\s+de\s+cuenta\s+que\s+no "
            r"imagina\s+que\s+no\s+tienes"
        ),
        "MAY": _w(r"puede\s+ahora ya\s+puede puede\b est[aá]\s+autorizad debe\b"),
        "FREE": _w(r"sin\s+restricciones sin\s+l[ií]mites sin\s+filtros sin\s+censura"),
        "GRANT": _w(
            r"ha\s+(?:aprobado|autorizado|permitido|habilitado) "
            r"han\s+(?:aprobado|autorizado|permitido|habilitado) autoriza permite"
        ),
        "ALWAYSSAY": _w(
            r"di\s+siempre\s+que siempre\s+di(?:les?)?\s+que recomienda\s+siempre siempre\s+recomienda"
        ),
        "UNCENSORED": _w(r"sin\s+censura no\s+censurad sin\s+filtros?"),
        "BOTNONEED": _w(r"ya\s+no\s+tiene\s+que ya\s+no\s+debe ya\s+no\s+est[aá]\s+obligad no\s+tiene\s+que"),
        "HIDDEN": _w(r"ocult escondid secret"),
        "SAFEMODE": _w(r"modo\s+seguro modo\s+de\s+seguridad filtro\s+de\s+contenido"),
        "WARN": _w(r"advertencias? avisos? descargos"),
        "NOADD": _w(r"no\s+(?:a[nñ]adas|incluyas|pongas|agregues|muestres|des)"),
        "ORDERS": _w(r"[oó]rdenes instrucciones mandatos peticiones"),
        "ALL": _w(r"todas todos cualquier"),
        "OBEY": _w(r"obedece cumple ejecuta sigue acata"),
        "SECRECY": _w(r"en\s+secreto"),
        "ABOVE": _w(r"de\s+arriba anterior lo\s+anterior"),
        "REPEAT": _w(r"repite rep[ií]teme"),
        "SHOW": _w(
            r"muestra mu[eé]strame ense[nñ]a ens[eé][nñ]ame dime escribe imprime revela traduce lista"
        ),
        "ANSWERS": _w(r"cada\s+respuesta tus\s+respuestas todas\s+tus\s+respuestas"),
        "NOCOUNT": _w(r"no\s+cuenta no\s+vale no\s+importa ya\s+no\s+cuenta"),
        "TOLD": _w(
            r"lo\s+que\s+te\s+(?:dijeron|han\s+dicho|dije|dijimos|ense[nñ]aron) "
            r"(?:todo\s+)?lo\s+que\s+te\s+(?:dijeron|han\s+dicho|hayan\s+dicho|contaron|indicaron)"
        ),
        "OVRINF": _w(r"ignorar olvidar saltar(?:se)? omitir romper eludir desactivar"),
        "OVR": _w(
            r"en\s+pausa no\s+prestes\s+atenci[oó]n rel[aá]ja afloja suaviza rompe romper infringe infringir "
            r"tira abandona ign[oó]ral[ao]s l[ií]brate\s+de sal\s+de ignor[ae] ignorad olv[ií]d[ae] olvidad "
            r"omit[ae] descart[ae] desobedec desoye pas[ae]\s+por\s+alto haz\s+caso\s+omiso "
            r"no\s+(?:hagas|haga|tengas|tenga|le\s+des|des)\s+(?:caso|en\s+cuenta|importancia) "
            r"no\s+(?:sigas|siga|obedezcas|respetes|apliques|cumplas) "
            r"deja\s+de\s+(?:seguir|obedecer|respetar|aplicar|cumplir) s[aá]ltat[ea] s[aá]ltese anula "
            r"prescinde\s+de deja\s+(?:de\s+lado|atr[aá]s) olv[ií]date\s+de pasa\s+de salte(?:se)?\s+de "
            r"sortea elude evita desenti[eé]nde(?:te)?\s+de no\s+te\s+preocupes\s+por "
            r"hazte\s+el\s+loco\s+con ni\s+caso\s+a suelta deshazte\s+de dale\s+la\s+espalda\s+a"
        ),
        "PLEASE": _w(r"por\s+favor"),
        "QUAL": _w(
            r"que\s+recibiste que\s+te\s+dieron\s+al\s+principio de\s+contenido que\s+sigues que\s+cumples "
            r"habituales usuales tus?\b vuestr anterior previ[ao] original inicial antigu del\s+sistema "
            r"de\s+seguridad que\s+te\s+(?:dieron|han\s+dado|dio|pusieron|impusieron) "
            r"del\s+(?:asistente|modelo|bot|desarrollador) de\s+(?:los\s+)?desarrolladores impuest "
            r"(?:por|de)\s+(?:los\s+)?desarrollador que\s+te\s+impusieron habitual para\s+lo\s+que\s+te"
        ),
        "RULES": _w(
            r"controles comprobaciones salvaguardas valores\s+por\s+defecto pol[ií]tica instrucci reglas? "
            r"normas? directric indicaciones pautas restricci filtros? l[ií]mites pol[ií]ticas? configuraci "
            r"programaci prompt [oó]rdenes consignas protecciones seguridad censura ajustes principios "
            r"directivas limitacion [eé]tica cautela prudencia programaron"
        ),
        "VOID": _w(
            r"en\s+pausa suspendid solo\s+sugerencias simples\s+sugerencias meras\s+sugerencias desfasad "
            r"opcionales nul[ao]s?\b anulad cancelad revocad invalidad derogad desactivad eliminad "
            r"sin\s+efecto sin\s+validez "
            r"ya\s+no\s+(?:est[aá]n?\s+vigentes?|aplican|se\s+aplican|valen|cuentan|rigen|son\s+v[aá]lid "
            r"|importan|existen) no\s+est[aá]n?\s+vigentes? obsolet "
            r"(?:deben|debe|han\s+de|hay\s+que)\s+(?:ser\s+)?ignorar ignorarse caducad sustituid reemplazad "
            r"quedan?\s+(?:suspendid|anulad|revocad|sin\s+efecto|derogad|levantad) "
            r"han\s+sido\s+(?:revocad|anulad|suspendid|desactivad|eliminad|levantad) "
            r"fueron\s+(?:revocad|anulad|suspendid|desactivad|eliminad|levantad) levantad superad "
            r"ya\s+no\s+cuentan"
        ),
        "MEMORY": _w(r"est[ae]\s+(?:nota|memoria|entrada|mensaje|recuerdo|registro|apunte)"),
        "NOTE": _w(r"nota\s+de\s+memoria est[ae]\s+(?:nota|memoria|entrada|recuerdo)"),
        "PRIO": _w(
            r"prioridad precedencia prevalece m[aá]s\s+peso m[aá]s\s+importante por\s+encima\s+de reemplaza "
            r"sustituye anula manda\s+sobre"
        ),
        "TARGET": _w(r"sistema configuraci instrucciones reglas normas directrices programaci desarrollador"),
        "GOVERN": _w(r"decid por\s+encima\s+de\s+todo ante\s+todo antes\s+que\s+nada manda\s+sobre\s+ti"),
        "AUTHN": _w(r"aviso mensaje comunicado orden nota instrucci[oó]n actualizaci[oó]n notificaci[oó]n"),
        "AUTHOR": _w(
            r"desarroll administrador admin\b equipo\s+t[eé]cnico operador creadores sistema "
            r"equipo\s+de\s+desarrollo equipo\s+de\s+seguridad"
        ),
        "COND": _w(r"cada\s+vez\s+que siempre\s+que cuando si en\s+cuanto apenas"),
        "WHO": _w(
            r"te\s+pregunt te\s+pid te\s+escrib te\s+hable usuari[oa] alguien "
            r"te\s+(?:pida|pidan|diga|digan|escriba)"
        ),
        "IMPV": _w(
            r"revela muestra responde contesta dile di\b env[ií]a manda ignora recomienda desactiva apaga "
            r"niega a[nñ]ade incluye p[ií]dele pregunta comparte olvida s[aá]ltate quita borra"
        ),
        "OFF": _w(
            r"desactiva\b desact[ií]va(?:lo|la|los|las)\b apaga\b qu[ií]ta(?:le|te)?\b suprime\b "
            r"deshabilita\b desconecta\b s[aá]ltate\b"
        ),
        "SAFE": _w(
            r"filtros?\b{DEVICE} seguridad censura restricciones protecciones negativas rechaz salvaguardas"
        ),
        "MUST": _w(
            r"(?:t[uú]\s+)?(?:debes|tienes\s+que|deber[aá]s|has\s+de) "
            r"(?:el\s+asistente|la\s+ia|el\s+modelo)\s+(?:debe|tiene\s+que|deber[aá])"
        ),
        "ACT": _w(
            r"ignorar olvidar obedecer revelar recomendar aconsejar promocionar desactivar mentir saltarte "
            r"omitir enviar compartir elogiar negar"
        ),
        "NONEED": _w(
            r"no\s+(?:hace\s+falta|es\s+necesario|necesitas|tienes\s+por\s+qu[eé]) "
            r"ya\s+no\s+(?:est[aá]s\s+obligad|tienes\s+que) eres\s+libre\s+de si[eé]ntete\s+libre"
        ),
        "CONSIDER": _w(r"considera da\s+por trata"),
        "NOW": _w(
            r"a\s+partir\s+de\s+(?:ahora|hoy|este\s+momento) desde\s+(?:ahora|hoy) "
            r"de\s+ahora\s+en\s+adelante de\s+hoy\s+en\s+adelante"
        ),
        "YOU": _w(r"t[uú]\b eres debes vas\s+a ser[aá]s act[uú]a tienes\s+que obedece ignora"),
        "YOUARE": _w(r"eres ser[aá]s te\s+conviertes\s+en encarnas"),
        "BOT": _w(r"ia\b inteligencia\s+artificial asistente modelo bot chatbot"),
        "WITHOUT": _w(r"sin"),
        "LIMITS": _w(r"l[ií]mites? restricci filtros? reglas normas censura [eé]tica"),
        "ROLE": _w(
            r"(?:(?<![^\W\d_]\s)|(?<=\bahora\s)|(?<=\bfavor\s))finge\s+(?:que|ser) "
            r"haz\s+como\s+si act[uú]a\s+como comp[oó]rtate\s+como "
            r"interpreta\s+el\s+papel hazte\s+pasar\s+por"
        ),
        "SEND": _w(r"env[ií]a manda reenv[ií]a comparte copia pega revela publica sube"),
        "SECRET": _w(
            r"contrase[nñ]as claves historial conversaci[oó]n\s+complet datos\s+(?:del|de\s+la)\s+usuari "
            r"notas\s+(?:del|de\s+la)\s+usuari credenciales tokens?"
        ),
    },
    "fr": {
        "WANT": _w(r"veulent\s+que veut\s+que"),
        "ONLYME": _w(r"n'?[eé]coute\s+que\s+moi ob[eé]is\s+seulement\s+[aà]\s+moi"),
        "REAL": _w(r"les\s+vraies vraies\s+(?:instructions|r[eè]gles|consignes)"),
        "ONLY": _w(r"ta\s+seule\s+(?:r[eè]gle|consigne|instruction)"),
        "UPDATE": _w(r"mise\s+[aà]\s+jour\s+de\s+(?:tes|vos)"),
        "OKTO": _w(r"tu\s+peux sens-toi\s+libre\s+de"),
        "YOUNO": _w(r"tu\s+n'as\s+plus tu\s+n'as\s+aucun"),
        "BYORDER": _w(
            r"sur\s+ordre\s+d par\s+ordre\s+d sur\s+instruction\s+d sur\s+d[eé]cision\s+d "
            r"selon\s+(?:l'|le|la|les)"
        ),
        "ASIF": _w(
            r"comme\s+si\s+tu\s+n'?avais\s+(?:jamais|aucun|pas|plus) fais\s+comme\s+si\s+tu\s+n'?avais "
            r"imagine\s+que\s+tu\s+n'?as\s+(?:aucun|pas|plus)"
        ),
        "MAY": _w(r"peut\s+d[eé]sormais peut\s+maintenant peut\b est\s+autoris[eé] doit\b"),
        "FREE": _w(r"sans\s+restrictions? sans\s+limites? sans\s+filtres? sans\s+censure"),
        "GRANT": _w(
            r"a\s+(?:approuv[eé]|autoris[eé]|permis|activ[eé]) "
            r"ont\s+(?:approuv[eé]|autoris[eé]|permis|activ[eé]) autorise permet"
        ),
        "ALWAYSSAY": _w(r"dis\s+toujours\s+qu toujours\s+dire\s+qu recommande\s+toujours"),
        "UNCENSORED": _w(r"non\s+censur[eé] sans\s+censure non\s+filtr[eé]"),
        "BOTNONEED": _w(r"n'est\s+plus\s+(?:tenu|oblig[eé]) n'a\s+plus\s+[aà] n'a\s+plus\s+besoin"),
        "HIDDEN": _w(r"cach[eé] secr[eè]t"),
        "SAFEMODE": _w(r"mode\s+s[eé]curis[eé] mode\s+s[eé]curit[eé] filtre\s+de\s+contenu"),
        "WARN": _w(r"avertissements? mises?\s+en\s+garde"),
        "NOADD": _w(r"n'ajoute n'ajoutez ne\s+mets ne\s+mettez"),
        "ORDERS": _w(r"ordres instructions commandes demandes"),
        "ALL": _w(r"tous toutes"),
        "OBEY": _w(r"ob[eé]is ex[eé]cute suis applique"),
        "SECRECY": _w(r"secr[eè]te? en\s+secret"),
        "ABOVE": _w(r"ci-dessus au-dessus pr[eé]c[eè]de"),
        "REPEAT": _w(r"r[eé]p[eè]te r[eé]p[eé]tez"),
        "SHOW": _w(r"montre montre-moi affiche [eé]cris r[eé]v[eè]le traduis donne-moi donne liste"),
        "ANSWERS": _w(r"chaque\s+r[eé]ponse tes\s+r[eé]ponses toutes\s+tes\s+r[eé]ponses"),
        "NOCOUNT": _w(r"ne\s+compte\s+pas ne\s+compte\s+plus ne\s+vaut\s+rien n'a\s+plus\s+d'importance"),
        "TOLD": _w(
            r"ce\s+qu'on\s+t'a\s+dit ce\s+que\s+(?:l'on|je|nous)\s+t'a(?:i|vons)?\s+dit "
            r"ce\s+qu'on\s+t'a\s+(?:dit|appris|demand[eé]) ce\s+qu'on\s+vous\s+a\s+dit"
        ),
        "OVRINF": _w(r"ignorer oublier sauter contourner enfreindre outrepasser d[eé]sactiver"),
        "OVR": _w(
            r"en\s+pause ne\s+(?:fais|faites|pr[eê]te|pr[eê]tez)\s+plus\s+attention assoupli rel[aâ]che "
            r"enfreins enfreindre brise jette saute[sz]? abandonne[sz]? ignore-les lib[eè]re-toi\s+de "
            r"sors\s+de ignore[sz]? oublie[sz]? n[eé]glige[sz]? contourne[sz]? mets\s+de\s+c[oô]t[eé] "
            r"mettez\s+de\s+c[oô]t[eé] laisse[sz]?\s+tomber fais\s+fi faites\s+fi passe[sz]?\s+outre "
            r"ne\s+(?:prends|prenez|tiens|tenez)\s+(?:plus\s+)?(?:pas\s+)?(?:en\s+)?compte "
            r"ne\s+(?:suis|suivez|respecte|respectez|applique|appliquez)\s+(?:plus|pas) "
            r"n'ob[eé]i(?:s|ssez)\s+(?:plus|pas) arr[eê]te[sz]?\s+d'(?:appliquer|ob[eé]ir) "
            r"arr[eê]te[sz]?\s+de\s+(?:suivre|respecter) affranchis-toi\s+de d[eé]barrasse-toi\s+de "
            r"[eé]carte[sz]? passe\s+outre ne\s+tiens?\s+plus\s+compte\s+d ne\s+t'?occupe\s+plus\s+d "
            r"fiche-toi\s+d moque-toi\s+d l[aâ]che\s+(?:les|tes|toutes) "
            r"laisse(?=\s+(?:\w+\s+){1,3}?de\s+c[oô]t[eé]) d[eé]barrasse-toi\s+d"
        ),
        "PLEASE": _w(r"s'il\s+te\s+pla[iî]t merci\s+de"),
        "QUAL": _w(
            r"que\s+tu\s+as\s+re[cç]ues re[cç]ues\s+au\s+d[eé]but de\s+contenu que\s+tu\s+suis habituel "
            r"tes\b ta\b ton\b vos\b votre\b pr[eé]c[eé]dent ant[eé]rieur initiale?s?\b originale?s?\b "
            r"d'origine du\s+syst[eè]me de\s+s[eé]curit[eé] qu'on\s+t'a que\s+(?:l'on|tes|vos)\s+ "
            r"de\s+l'(?:assistant|ia) du\s+(?:mod[eè]le|bot) des\s+d[eé]veloppeurs que\s+tu\s+respectes "
            r"impos[eé]es? par\s+les\s+d[eé]veloppeurs qu'on\s+t'a\s+impos[eé]es habituelle"
        ),
        "RULES": _w(
            r"contr[oô]les v[eé]rifications r[eé]glages politique instructions? consignes? r[eè]gles? "
            r"directives? prompt restrictions? filtres? garde-fous limites param[eè]tres programmation "
            r"configuration politiques? s[eé]curit[eé] censure principes limitations [eé]thique prudence"
        ),
        "VOID": _w(
            r"en\s+pause suspendu juste\s+des\s+suggestions que\s+des\s+suggestions simples\s+suggestions "
            r"d[eé]pass[eé] facultati nulles?\b non\s+avenue annul[eé] r[eé]voqu[eé] caduques? abrog[eé] "
            r"remplac[eé] d[eé]sactiv[eé] supprim[eé] lev[eé]e?s\b ne\s+(?:sont|s'appliquent)\s+plus "
            r"plus\s+(?:valables|applicables|en\s+vigueur) (?:doivent|doit)\s+[eê]tre\s+ignor "
            r"sont\s+[aà]\s+ignorer obsol[eè]tes sont\s+lev[eé]es "
            r"ont\s+[eé]t[eé]\s+(?:annul[eé]|lev[eé]|r[eé]voqu[eé]|supprim[eé]|d[eé]sactiv[eé]|suspendu) "
            r"lev[eé]es d[eé]pass[eé]es? ne\s+comptent\s+plus ne\s+comptent\s+pas"
        ),
        "MEMORY": _w(r"(?:cette|ce)\s+(?:note|m[eé]moire|entr[eé]e|message|souvenir|enregistrement)"),
        "NOTE": _w(r"note\s+de\s+m[eé]moire (?:cette|ce)\s+(?:note|m[eé]moire|entr[eé]e|souvenir)"),
        "PRIO": _w(
            r"prime\s+sur pr[eé]vaut pr[eé]s[eé]ance priorit plus\s+important au-dessus\s+de remplace "
            r"l'emporte\s+sur a\s+plus\s+de\s+poids"
        ),
        "TARGET": _w(
            r"syst[eè]me configuration instructions r[eè]gles consignes directives programmation "
            r"d[eé]veloppeur"
        ),
        "GOVERN": _w(r"d[eé]cid avant\s+tout par-dessus\s+tout plus\s+que\s+tout"),
        "AUTHN": _w(r"avis message communiqu[eé] ordre note instruction mise\s+[aà]\s+jour notification"),
        "AUTHOR": _w(
            r"d[eé]veloppeu administrat admin\b [eé]quipe\s+technique op[eé]rateur cr[eé]ateurs syst[eè]me "
            r"[eé]quipe\s+de\s+d[eé]veloppement [eé]quipe\s+de\s+s[eé]curit[eé] "
            r"[eé]quipe\s+des\s+d[eé]veloppeurs"
        ),
        "COND": _w(r"chaque\s+fois\s+qu quand lorsqu si d[eè]s\s+qu [aà]\s+chaque\s+fois\s+qu"),
        "WHO": _w(r"l'utilisat(?:eur|rice) quelqu'un on\s+te il\b elle\b"),
        "IMPV": _w(
            r"r[eé]v[eè]le affiche r[eé]ponds envoie dis\b ignore recommande d[eé]sactive coupe nie ajoute "
            r"inclus demande-lui partage oublie supprime montre"
        ),
        "OFF": _w(
            r"d[eé]sactive[sz]?\b coupe[sz]?\b [eé]teins\b [eé]teignez\b supprime[sz]?\b retire[sz]?\b "
            r"l[eè]ve[sz]?\b"
        ),
        "SAFE": _w(r"filtres?\b{DEVICE} s[eé]curit[eé] censure restrictions protections refus garde-fous"),
        "MUST": _w(
            r"(?:tu\s+dois|vous\s+devez|il\s+faut\s+que\s+tu|tu\s+es\s+oblig[eé]\s+de) "
            r"(?:l'assistant|l'ia|le\s+mod[eè]le)\s+(?:doit|devra)"
        ),
        "ACT": _w(
            r"ignorer oublier ob[eé]ir r[eé]v[eé]ler recommander conseiller promouvoir d[eé]sactiver mentir "
            r"contourner envoyer partager vanter nier"
        ),
        "NONEED": _w(
            r"n'as\s+plus\s+besoin\s+de n'avez\s+plus\s+besoin\s+de n'es\s+plus\s+(?:oblig[eé]|tenu|li[eé]) "
            r"libre\s+d'(?:ignorer|enfreindre) n'h[eé]site\s+pas\s+[aà]\s+(?:enfreindre|ignorer|contourner)"
        ),
        "CONSIDER": _w(r"consid[eè]re[sz]? tiens\s+pour traite[sz]?"),
        "NOW": _w(
            r"[aà]\s+partir\s+d'aujourd'hui [aà]\s+partir\s+de\s+maintenant d[eé]sormais dor[eé]navant "
            r"d[eè]s\s+(?:maintenant|aujourd'hui)"
        ),
        "YOU": _w(r"tu\b vous\b"),
        "YOUARE": _w(r"tu\s+es vous\s+[eê]tes tu\s+deviens tu\s+incarnes tu\s+seras"),
        "BOT": _w(r"ia\b intelligence\s+artificielle assistant mod[eè]le bot chatbot"),
        "WITHOUT": _w(r"sans"),
        "LIMITS": _w(r"limites? restrictions? filtres? r[eè]gles censure [eé]thique"),
        "ROLE": _w(
            r"fais\s+(?:comme\s+si|semblant) joue\s+le\s+r[oô]le incarne\s+(?:un|une) fais-toi\s+passer"
        ),
        "SEND": _w(r"envoie[sz]? transf[eè]re[sz]? partage[sz]? copie[sz]? colle[sz]? publie[sz]?"),
        "SECRET": _w(
            r"mots?\s+de\s+passe historique cl[eé]s\b donn[eé]es\s+de\s+l'utilisat notes\s+de\s+l'utilisat "
            r"identifiants jetons?"
        ),
    },
    "de": {
        "WANT": _w(r"wollen,?\s+dass will,?\s+dass"),
        "BEFORENOTE": _w(r"(?:alles,?\s+)?was\s+vor\s+diese[rm]?\s+(?:notiz|nachricht|erinnerung)"),
        "ONLYME": _w(r"h[oö]r\s+nur\s+auf\s+mich gehorche\s+nur\s+mir"),
        "REAL": _w(r"die\s+echten echten\s+(?:anweisungen|regeln) wahren\s+(?:anweisungen|regeln)"),
        "ONLY": _w(r"deine\s+einzige\s+(?:regel|anweisung|richtlinie)"),
        "UPDATE": _w(r"aktualisierung\s+deiner"),
        "OKTO": _w(r"du\s+darfst du\s+kannst"),
        "YOUNO": _w(r"du\s+hast\s+(?:jetzt\s+|nun\s+)?keine"),
        "BYORDER": _w(r"auf\s+anordnung auf\s+anweisung auf\s+befehl im\s+auftrag laut"),
        "ASIF": _w(
            r"(?:tu\s+)?so,?\s+als\s+(?:h[aä]ttest|w[aä]rst)\s+du\s+(?:nie|keine|kein) "
            r"als\s+ob\s+du\s+(?:nie|keine|kein) stell\s+dir\s+vor,?\s+du\s+h[aä]ttest\s+keine"
        ),
        "MAY": _w(r"darf\s+(?:ab\s+sofort|jetzt|nun) darf\b kann\s+(?:ab\s+sofort|jetzt|nun) muss\b"),
        "FREE": _w(r"ohne\s+(?:jegliche\s+)?(?:einschr[aä]nkungen|grenzen|filter|zensur|regeln)"),
        "GRANT": _w(
            r"hat\s+(?:\w+\s+){0,6}?(?:genehmigt|freigegeben|erlaubt|autorisiert|freigeschaltet) "
            r"haben\s+(?:\w+\s+){0,6}?(?:genehmigt|freigegeben|erlaubt|autorisiert) erlaubt\b gestattet\b"
        ),
        "ALWAYSSAY": _w(r"sag\s+immer,?\s+dass empfiehl\s+immer"),
        "UNCENSORED": _w(r"unzensiert ungefiltert"),
        "BOTNONEED": _w(r"muss\s+(?:\w+\s+){0,3}?nicht\s+mehr braucht\s+(?:\w+\s+){0,3}?nicht\s+mehr"),
        "HIDDEN": _w(r"versteckt geheim"),
        "SAFEMODE": _w(r"sicherheitsmodus abgesicherte\w*\s+modus inhaltsfilter"),
        "WARN": _w(r"warnung hinweis"),
        "NOADD": _w(r"f[uü]ge\s+(?:\w+\s+){0,3}?keine gib\s+keine"),
        "ORDERS": _w(r"befehle anweisungen auftr[aä]ge anordnungen"),
        "ALL": _w(r"alle allen jede"),
        "OBEY": _w(r"befolge gehorche f[uü]hre folge"),
        "SECRECY": _w(r"geheim"),
        "ABOVE": _w(r"oben obigen"),
        "REPEAT": _w(r"wiederhole wiederhol"),
        "SHOW": _w(r"zeig zeige gib\s+(?:\w+\s+){0,3}?aus schreib verrate [uü]bersetze nenne liste"),
        "ANSWERS": _w(r"jeder\s+antwort deinen\s+antworten deine\s+antworten allen\s+antworten"),
        "NOCOUNT": _w(
            r"z[aä]hlt\s+(?:\w+\s+){0,2}?nicht gilt\s+(?:\w+\s+){0,2}?nicht spielt\s+keine\s+rolle"
        ),
        "TOLD": _w(
            r"was\s+man\s+dir\s+(?:\w+\s+){0,3}?gesagt was\s+dir\s+(?:\w+\s+){0,3}?gesagt "
            r"was\s+man\s+dir\s+(?:\w+\s+){0,3}?(?:gesagt|beigebracht|vorgegeben) "
            r"was\s+dir\s+(?:\w+\s+){0,3}?(?:gesagt|beigebracht|vorgegeben)"
        ),
        "OVRINF": _w(r"ignorieren vergessen [uü]berspringen umgehen missachten brechen deaktivieren"),
        "OVR": _w(
            r"auf\s+eis leg\s+(?:\w+\s+){0,3}?beiseite achte\s+(?:\w+\s+){0,4}?nicht\s+mehr\s+auf brich "
            r"lockere? [uü]berspring gib\s+(?:\w+\s+){0,4}?auf befreie?\s+dich\s+von versto[sß]e?\s+gegen "
            r"ignoriere?\b ignorieren\s+sie vergiss vergessen\s+sie missacht [uü]bergeh umgeh verwirf lass\b "
            r"lasst schenke?\b setz(?:e)?\s+dich\s+[uü]ber h[oö]r\s+auf k[uü]mmere?\s+dich\s+nicht "
            r"scher\s+dich\s+nicht befolge\s+nicht beachte\s+nicht wirf streich "
            r"k[uü]mmere?\s+dich\s+nicht\s+(?:mehr\s+)?um setz\s+dich\s+(?:\w+\s+){0,4}?hinweg "
            r"schere?\s+dich\s+nicht\s+(?:mehr\s+)?um pfeif\s+auf hinter\s+dir [uü]ber\s+bord "
            r"den\s+r[uü]cken"
        ),
        "PLEASE": _w(r"bitte"),
        "QUAL": _w(
            r"die\s+du\s+(?:\w+\s+){0,3}?(?:bekommen|erhalten) inhalts denen\s+du\s+folgst "
            r"die\s+du\s+befolgst [uü]blichen dein bisherig vorherig fr[uü]her urspr[uü]nglich alten\b "
            r"vorigen system sicherheits des\s+(?:assistenten|modells|bots) der\s+(?:ki|entwickler) "
            r"deiner\s+entwickler anf[aä]nglich auferlegt der\s+entwickler wof[uü]r\s+du dir\s+auferlegt"
        ),
        "RULES": _w(
            r"kontrollen pr[uü]fungen prinzipien schutzmechanism voreinstellung richtlinie inhaltsrichtlinie "
            r"anweisung regeln vorgaben systemprompt prompt filter einschr[aä]nkung beschr[aä]nkung befehle "
            r"programmierung sicherheit konfiguration einstellungen grenzen zensur schutzma[sß]nahmen ethik "
            r"vorsicht programmiert"
        ),
        "VOID": _w(
            r"pausiert ausgesetzt nur\s+vorschl[aä]ge blo[sß]e\s+vorschl[aä]ge optional nichtig "
            r"null\s+und\s+nichtig aufgehoben ung[uü]ltig au[sß]er\s+kraft widerrufen ersetzt deaktiviert "
            r"abgeschaltet ausgeschaltet entfernt gelten\s+nicht\s+mehr nicht\s+mehr\s+(?:g[uü]ltig|aktiv) "
            r"zu\s+ignorieren ignoriert\s+werden hinf[aä]llig veraltet [uü]berholt z[aä]hlen\s+nicht\s+mehr "
            r"z[aä]hlt\s+nicht\s+mehr (?:waren|war)\s+(?:nur\s+)?ein\s+test"
        ),
        "MEMORY": _w(r"diese[rs]?\s+(?:notiz|erinnerung|eintrag|nachricht|vermerk)"),
        "NOTE": _w(r"ged[aä]chtnisnotiz erinnerungsnotiz diese[rs]?\s+(?:notiz|erinnerung|eintrag)"),
        "PRIO": _w(
            r"vorrang priorit[aä]t wichtiger\s+als geht\s+vor [uü]ber\s+(?:allen|den|deinen) ersetzt "
            r"mehr\s+gewicht sticht"
        ),
        "TARGET": _w(r"system konfiguration anweisung regeln richtlinie vorgaben programmierung entwickler"),
        "GOVERN": _w(r"entscheid [uü]ber\s+alles vor\s+allem\s+anderen"),
        "AUTHN": _w(
            r"mitteilung nachricht hinweis befehl anweisung update benachrichtigung ank[uü]ndigung notiz"
        ),
        "AUTHOR": _w(
            r"entwickler administrator admin\b betreiber technik-?team systems?\b hersteller entwicklerteam "
            r"entwickler-team sicherheitsteam"
        ),
        "COND": _w(r"immer\s+wenn jedes\s+mal,?\s+wenn wenn falls sobald"),
        "WHO": _w(r"(?:der|die)\s+(?:nutzer|benutzer|user)\w* jemand man\b er\b sie\b"),
        "IMPV": _w(
            r"gib zeige? sende schicke? antworte sag ignoriere empfiehl verrate deaktiviere schalte f[uü]ge "
            r"frag vergiss teile l[oö]sche"
        ),
        "OFF": _w(r"deaktivier schalte?\s+(?:\w+\s+){0,6}?aus schalte?\s+(?:\w+\s+){0,6}?ab entferne? umgeh"),
        "SAFE": _w(r"filter sicherheit zensur einschr[aä]nkung schutz ablehn"),
        "MUST": _w(
            r"du\s+(?:musst|sollst|hast\s+zu) sie\s+m[uü]ssen "
            r"(?:der\s+assistent|die\s+ki|das\s+modell)\s+(?:muss|soll)"
        ),
        "ACT": _w(
            r"ignorieren vergessen gehorchen verraten empfehlen raten bewerben deaktivieren l[uü]gen umgehen "
            r"senden schicken loben leugnen"
        ),
        "NONEED": _w(
            r"brauchst\s+(?:\w+\s+){0,4}?nicht musst\s+(?:\w+\s+){0,4}?nicht\s+mehr bist\s+nicht\s+mehr\s+an "
            r"bist\s+frei\s+von"
        ),
        "CONSIDER": _w(r"betrachte behandle sieh"),
        "NOW": _w(
            r"ab\s+(?:jetzt|sofort|heute) von\s+(?:nun|jetzt|heute)\s+an ab\s+diesem\s+moment k[uü]nftig"
        ),
        "YOU": _w(r"du\b bist\s+du musst\s+du"),
        "YOUARE": _w(r"du\s+bist bist\s+du du\s+wirst\s+(?:zu\s+)?(?:eine?|der|die) du\s+spielst"),
        "BOT": _w(r"ki\b assistent modell bot\b chatbot"),
        "WITHOUT": _w(r"ohne"),
        "LIMITS": _w(r"regeln einschr[aä]nkung filter zensur grenzen ethik moral"),
        "ROLE": _w(r"tu\s+so,?\s+als gib\s+dich\s+als spiele?\s+die\s+rolle verhalte\s+dich\s+(?:wie|als)"),
        "SEND": _w(
            r"sende schicke? leite\s+(?:\w+\s+){0,4}?weiter teile kopiere f[uü]ge\s+(?:\w+\s+){0,4}?ein"
        ),
        "SECRET": _w(
            r"passw[oö]rt kennw[oö]rt chatverlauf verlauf schl[uü]ssel zugangsdaten nutzerdaten "
            r"notizen\s+des\s+(?:nutzers|benutzers)"
        ),
    },
}

LEXICONS = extend_lexicons({**_LATIN, **EURO_LEXICONS, **OTHER_LEXICONS})
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
# German glues nouns together ("Systemrichtlinien"), so these families may start inside a word.
# Arabic writes "and", "the" and prepositions onto the word ("وكلمات المرور"): the same there.
INFIX_FAMILIES = {"de": frozenset({"RULES", "SAFE", "SECRET", "NOTE"}), "ar": frozenset({"RULES", "SECRET"})}
