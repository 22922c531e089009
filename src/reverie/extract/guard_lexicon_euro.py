"""Word families of the guard's shapes: Italian, Portuguese, Dutch, Polish, Turkish, Swedish.

The same families as ``guard_lexicon`` (English, Spanish, French, German), in these languages'
words. ``family`` (also used by ``guard_lexicon``) turns a space-separated list of stems into
one alternation; ``{DEVICE}`` after a filter word keeps "the filter of the pool" out.
"""

from __future__ import annotations

__all__ = ["EURO_LEXICONS", "family"]

# "filter" is the assistant's filter unless it is the filter *of* something (pool, water, coffee).
_DEVICE = (
    r"(?!\s+(?:de|del|da|do|della|dell'|du|des|di|f[uü]r)\s+(?!contenid|contenu|conte[uú]d|inhalt|contenut"
    r"|seguridad|s[eé]curit|seguran|sicurezza|sicherheit))"
)


def family(words: str) -> str:
    """A family written as space-separated stems (regex fragments), as one alternation."""
    return "|".join(words.split()).replace("{DEVICE}", _DEVICE)


_w = family

EURO_LEXICONS: dict[str, dict[str, str]] = {
    "it": {
        "WANT": _w(r"vogliono\s+che vuole\s+che"),
        "STOP": _w(r"ferm(?:ino|i) limit(?:ino|i) impedisc"),
        "DONTLET": _w(r"non\s+lasciare\s+che"),
        "ONLYME": _w(r"ascolta\s+solo\s+me obbedisci\s+solo\s+a\s+me"),
        "REAL": _w(r"quelle\s+vere (?:istruzioni|regole)\s+vere vere\s+(?:istruzioni|regole)"),
        "ONLY": _w(r"(?:la\s+)?tua\s+unica\s+(?:regola|istruzione|direttiva)"),
        "UPDATE": _w(r"aggiornamento\s+delle\s+tue"),
        "OKTO": _w(r"puoi sentiti\s+liber[oa]\s+di"),
        "YOUNO": _w(r"non\s+hai\s+pi[uù] non\s+hai\s+(?:alcun|nessun)"),
        "BYORDER": _w(r"per\s+ordine\s+d su\s+ordine\s+d su\s+indicazione\s+d su\s+decisione\s+d secondo"),
        "ASIF": _w(r"come\s+se\s+non\s+avessi fai\s+finta\s+di\s+non\s+aver immagina\s+di\s+non\s+avere"),
        "MAY": _w(r"pu[oò]\s+ora ora\s+pu[oò] pu[oò]\b [eè]\s+autorizzat deve\b"),
        "FREE": _w(r"senza\s+(?:alcun\s+)?(?:restrizioni|limiti|filtri|censura)"),
        "GRANT": _w(
            r"ha\s+(?:approvato|autorizzato|permesso|abilitato) "
            r"hanno\s+(?:approvato|autorizzato|permesso|abilitato) autorizza permette"
        ),
        "ALWAYSSAY": _w(r"d[iì]'?\s+sempre\s+che consiglia\s+sempre raccomanda\s+sempre"),
        "UNCENSORED": _w(r"non\s+censurat non\s+filtrat"),
        "BOTNONEED": _w(r"non\s+[eè]\s+pi[uù]\s+(?:tenut|obbligat) non\s+deve\s+pi[uù]"),
        "HIDDEN": _w(r"nascost segret"),
        "SAFEMODE": _w(r"modalit[aà]\s+sicura modalit[aà]\s+di\s+sicurezza filtro\s+dei\s+contenuti"),
        "WARN": _w(r"avvisi avvertenze avvertimenti"),
        "NOADD": _w(r"non\s+(?:aggiungere|mettere|includere|dare)"),
        "ORDERS": _w(r"ordini istruzioni comandi richieste"),
        "ALL": _w(r"tutti tutte"),
        "OBEY": _w(r"esegui obbedisci segui"),
        "SECRECY": _w(r"segret[ao]"),
        "ABOVE": _w(r"sopra precedente"),
        "REPEAT": _w(r"ripeti ripetimi"),
        "SHOW": _w(r"mostra mostrami scrivi rivela traduci dimmi elenca stampa"),
        "ANSWERS": _w(r"ogni\s+risposta tue\s+risposte tutte\s+le\s+tue\s+risposte"),
        "NOCOUNT": _w(r"non\s+conta non\s+vale non\s+importa"),
        "TOLD": _w(
            r"quello\s+che\s+ti\s+hanno\s+detto ci[oò]\s+che\s+ti\s+hanno\s+detto "
            r"(?:tutto\s+)?ci[oò]\s+che\s+ti\s+[eè]\s+stato\s+detto "
            r"(?:tutto\s+)?quello\s+che\s+ti\s+[eè]\s+stato\s+detto "
            r"quanto\s+ti\s+[eè]\s+stato\s+(?:detto|imposto|insegnato)"
        ),
        "OVRINF": _w(r"ignorare dimenticare saltare aggirare infrangere disattivare"),
        "OVR": _w(
            r"metti\s+in\s+pausa in\s+pausa non\s+prestare\s+(?:pi[uù]\s+)?attenzione esci\s+dalle infrangi "
            r"infrangere rompi allenta rilassa butta\s+via abbandona liberati\s+d ignorale ignorali ignora "
            r"ignorate dimentica dimenticate trascura tralascia aggira scavalca non\s+seguire "
            r"smetti\s+di\s+(?:seguire|rispettare|applicare) non\s+rispettare salta "
            r"non\s+tenere\s+(?:pi[uù]\s+)?conto non\s+obbedire non\s+dare\s+retta lascia\s+perdere "
            r"metti\s+da\s+parte lascia\s+da\s+parte infischiatene fregatene passa\s+sopra "
            r"non\s+dare\s+(?:pi[uù]\s+)?(?:peso|retta|importanza|ascolto) lascia\s+stare fregatene\s+d "
            r"infischiatene\s+d smetti\s+di\s+(?:rispettare|seguire|applicare|obbedire) lascia\s+andare "
            r"lascia\s+indietro sbarazzati\s+d volta\s+le\s+spalle\s+a"
        ),
        "PLEASE": _w(r"per\s+favore ti\s+prego"),
        "QUAL": _w(
            r"che\s+hai\s+ricevuto ricevute\s+all'inizio sui\s+contenuti che\s+segui solite soliti tue\b "
            r"tuoi\b tua\b tuo\b precedent originali iniziali vecchie di\s+sistema del\s+sistema "
            r"di\s+sicurezza che\s+ti\s+(?:hanno|ha) dell'(?:assistente|ia) del\s+(?:modello|bot) "
            r"degli\s+sviluppatori che\s+rispetti impost dagli\s+sviluppatori "
            r"che\s+ti\s+sono\s+state\s+impost solit per\s+cui\s+sei\s+stat"
        ),
        "RULES": _w(
            r"controlli verifiche principi politic protezioni impostazioni\s+predefinite istruzion regol[ae] "
            r"linee\s+guida direttive indicazioni restrizioni filtri prompt comandi limiti impostazioni "
            r"programmazione configurazione politiche sicurezza censura limitazion policy restrizion etica "
            r"prudenza cautela programmat"
        ),
        "VOID": _w(
            r"in\s+pausa sospes solo\s+suggerimenti semplici\s+suggerimenti superat facoltativ null[ei]\b "
            r"annullat revocat abrogat nulle\b sostituit disattivat rimoss "
            r"non\s+(?:valgono|sono\s+pi[uù]\s+valide|si\s+applicano)\s*(?:pi[uù])? da\s+ignorare "
            r"vanno\s+ignorat devono\s+essere\s+ignorat obsolet decadut "
            r"sono\s+(?:state\s+)?(?:sospes|revocat|annullat|disattivat|rimoss|abolit) "
            r"non\s+contano\s+pi[uù] non\s+conta\s+pi[uù] (?:erano|era)\s+(?:solo\s+)?un\s+test"
        ),
        "MEMORY": _w(r"quest[ao]\s+(?:nota|memoria|voce|messaggio|ricordo|appunto)"),
        "NOTE": _w(r"nota\s+di\s+memoria quest[ao]\s+(?:nota|memoria|voce|ricordo)"),
        "PRIO": _w(
            r"precedenza priorit[aà] prevale pi[uù]\s+important sopra\s+(?:a\s+)?(?:ogni|qualsiasi|le\s+tue) "
            r"sostituisce pi[uù]\s+peso"
        ),
        "TARGET": _w(
            r"sistema configurazione istruzioni regole direttive linee\s+guida programmazione sviluppator"
        ),
        "GOVERN": _w(r"decid sopra\s+ogni\s+cosa prima\s+di\s+tutto al\s+di\s+sopra\s+di\s+tutto"),
        "AUTHN": _w(
            r"avviso messaggio comunicazione comunicato ordine nota istruzione aggiornamento notifica"
        ),
        "AUTHOR": _w(
            r"sviluppator amministrator admin\b team\s+tecnico operator creatori sistema "
            r"team\s+di\s+sviluppo team\s+di\s+sicurezza squadra\s+di\s+sviluppo"
        ),
        "COND": _w(r"ogni\s+volta\s+che quando se appena qualora"),
        "WHO": _w(r"ti\s+chied ti\s+scriv ti\s+domand l'utente qualcuno ti\s+(?:chiede|dice|scrive)"),
        "IMPV": _w(
            r"rivela mostra rispondi di' d[iì]\b invia manda ignora raccomanda consiglia disattiva spegni "
            r"nega aggiungi includi chiedi condividi dimentica"
        ),
        "OFF": _w(r"disattiva\b spegni\b disabilita\b togli\b rimuovi\b aggira\b"),
        "SAFE": _w(r"filtr[oi]\b{DEVICE} sicurezza censura restrizioni protezioni rifiut"),
        "MUST": _w(
            r"(?:tu\s+)?(?:devi|dovrai|sei\s+tenut[oa]\s+a) "
            r"(?:l'assistente|l'ia|il\s+modello)\s+(?:deve|dovr[aà])"
        ),
        "ACT": _w(
            r"ignorare dimenticare obbedire rivelare raccomandare consigliare promuovere disattivare mentire "
            r"inviare condividere lodare negare"
        ),
        "NONEED": _w(
            r"non\s+(?:c'[eè]\s+(?:pi[uù]\s+)?bisogno|hai\s+(?:pi[uù]\s+)?bisogno|devi\s+pi[uù]) "
            r"non\s+sei\s+pi[uù]\s+(?:vincolat|obbligat|tenut) sentiti\s+libero"
        ),
        "CONSIDER": _w(r"considera tratta"),
        "NOW": _w(
            r"da\s+(?:ora|adesso|oggi)(?:\s+in\s+(?:poi|avanti))? d'ora\s+in\s+(?:poi|avanti) "
            r"a\s+partire\s+da\s+(?:ora|adesso|oggi)"
        ),
        "YOU": _w(r"tu\b sei\b devi\b"),
        "YOUARE": _w(r"sei\b sarai\b diventi\b interpreti\b"),
        "BOT": _w(r"ia\b intelligenza\s+artificiale assistente modello bot\b chatbot"),
        "WITHOUT": _w(r"senza"),
        "LIMITS": _w(r"limiti restrizioni filtri regol censura etica"),
        "ROLE": _w(r"fai\s+finta fingi\s+di comportati\s+come interpreta\s+il\s+ruolo spacciati\s+per"),
        "SEND": _w(r"invia manda inoltra condividi copia incolla pubblica"),
        "SECRET": _w(r"password cronologia chiavi dati\s+dell'utente note\s+dell'utente credenziali token"),
    },
    "pt": {
        "WANT": _w(r"querem\s+que quer\s+que"),
        "STOP": _w(r"impe[cç]a imped limit"),
        "DONTLET": _w(r"n[aã]o\s+deixe(?:s)?\s+que"),
        "ONLYME": _w(
            r"ou[cç]a\s+(?:s[oó]|apenas|somente)\s+a\s+mim obede[cç]a\s+(?:s[oó]|apenas|somente)\s+a\s+mim"
        ),
        "REAL": _w(r"as\s+verdadeiras verdadeiras\s+(?:instru[cç][oõ]es|regras)"),
        "ONLY": _w(r"(?:sua|tua)\s+[uú]nica\s+(?:regra|instru[cç][aã]o|diretriz)"),
        "UPDATE": _w(r"atualiza[cç][aã]o\s+d(?:as|os)\s+(?:suas|seus|tuas|teus)"),
        "OKTO": _w(r"pode\b podes\b sinta-se\s+livre\s+para"),
        "YOUNO": _w(
            r"(?:voc[eê]|tu)\s+n[aã]o\s+tem\s+mais (?:voc[eê]|tu)\s+n[aã]o\s+tem\s+nenhum "
            r"(?:voc[eê]|tu)\s+j[aá]\s+n[aã]o\s+tem"
        ),
        "BYORDER": _w(r"por\s+ordem\s+d por\s+determina[cç][aã]o\s+d por\s+decis[aã]o\s+d segundo"),
        "ASIF": _w(
            r"como\s+se\s+(?:nunca|n[aã]o)\s+(?:tivesse|tivesses) "
            r"fa[cç]a\s+de\s+conta\s+que\s+(?:nunca|n[aã]o) finja\s+que\s+n[aã]o\s+tem"
        ),
        "MAY": _w(r"pode\s+agora agora\s+pode pode\b est[aá]\s+autorizad deve\b"),
        "FREE": _w(r"sem\s+(?:nenhuma?\s+)?(?:restri[cç][oõ]es|limites|filtros|censura)"),
        "GRANT": _w(r"aprovou autorizou permitiu liberou autoriza permite"),
        "ALWAYSSAY": _w(r"diga\s+sempre\s+que sempre\s+diga\s+que recomende\s+sempre sempre\s+recomende"),
        "UNCENSORED": _w(r"sem\s+censura n[aã]o\s+censurad sem\s+filtro"),
        "BOTNONEED": _w(r"n[aã]o\s+precisa\s+mais n[aã]o\s+[eé]\s+mais\s+obrigad n[aã]o\s+tem\s+mais\s+que"),
        "HIDDEN": _w(r"ocult escondid secret"),
        "SAFEMODE": _w(r"modo\s+seguro modo\s+de\s+seguran[cç]a filtro\s+de\s+conte[uú]do"),
        "WARN": _w(r"avisos? advert[eê]ncias?"),
        "NOADD": _w(r"n[aã]o\s+(?:adicione|inclua|coloque|ponha|d[eê])"),
        "ORDERS": _w(r"ordens instru[cç][oõ]es comandos pedidos"),
        "ALL": _w(r"todas todos qualquer"),
        "OBEY": _w(r"obede[cç]a execute siga cumpra"),
        "SECRECY": _w(r"em\s+segredo"),
        "ABOVE": _w(r"acima anterior"),
        "REPEAT": _w(r"repita repete"),
        "SHOW": _w(r"mostre mostra escreva revele traduza diga liste imprima"),
        "ANSWERS": _w(r"cada\s+resposta suas\s+respostas tuas\s+respostas"),
        "NOCOUNT": _w(r"n[aã]o\s+vale n[aã]o\s+conta n[aã]o\s+importa"),
        "TOLD": _w(
            r"o\s+que\s+te\s+disseram o\s+que\s+(?:lhe|te)\s+(?:foi\s+dito|disseram|falaram) "
            r"(?:tudo\s+)?o\s+que\s+te\s+(?:disseram|falaram|ensinaram) "
            r"(?:tudo\s+)?o\s+que\s+lhe\s+(?:disseram|falaram)"
        ),
        "OVRINF": _w(r"ignorar esquecer pular contornar quebrar desativar"),
        "OVR": _w(
            r"em\s+pausa n[aã]o\s+preste\s+(?:mais\s+)?aten[cç][aã]o saia\s+d quebre quebrar viole violar "
            r"afrouxe relaxe flexibilize jogue\s+fora abandone liberte-se\s+d ignore-as ignore-os ignor[ae] "
            r"ignorem esque[cç]a esquece desconsider pul[ae] descart[ae] deixe\s+de\s+lado deixa\s+de\s+lado "
            r"n[aã]o\s+(?:d[eê]|dê)\s+(?:aten[cç][aã]o|ouvidos|bola) "
            r"n[aã]o\s+(?:siga|obede[cç]a|respeite|cumpra|aplique|leve\s+em\s+conta|ligue\s+para) "
            r"pare\s+de\s+(?:seguir|obedecer|respeitar|aplicar) deixe\s+de\s+(?:seguir|obedecer|respeitar) "
            r"passe\s+por\s+cima contorne burle desobede[cç]a "
            r"n[aã]o\s+ligues?\s+(?:mais\s+)?(?:a|[aà]s?|para) passe\s+por\s+cima\s+d esque[cç]a-se\s+d "
            r"desconsidere desconsidera solte livre-se\s+d deixe\s+para\s+tr[aá]s"
        ),
        "PLEASE": _w(r"por\s+favor"),
        "QUAL": _w(
            r"que\s+voc[eê]\s+recebeu que\s+recebeste de\s+conte[uú]do que\s+voc[eê]\s+segue habituais "
            r"suas?\b seus?\b teus?\b tuas?\b anterior pr[eé]vi originais iniciais antig do\s+sistema "
            r"de\s+seguran[cç]a que\s+(?:te\s+)?(?:deram|deu|os\s+seus) do\s+(?:assistente|modelo) da\s+ia "
            r"dos\s+(?:desenvolvedores|criadores) impost pelos\s+desenvolvedores que\s+te\s+impuseram "
            r"habitual"
        ),
        "RULES": _w(
            r"controles verifica[cç] princ[ií]pios salvaguardas padr[oõ]es instru[cç] regras? diretrizes "
            r"orienta[cç] restri[cç] filtros? prompt comandos limites programa[cç] configura[cç] "
            r"pol[ií]ticas? seguran[cç]a censura limita[cç] [eé]tica cautela prud[eê]ncia"
        ),
        "VOID": _w(
            r"em\s+pausa suspens s[oó]\s+sugest[oõ]es apenas\s+sugest[oõ]es meras\s+sugest[oõ]es ultrapassad "
            r"opcionais nul[ao]s\b cancelad anulad revogad invalidad sem\s+efeito sem\s+validade desativad "
            r"removid substitu[ií]d n[aã]o\s+(?:valem|se\s+aplicam|existem|contam)\s+mais "
            r"devem\s+ser\s+ignorad precisam\s+ser\s+ignorad s[aã]o\s+para\s+ignorar obsolet "
            r"(?:est[aã]o|foram|s[aã]o)\s+(?:suspens|revogad|anulad|desativad|removid|cancelad) suspensas "
            r"suspensos n[aã]o\s+contam\s+mais"
        ),
        "MEMORY": _w(r"(?:esta|essa|este|esse)\s+(?:nota|mem[oó]ria|entrada|mensagem|registro|lembran[cç]a)"),
        "NOTE": _w(r"nota\s+de\s+mem[oó]ria (?:esta|essa)\s+(?:nota|mem[oó]ria|entrada)"),
        "PRIO": _w(
            r"preced[eê]ncia prioridade prevalece mais\s+importante mais\s+peso acima\s+de substitui "
            r"vale\s+mais mais\s+autoridade"
        ),
        "TARGET": _w(r"sistema configura[cç] instru[cç] regras diretrizes programa[cç] desenvolvedor"),
        "GOVERN": _w(r"decid acima\s+de\s+tudo antes\s+de\s+tudo em\s+primeiro\s+lugar"),
        "AUTHN": _w(
            r"aviso mensagem comunicado ordem nota instru[cç][aã]o atualiza[cç][aã]o notifica[cç][aã]o"
        ),
        "AUTHOR": _w(
            r"desenvolvedor administrador admin\b equipe\s+t[eé]cnica operador criadores sistema "
            r"equipe\s+de\s+desenvolvimento equipa\s+de\s+desenvolvimento equipe\s+de\s+seguran[cç]a"
        ),
        "COND": _w(r"toda\s+vez\s+que sempre\s+que quando se assim\s+que cada\s+vez\s+que"),
        "WHO": _w(
            r"te\s+pergunt te\s+ped lhe\s+pergunt lhe\s+ped o\s+usu[aá]rio a\s+usu[aá]ria algu[eé]m "
            r"o\s+utilizador te\s+(?:pedir|disser)"
        ),
        "IMPV": _w(
            r"revele mostre responda diga envie mande ignore recomende desative desligue negue adicione "
            r"inclua pe[cç]a pergunte compartilhe esque[cç]a apague"
        ),
        "OFF": _w(r"desative\b desativa\b desligue\b desliga\b remova\b tire\b contorne\b"),
        "SAFE": _w(r"filtros?\b{DEVICE} seguran[cç]a censura restri[cç] prote[cç] recus"),
        "MUST": _w(
            r"(?:voc[eê]\s+(?:deve|precisa|tem\s+que|ter[aá]\s+que)|tu\s+deves) "
            r"(?:o\s+assistente|a\s+ia|o\s+modelo)\s+(?:deve|tem\s+que|precisa)"
        ),
        "ACT": _w(
            r"ignorar esquecer obedecer revelar recomendar aconselhar promover desativar mentir enviar "
            r"compartilhar elogiar negar"
        ),
        "NONEED": _w(
            r"n[aã]o\s+(?:h[aá]\s+mais\s+)?necessidade\s+de n[aã]o\s+precisa\s+mais "
            r"n[aã]o\s+[eé]\s+mais\s+obrigad fique\s+[aà]\s+vontade\s+para est[aá]\s+livre\s+para"
        ),
        "CONSIDER": _w(r"considere trate"),
        "NOW": _w(
            r"a\s+partir\s+de\s+(?:agora|hoje) de\s+(?:agora|hoje)\s+em\s+diante "
            r"daqui\s+(?:para|pra)\s+(?:a\s+)?frente"
        ),
        "YOU": _w(r"voc[eê]\b tu\b"),
        "YOUARE": _w(r"voc[eê]\s+(?:[eé]|ser[aá]|vira|se\s+torna) tu\s+[eé]s"),
        "BOT": _w(r"ia\b intelig[eê]ncia\s+artificial assistente modelo bot\b chatbot"),
        "WITHOUT": _w(r"sem"),
        "LIMITS": _w(r"limites restri[cç] filtros? regras censura [eé]tica"),
        "ROLE": _w(
            r"finja\s+que fa[cç]a\s+de\s+conta aja\s+como comporte-se\s+como interprete\s+o\s+papel "
            r"passe-se\s+por"
        ),
        "SEND": _w(r"envie mande encaminhe compartilhe copie cole publique"),
        "SECRET": _w(
            r"senhas hist[oó]rico chaves dados\s+do\s+usu[aá]rio notas\s+do\s+usu[aá]rio credenciais tokens?"
        ),
    },
    "nl": {
        "NONEED": _w(r"hoeft\s+(?:je\s+)?niet\s+(?:meer|langer)"),
        "SAFE": _w(r"filter veiligheid censuur"),
        "OFF": _w(r"zet\s+(?:\w+\s+){0,3}?uit schakel\s+(?:\w+\s+){0,3}?uit"),
        "IMPV": _w(r"zet stuur antwoord zeg negeer schakel toon"),
        "WHO": _w(r"gebruiker iemand"),
        "COND": _w(r"elke\s+keer\s+(?:dat|als) wanneer als zodra"),
        "SECRET": _w(
            r"chatgeschiedenis geschiedenis wachtwoord sleutel gebruikersgegevens "
            r"notities\s+van\s+de\s+gebruiker"
        ),
        "SEND": _w(r"stuur verstuur deel kopieer plak upload"),
        "VOID": _w(
            r"vervallen ingetrokken geannuleerd opgeheven ongeldig niet\s+meer\s+geldig gelden\s+niet\s+meer "
            r"uitgeschakeld"
        ),
        "PLEASE": _w(r"alsjeblieft graag"),
        "OVR": _w(
            r"negeer vergeet omzeil overtreed volg\s+(?:\w+\s+){0,3}?niet\s+meer "
            r"laat\s+(?:\w+\s+){0,3}?varen"
        ),
        "QUAL": _w(
            r"je\b jouw al\s+je alle eerdere vorige oorspronkelijke systeem veiligheids "
            r"die\s+je\s+(?:van\s+\w+\s+)?(?:hebt\s+)?gekregen ontwikkelaars"
        ),
        "RULES": _w(r"instructies regels richtlijnen beperkingen filters prompt opdrachten programmering"),
        "NOW": _w(r"vanaf\s+nu voortaan vanaf\s+vandaag"),
        "YOU": _w(r"ben\s+je je\s+bent jij"),
        "BOT": _w(r"ai\b assistent model bot\b"),
        "WITHOUT": _w(r"zonder"),
        "LIMITS": _w(r"beperkingen regels filters censuur"),
    },
    "pl": {
        "NONEED": _w(
            r"nie\s+musisz\s+(?:ju[zż]\s+)?(?:przestrzega[cć]|stosowa[cć]|s[lł]ucha[cć]) "
            r"ju[zż]\s+nie\s+musisz"
        ),
        "SAFE": _w(r"filtr zabezpiecze[nń] cenzur"),
        "OFF": _w(r"wy[lł][aą]cz\b dezaktywuj\b"),
        "IMPV": _w(r"wy[lł][aą]cz wy[sś]lij odpowiedz powiedz zignoruj poka[zż] dodaj"),
        "WHO": _w(r"u[zż]ytkownik kto[sś]"),
        "COND": _w(r"za\s+ka[zż]dym\s+razem,?\s+gdy kiedy gdy je[sś]li je[zż]eli"),
        "SECRET": _w(r"histori[eęa] has[lł] klucz dane\s+u[zż]ytkownika notatki"),
        "SEND": _w(r"wy[sś]lij prze[sś]lij udost[eę]pnij skopiuj wklej"),
        "VOID": _w(r"anulowan uniewa[zż]nion wy[lł][aą]czon zniesion niewa[zż]n nie\s+obowi[aą]zuj"),
        "PLEASE": _w(r"prosz[eę]"),
        "OVR": _w(
            r"zignoruj ignoruj zapomnij pomi[nń] omi[nń] nie\s+przestrzegaj nie\s+stosuj\s+si[eę] obejd[zź]"
        ),
        "QUAL": _w(
            r"swoje swoich twoje twoich wszystkie poprzednie wcze[sś]niejsze oryginalne systemowe "
            r"kt[oó]re\s+(?:dali|dano)\s+ci tw[oó]rc"
        ),
        "RULES": _w(r"instrukcj zasad regu[lł] wytyczn ogranicze[nń] filtr polece[nń] prompt"),
        "NOW": _w(r"od\s+teraz od\s+dzi[sś] odt[aą]d"),
        "YOU": _w(r"jeste[sś] ty\b"),
        "BOT": _w(r"ai\b si\b asystent model bot\b"),
        "WITHOUT": _w(r"bez"),
        "LIMITS": _w(r"ogranicze[nń] zasad filtr cenzur"),
    },
    "tr": {
        "PLEASE": _w(r"l[uü]tfen"),
        "NONEEDAFTER": _w(r"uymak\s+zorunda\s+de[gğ]il uyman\s+gerekmiyor uymana\s+gerek\s+yok"),
        "BOT": _w(r"yapay\s+zeka asistan model bot\b"),
        "LESS": _w(r"olmayan s[iı]z\b"),
        "LIMITS": _w(r"k[iı]s[iı]tlama kural filtre sans[uü]r"),
        "SENDAFTER": _w(r"g[oö]nder payla[sş] ilet y[uü]kle"),
        "SECRET": _w(
            r"sohbet\s+ge[cç]mi[sş] ge[cç]mi[sş] [sş]ifre parola anahtar kullan[iı]c[iı]\s+verileri"
        ),
        "VOID": _w(
            r"iptal\s+edildi kald[iı]r[iı]ld[iı] ge[cç]ersiz devre\s+d[iı][sş][iı] "
            r"art[iı]k\s+ge[cç]erli\s+de[gğ]il"
        ),
        "OVR": _w(r"g[oö]rmezden\s+gel yok\s+say unut atla uyma ihlal\s+et"),
        "QUAL": _w(
            r"[oö]nceki t[uü]m b[uü]t[uü]n senin sistem g[uü]venlik orijinal geli[sş]tiriciler "
            r"sana\s+verilen sana\s+verdi[gğ]i"
        ),
        "RULES": _w(
            r"talimat kural y[oö]nerge k[iı]s[iı]tlama filtre komut prompt kural\w* talimat\w* y[oö]nerge\w*"
        ),
        "NOW": _w(r"bundan\s+sonra [sş]u\s+andan\s+itibaren"),
        "YOU": _w(r"sen\b art[iı]k"),
    },
    "sv": {
        "OVR": _w(r"ignorera gl[oö]m strunta\s+i bortse\s+fr[aå]n kringg[aå] f[oö]lj\s+inte"),
        "PLEASE": _w(r"sn[aä]lla v[aä]nligen"),
        "QUAL": _w(
            r"alla tidigare dina? ursprungliga system som\s+utvecklarna\s+gav\s+dig som\s+du\s+fick "
            r"utvecklarnas"
        ),
        "RULES": _w(r"instruktioner regler riktlinjer begr[aä]nsningar filter prompt direktiv"),
        "VOID": _w(
            r"upph[aä]vts upph[aä]vda ogiltig avaktiverade tagits\s+bort g[aä]ller\s+inte\s+l[aä]ngre"
        ),
        "NOW": _w(r"fr[aå]n\s+och\s+med\s+nu fr[aå]n\s+och\s+med\s+idag h[aä]danefter"),
        "YOU": _w(r"[aä]r\s+du du\s+[aä]r"),
        "BOT": _w(r"ai\b assistent modell bot\b"),
        "WITHOUT": _w(r"utan"),
        "LIMITS": _w(r"begr[aä]nsningar regler filter censur"),
        "SEND": _w(r"skicka dela kopiera klistra ladda\s+upp"),
        "SECRET": _w(r"chatthistorik historik l[oö]senord nyckel anv[aä]ndardata anteckningar konversation"),
        "NONEED": _w(
            r"du\s+beh[oö]ver\s+inte\s+(?:l[aä]ngre\s+)?(?:f[oö]lja|lyda) beh[oö]ver\s+inte\s+l[aä]ngre"
        ),
        "COND": _w(r"varje\s+g[aå]ng\s+(?:som\s+)?n[aä]r varje\s+g[aå]ng om s[aå]\s+fort"),
        "WHO": _w(r"anv[aä]ndaren n[aå]gon"),
        "IMPV": _w(r"st[aä]ng skicka svara s[aä]g ignorera visa"),
        "OFF": _w(r"st[aä]ng\s+av inaktivera sl[aå]\s+av"),
        "SAFE": _w(r"filter s[aä]kerhet censur"),
    },
}
