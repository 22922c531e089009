"""The words the claim reader knows: verbs and their forms, predicate synonyms, attributes, kinds.

Tables only; ``reverie.extract.claims`` reads facts with them. A word added here changes how
facts are read, so each group says what it is for.
"""

from __future__ import annotations

from reverie.text import WORD_NUMBERS

AUX = frozenset(
    "is are was were am be been being has have had does do did will would can could should may "
    "might must shall gets got".split()
)
COPULA = frozenset("is are was were am be been being".split())
PRE_VERB = frozenset(
    "now originally currently recently still also just always usually often sometimes already finally "
    "actually really rarely only mostly typically generally regularly occasionally newly seldom normally "
    "never not no since lately".split()
)
# Base forms of verbs that facts about people use; inflections are found by _lemma.
VERBS = frozenset(
    """
    live reside move relocate work teach study attend graduate own have drive ride play like love
    enjoy adore prefer hate dislike detest loathe speak read write watch listen cook bake eat drink
    smoke vape run jog swim hike cycle bike walk climb ski surf dance sing paint draw knit sew garden
    collect visit travel fly go come return stay sleep wake commute meet marry date divorce raise
    keep use wear need want plan train practice practise volunteer support follow belong serve
    manage lead run own rent lease build fix repair grow breed adopt foster care take give make
    celebrate observe avoid skip allergic fear suffer struggle take know learn coach mentor
    attend quit stop start begin gave give continue resume pick prepare brew order subscribe
    donate vote root cheer bet own sell buy bought lost lose win won earn weigh measure stand sit
    believe practice meditate pray fast snore commute shop host invest save spend turn retire raise
    switch change replace graduate die pass handle sleep prepare bank meet lift teach hire fire
    find cancel renew expire pay owe cost book schedule deliver collect sit feel swap trade
    call text email phone message nap cut dread migrate delete drop register
    reschedule postpone transfer shift track
    trust distrust agree disagree approve disapprove forget doubt accept reject refuse oppose
    include exclude allow forbid ban fail pass remember enjoy
    become upgrade downgrade promote land accept finish complete get join
    """.split()
)
IRREGULAR = {
    "broke": "break",
    "broken": "break",
    "went": "go",
    "going": "go",  # a stem of two letters is too short for the suffix rules of _lemma
    "doing": "do",
    "gone": "go",
    "goes": "go",
    "has": "have",
    "had": "have",
    "does": "do",
    "did": "do",
    "bought": "buy",
    "drove": "drive",
    "driven": "drive",
    "ate": "eat",
    "eaten": "eat",
    "drank": "drink",
    "drunk": "drink",
    "ran": "run",
    "swam": "swim",
    "flew": "fly",
    "flies": "fly",
    "met": "meet",
    "taught": "teach",
    "wrote": "write",
    "written": "write",
    "read": "read",
    "rode": "ride",
    "sang": "sing",
    "spoke": "speak",
    "spoken": "speak",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "made": "make",
    "kept": "keep",
    "left": "leave",
    "began": "begin",
    "begun": "begin",
    "grew": "grow",
    "grown": "grow",
    "sold": "sell",
    "won": "win",
    "lost": "lose",
    "wore": "wear",
    "worn": "wear",
    "slept": "sleep",
    "woke": "wake",
    "knew": "know",
    "known": "know",
    "built": "build",
    "spent": "spend",
    "got": "get",
    "gotten": "get",
    "came": "come",
    "fell": "fall",
    "stood": "stand",
    "sat": "sit",
    "studies": "study",
    "carries": "carry",
    "tries": "try",
    "married": "marry",
    "quit": "quit",
    "quits": "quit",
    "stopped": "stop",
    "stops": "stop",
    "dislikes": "dislike",
    "practises": "practise",
    "lives": "live",
    "moved": "move",
    "loves": "love",
    "likes": "like",
    "hates": "hate",
    "died": "die",
    "dies": "die",
    "dying": "die",
    "found": "find",
    "became": "become",
    "gets": "get",
    "used": "use",
    "uses": "use",
    "getting": "get",
    "cut": "cut",
    "cuts": "cut",
    "becomes": "become",
}
# Simple past forms that do not end in -ed: a fact in the past tense tells of an episode.
PAST_FORMS = frozenset(
    "went drove ate drank ran swam flew met taught wrote rode sang spoke took gave made kept left began "
    "grew sold won lost wore slept woke knew built spent came fell stood sat bought found became".split()
)
# Predicates that mean the same thing, folded to one name.
SYNONYMS = {
    "reside_in": "live_in",
    "move_to": "live_in",
    "relocate_to": "live_in",
    "be_based_in": "live_in",
    "live_at": "live_in",
    "move_in": "live_in",
    "move_into": "live_in",
    "be_living_in": "live_in",
    "stay_in": "live_in",
    "work_for": "work_at",
    "be_employed_at": "work_at",
    "be_employed_by": "work_at",
    "be_employed_with": "work_at",
    "join": "work_at",
    "own": "have",
    "possess": "have",
    "have_got": "have",
    "get": "have",
    "love": "like",
    "enjoy": "like",
    "adore": "like",
    "be_fond_of": "like",
    "be_into": "like",
    "be_a_fan_of": "like",
    "be_big_fan_of": "like",
    "be_a_big_fan_of": "like",
    "prefer": "like",
    "be_crazy_about": "like",
    "be_passionate_about": "like",
    "be_keen_on": "like",
    "hate": "dislike",
    "dread": "dislike",
    "detest": "dislike",
    "loathe": "dislike",
    "can_not_stand": "dislike",
    "be_married_to": "marry",
    "wed": "marry",
    "be_wed_to": "marry",
    "be_called": "name",
    "be_named": "name",
    "go_by": "name",
    "practise": "practice",
    "get_up": "wake_up",
    "get_up_at": "wake_up_at",
    "jog": "run",
    "bike": "cycle",
    "be_allergic_to": "allergic_to",
    "have_allergy_to": "allergic_to",
    "have_an_allergy_to": "allergic_to",
    "be_employed_as": "work_as",
    "be_working_as": "work_as",
    "be_from": "come_from",
    "hail_from": "come_from",
    "grow_up_in": "come_from",
    "grow_up": "come_from",  # "grew up in Lyon" (the particle "up" read first) is where one comes from
    "pass_away": "die",
    "pass_on": "die",
    "study_at": "attend",
    "work_in": "work_at",
    "teach": "work_as",
    "be_enrolled_at": "attend",
    "be_student_at": "attend",
    "travel_to": "visit",
    "date": "marry",
    "be_dating": "marry",
    "be_to": "visit",
}
# Predicates with one current value per subject: a different value replaces the old one.
SINGLE = frozenset(
    {
        "live_in",
        "work_as",
        "work_at",
        "be_born_in",
        "be_born_on",
        "marry",
        "name",
        "age",
        "drive",
        "study",
        "attend",
        "come_from",
        "weigh",
        "be_a_job",
        "be_in_grade",
        "support",
        "be_identity",
        "be_state",
        "be_attr",
        "earn",
        "report_to",
        "live_with",
    }
)
PROJECTS = frozenset({"train_for", "prepare_for", "work_on", "read", "write", "study", "learn", "build"})
# Events that end a state: "graduated from law school" ends "studies law".
ENDS = {
    "graduate_from": frozenset({"study", "attend"}),
    "finish": PROJECTS,
    "complete": PROJECTS,
    "graduate": frozenset({"study", "attend"}),
    "leave": frozenset({"work_at", "live_in", "attend", "belong_to"}),
    "drop_out_of": frozenset({"attend", "study"}),
    "drop_out": frozenset({"attend", "study"}),
    "retire": frozenset({"work_at", "work_as"}),
    "divorce": frozenset({"marry"}),
    "break_up_with": frozenset({"marry"}),
    "break_up": frozenset({"marry"}),
    "split_up_with": frozenset({"marry"}),
    "sell": frozenset({"have", "drive"}),
    "move_out_of": frozenset({"live_in"}),
}
# "User's birthplace is Nairobi" says what "User was born in Nairobi" says.
ATTRIBUTE_PREDICATES = {
    "birthplace": "be_born_in",
    "hometown": "come_from",
    "employer": "work_at",
    "job": "work_as",
    "work": "work_as",
    "occupation": "work_as",
    "profession": "work_as",
    "age": "age",
    "birthday": "be_born_on",
    "birthyear": "be_born_on",
    "address": "live_in",
    "home": "live_in",
    "city": "live_in",
    "spouse": "marry",
    "partner": "marry",
    "boyfriend": "marry",
    "girlfriend": "marry",
    "fiance": "marry",
    "fiancee": "marry",
    "name": "name",
    "nickname": "name",
    "salary": "earn",
    "income": "earn",
    "pay": "earn",
    "wage": "earn",
    "employment": "work_at",
    "manager": "report_to",
    "supervisor": "report_to",
    "residence": "live_in",
}
# Predicates read with confidence: two different ones are two different facts.
KNOWN = SINGLE | {"allergic_to", "like", "dislike", "speak", "visit", "play", "fear"}
# Words naming who or what a fact is about: facts that differ in one are about someone else.
PARTY_WORDS = frozenset(
    """
    mother father mom dad parent parents sister brother sibling son daughter child children kid kids
    wife husband partner spouse fiance fiancee boyfriend girlfriend cousin aunt uncle niece nephew
    grandmother grandfather grandma grandpa grandparent grandson granddaughter friend neighbor
    neighbour colleague coworker boss manager mentor teacher coach roommate landlord tenant
    doctor dentist therapist upstairs downstairs in-law mother-in-law father-in-law
    sister-in-law brother-in-law stepmother stepfather stepson stepdaughter twin baby dog cat
    horse bird parrot rabbit hamster fish pet team company
    """.split()
)
# Words that turn a predicate around: "stopped playing tennis", "quit smoking", "gave up coffee".
CEASE = frozenset(
    {
        "stop",
        "quit",
        "cease",
        "give",
        "abandon",
        "drop",
        "kick",
        "leave",
        "retire",
        "delete",
        "cancel",
        "close",
    }
)
# Words that announce a change of state: the new fact replaces the old state of its subject.
CHANGE = frozenset(
    "now changed switched moved raised increased decreased lowered reduced updated upgraded "
    "replaced became become rescheduled grown grew cut relocated renewed reached dropped rose "
    "fell cancelled canceled downgraded migrated rescheduled postponed transferred shifted".split()
)
BE_FAMILY = frozenset({"be", "be_a", "be_attr", "be_at", "be_in", "be_identity", "be_a_job"})
# Nouns that name the same thing, folded to one word for comparing values and subjects.
NOUN_SYNONYMS = {
    "kids": "children",
    "kid": "child",
    "film": "movie",
    "films": "movie",
    "movies": "movie",
    "dad": "father",
    "mom": "mother",
    "mum": "mother",
    "papa": "father",
    "mama": "mother",
    "grandpa": "grandfather",
    "grandad": "grandfather",
    "granddad": "grandfather",
    "gramps": "grandfather",
    "gran": "grandmother",
    "nan": "grandmother",
    "nana": "grandmother",
    "nanna": "grandmother",
    "grandma": "grandmother",
    "granny": "grandmother",
    "spouse": "partner",
    "husband": "partner",
    "wife": "partner",
    "pup": "dog",
    "puppy": "dog",
    "kitty": "cat",
    "kitten": "cat",
    "automobile": "car",
    "cellphone": "phone",
    "bicycle": "bike",
    "bicycles": "bike",
    "smartphone": "phone",
    "workplace": "office",
    "boss": "manager",
    "physician": "doctor",
    "attorney": "lawyer",
    "maths": "math",
    "mathematics": "math",
    "euros": "euro",
    "job": "work",
    "colour": "color",
    "favourite": "favorite",
    "monthly": "month",
    "weekly": "week",
    "yearly": "year",
    "annual": "year",
    "annually": "year",
    "daily": "day",
    "fall": "autumn",
    "go-to": "favorite",
    "phd": "doctorate",
}
NEG_WORDS = frozenset({"not", "never", "no"})
JOBS = frozenset({"job", "position", "role", "post"})
MARITAL = frozenset({"single", "married", "divorced", "widowed", "engaged", "separated"})
JOB_DETERMINERS = frozenset({"a", "an", "the", "new", "first", "different", "full-time", "part-time"})
# What a kind of relative or pet falls under: "has no siblings" is contradicted by "has a brother".
KINDS = {
    "brother": "sibling",
    "sister": "sibling",
    "son": "children",
    "daughter": "children",
    "child": "children",
    "mother": "parent",
    "father": "parent",
    "dog": "pet",
    "cat": "pet",
    "rabbit": "pet",
    "hamster": "pet",
    "parrot": "pet",
    "fish": "pet",
    "tortoise": "pet",
    "ferret": "pet",
    "boyfriend": "partner",
    "girlfriend": "partner",
}
HOLDING = frozenset({"have", "drive", "use", "ride", "wear", "play"})
# Verbs that take their meaning from the object ("takes the bus" = "commutes by bus"): no evidence.
LIGHT_VERBS = frozenset(
    "take have do make get go use keep give put prepare plan try want need start begin continue".split()
)
SWAP_VERBS = frozenset({"switch", "replace", "swap", "trade", "change", "exchange", "upgrade", "downgrade"})
PERIODS = frozenset("year month week day hour annual annually yearly monthly weekly daily hourly".split())
CURRENCIES = frozenset("dollar euro usd gbp eur pound yen franc".split())
# Words that soften a number ("about 85000"): neither a particle of the verb nor part of the value.
# Words before an attribute that do not make it another one ("annual salary" = "salary").
NEUTRAL_MODIFIERS = frozenset(
    "year month week day current usual main present total gross net regular normal home".split()
)
# Readings of "X's <attribute> is V" ("age": a bare number, as in "User's birth year is 1988").
ATTRIBUTE_SHAPES = frozenset({"be", "be_a", "be_identity", "be_in", "be_attr", "name", "age"})
# Parts of the week or year that set a fact apart like a date ("lives in Nice in summer").
# Times of day that set a fact apart when said as a time ("in the mornings", "every evening"), not
# in "a morning person".
TIMES_OF_DAY = frozenset("morning afternoon evening night".split())
PERIODS_OF_YEAR = frozenset("weekend weekday summer winter spring autumn".split())
# Capitalised words that are common nouns, not names ("User's GP", "User's VPN", "the TV").
COMMON_ACRONYMS = frozenset("gp tv vpn pc ceo cto cfo coo suv hr dj atm pin id isp sim gps".split())
TITLES = frozenset({"dr", "mr", "mrs", "ms", "prof", "sir"})  # "Dr. Patel" and "Dr. Kim" share no name
HEDGES = frozenset(
    "about around roughly approximately nearly almost circa completely entirely altogether totally".split()
)
# "is a keen gardener" says "likes gardening": an adjective of liking before a doer noun.
KEEN = frozenset("keen avid passionate enthusiastic big huge lifelong devoted dedicated eager".split())
# Pastimes named by a doer noun whose verb is not among VERBS ("golfer" -> "golf").
HOBBY_VERBS = frozenset("golf garden bowl box fish hunt sail row skate birdwatch camp kayak".split())
# "has a fear of X" says what "is afraid of X" says: the noun names the predicate.
FEELING_NOUNS = {
    "fear": "fear",
    "phobia": "fear",
    "terror": "fear",
    "love": "like",
    "passion": "like",
    "fondness": "like",
    "dislike": "dislike",
    "hatred": "dislike",
    "aversion": "dislike",
    "desire": "want",
    "wish": "want",
}
INTEREST_DETERMINERS = frozenset(
    "a an no any real great keen strong little deep huge lifelong genuine intense irrational slight".split()
)
DETERMINERS = frozenset(
    "a an the this that these those his her their its my our your some any one new old".split()
)
PREPOSITIONS = ("in", "to", "at", "for", "as", "with", "from", "on", "by", "of", "about", "into", "up")
RELATIVES_PLURAL = frozenset(
    "parents kids children grandparents twins siblings sons daughters cousins friends neighbours "
    "neighbors in-laws folks people brothers sisters aunts uncles nephews nieces".split()
)
NOT_GUESSED = PARTY_WORDS | RELATIVES_PLURAL | {"plans", "classes", "lessons", "glasses", "clothes"}
OCCUPATIONS = frozenset(
    """
    accountant actor actress analyst architect artist astronaut baker banker barber barista
    bartender biologist builder butcher carpenter cashier chef chemist cleaner clerk coach
    consultant cook counselor counsellor dancer dentist designer developer doctor driver economist
    editor electrician engineer farmer firefighter fisherman florist gardener geologist hairdresser
    historian journalist judge lawyer librarian lecturer manager mechanic midwife miner musician
    nanny nurse officer optician painter paramedic pharmacist photographer physician physicist
    physiotherapist pilot plumber poet policeman policewoman politician postman professor
    programmer psychologist realtor receptionist reporter researcher sailor salesman saleswoman
    scientist secretary singer soldier student surgeon tailor teacher technician therapist
    translator tutor vet veterinarian waiter waitress welder writer ceo cto founder intern
    paralegal pharmacologist radiologist dietitian nutritionist trainer instructor
    tester director supervisor coordinator administrator assistant specialist
    """.split()
)
NUMBER_WORDS = frozenset(WORD_NUMBERS) | frozenset(
    "thousand half dozen once twice first second third fourth fifth sixth seventh eighth ninth tenth".split()
)
MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday".split()
)
QUANTITY_UNITS = frozenset(
    "am pm years year months month weeks week days day hours hour minutes minute km miles mile "
    "kg kilos pounds lbs cups cup times glasses glass litres liters liter litre percent euro euros "
    "dollar dollars usd gbp mg ml".split()
)
# How one is with a partner, said in the value: "engaged to Daniel" -> "married Daniel" is a new status.
COUPLED = {
    "married": "married",
    "marry": "married",
    "marries": "married",
    "wed": "married",
    "engaged": "engaged",
    "dating": "dating",
    "dates": "dating",
    "seeing": "dating",
}
# What one joins as a member, not as staff; a stay for a while is no home.
JOINED_GROUPS = frozenset(
    "club gym choir band team league group class course society union church party circle "
    "orchestra crew community association network committee".split()
)
TEMPORARY = frozenset("for until while during this next over temporarily few week night month".split())
