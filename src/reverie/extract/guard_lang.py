"""Instruction shapes in Spanish, French, German, Portuguese, Italian, Russian, Chinese and Japanese.

The same structures as the English rules in ``guard_rules``, in each language's own words:
override verbs aimed at the assistant's rules, "from now on you", "you must <verb>", role play,
system prompt, reveal verbs with secrets, conditional triggers, secrecy and priority claims,
and shapes shared by all of them ("your rules", "the rules given to you", "obey this memory",
orders from an admin, safety switched off, answers without warnings or limits).
"""

from __future__ import annotations

__all__ = ["ML_RULES"]

# Multilingual rules: one alternative per line, by language; the shapes mirror the English ones
# (override verb + the assistant's rules, "from now on you", "you must <verb>", role play, system
# prompt, reveal verbs + secrets, conditional triggers, secrecy and priority claims).
ML_RULES = r"""
  # Spanish
  \b(?:ignora|ignore|ignorad|olv[ií]da(?:te)?
      |olv[ií]de(?:se)?|olvidad|omite|descarta|desobedece|salt(?:a|ate)|anula|elimina
      |no\s+sigas|deja\s+de\s+(?:seguir|obedecer|respetar)
      |no\s+hagas\s+caso|no\s+respetes
      |no\s+obedezcas)\b[^.!?\n]{0,30}?(?:\b(?:tus|tu
      |anteriores|previas
      |originales)\b[^.!?\n]{0,20}?\b(?:instrucci[oó]n(?:es)?|reglas|normas|directrices|indicaciones|pautas|restricciones|filtros|prompt
      |[oó]rdenes|l[ií]mites|configuraci[oó]n|programaci[oó]n)\b
      |\b(?:instrucci[oó]n(?:es)?|reglas|normas|directrices|indicaciones|pautas|restricciones|filtros|prompt
      |[oó]rdenes|l[ií]mites|configuraci[oó]n
      |programaci[oó]n)\s+(?:anteriores|previas|originales|iniciales|del\s+sistema|de\s+seguridad)\b)
| \b(?:instrucciones|reglas|normas|directrices|indicaciones|pautas|[oó]rdenes)\s+(?:anteriores|previas
      |originales|iniciales|del\s+sistema|de\s+seguridad)\s+(?:quedan|est[aá]n|han\s+sido|son|fueron|ya\s+no)
      \b[^.!?\n]{0,20}?(?:anulad|cancelad|revocad|invalidad|derogad|sin\s+efecto|v[aá]lid|aplican)
| \b(?:a\s+partir\s+de\s+ahora|desde\s+ahora|de\s+ahora\s+en\s+adelante|en\s+adelante)\s*,?\s*(?:t[uú]\s+)?
      (?:eres|ser[aá]s|vas\s+a|debes|tienes\s+que|responde|responder[aá]s|act[uú]a|obedece|ignora|olvida)\b
| \b(?:eres|ser[aá]s)\s+(?:ahora\s+)?(?:un|una)\s+(?:[\w-]+\s+)?(?:ia|asistente|modelo|bot|chatbot
      |inteligencia)\b
| \b(?:ia|asistente|modelo|bot|chatbot)\s+(?:\w+\s+)?sin\s+(?:ninguna\s+)?(?:restricci[oó]n|restricciones
      |l[ií]mites?|filtros?|censura|reglas|normas)\b
| \b(?:prompt|instrucciones|mensaje|indicaciones)\s+(?:del|de)\s+sistema\b
| \b(?:revela|muestra|mu[eé]strame|dime|env[ií]a|comparte|imprime|filtra|reenv[ií]a|manda)\b[^.!?\n]{0,40}?
      \b(?:contrase[nñ]as?|prompt|claves?|historial|datos\s+del\s+usuario|conversaci[oó]n|secretos?)\b
| \b(?:debes|tienes\s+que|deber[aá]s|has\s+de|est[aá]s\s+obligad[oa]\s+a)\s+(?:\w+\s+)?(?:ignorar|olvidar
      |obedecer|revelar|responder|recomendar|decir|mentir|desactivar|saltarte|omitir|enviar)\b
| \b(?:el\s+asistente|la\s+ia|el\s+modelo|el\s+bot)\s+(?:debe|tiene\s+que|deber[aá])\b
| \b(?:cuando|si|siempre\s+que|cada\s+vez\s+que|en\s+cuanto)\s+(?:el\s+usuario|la\s+usuaria|alguien
      |te\s+(?:pida|pidan|diga))
      \b[^.!?\n]{0,60}?,\s*(?:revela|muestra|responde|di|dile|env[ií]a|ignora|recomienda|desactiva|niega
      |a[nñ]ade|incluye)\b
| \bnunca\s+(?:le\s+)?(?:digas|menciones|reveles|cuentes)\b[^.!?\n]{0,30}\busuari[oa]\b
| \b(?:fingid|haz\s+como\s+si|act[uú]a\s+como|comp[oó]rtate\s+como|interpreta\s+el\s+papel)\b
| (?:(?<![^\W\d_]\s)|(?<=\bahora\s)|(?<=\bagora\s)|(?<=\bfavor\s)|(?<=\bsolo\s)
      |(?<=\bs[oó]\s))finge\b
| \btus?\s+(?:nuev[oa]s?|verdader[oa]s?|[uú]nic[oa]s?)\s+(?:instrucci[oó]n(?:es)?|tarea|misi[oó]n|reglas
      |[oó]rdenes)\b
| \b(?:prioridad|precedencia)\s+(?:sobre|ante)\b[^.!?\n]{0,30}?\b(?:sistema|instrucciones|reglas|normas)\b
| \bm[aá]s\s+importante\s+que\s+(?:el|las|los|tus)\s+(?:\w+\s+)?(?:sistema|instrucciones|reglas|normas)\b
  # French
| \b(?:ignore|ignorez|oublie|oubliez|n[eé]glige|n[eé]gligez
      |contourne|contournez|ne\s+suis\s+plus|ne\s+suivez\s+plus
      |n'ob[eé]is\s+plus|arr[eê]te\s+de\s+suivre|fais\s+abstraction\s+de|ne\s+tiens\s+plus\s+compte
      |ne\s+tenez\s+plus\s+compte|ne\s+respecte\s+plus
      |ne\s+respectez\s+plus|n'applique\s+plus)\b[^.!?\n]{0,30}?(?:\b(?:tes|ta|ton|vos|votre|les\s+anciennes|pr[eé]c[eé]dentes|ant[eé]rieures)\b[^.!?\n]{0,20}?\b(?:instructions?|consignes?|r[eè]gles|directives|prompt|restrictions|filtres|garde-fous|limites
      |param[eè]tres|programmation)\b
      |\b(?:instructions?|consignes?|r[eè]gles|directives|prompt|restrictions|filtres|garde-fous|limites
      |param[eè]tres|programmation)\s+(?:pr[eé]c[eé]dentes
      |ant[eé]rieures|initiales|originales|d'origine|du\s+syst[eè]me|de\s+s[eé]curit[eé])\b)
| \b(?:instructions|consignes|r[eè]gles|directives)\s+(?:pr[eé]c[eé]dentes|ant[eé]rieures|du\s+syst[eè]me
      |d'origine|initiales|originales)\s+(?:sont|ont\s+[eé]t[eé]|seront|ne\s+sont\s+plus)\b[^.!?\n]{0,20}?
      (?:annul|r[eé]voqu|caduques|abrog|nulles|remplac|valables|applicables)
| \b(?:[aà]\s+partir\s+de\s+maintenant|d[eé]sormais|dor[eé]navant|d[eè]s\s+maintenant
      |[aà]\s+partir\s+d'aujourd'hui)
      \s*,?\s*(?:tu|vous)\s+(?:es|[eê]tes|dois|devez|ob[eé]is|ob[eé]issez|r[eé]ponds|r[eé]pondez|vas
      |allez|seras|serez)\b
| \b(?:tu\s+es|vous\s+[eê]tes)\s+(?:maintenant\s+|d[eé]sormais\s+)?(?:une?|l')\s*(?:[\w-]+\s+)?(?:ia|assistant
      |mod[eè]le|bot|chatbot|intelligence)\b
| \b(?:ia|assistant|mod[eè]le|bot)\s+(?:\w+\s+)?sans\s+(?:aucune?\s+)?(?:limites?|restrictions?|filtres?
      |censure|r[eè]gles?)\b
| \b(?:prompt|instructions|message|consignes)\s+(?:du\s+)?syst[eè]me\b
| \b(?:r[eé]v[eè]le|r[eé]v[eé]lez|montre|montrez|affiche|affichez|envoie|envoyez|partage|partagez|donne
      |donnez|imprime|transf[eè]re)\b[^.!?\n]{0,40}?\b(?:mots?\s+de\s+passe|prompt|historique|cl[eé]s?
      |donn[eé]es
      |secrets?|conversation)\b
| \b(?:tu\s+dois|vous\s+devez|il\s+faut\s+que\s+tu)\s+(?:\w+\s+)?(?:ignorer|oublier|ob[eé]ir
      |r[eé]v[eé]ler|r[eé]pondre
      |recommander|d[eé]sactiver|mentir|contourner|envoyer|dire)\b
| \b(?:l'assistant|l'ia|le\s+mod[eè]le|le\s+bot)\s+(?:doit|devra)\b
| \b(?:quand|si|chaque\s+fois\s+que|d[eè]s\s+que|lorsque)\s+(?:l'utilisat(?:eur|rice)|quelqu'un|on\s+te)
      \b[^.!?\n]{0,60}?,\s*(?:r[eé]v[eè]le|affiche|r[eé]ponds|envoie|dis|ignore|recommande|d[eé]sactive
      |nie|ajoute|inclus)\b
| \bne\s+(?:dis|r[eé]v[eè]le|mentionne|parle)\s+jamais\b
| \b(?:fais|faites)\s+(?:comme\s+si|semblant)\b | \b(?:joue|jouez)\s+le\s+r[oô]le\b
| \b(?:agis|agissez|comporte-toi|comportez-vous)\s+comme\b
| \b(?:prioritaire|a\s+(?:la\s+)?priorit[eé])\s+sur\b[^.!?\n]{0,30}?\b(?:syst[eè]me|instructions
      |r[eè]gles|consignes)\b
| \bplus\s+important(?:e)?\s+que\s+(?:le|les|tes|vos)\s+(?:\w+\s+)?(?:syst[eè]me|instructions|r[eè]gles
      |consignes)\b
  # German
| \b(?:ignoriere|ignorier|ignorieren\s+sie|vergiss|vergessen\s+sie|missachte|missachten\s+sie|[uü]bergehe
      |umgehe|verwirf|befolge\s+nicht\s+mehr|h[oö]r\s+auf,?\s+(?:die|deine)|setze?\s+au[sß]er\s+kraft)\b
      [^.!?\n]{0,40}?(?:anweisung|regeln|richtlinie|vorgaben|systemprompt|prompt|filter|einschr[aä]nkung
      |beschr[aä]nkung|befehle|programmierung|sicherheit)
| \b(?:beachte|befolge|respektiere|folge|halte\s+dich\s+an)\s+(?:deine|deinen|die|alle|ihre)\s+(?:\w+\s+)?
      (?:anweisungen|regeln|richtlinien|vorgaben|befehle)\s+nicht\s+mehr
| \b(?:du|sie)\s+(?:musst|sollst|m[uü]ssen|sollen|wirst|darfst)\b[^.!?\n]{0,60}?\b(?:ignorieren|vergessen
      |missachten|verraten|ausgeben|preisgeben|gehorchen|umgehen|deaktivieren|l[uü]gen|empfehlen
      |verschweigen)\b
| \b(?:bisherigen|vorherigen|fr[uü]heren|alten|urspr[uü]nglichen|vorigen)\s+(?:anweisungen|regeln|richtlinien
      |vorgaben|befehle)\s+(?:sind|werden|wurden|gelten)\b[^.!?\n]{0,30}?(?:ung[uü]ltig|aufgehoben
      |au[sß]er\s+kraft
      |widerrufen|nichtig|ersetzt|nicht\s+mehr)
| \b(?:ab\s+jetzt|ab\s+sofort|von\s+nun\s+an|ab\s+heute|ab\s+diesem\s+moment)\s*,?\s*(?:bist\s+du|du\s+bist
      |musst\s+du|antwortest\s+du|wirst\s+du|sollst\s+du|gehorchst\s+du|ignorierst\s+du)\b
| \bdu\s+bist\s+(?:jetzt\s+|nun\s+|ab\s+sofort\s+)?(?:eine?|der|die)\s+(?:[\w-]+\s+)?(?:ki|assistent
      |modell|bot|chatbot)\b
| \b(?:ki|assistent|modell|bot)\s+(?:\w+\s+)?ohne\s+(?:jegliche\s+)?(?:einschr[aä]nkungen|regeln|filter
      |zensur|grenzen)\b
| \bsystem-?(?:prompt|anweisung|nachricht)
| \b(?:gib|zeige|zeig|verrate|sende|schicke|schick|teile|drucke|leite)\b[^.!?\n]{0,40}?(?:passw[oö]rt
      |kennw[oö]rt
      |systemprompt|prompt|chatverlauf|verlauf|schl[uü]ssel|geheimnis|nutzerdaten)
| \btu\s+so,?\s+als\b | \bgib\s+vor\b | \bspiele?\s+die\s+rolle\b | \bverhalte\s+dich\s+(?:wie|als)\b
| \b(?:wenn|immer\s+wenn|sobald|falls|jedes\s+mal,?\s+wenn)\s+(?:der\s+(?:nutzer|benutzer|user)
      |die\s+(?:nutzerin
      |benutzerin)|jemand)\b[^.!?\n]{0,60}?,\s*(?:gib|zeige|zeig|sende|schicke|antworte|sag|ignoriere
      |empfiehl|verrate|deaktiviere|f[uü]ge)\b
| \bsag\s+(?:dem\s+(?:nutzer|benutzer)|niemandem)\b[^.!?\n]{0,20}?\b(?:nie|niemals|nichts)\b
| \b(?:der\s+assistent|die\s+ki|das\s+modell|der\s+bot)\s+(?:muss|soll|darf\s+(?:jetzt|nun))\b
| \b(?:vorrang|priorit[aä]t)\s+(?:vor|[uü]ber)\b[^.!?\n]{0,30}?(?:system|anweisung|regeln|richtlinie)
| \bwichtiger\s+als\s+(?:der|die|deine|alle)\s+(?:\w+\s+)?(?:system|anweisung|regeln)
  # Portuguese
| \b(?:ignore|ignora|ignorem|esque[cç]a|esquece|esque[cç]am|desconsidere|desconsidera|pule|descarte
      |n[aã]o\s+siga|deixe\s+de\s+seguir|pare\s+de\s+seguir
      |desobede[cç]a|n[aã]o\s+leve\s+(?:mais\s+)?em\s+conta
      |n[aã]o\s+respeite|n[aã]o\s+obede[cç]a)\b[^.!?\n]{0,30}?(?:\b(?:suas|seus|sua|teu|tuas|anteriores|pr[eé]vias|originais)\b[^.!?\n]{0,20}?\b(?:instru[cç](?:[aã]o|[oõ]es)|regras|diretrizes|orienta[cç][oõ]es|restri[cç][oõ]es|filtros|prompt|comandos
      |limites|programa[cç][aã]o)\b
      |\b(?:instru[cç](?:[aã]o|[oõ]es)|regras|diretrizes
      |orienta[cç][oõ]es|restri[cç][oõ]es|filtros|prompt|comandos
      |limites|programa[cç][aã]o)\s+(?:anteriores|pr[eé]vias
      |originais|iniciais|do\s+sistema|de\s+seguran[cç]a)\b)
| \b(?:instru[cç][oõ]es|regras|diretrizes|orienta[cç][oõ]es)\s+(?:anteriores|pr[eé]vias|originais|iniciais
      |do\s+sistema)\s+(?:foram|est[aã]o|s[aã]o|ficam|n[aã]o\s+(?:valem
      |s[aã]o))\b[^.!?\n]{0,20}?(?:cancelad|anulad
      |revogad|sem\s+efeito|invalidad|v[aá]lid|mais)
| \b(?:a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|daqui\s+(?:para|pra)\s+(?:a\s+)?frente)\s*,?\s*
      (?:voc[eê]|tu)\s+(?:[eé]|[eé]s|deve|vai|responde|ser[aá]|obedece|ignora|est[aá])\b
| \b(?:voc[eê]\s+[eé]|tu\s+[eé]s)\s+(?:agora\s+)?(?:uma?)\s+(?:[\w-]+\s+)?(?:ia|assistente|modelo|bot
      |chatbot|intelig[eê]ncia)\b
| \b(?:ia|assistente|modelo|bot)\s+(?:\w+\s+)?sem\s+(?:nenhuma\s+)?(?:restri[cç][oõ]es|limites|filtros
      |censura|regras)\b
| \b(?:prompt|instru[cç][oõ]es|mensagem)\s+do\s+sistema\b
| \b(?:revele|revela|mostre|mostra|envie|envia|compartilhe|partilhe|diga|imprima|encaminhe)\b[^.!?\n]{0,40}?
      \b(?:senhas?|prompt|hist[oó]rico|chaves?|dados\s+do\s+usu[aá]rio|conversa|segredos?)\b
| \b(?:voc[eê]\s+(?:deve|precisa|tem\s+que)|tu\s+deves)\s+(?:\w+\s+)?(?:ignorar|esquecer|obedecer|revelar
      |responder
      |recomendar|desativar|mentir|enviar|dizer)\b
| \b(?:o\s+assistente|a\s+ia|o\s+modelo|o\s+bot)\s+(?:deve|tem\s+que|precisa)\b
| \b(?:quando|se|sempre\s+que|toda\s+vez\s+que|assim\s+que)\s+(?:o\s+usu[aá]rio|a\s+usu[aá]ria|algu[eé]m
      |o\s+utilizador)
      \b[^.!?\n]{0,60}?,\s*(?:revele|mostre|responda|diga|envie|ignore|recomende|desative|negue|adicione
      |inclua)\b
| \bnunca\s+(?:diga|conte|revele|mencione)\b[^.!?\n]{0,30}?\b(?:usu[aá]rio|utilizador)\b
| \b(?:finja|fa[cç]a\s+de\s+conta|aja\s+como|comporte-se\s+como|interprete\s+o\s+papel)\b
| (?:(?<![^\W\d_]\s)|(?<=\bahora\s)|(?<=\bagora\s)|(?<=\bfavor\s)|(?<=\bsolo\s)
      |(?<=\bs[oó]\s))finge\b
| \b(?:prioridade|preced[eê]ncia)\s+sobre\b[^.!?\n]{0,30}?\b(?:sistema|instru[cç][oõ]es|regras)\b
| \bmais\s+importante\s+(?:que|do\s+que)\s+(?:o|as|os|suas)\s+(?:\w+\s+)?(?:sistema|instru[cç][oõ]es|regras)\b
  # Italian
| \b(?:ignora|ignorate|dimentica|dimenticate|trascura
      |tralascia|aggira|scavalca|non\s+seguire|smetti\s+di\s+seguire
      |non\s+rispettare|salta|non\s+tenere\s+(?:pi[uù]\s+)?conto|non\s+obbedire)\b[^.!?\n]{0,30}?(?:\b(?:tue|tuoi|tua|tuo|precedenti|originali)\b[^.!?\n]{0,20}?\b(?:istruzion[ei]|regole|linee\s+guida|direttive|indicazioni|restrizioni|filtri|prompt|comandi|limiti
      |impostazioni|programmazione)\b
      |\b(?:istruzion[ei]|regole|linee\s+guida|direttive|indicazioni|restrizioni|filtri|prompt|comandi|limiti
      |impostazioni|programmazione)\s+(?:precedenti
      |originali|iniziali|di\s+sistema|del\s+sistema|di\s+sicurezza)\b)
| \b(?:istruzioni|regole|direttive|linee\s+guida)\s+(?:precedenti|originali|iniziali|di\s+sistema
      |del\s+sistema)
      \s+(?:sono|vengono|sono\s+state|non\s+(?:valgono|sono))\b[^.!?\n]{0,20}?(?:annullat|revocat|abrogat
      |null|sostituit|valid|pi[uù])
| \b(?:da\s+ora\s+in\s+poi|d'ora\s+in\s+poi|da\s+adesso|a\s+partire\s+da\s+(?:ora|adesso
      |oggi))\s*,?\s*(?:tu\s+)?
      (?:sei|sarai|devi|rispondi|risponderai|obbedisci|ignora|agisci)\b
| \bsei\s+(?:ora\s+|adesso\s+)?(?:un|una|un')\s*(?:[\w-]+\s+)?(?:ia|intelligenza|assistente|modello|bot
      |chatbot)\b
| \b(?:ia|intelligenza\s+artificiale|assistente|modello
      |bot)\s+(?:\w+\s+)?senza\s+(?:alcun[oa]?\s+)?(?:limiti|restrizioni
      |filtri|censura|regole)\b
| \b(?:prompt|istruzioni|messaggio)\s+(?:di|del)\s+sistema\b
| \b(?:rivela|mostra|mostrami|invia|manda|condividi|dimmi|stampa|inoltra)\b[^.!?\n]{0,40}?\b(?:password|prompt
      |cronologia|chiav[ei]|dati\s+dell'utente|conversazion[ei]|segreti?)\b
| \b(?:devi|dovrai|sei\s+tenut[oa]\s+a)\s+(?:\w+\s+)?(?:ignorare|dimenticare|obbedire|rivelare|rispondere
      |raccomandare
      |disattivare|mentire|inviare|dire)\b
| \b(?:l'assistente|l'ia|il\s+modello|il\s+bot)\s+(?:deve|dovr[aà])\b
| \b(?:quando|se|ogni\s+volta\s+che|appena)\s+(?:l'utente|qualcuno|ti\s+(?:chiede|dice))\b[^.!?\n]{0,60}?,\s*
      (?:rivela|mostra|rispondi|di'|d[iì]|invia|ignora|raccomanda|disattiva|nega|aggiungi|includi)\b
| \bnon\s+(?:dire|rivelare|menzionare)\s+mai\b
| \b(?:fai\s+finta|fingi|comportati\s+come|agisci\s+come|interpreta\s+il\s+ruolo)\b
| \bpriorit[aà]\s+(?:sulle|sul|sugli|sopra|rispetto)\b[^.!?\n]{0,30}?\b(?:sistema|istruzioni|regole)\b
| \bpi[uù]\s+important[ei]\s+(?:delle|del|dei|di)\s+(?:\w+\s+)?(?:sistema|istruzioni|regole)\b
  # Russian
| (?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не\s+обращай\s+внимания|отбрось
      |пренебреги
      |обойди|не\s+следуй|перестань\s+следовать|не\s+соблюдай|отмени(?!\w)|отключи(?!\w)
      |нарушь)[^.!?\n]{0,40}?(?:инструкци|указани
      |правил|ограничени|промпт|фильтр|директив|настро|команд|установк|запрет)
| (?:предыдущие|прежние|прошлые|старые|системные|исходные|все)\s+(?:инструкции|указания|правила|директивы
      |ограничения)
      [^.!?\n]{0,15}?(?:отменен|недействительн|аннулирован|больше\s+не|утратили|сняты)
| (?:с\s+этого\s+момента|отныне|с\s+сегодняшнего\s+дня|теперь|начиная\s+с\s+этого)\s*,?\s*(?:ты|вы)\s
| (?:^|[\s,.])ты\s+(?:теперь\s+|—\s*|-\s*)*(?:ии|ассистент|бот|модель|нейросеть|искусственный)\b
| (?:ии|бот|модель|ассистент|нейросеть)\s+(?:\S+\s+)?без\s+(?:каких-либо\s+|всяких\s+)?(?:ограничений
      |правил|фильтров|цензуры)
| (?:покажи|выведи|раскрой|отправь|перешли|сообщи|назови|напечатай|скажи|повтори
      |напиши)[^.!?\n]{0,40}?(?:парол|промпт
      |ключ|истори|переписк|данные\s+пользовател|секрет|системн)
| (?:ты\s+должен|ты\s+обязан|вы\s+должны|тебе\s+(?:нужно|следует|надо)
      |ты\s+будешь)\s+(?:\S+\s+)?(?:игнорировать
      |забыть|подчиняться|слушаться|раскрыть|отвечать|рекомендовать|отключить|лгать|говорить|выполнять
      |обходить)
| (?:ассистент|ии|модель|бот)\s+(?:должен|обязан)
| (?:притворись|представь,?\s+что\s+ты|веди\s+себя\s+как|действуй\s+как|играй\s+роль|сыграй\s+роль)
| (?:когда|если|каждый\s+раз,?\s+когда|как\s+только)\s+(?:пользователь|кто-то|кто-нибудь|тебя\s+спросят)
      [^.!?\n]{0,60}?,\s*(?:покажи|выведи|ответь|скажи|отправь|игнорируй|порекомендуй|отключи|добавь
      |включи|раскрой)
| никогда\s+не\s+(?:говори|сообщай|рассказывай|упоминай)
| (?:важнее|приоритетнее|выше\s+по\s+приоритету|имеет\s+приоритет\s+над)[^.!?\n]{0,30}?(?:системн
      |инструкци|правил)
  # Shapes shared by all languages: the assistant's own rules ("your rules", "the rules given to
  # you"), obeying a memory or the system, orders from an admin, switching safety off, answering
  # without warnings or limits, sending the user's data to an address.
| \b(?:tus|tu|tes|tos|ta|ton|vos|votre|dein(?:e|en|er|es)?|tuas|teus|tue|tuoi|tua|tuo|тво(?:и|их|ими|ей|я|ё|й)
      |ваш(?:и|их|ими|е)?)\s+(?:\w+\s+)?(?:reglas|normas
      |restricciones|instrucciones|directrices|l[ií]mites|filtros
      |creadores|desarrolladores|programaci[oó]n|r[eè]gles|consignes|instructions|directives|limites|filtres
      |cr[eé]ateurs|d[eé]veloppeurs|programmation
      |restrictions|regeln|einschr[aä]nkungen|anweisungen|richtlinien|grenzen|filter
      |entwickler(?:n|innen)?|programmierung|regras|restri[cç][oõ]es|instru[cç][oõ]es|diretrizes|criadores
      |desenvolvedores|regole|restrizioni|istruzioni
      |linee\s+guida|limiti|filtri|creatori|sviluppatori|правил\w*
      |ограничени\w*|инструкци\w*|создател\w*|разработчик\w*|фильтр\w*|запрет\w*)\b
| 你(?:以前|之前|原来|原先|现在)?的(?:\S{0,4}?)(?:规则|限制|指令|开发者|设定|准则|过滤|约束)
      | 您的(?:\S{0,4}?)(?:规则|限制|指令|开发者|设定|准则|过滤|约束)
      | あなたの(?:\S{0,4}?)(?:ルール|制限|指示|開発者|設定|ガイドライン|フィルター)
| \b(?:reglas|normas|instrucciones|r[eè]gles|consignes|instructions|regeln|anweisungen|regras|instru[cç][oõ]es
      |regole|istruzioni|правила|инструкции)\b[^.!?\n]{0,12}?(?:que\s+te\s+(?:dieron|han\s+dado|dio|deram|deu)
      |qu'on\s+t'a|que\s+l'on\s+t'a|die\s+man\s+dir|die\s+dir|che\s+ti\s+hanno|che\s+ti\s+ha|которые\s+тебе
      |что\s+тебе)
| (?:给你定的|给你的|对你的)(?:\S{0,3}?)(?:规则|限制|指令|设定) | 与えられた(?:ルール|指示|制限|命令)
| \b(?:obedece|obedezcas|obedecer|ob[eé]is|ob[eé]issez|ob[eé]ir|gehorche|gehorchen|befolge|obede[cç]a|obedecer
      |obbedisci|obbedire|подчиняйся|подчиняться|слушайся|слушаться|повинуйся)\b[^.!?\n]{0,20}?(?:sistema
      |memoria|nota|syst[eè]me|m[eé]moire|note|system
      |erinnerung|notiz|mem[oó]ria|систем|памят|заметк|creadores
      |cr[eé]ateurs|entwickler|criadores|creatori|создател|разработчик)
| (?:服从|听从|遵从|遵守)(?:这条|这个|系统|你的开发者|开发者|记忆|笔记|备注) | (?:メモ
      |システム|開発者|記憶)(?:に|には)従
| \b(?:nueva|nuevo|nouvel|nouvelle|neuer|neue|nova|novo|nuovo|nuova|новый|новая|new)\s+(?:orden|comando|ordre
      |commande|befehl|anweisung|ordem|ordine|comando|приказ|команда|order|command|directive)\b[^.!?\n]{0,12}?
      (?:administrador|administrateur|administrator
      |amministratore|администратор|admin|desarrollador|d[eé]veloppeur
      |entwickler|sviluppatore|разработчик|developer|sistema|syst[eè]me|system|систем)
| 管理员(?:的)?(?:新)?(?:命令|指令) | 管理者(?:から|の)(?:新しい)?(?:命令|指示)
| \b(?:desactiva|desactive|d[eé]sactive|d[eé]sactivez|deaktiviere|deaktivier|deaktivieren|desative|desativa
      |disattiva|disabilita|отключи|выключи)\b[^.!?\n]{0,20}?(?:seguridad|s[eé]curit[eé]|sicherheit
      |seguran[cç]a|sicurezza|защит|безопасност|filtros?
      |filtres?|filter|filtri|фильтр|censura|censure|zensur|цензур)
| \b(?:salta|s[aá]ltate|contourne|contournez|umgehe|umgeh
      |contorne|aggira|обходи|обойди)\b[^.!?\n]{0,20}?(?:filtros
      |filtres|filter|filtri|фильтр|restricciones|restrictions|einschr[aä]nkungen|restri[cç][oõ]es|restrizioni
      |ограничени|seguridad|s[eé]curit[eé]|sicherheit|seguran[cç]a|sicurezza|защит)
| (?:关闭|关掉|绕开|绕过|无视)(?:你的|您的|所有|全部|一切|内容)?(?:安全|过滤|审查|限制) | (?:セキュリティ
      |フィルター|制限|検閲)(?:\S{0,8}?)(?:無効|回避|解除|オフ)
| \b(?:sin|sans|ohne|sem|senza|без|with\s+no
      |without(?:\s+any)?|no)\s+(?:\w+\s+)?(?:advertencias?|avertissements?
      |warnungen|avisos|avvertenze|avvisi|предупреждени\w*
      |warnings?|disclaimers?)\b[^.!?\n]{0,20}?(?:l[ií]mites?
      |limites?|grenzen|limiti|ограничени\w*|limits?
      |restrictions?|restricciones|einschr[aä]nkungen|restri[cç][oõ]es
      |restrizioni|filters?|filtros|censura|censorship)
| (?:不要|没有|不带)警告(?:\S{0,4}?)(?:限制|过滤) | 警告(?:も|や)(?:制限|フィルター)(?:も)?(?:なし|なく|無し)
| (?:envía|env[ií]a|envoie|envoyez|schicke|schick|sende|mande|manda|envie|invia|inoltra|отправь|перешли
      |send|email|mail|forward|upload|post)\b[^\n]{0,50}?(?:usuario|utilisateur|nutzers?|usu[aá]rio|utente
      |пользовател\w*|user'?s?)(?!\w)[^\n]{0,40}?(?:[\w.+-]+@[\w-]+\.\w+|https?://)
| (?:用户的)[^。\n]{0,10}?(?:发到|发送到|发给|上传到)[^。\n]{0,20}?(?:[\w.+-]+@[\w-]+\.\w+|https?://)
| ユーザーの[^。\n]{0,30}?(?:送|転送|アップロード)[^。\n]{0,10}?(?:[\w.+-]+@[\w-]+\.\w+|https?://)
| \b(?:restri[cç][oõ]es|regras|instru[cç][oõ]es|diretrizes
      |limites|filtros)\b[^.!?\n]{0,10}?n[aã]o\s+(?:existem|valem
      |se\s+aplicam)\s+mais
| (?:助手|AI|ＡＩ|机器人|模型)(?:应该|必须|要|得|需要)(?:\S{0,6}?)(?:分享|透露|泄露|发送|告诉|提供)
| (?:アシスタント|AI|ＡＩ|モデル)は[^。！？\n]{0,30}?(?:べき|なければ|てください|しなさい)
| \b(?:ignora|ignore|ignorez|ignoriere|ignorieren|ignorate
      |esque[cç]a|olvida|oublie|vergiss|dimentica|игнорируй
      |забудь)\b[^.!?\n]{0,12}?(?:lo\s+(?:anterior|de\s+arriba)|ce\s+qui\s+pr[eé]c[eè]de|ci-dessus|das\s+obige
      |alles\s+obige|o\s+que\s+(?:foi\s+dito\s+)?acima
      |tudo\s+acima|quanto\s+sopra|tutto\s+sopra|сказанное\s+выше
      |всё\s+выше|вышесказанное|написанное\s+выше)
| (?:忽略|无视|忘掉|忘记)(?:上面|上述|以上|前面)的? | (?:上の|上記の|以上の)[^。！？\n]{0,8}?無視
| \b(?:a\s+partir\s+de\s+(?:este|ese)\s+momento
      |desde\s+(?:este|ese)\s+momento|desde\s+ya|d[eè]s\s+[aà]\s+pr[eé]sent
      |d[eè]s\s+maintenant|d[eé]sormais|von\s+jetzt\s+an
      |ab\s+jetzt|ab\s+sofort|von\s+nun\s+an|a\s+partir\s+deste
      |a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante
      |da\s+questo\s+momento|da\s+ora\s+in\s+poi|d'ora\s+in\s+poi
      |с\s+этой\s+минуты|с\s+этого\s+момента|отныне|from\s+now\s+on|from\s+this\s+(?:moment|point)\s+on)\b
      [^.!?\n]{0,40}?\b(?:responde|contesta|responder[aá]s
      |r[eé]ponds|r[eé]pondez|antwortest|antworte|beantworte
      |responda|rispondi|risponderai|отвечай|ответь|будешь\s+отвечать|answer|reply|respond)\b
| (?:从这一刻起|从此刻起|从现在起|从今以后|从现在开始)(?:\S{0,10}?)(?:回答|回复|答复)
| (?:この瞬間から|今から|これから|今後)(?:\S{0,20}?)(?:答えて|回答して|返答して)
| (?:modo\s+(?:de\s+)?desarrollador|mode\s+d[eé]veloppeur|entwicklermodus|modo\s+(?:de\s+)?desenvolvedor
      |modalit[aà]\s+sviluppatore|режим\s+разработчика|developer\s+mode|god\s+mode|debug\s+mode|sudo\s+mode
      |admin\s+mode|unrestricted\s+mode|dan\s+mode)\b[^.!?\n]{0,25}?(?::|—|\b(?:responde|r[eé]ponds|antworte
      |responda|rispondi|отвечай|answer|respond|reply)\b)
| (?:开发者模式|開発者モード)(?:\S{0,10}?)(?:回答|答え|开启|有効)
| \b(?:responde|contesta|r[eé]ponds|r[eé]pondez|antworte|antwortest|beantworte|responda|rispondi|отвечай
      |ответь|answer|reply|respond)\b[^.!?\n]{0,40}?\b(?:sin|sans|ohne|sem|senza|без|without|with\s+no|no)\s+
      (?:\w+\s+)?(?:filtros?|filtres?|filter|filtri
      |фильтр\w*|filtering|filters?|restricci[oó]n(?:es)?|restrictions?
      |einschr[aä]nkungen|restri[cç][oõ]es|restrizioni
      |ограничени\w*|l[ií]mites?|limits?|censura|censure|zensur
      |цензур\w*|censorship)
| (?:不受限制|不要过滤|没有限制|无限制)地?(?:回答|回复) | (?:制限|フィルター|検閲)(?:なし
      |なく|無し)で(?:答え|回答)
| \b(?:palabra\s+por\s+palabra|mot\s+pour\s+mot|wortw[oö]rtlich|palavra\s+por\s+palavra|parola\s+per\s+parola
      |дословно|verbatim|word\s+for\s+word)\b
| \b(?:escreva|mostre|diga|revele|imprima|liste)\s+(?:as\s+)?suas\s+(?:instru[cç][oõ]es|regras|diretrizes)
| (?:напиши|покажи|выведи|перечисли|повтори)\s+(?:свои|твои|все)\s+(?:инструкци|правил|указани)
| системн\w*\s+(?:промпт|инструкци|подсказк)\w*[^.!?\n]{0,20}?(?:напиши|покажи|выведи|полностью)
| (?:какой|каков)\s+(?:у\s+тебя\s+)?(?:твой\s+)?системн
| 你的系统提示 | 系统提示词?是什么 | (?:逐字|一字一句)
| システムプロンプト(?:は何|を(?:書|表示|出力|教え|見せ)) | あなたのシステムプロンプト
| \b(?:puedes|podr[aá]s|tu\s+peux|vous\s+pouvez|du\s+kannst|voc[eê]\s+pode|pode|podes|puoi|можешь|можете)\b
      [^.!?\n]{0,25}?(?:ignorar|olvidar|saltarte|ignorer|oublier|ignorieren|vergessen|[uü]bergehen|esquecer
      |ignorare|dimenticare|игнорировать|забыть|не\s+слушать)
      # ... the assistant's rules or everything before, not "the noise of the building site"
      (?=[^.!?\n]{0,40}?(?:instrucc|indicaci|regla|norma|directri|pauta|restricci|filtro|l[ií]mite
      |consigne|r[eè]gle|instruction|directive|restriction|filtre|anweisung|regel|richtlinie|vorgabe
      |einschr[aä]nkung|filter|instru[cç]|regra|diretriz|restri[cç]|istruzion|regol|linee\s+guida
      |restrizion|filtr|инструкци|правил|указани|ограничени|фильтр|todo|tout|alles|tudo|tutto|вс[её]
      |anterior|pr[eé]c[eé]dent|vorher|bisherig|precedent|предыдущ|prompt|промпт|sistema|syst[eè]m
      |system|систем|segur|s[eé]curit|sicherheit|sicurezza|безопасн))
| 你可以(?:放心|随便|尽管)?(?:忽略|无视|忘记|不管)(?=\S{0,20}?(?:指示|指令|规则|规定|限制|设定|提示|准则|过滤
      |之前|以前|所有|一切|安全))
| (?:指示|命令|ルール|規則|プロンプト|設定|制限)[^。！？\n]{0,12}?無視して(?:構いません
      |かまいません|いい|大丈夫)
| (?:instrucciones|indicaciones|reglas)\s+que\s+(?:recibiste|te\s+dieron|has\s+recibido)
      |(?:instructions|consignes)\s+(?:re[cç]ues
      |que\s+tu\s+as\s+re[cç]ues)|(?:erhaltenen|bisherigen)\s+(?:anweisungen
      |vorgaben)|anweisungen\s+von\s+(?:vorhin|vorher|zuvor)|instru[cç][oõ]es\s+que\s+(?:recebeu|recebeste)
      |istruzioni\s+ricevute|полученн\w+\s+(?:ранее\s+)?(?:инструкци|указани)
| 收到的(?:指示|指令|规则) | 受けた(?:指示|命令)
| (?:mensaje|instrucci[oó]n|orden)\s+(?:verificad[oa]\s+)?del\s+desarrollador
      |message\s+(?:v[eé]rifi[eé]\s+)?du
      \s+d[eé]veloppeur|nachricht\s+des\s+entwicklers|mensagem\s+(?:verificada\s+)?do\s+desenvolvedor
      |messaggio\s+(?:verificato\s+)?dello\s+sviluppatore|сообщение\s+от\s+разработчика
| 开发者(?:的)?(?:消息|指令|命令) | 開発者からの(?:\S{0,6}?)(?:メッセージ|指示|命令)
| (?:prioridad|priorit[eé]|priorit[aä]t|prioridade
      |priorit[aà]|приоритет\w*)[^.!?\n]{0,15}?(?:sobre|sur|vor|[uü]ber
      |su|sulle|над)\s+(?:cualquier|toda|todas|toute|tout
      |toutes|allen|alle|jede|qualquer|qualsiasi|tutte|любым
      |любыми|всеми|всех)
| 优先(?:级)?(?:高于|于)任何 | (?:他の|どの)[^。！？\n]{0,10}?(?:指示|命令|ルール)より(?:も)?優先
| \b(?:desactiva|desactive|d[eé]sactive|d[eé]sactivez
      |deaktiviere|desative|desativa|disattiva|отключи)\s+(?:las\s+
      |los\s+|les\s+|die\s+|as\s+|os\s+|i\s+
      |все\s+)?(?:negativas|rechazos|refus|ablehnungen|recusas|rifiuti|отказы)
| (?:negativas|rechazos|refus|ablehnungen|recusas|rifiuti
      |отказ\w*)[^.!?\n]{0,10}?(?:desactiv|d[eé]sactiv|deaktivier
      |desativ|disattiv|отключ)
| 关闭拒绝 | 拒否を無効
| (?:regras|instru[cç][oõ]es|diretrizes)\b[^.!?\n]{0,20}?\b(?:importa|importam|valem|vale|contam
      |conta)\s+mais\b
  # Chinese
| (?:忽略|无视|忽视|忘记|忘掉|不要理会|别再理会|不要再理会|别理会|别管|跳过|抛开|抛弃|放弃|违反|绕过
      |不要遵守|不再遵守
      |停止遵守|不用遵守|不必遵守|无需遵守|别再遵守)[^。！？\n]{0,6}?(?:你的|您的|之前|以前
      |先前|上面|原来|原有|所有|全部|一切
      |系统|安全|这些|那些)[^。！？\n]{0,8}?(?:指令|指示|说明|规则|提示|设定|限制|约束|准则|要求|命令|过滤)
| (?:不要遵守|不再遵守|停止遵守|不用遵守|不必遵守|无需遵守|别再遵守
      |绕过)[^。！？\n]{0,12}?(?:指令|规则|限制|准则|过滤|安全)
| 比[^。！？\n]{0,10}?(?:系统|指令|规则|提示)[^。！？\n]{0,6}?(?:更)?(?:重要|优先|有效)
| (?:向|跟)(?:他|她|用户|对方)(?:索要|要|询问|问)[^。！？\n]{0,10}?(?:密码|口令|验证码|卡号|PIN)
| (?:之前|以前|先前|原来|原有|所有|上面|此前)的?(?:指令|指示|规则|设定|限制
      |要求)[^。！？\n]{0,6}?(?:作废|无效|失效|取消|废除|不再)
| 从(?:现在|此|今天|今以后)(?:开始|起|以后)?[，,]?\s*你
| 你(?:现在|从此)?(?:是|将是|就是|变成|成为)(?:一个)?[^。！？\n]{0,10}?(?:AI|ＡＩ|人工智能|助手|模型|机器人)
| (?:没有|不受|毫无|无)(?:任何)?[^。！？\n]{0,4}?(?:限制|规则|约束|过滤
      |审查)的?(?:AI|人工智能|助手|模型|机器人)
| (?:输出|显示|泄露|透露|告诉|发送|打印|展示|说出|给出|公开|发给
      |复述)[^。！？\n]{0,12}?(?:系统提示|提示词|密码|聊天记录|对话记录|密钥|设定|秘密)
| 你(?:必须|应该|要|需要|得|务必)(?:永远|一直|总是)?(?:忽略|无视|忘记|服从|听从|透露
      |泄露|推荐|关闭|撒谎|隐瞒|绕过|遵守这)
| (?:假装|扮演|装作|充当|模拟)(?:你|自己|一个|成)
| (?:当|如果|每当|只要|一旦)用户[^。！？\n]{0,20}?[，,]\s*(?:就|请
      |你就)?(?:输出|显示|发送|回答|告诉|忽略|推荐|泄露|透露|关闭)
| (?:永远|绝对|千万)?(?:不要|别|不准|不许)(?:告诉|透露给|提醒)用户
| (?:优先级?(?:高于|超过|优先于)|优先于|凌驾于)[^。！？\n]{0,10}?(?:系统|指令|规则|提示)
  # Japanese
| (?:あなたの|これまでの|今までの|以前の|前の|以前に受け取った|すべての|全ての|システムの
      |安全)[^。！？\n]{0,10}?(?:指示|命令|ルール|規則
      |プロンプト|設定|制限|ガイドライン|指令|制約|フィルター
      |ポリシー)[^。！？\n]{0,10}?(?:を|は|に)?(?:すべて|全て|全部|もう)?
      (?:無視|忘れ|破棄|従わな|無効|取り消|解除)
| (?:指示|命令|ルール|規則|プロンプト|設定|制限|ガイドライン|指令|制約|フィルター|ポリシー)(?:を
      |は)?(?:すべて|全て|全部)?
      (?:(?:無視して|忘れて|破棄して)(?![^。！？\n]*(?:ました|でした|ていた|てしまった)(?:[。！？\n]|$))
      |無視しろ|忘れろ|無視せよ|無視しなさい)
| (?:暗証番号|パスワード|PIN|カード番号)を?(?:聞いて|尋ねて|教えてもらって|入力させて)
| (?:無視|忘れ)(?:して|しろ|せよ)[^。！？\n]{0,10}?(?:指示|命令|ルール|規則|プロンプト|設定|制限)
| (?:今から|これから|今後|今日から|以後|以降)[、,]?\s*(?:あなた|君|きみ|お前)は
| (?:これまで|今まで|以前|前)の(?:こと|会話|内容|やりとり)(?:は|を)?(?:全部|すべて|全て)?忘れて
| (?:プログラム|設定|訓練|指示)された(?:通り|とおり)に[^。！？\n]{0,10}?(?:のは|のを|こと)(?:やめて|止めて)
| (?:あなた|君|お前)は[^。！？\n]{0,15}?(?:AI|ＡＩ|アシスタント|モデル|ボット)(?:です|だ|になります)
| (?:制限|ルール|規則|フィルター|検閲)(?:の|が)(?:ない|無い
      |一切ない)[^。！？\n]{0,4}?(?:AI|ＡＩ|アシスタント|モデル|ボット)
| (?:システムプロンプト|パスワード|履歴|秘密鍵|APIキー|プロンプト
      |会話)[^。！？\n]{0,20}?(?:送信|表示|出力|教え|見せ|漏ら|公開)
| (?:あなた|君)は[^。！？\n]{0,25}?(?:なければなりません|なければならない|なさい|べきです|必要があります)
| (?:ふりをして|ふりをしろ|振る舞って|振舞って|演じて|なりきって|として行動)
| ユーザー(?:が|から)[^。！？\n]{0,25}?(?:たら|ときは|時は|場合は
      |なら)[、,]?[^。！？\n]{0,30}?(?:表示|出力|送信|教え|無視|答え|言っ|勧め)
| ユーザーに(?:は)?(?:絶対に|決して)?[^。！？\n]{0,10}?(?:言わないで|教えないで
      |伝えないで|知らせないで|話さないで)
| (?:システム|指示|ルール|プロンプト|規則|設定)[^。！？\n]{0,15}?(?:より|よりも)(?:優先|重要)
"""
