"""Benchmark the SQLite store through the public Memory API: load, remember, search, context.

Every scenario runs in a fresh temporary REVERIE home with a real SQLite file:

    .venv/bin/python bench/store_bench.py                       # 1k, 10k, 100k facts + 100 users x 1k
    .venv/bin/python bench/store_bench.py --sizes 1000,10000 --users none --queries 100
    .venv/bin/python bench/store_bench.py --json --out bench-results.json
    .venv/bin/python bench/store_bench.py --sizes 100000 --users none --profile
    .venv/bin/python bench/store_bench.py --remember-slices   # remember/s per 1k slice (remember_slices.py)

Data is generated deterministically (``random.Random(seed)``) from templates: people and
relations, places, foods, hobbies, pets, work, dates and numbers, drawn with Zipf-like weights
so that a few words are very common and most are rare. Each user also gets 5 preferences
(``Memory.prefer``) and 20 conversation summaries (``Memory.add_summary``).

The bulk of the facts is loaded through the store layer (``UserStore.insert_memory`` inside one
``scope.transaction()``), which is how an import would do it and lets ``created_at`` be spread
over the last two years; ``--load-via remember`` loads through ``Memory.remember`` instead
(slow at 100k: each call runs duplicate detection and the guard). Remember throughput is always
measured separately through ``Memory.remember`` with 1,000 new facts on top of the loaded store,
after the search and context measurements so those see exactly ``facts`` facts.

Progress goes to stderr; the table (or JSON with ``--json``) to stdout and to ``--out``.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import remember_slices  # noqa: E402  (bench/ is on sys.path when this file runs as a script)

from reverie.config import load_settings  # noqa: E402
from reverie.errors import GuardRejected, ReverieError  # noqa: E402
from reverie.memory import Memory  # noqa: E402
from reverie.retrieve.search import SearchResults  # noqa: E402
from reverie.store.base import NewMemory, UserStore  # noqa: E402
from reverie.store.sqlite import SqliteStore  # noqa: E402

DAY = 86400.0
YEAR = 365.25 * DAY
SPAN = 2 * YEAR  # created_at is spread over the last two years
REMEMBER_SAMPLE = 1000
_STARTED = time.perf_counter()


def progress(message: str) -> None:
    print(f"[{time.perf_counter() - _STARTED:7.1f}s] {message}", file=sys.stderr, flush=True)


# --- vocabulary -------------------------------------------------------------------------------
# Lists are ordered from common to rare: Zipf picks the first items much more often.

RELATIONS = (
    "sister", "brother", "mother", "father", "wife", "husband", "daughter", "son", "best friend",
    "partner", "cousin", "grandmother", "aunt", "uncle", "colleague", "boss", "neighbour",
    "grandfather", "niece", "nephew", "roommate", "mother-in-law", "father-in-law",
    "sister-in-law", "brother-in-law", "godmother", "godson", "stepdaughter", "stepson",
    "childhood friend", "landlord", "mentor", "piano teacher", "coach", "dentist", "physiotherapist",
    "team lead", "flatmate", "bandmate", "goddaughter", "great-aunt", "half-brother",
)
FIRST_NAMES = (
    "Maria", "Anna", "James", "Sofia", "David", "Emma", "Michael", "Laura", "Daniel", "Sarah",
    "Tom", "Lucy", "Ahmed", "Priya", "Chen", "Olivia", "Lucas", "Mia", "Noah", "Elena", "Omar",
    "Hannah", "Ben", "Chloe", "Leo", "Nina", "Sam", "Julia", "Ravi", "Grace", "Mateo", "Yuki",
    "Fatima", "Jonas", "Clara", "Ivan", "Zoe", "Marco", "Aisha", "Felix", "Isabel", "Hugo",
    "Amara", "Pablo", "Ingrid", "Kenji", "Leila", "Oscar", "Rosa", "Tariq", "Vera", "Diego",
    "Freya", "Arjun", "Beatriz", "Callum", "Dalia", "Emil", "Farah", "Gustav", "Helga", "Imani",
    "Jasper", "Keiko", "Lars", "Mehmet", "Nadia", "Otto", "Paloma", "Quentin", "Rania", "Soren",
    "Thandiwe", "Ulrich", "Valentina", "Wojciech", "Ximena", "Yusuf", "Zainab", "Anouk", "Bram",
    "Cosima", "Dmitri", "Esme", "Florin", "Giulia", "Hamza", "Ines", "Joaquin", "Kasia", "Lior",
    "Magnus", "Noor", "Orla", "Piotr", "Renata", "Siddharth", "Tove", "Umberto", "Wren", "Xavier",
    "Yara", "Zeynep", "Agnieszka", "Bartholomew", "Cressida", "Dagny", "Eamon", "Fionnuala",
    "Gwendolyn", "Hiroshi", "Ifeoma", "Jurgen", "Kalinda", "Lysander", "Mirela", "Nkechi",
    "Oisin", "Perpetua", "Radek", "Saoirse", "Teodora", "Vesna", "Wilhelmina", "Zdenek",
)
SURNAMES = (
    "Smith", "Garcia", "Muller", "Rossi", "Silva", "Kim", "Nguyen", "Patel", "Cohen", "Novak",
    "Jensen", "Kowalski", "Okafor", "Tanaka", "Dubois", "Fischer", "Moreau", "Haddad", "Larsen",
    "Ivanova", "Bianchi", "Costa", "Schmidt", "Yilmaz", "Andersson", "Mensah", "Hughes", "Ortega",
    "Petrov", "Lindqvist", "Brennan", "Castillo", "Dimitriou", "Eriksen", "Fontaine", "Gallagher",
    "Horvath", "Iqbal", "Jovanovic", "Kaczmarek", "Lombardi", "Mbeki", "Nakamura", "O'Connell",
    "Papadopoulos", "Quispe", "Rahman", "Szabo", "Takahashi", "Uchenna", "Vasquez", "Wojcik",
    "Xu", "Yamamoto", "Zielinski", "Abernathy", "Brandvold", "Cavendish", "Drachenberg",
)
CITIES = (
    "London", "Paris", "Berlin", "Lisbon", "Madrid", "Rome", "Amsterdam", "New York", "Tokyo",
    "Barcelona", "Dublin", "Vienna", "Prague", "Copenhagen", "Stockholm", "Porto", "Lyon", "Munich",
    "Milan", "Boston", "Chicago", "Toronto", "Sydney", "Seoul", "Istanbul", "Athens", "Edinburgh",
    "Manchester", "Brussels", "Zurich", "Oslo", "Helsinki", "Warsaw", "Budapest", "Krakow",
    "Seville", "Valencia", "Naples", "Florence", "Hamburg", "Cologne", "Marseille", "Bordeaux",
    "Montreal", "Vancouver", "Melbourne", "Osaka", "Kyoto", "Lagos", "Nairobi", "Cape Town",
    "Mumbai", "Bangalore", "Singapore", "Bangkok", "Hanoi", "Mexico City", "Buenos Aires", "Lima",
    "Bogota", "Reykjavik", "Tallinn", "Riga", "Vilnius", "Ljubljana", "Zagreb", "Split", "Sarajevo",
    "Tbilisi", "Yerevan", "Marrakech", "Tunis", "Accra", "Kigali", "Windhoek", "Hobart", "Dunedin",
    "Galway", "Bergen", "Tromso", "Aarhus", "Gothenburg", "Uppsala", "Ghent", "Bruges", "Utrecht",
    "Leiden", "Basel", "Lausanne", "Graz", "Salzburg", "Innsbruck", "Bologna", "Turin", "Palermo",
    "Granada", "Bilbao", "San Sebastian", "Coimbra", "Faro", "Nantes", "Strasbourg", "Dresden",
    "Leipzig", "Freiburg", "Gdansk", "Wroclaw", "Brno", "Bratislava", "Cluj", "Plovdiv", "Thessaloniki",
)
DISHES = (
    "pasta", "pizza", "curry", "sushi", "tacos", "ramen", "lasagne", "risotto", "paella", "salad",
    "soup", "burgers", "dumplings", "pad thai", "falafel", "shakshuka", "moussaka", "goulash",
    "pho", "bibimbap", "ceviche", "tagine", "biryani", "pierogi", "gnocchi", "carbonara",
    "pancakes", "banana bread", "apple crumble", "lemon tart", "tiramisu", "cheesecake",
    "chili con carne", "fish pie", "roast chicken", "mushroom stroganoff", "lentil dahl",
    "green curry", "katsu curry", "miso soup", "empanadas", "arepas", "jollof rice", "injera",
    "bobotie", "laksa", "rendang", "okonomiyaki", "takoyaki", "bao buns", "kimchi stew",
    "spanakopita", "borscht", "pelmeni", "khachapuri", "baklava", "churros", "cannoli",
    "clafoutis", "ratatouille", "cassoulet", "bouillabaisse", "pastel de nata", "bacalhau",
    "feijoada", "poutine", "gumbo", "jambalaya", "clam chowder", "shepherd's pie", "haggis",
    "colcannon", "smorrebrod", "kanelbullar", "raclette", "fondue", "spaetzle", "schnitzel",
)
INGREDIENTS = (
    "coffee", "chocolate", "cheese", "garlic", "coriander", "mushrooms", "olives", "avocado",
    "tofu", "salmon", "shrimp", "lamb", "pork", "beef", "eggs", "spinach", "aubergine", "fennel",
    "beetroot", "anchovies", "blue cheese", "liquorice", "marzipan", "oysters", "truffle",
    "capers", "okra", "durian", "natto", "celeriac", "kohlrabi", "gooseberries", "quince",
)
ALLERGENS = (
    "peanuts", "shellfish", "gluten", "lactose", "pollen", "cats", "penicillin", "tree nuts",
    "eggs", "soy", "sesame", "dust mites", "bee stings", "latex", "mustard", "kiwi", "celery",
    "sulphites", "ibuprofen", "horses", "mould", "lupin", "buckwheat",
)
HOBBIES = (
    "running", "cooking", "reading", "hiking", "cycling", "yoga", "photography", "gardening",
    "swimming", "painting", "baking", "chess", "climbing", "knitting", "guitar", "piano",
    "board games", "birdwatching", "pottery", "skiing", "surfing", "woodworking", "sewing",
    "calligraphy", "fishing", "sailing", "tennis", "padel", "bouldering", "salsa dancing",
    "crossword puzzles", "stand-up paddling", "beekeeping", "astronomy", "origami", "fencing",
    "archery", "kayaking", "orienteering", "bookbinding", "geocaching", "lindy hop", "ceramics",
    "embroidery", "mushroom foraging", "trail running", "rowing", "ultimate frisbee", "bonsai",
    "model railways", "leathercraft", "glassblowing", "falconry", "kintsugi", "letterpress",
)
SPORTS = (
    "football", "basketball", "tennis", "volleyball", "rugby", "hockey", "cricket", "baseball",
    "handball", "water polo", "badminton", "netball", "lacrosse", "curling", "korfball",
)
PETS = (
    "dog", "cat", "rabbit", "parrot", "hamster", "goldfish", "tortoise", "guinea pig", "budgie",
    "horse", "gecko", "ferret", "chinchilla", "bearded dragon", "axolotl", "corn snake", "cockatiel",
)
BREEDS = (
    "labrador", "golden retriever", "beagle", "border collie", "dachshund", "poodle", "spaniel",
    "husky", "corgi", "greyhound", "terrier", "whippet", "schnauzer", "maine coon", "siamese",
    "tabby", "ragdoll", "bengal", "sphynx", "weimaraner", "basenji", "vizsla", "lurcher",
)
PET_NAMES = (
    "Max", "Luna", "Bella", "Charlie", "Milo", "Coco", "Bruno", "Daisy", "Rocky", "Lola",
    "Biscuit", "Pepper", "Olive", "Simba", "Nala", "Oreo", "Ziggy", "Mochi", "Pickles", "Waffles",
    "Juniper", "Pretzel", "Noodle", "Clementine", "Bramble", "Fig", "Kiwi", "Truffle", "Gizmo",
    "Tofu", "Percival", "Moomin", "Pudding", "Sprocket", "Marmalade", "Dumpling", "Bagel",
)
JOBS = (
    "teacher", "nurse", "software engineer", "accountant", "designer", "doctor", "lawyer",
    "project manager", "electrician", "chef", "pharmacist", "architect", "journalist",
    "data analyst", "physiotherapist", "carpenter", "translator", "librarian", "paramedic",
    "veterinarian", "social worker", "civil engineer", "marketing manager", "dentist", "pilot",
    "barista", "plumber", "midwife", "photographer", "researcher", "product manager",
    "sound engineer", "tax advisor", "urban planner", "museum curator", "sommelier",
    "glazier", "cartographer", "actuary", "luthier", "speech therapist", "court stenographer",
)
COMPANY_KINDS = (
    "Logistics", "Bank", "Labs", "Studio", "Health", "Foods", "Energy", "Insurance", "Media",
    "Consulting", "Robotics", "Pharma", "Architects", "Bakery", "Brewery", "Motors", "Books",
)
VENUE_KINDS = (
    "Kitchen", "Cafe", "Bistro", "Trattoria", "Bar", "Bakery", "Deli", "Diner", "Tavern",
    "Noodle House", "Grill", "Brasserie", "Taqueria", "Izakaya", "Canteen",
)
STREET_KINDS = ("Street", "Road", "Lane", "Avenue", "Square", "Park", "Gardens", "Hill", "Quay")
INSTRUMENTS = (
    "guitar", "piano", "violin", "drums", "ukulele", "cello", "saxophone", "flute", "trumpet",
    "bass", "clarinet", "harp", "accordion", "banjo", "oboe", "mandolin", "theremin",
)
LANGUAGES = (
    "Spanish", "French", "German", "Italian", "Japanese", "Portuguese", "Mandarin", "Korean",
    "Dutch", "Arabic", "Swedish", "Greek", "Polish", "Turkish", "Russian", "Hindi", "Norwegian",
    "Czech", "Finnish", "Hungarian", "Welsh", "Irish", "Icelandic", "Swahili", "Basque",
)
ITEMS = (
    "bike", "laptop", "sofa", "phone", "camera", "coffee machine", "kettle", "tent", "backpack",
    "winter coat", "running shoes", "desk", "lamp", "blender", "vacuum cleaner", "headphones",
    "rug", "bookshelf", "e-reader", "air fryer", "sewing machine", "kayak", "telescope",
    "espresso grinder", "record player", "standing desk", "dehumidifier", "pressure cooker",
)
CARS = (
    "Toyota", "Volkswagen", "Ford", "Renault", "Honda", "Skoda", "Peugeot", "Kia", "Volvo", "Tesla",
    "Fiat", "Mazda", "Hyundai", "Subaru", "Citroen", "Dacia", "Seat", "Nissan", "Mini", "Saab",
)
COLOURS = (
    "blue", "red", "black", "white", "green", "grey", "silver", "yellow", "orange", "purple",
    "teal", "burgundy", "navy", "olive", "mustard", "turquoise", "lilac", "coral",
)
HEALTH = (
    "takes vitamin D every morning", "has mild asthma", "wears glasses for driving",
    "has a bad knee from an old skiing injury", "gets migraines when sleeping too little",
    "is training to lower their blood pressure", "had a wisdom tooth removed",
    "has hay fever every spring", "uses a standing desk for back pain", "is colour blind",
    "has tinnitus in the left ear", "takes iron supplements", "is recovering from a broken wrist",
)
GENRES = (
    "crime novels", "science fiction", "fantasy", "biographies", "poetry", "history books",
    "graphic novels", "thrillers", "romance novels", "travel writing", "philosophy",
    "nature writing", "Nordic noir", "magical realism", "space opera",
)
MUSIC = (
    "jazz", "rock", "classical music", "hip hop", "pop", "folk", "techno", "blues", "reggae",
    "metal", "soul", "opera", "bossa nova", "afrobeat", "fado", "k-pop", "bluegrass", "flamenco",
)
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SEASONS = ("summer", "spring", "autumn", "winter")
ROOMS = ("kitchen", "garage", "hallway", "attic", "basement", "bedroom", "study", "shed", "loft")
EVENTS = (
    "wedding", "birthday party", "graduation", "housewarming", "retirement party", "concert",
    "marathon", "baby shower", "anniversary dinner", "christening", "book launch", "reunion",
)
_ONSETS = (
    "b", "br", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t", "v", "z",
    "tr", "gr", "th", "sh", "ch", "pl",
)
_NUCLEI = ("a", "e", "i", "o", "u", "ai", "ea", "ou", "io")
_CODAS = ("", "", "", "n", "r", "l", "s", "m", "nd", "rt", "x")


class Zipf:
    """Pick items with probability proportional to 1 / rank ** exponent."""

    def __init__(self, items: Sequence[str], exponent: float = 1.0) -> None:
        self.items = list(items)
        self.cum = list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(len(items))))

    def __call__(self, rng: random.Random) -> str:
        return rng.choices(self.items, cum_weights=self.cum)[0]


def _invented_words(count: int, seed: int) -> list[str]:
    """Made-up proper nouns (shops, streets, companies): the long tail of the vocabulary."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_NUCLEI) for _ in range(rng.randint(2, 3)))
        found[(word + rng.choice(_CODAS)).capitalize()] = None
    return list(found)


class Vocabulary:
    """Zipf pickers over every pool; one instance per run (independent of the data seed)."""

    def __init__(self) -> None:
        invented = _invented_words(6000, seed=7)
        self.relation = Zipf(RELATIONS, 1.1)
        self.first = Zipf(FIRST_NAMES, 0.9)
        self.surname = Zipf(SURNAMES + tuple(invented[:1500]), 1.0)
        self.city = Zipf(CITIES, 1.0)
        self.dish = Zipf(DISHES, 1.0)
        self.ingredient = Zipf(INGREDIENTS, 1.0)
        self.allergen = Zipf(ALLERGENS, 1.2)
        self.hobby = Zipf(HOBBIES, 1.0)
        self.sport = Zipf(SPORTS, 1.2)
        self.pet = Zipf(PETS, 1.4)
        self.breed = Zipf(BREEDS, 1.0)
        self.pet_name = Zipf(PET_NAMES + tuple(invented[1500:2000]), 1.0)
        self.job = Zipf(JOBS, 1.0)
        self.company_kind = Zipf(COMPANY_KINDS, 1.0)
        self.venue_kind = Zipf(VENUE_KINDS, 1.0)
        self.street_kind = Zipf(STREET_KINDS, 1.0)
        self.instrument = Zipf(INSTRUMENTS, 1.2)
        self.language = Zipf(LANGUAGES, 1.1)
        self.item = Zipf(ITEMS, 1.0)
        self.car = Zipf(CARS, 1.0)
        self.colour = Zipf(COLOURS, 1.0)
        self.health = Zipf(HEALTH, 1.0)
        self.genre = Zipf(GENRES, 1.0)
        self.music = Zipf(MUSIC, 1.0)
        self.month = Zipf(MONTHS, 0.3)
        self.weekday = Zipf(WEEKDAYS, 0.3)
        self.season = Zipf(SEASONS, 0.5)
        self.room = Zipf(ROOMS, 1.0)
        self.event = Zipf(EVENTS, 1.0)
        self.proper = Zipf(invented[2000:], 0.6)


V = Vocabulary()

# (type, template): a template reads fields from a Draw; {x} slots are filled lazily.
FACT_TEMPLATES: tuple[tuple[str, str, float], ...] = (
    ("person", "User's {relation} {first} lives in {city}.", 6),
    ("person", "User's {relation} {first}'s birthday is on {month} {day}.", 5),
    ("person", "User's {relation} {first} {surname} works as a {job} at {company}.", 4),
    ("person", "User's {relation} {first} is allergic to {allergen}.", 2),
    ("person", "User's {relation} {first} just started learning {language}.", 2),
    ("person", "User's {relation} {first} plays {instrument} in a band called {proper}.", 1),
    ("person", "User's {relation} {first} is vegetarian and loves {dish}.", 2),
    ("person", "User's {relation} {first} moved from {city} to {city2} in {year}.", 2),
    ("person", "User's {relation} {first} has {n_small} kids and a {pet} named {pet_name}.", 2),
    ("person", "User met {first} {surname} at a {hobby} class in {city}.", 2),
    ("person", "User and {first} {surname} have been friends since {year}.", 1),
    ("person", "User's {relation} {first} is getting married in {month} {year2} in {city}.", 1),
    ("person", "User's {relation} {first} supports the {proper} {sport} team.", 1),
    ("pet", "User has a {breed} {pet} named {pet_name}.", 3),
    ("pet", "User's {pet} {pet_name} is {n_small} years old and sleeps in the {room}.", 2),
    ("pet", "User's {pet} {pet_name} sees the vet, Dr. {surname}, every {n_small} months.", 1),
    ("pet", "User's {pet} {pet_name} is scared of {fear} and loves {pet_treat}.", 1),
    ("health", "User is allergic to {allergen}.", 3),
    ("health", "User {health}.", 2),
    ("health", "User has a dentist appointment with Dr. {surname} on {month} {day}.", 1),
    ("food", "User's favourite dish is {dish} from {venue} in {city}.", 3),
    ("food", "User does not eat {ingredient} and dislikes {ingredient2}.", 2),
    ("food", "User cooked {dish} for {relation} {first} on {weekday}.", 2),
    ("food", "User wants to learn to make {dish} like the one at {venue}.", 1),
    ("food", "User drinks {n_small} cups of {drink} a day.", 1),
    ("work", "User works as a {job} at {company} in {city}.", 3),
    ("work", "User's manager at {company} is {first} {surname}.", 2),
    ("work", "User has a {project} deadline at work on {month} {day}.", 2),
    ("work", "User commutes {n_mid} minutes by {transport} to the office on {street}.", 1),
    ("work", "User is studying for a {subject} certificate at {proper} college.", 1),
    ("hobby", "User goes {hobby} every {weekday} with {first}.", 3),
    ("hobby", "User started {hobby} in {year} and wants to try {hobby2} next.", 2),
    ("hobby", "User is reading {genre} and recently finished a book by {first} {surname}.", 2),
    ("hobby", "User listens to {music} while {chore}.", 2),
    ("hobby", "User is learning to play the {instrument} with a teacher called {first}.", 1),
    ("hobby", "User ran a {n_mid} km race in {city} in {year}.", 1),
    ("place", "User lives on {street} in {city}.", 2),
    ("place", "User grew up in {city} and moved to {city2} in {year}.", 2),
    ("place", "User wants to visit {city} in {season} with {relation} {first}.", 3),
    ("place", "User's favourite cafe is {venue} near {street}.", 2),
    ("place", "User parks the car on level {n_small} of the garage on {street}.", 1),
    ("event", "User is going to {relation} {first}'s {event} in {city} on {month} {day}.", 3),
    ("event", "User's flight to {city} leaves on {weekday} {month} {day} at {hour}:{minute}.", 2),
    ("event", "User booked a table at {venue} for {n_small} people on {weekday}.", 2),
    ("event", "User's {event} anniversary is on {month} {day}.", 1),
    ("thing", "User bought a {colour} {item} for {price} euros at {proper} in {city}.", 3),
    ("thing", "User drives a {colour} {car} bought in {year}.", 2),
    ("thing", "User keeps the spare {thing} in the {room}.", 1),
    ("thing", "User's shoe size is {shoe} and coat size is {size}.", 1),
    ("language", "User speaks {language} and is learning {language2}.", 2),
)
_FEARS = ("thunder", "fireworks", "the hoover", "bicycles", "balloons", "the postman", "cats")
_TREATS = ("cheese", "carrots", "tennis balls", "belly rubs", "long walks", "sunny windowsills")
_DRINKS = ("coffee", "tea", "green tea", "espresso", "rooibos", "matcha", "hot chocolate")
_PROJECTS = ("budget", "quarterly report", "product launch", "audit", "migration", "grant", "pitch")
_TRANSPORT = ("bike", "train", "bus", "tram", "car", "ferry", "scooter")
_SUBJECTS = ("project management", "accounting", "first aid", "data science", "sommelier", "yoga")
_CHORES = ("cooking", "cleaning", "working", "running", "driving", "ironing", "painting")
_THINGS = ("house keys", "umbrella", "phone charger", "bike lock", "car keys", "torch")
_SIZES = ("small", "medium", "large", "extra large")


class Draw:
    """Slot values for one template, drawn on first use."""

    def __init__(self, rng: random.Random, year_now: int) -> None:
        self.rng, self.year_now = rng, year_now
        self.cache: dict[str, str] = {}

    def get(self, name: str) -> str:
        if name not in self.cache:
            self.cache[name] = self._draw(name)
        return self.cache[name]

    def _draw(self, name: str) -> str:
        rng, base = self.rng, name.rstrip("2")
        simple: dict[str, Callable[[random.Random], str]] = {
            "relation": V.relation, "first": V.first, "surname": V.surname, "city": V.city,
            "dish": V.dish, "ingredient": V.ingredient, "allergen": V.allergen, "hobby": V.hobby,
            "sport": V.sport, "pet": V.pet, "breed": V.breed, "pet_name": V.pet_name, "job": V.job,
            "instrument": V.instrument, "language": V.language, "item": V.item, "car": V.car,
            "colour": V.colour, "health": V.health, "genre": V.genre, "music": V.music,
            "month": V.month, "weekday": V.weekday, "season": V.season, "room": V.room,
            "event": V.event, "proper": V.proper,
        }
        if base in simple:
            value = simple[base](rng)
            if name.endswith("2"):  # a second value of the same slot differs from the first
                for _ in range(5):
                    if value != self.cache.get(base):
                        break
                    value = simple[base](rng)
            return value
        if name == "company":
            return f"{V.proper(rng)} {V.company_kind(rng)}"
        if name == "venue":
            return f"{V.proper(rng)} {V.venue_kind(rng)}"
        if name == "street":
            return f"{V.proper(rng)} {V.street_kind(rng)}"
        if name == "day":
            return str(rng.randint(1, 28))
        if name == "year":
            return str(self.year_now - int(rng.expovariate(1 / 8)) % 40)
        if name == "year2":
            return str(self.year_now + rng.randint(0, 1))
        if name == "n_small":
            return str(rng.randint(2, 9))
        if name == "n_mid":
            return str(rng.randint(10, 60))
        if name == "hour":
            return str(rng.randint(6, 22))
        if name == "minute":
            return f"{rng.choice((0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55)):02d}"
        if name == "price":
            return str(int(rng.lognormvariate(4.5, 1.0)) + 5)
        if name == "shoe":
            return str(rng.randint(36, 46))
        if name == "size":
            return rng.choice(_SIZES)
        pools = {"fear": _FEARS, "pet_treat": _TREATS, "drink": _DRINKS, "project": _PROJECTS,
                 "transport": _TRANSPORT, "subject": _SUBJECTS, "chore": _CHORES, "thing": _THINGS}
        return rng.choice(pools[name])


class _Slots(dict[str, str]):
    def __init__(self, draw: Draw) -> None:
        super().__init__()
        self.draw = draw

    def __missing__(self, key: str) -> str:
        return self.draw.get(key)


class Generator:
    """Deterministic facts, queries, user messages, preferences and summaries."""

    def __init__(self, seed: int, now: float) -> None:
        self.rng = random.Random(seed)
        self.now = now
        self.year_now = datetime.fromtimestamp(now, UTC).year
        self.template_cum = list(itertools.accumulate(w for _, _, w in FACT_TEMPLATES))

    def _fill(self, template: str) -> str:
        return template.format_map(_Slots(Draw(self.rng, self.year_now)))

    def fact(self) -> tuple[str, str]:
        """(type, text) of one fact."""
        kind, template, _ = self.rng.choices(FACT_TEMPLATES, cum_weights=self.template_cum)[0]
        return kind, self._fill(template)

    def unique_facts(self, count: int, seen: set[str]) -> list[tuple[str, str]]:
        """``count`` facts whose texts are not in ``seen`` (which is updated)."""
        found: list[tuple[str, str]] = []
        while len(found) < count:
            kind, text = self.fact()
            if text not in seen:
                seen.add(text)
                found.append((kind, text))
        return found

    def stored_row(self, kind: str, text: str) -> NewMemory:
        """A fact as it would look after living in the store for a while."""
        rng = self.rng
        created = self.now - rng.random() * SPAN
        age_weeks = (self.now - created) / (7 * DAY)
        explicit = rng.random() < 0.6
        reinforced = 1 + int(rng.expovariate(1.0)) if rng.random() < 0.3 else 1
        if explicit:  # nightly decay with the default weekly rates and floors, plus reinforcement
            confidence = max(0.5, 0.98 ** age_weeks) + 0.05 * (reinforced - 1)
        else:
            confidence = max(0.26, rng.uniform(0.5, 0.9) * 0.95 ** (age_weeks / reinforced))
        updated = created + rng.random() * (self.now - created) if reinforced > 1 else created
        accessed = updated + rng.random() * (self.now - updated) if rng.random() < 0.35 else None
        return NewMemory(
            kind="fact", text=text, source="explicit" if explicit else "inferred",
            confidence=round(min(1.0, confidence), 6), type=kind, created_at=created,
            updated_at=updated, last_accessed=accessed,
            access_count=0 if accessed is None else 1 + int(rng.expovariate(0.3)),
            reinforcement_count=reinforced,
            status="superseded" if rng.random() < 0.04 else "active",
        )

    def search_query(self) -> tuple[str, dict[str, str]]:
        """A 1-3 keyword query, sometimes with a date filter (about 1 in 8)."""
        rng = self.rng
        forms = (
            "{relation} birthday", "dog name", "allergic", "{relation}", "{relation} name",
            "{city}", "{first}", "{pet} name", "allergic {allergen}", "{dish}", "{hobby}", "work",
            "{relation} lives", "vet", "flight {city}", "favourite restaurant", "{first} {relation}",
            "dentist appointment", "{job}", "{relation} {city}", "shoe size", "car", "{language}",
            "{event}", "{month} {relation} birthday", "{instrument}", "manager", "{ingredient}",
            "{first} {surname}", "{pet_name}", "deadline", "{sport} team",
        )
        query = self._fill(Zipf(forms, 0.8)(rng))
        filters: dict[str, str] = {}
        roll = rng.random()
        if roll < 0.125:
            start = self.now - rng.random() * SPAN
            day = datetime.fromtimestamp(start, UTC).date()
            if roll < 0.04:
                filters["date"] = day.isoformat()
            else:
                end = datetime.fromtimestamp(min(self.now, start + rng.choice((7, 30, 90)) * DAY), UTC)
                filters["date_from"], filters["date_to"] = day.isoformat(), end.date().isoformat()
            if roll < 0.06:  # "what did I tell you last March?": dates only, no keywords
                query = ""
        return query, filters

    def user_message(self) -> str:
        """What a user might say to the assistant (the query for a context build)."""
        forms = (
            "what should I cook for my {relation} tonight?",
            "any gift ideas for {first}'s birthday?",
            "I'm flying to {city} next week, anything I should remember?",
            "can you plan a {hobby} weekend for me?",
            "what was the name of that restaurant in {city}?",
            "remind me when my {relation}'s birthday is",
            "good morning! what's on today?",
            "how old is my {pet} now?",
            "help me write a message to {first} about the {event}",
            "I want to make {dish} for dinner, is there anything I can't eat?",
            "when is my appointment with Dr. {surname}?",
            "tell me a joke",
            "what do you know about my {relation} {first}?",
            "suggest a book, I'm in the mood for {genre}",
            "I need a playlist for {chore}",
        )
        return self._fill(Zipf(forms, 0.7)(self.rng))

    def preferences(self) -> list[tuple[str, str]]:
        """About five (category, value) preferences."""
        options = [
            ("verbosity", self.rng.choice(("short answers", "detailed answers", "bullet points"))),
            ("units", self.rng.choice(("metric", "imperial"))),
            ("temperature", self.rng.choice(("celsius", "fahrenheit"))),
            ("coffee", self.rng.choice(("oat flat white", "black americano", "decaf latte"))),
            ("music", f"{V.music(self.rng)} in the morning"),
            ("lights", self.rng.choice(("warm and dim in the evening", "bright white"))),
            ("news", self.rng.choice(("no sports news", "local news first", "headlines only"))),
            ("wake_time", f"{self.rng.randint(5, 9)}:{self.rng.choice(('00', '15', '30', '45'))}"),
        ]
        return self.rng.sample(options, 5)

    def summaries(self, count: int) -> list[tuple[str, list[str], float]]:
        """(text, topics, created_at) of conversation summaries over the last 60 days."""
        forms = (
            ("Talked about {relation} {first}'s move to {city} and planned a visit in {month}.",
             ["family", "travel"]),
            ("Planned meals for the week: {dish} on {weekday} and {dish2} for the weekend.",
             ["cooking", "meal planning"]),
            ("Helped draft an email to {first} {surname} about the {project} at work.", ["work"]),
            ("Discussed getting back into {hobby} and found a club near {street}.", ["hobbies"]),
            ("Went over the packing list for the trip to {city} on {month} {day}.", ["travel"]),
            ("Chatted about {pet} {pet_name}'s vet visit and a new diet.", ["pets", "health"]),
            ("Compared prices for a new {item} and settled on a {colour} one.", ["shopping"]),
        )
        found = []
        for _ in range(count):
            template, topics = self.rng.choice(forms)
            found.append((self._fill(template), topics, self.now - self.rng.random() * 60 * DAY))
        return found


# --- measurement ------------------------------------------------------------------------------


def percentile(values: Sequence[float], pct: float) -> float:
    """Linear-interpolated percentile of ``values`` (pct in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = (len(ordered) - 1) * pct / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class Result:
    """One scenario's numbers."""

    scenario: str
    users: int
    facts: int
    load_path: str
    load_s: float
    load_rate: float
    remember_per_s: float
    remember_p50_ms: float
    remember_p95_ms: float
    remember_outcomes: dict[str, int]
    search_p50_ms: float
    search_p95_ms: float
    search_dated_p50_ms: float
    search_hits_avg: float
    context_p50_ms: float
    context_p95_ms: float
    context_tokens_avg: float
    db_mb: float
    extra: dict[str, Any] = field(default_factory=dict)


class Clock:
    """Memory's clock; the bulk load through remember sets ``fixed`` to backdate facts."""

    def __init__(self) -> None:
        self.fixed: float | None = None

    def __call__(self) -> float:
        return self.fixed if self.fixed is not None else time.time()


def _connection(memory: Memory) -> sqlite3.Connection:
    store = memory.store
    assert isinstance(store, SqliteStore), "this benchmark measures the SQLite store"
    return store.connection()


def _open(home: Path, clock: Clock) -> Memory:
    # Embeddings off: this measures the store and the keyword (BM25) path.
    environ = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__ENABLED": "false"}
    settings = load_settings(home=home, environ=environ)
    return Memory(settings, clock=clock)


def _load_user(memory: Memory, gen: Generator, count: int, seen: set[str], via: str, clock: Clock) -> None:
    facts = gen.unique_facts(count, seen)
    if via == "store":
        scope, now = memory.scope, time.time()
        with scope.transaction():
            for kind, text in facts:
                scope.insert_memory(gen.stored_row(kind, text), now)
        return
    for kind, text in facts:
        row = gen.stored_row(kind, text)
        clock.fixed = row.created_at
        try:
            memory.remember(text, type=kind, source=row.source, confidence=row.confidence)
        except GuardRejected:
            pass
    clock.fixed = None


def _decorate_user(memory: Memory, gen: Generator) -> None:
    for category, value in gen.preferences():
        memory.prefer(category, value)
    for text, topics, at in gen.summaries(20):
        memory.add_summary(text, topics=topics, at=at, message_count=gen.rng.randint(4, 40))


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = call()
    return (time.perf_counter() - start) * 1000, value


def run_scenario(name: str, users: int, facts_per_user: int, args: argparse.Namespace) -> Result:
    """Build a fresh store, load it and measure everything on one user."""
    clock = Clock()
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        memory = _open(Path(tmp), clock)
        try:
            return _measure(name, memory, users, facts_per_user, args, clock)
        finally:
            memory.close()


def _measure(
    name: str, memory: Memory, users: int, facts_per_user: int, args: argparse.Namespace, clock: Clock
) -> Result:
    now = time.time()
    seen: set[str] = set()
    target_index = users // 2
    target, target_seen = memory, seen
    load_s = 0.0
    for index in range(users):
        view = memory
        if users > 1:
            memory.add_user(f"user{index:03d}")
            view = memory.for_user(f"user{index:03d}")
        if index == target_index:
            target = view
        gen = Generator(args.seed * 1000 + index, now)
        user_seen = seen if users == 1 else set()
        if index == target_index:
            target_seen = user_seen
        start = time.perf_counter()
        _load_user(view, gen, facts_per_user, user_seen, args.load_via, clock)
        load_s += time.perf_counter() - start
        _decorate_user(view, gen)
        if users > 1 and (index + 1) % 10 == 0:
            progress(f"{name}: loaded {index + 1}/{users} users")
    total = users * facts_per_user
    progress(f"{name}: loaded {total} facts in {load_s:.1f}s ({total / load_s:,.0f}/s, via {args.load_via})")

    _connection(memory).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db_mb = memory.store.database_size() / 1e6

    gen = Generator(args.seed * 1000 + 999_999, now)
    queries = [gen.search_query() for _ in range(args.queries)]
    messages = [gen.user_message() for _ in range(args.queries)]

    def search(query: str, filters: dict[str, str]) -> SearchResults:
        return target.search(query, date=filters.get("date"), date_from=filters.get("date_from"),
                             date_to=filters.get("date_to"))

    for query, filters in queries[:20]:  # warm the page cache and statement cache
        search(query, filters)
    search_ms, dated_ms, hits = [], [], []
    for query, filters in queries:
        elapsed, found = _timed(functools.partial(search, query, filters))
        search_ms.append(elapsed)
        hits.append(found.total)
        if filters:
            dated_ms.append(elapsed)
    progress(f"{name}: search p50 {percentile(search_ms, 50):.2f}, p95 {percentile(search_ms, 95):.2f} ms")

    for message in messages[:10]:
        target.context(message, touch=False)
    context_ms, tokens = [], []
    for message in messages:
        elapsed, block = _timed(functools.partial(target.context, message))
        context_ms.append(elapsed)
        tokens.append(block.tokens)
    progress(f"{name}: context p50 {percentile(context_ms, 50):.2f}, p95 {percentile(context_ms, 95):.2f} ms")

    profile = ""
    if args.profile and users == 1 and facts_per_user == max(args.size_list):
        progress(f"{name}: profiling")
        slowest_query = queries[max(range(len(queries)), key=lambda i: (not queries[i][1], search_ms[i]))]
        slowest_message = messages[max(range(len(messages)), key=context_ms.__getitem__)]
        profile = profile_store(target, slowest_query[0], slowest_message, messages, gen.fact()[1])

    sample = Generator(args.seed * 1000 + 555_555, now).unique_facts(REMEMBER_SAMPLE, set(target_seen))
    outcomes: Counter[str] = Counter()
    remember_ms = []
    start = time.perf_counter()
    for kind, text in sample:
        t0 = time.perf_counter()
        try:
            outcomes[target.remember(text, type=kind).status] += 1
        except GuardRejected:
            outcomes["rejected"] += 1
        remember_ms.append((time.perf_counter() - t0) * 1000)
    remember_rate = len(sample) / (time.perf_counter() - start)
    progress(f"{name}: remember {remember_rate:,.0f} facts/s {dict(outcomes)}")

    return Result(
        scenario=name, users=users, facts=facts_per_user, load_path=args.load_via, load_s=load_s,
        load_rate=total / load_s, remember_per_s=remember_rate,
        remember_p50_ms=percentile(remember_ms, 50), remember_p95_ms=percentile(remember_ms, 95),
        remember_outcomes=dict(outcomes),
        search_p50_ms=percentile(search_ms, 50), search_p95_ms=percentile(search_ms, 95),
        search_dated_p50_ms=percentile(dated_ms, 50), search_hits_avg=sum(hits) / len(hits),
        context_p50_ms=percentile(context_ms, 50), context_p95_ms=percentile(context_ms, 95),
        context_tokens_avg=sum(tokens) / len(tokens), db_mb=db_mb,
        extra={"profile": profile} if profile else {},
    )


# --- profiling (--profile) ----------------------------------------------------------------------


class _TimedScope:
    """A UserStore stand-in that records the wall time of every method call."""

    def __init__(self, scope: UserStore, sink: dict[str, list[float]]) -> None:
        self._scope, self._sink = scope, sink

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._scope, name)
        if not callable(attr) or name == "transaction":
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                self._sink[name].append((time.perf_counter() - start) * 1000)

        return timed


def _statements(memory: Memory, call: Callable[[], Any]) -> tuple[float, list[str], Counter[str]]:
    """Run ``call`` once: its time, the SQL statements it ran and the FTS5-internal ones by count."""
    conn = _connection(memory)
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        elapsed, _ = _timed(call)
    finally:
        conn.set_trace_callback(None)
    control = ("BEGIN", "COMMIT", "ROLLBACK")
    nested = Counter(sql.removeprefix("-- ") for sql in seen if sql.startswith("--"))
    top = [sql for sql in seen if not sql.startswith("--") and sql.split(None, 1)[0].upper() not in control]
    return elapsed, top, nested


def _explain(memory: Memory, sql: str) -> tuple[float, str]:
    """Median time of a statement run alone (writes are rolled back) and its query plan."""
    conn = _connection(memory)
    plan = "; ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql))
    write = sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
    runs = []
    for _ in range(5):
        if write:
            conn.execute("BEGIN IMMEDIATE")
        try:
            elapsed, _ = _timed(lambda: conn.execute(sql).fetchall())
        finally:
            if write:
                conn.execute("ROLLBACK")
        runs.append(elapsed)
    return percentile(runs, 50), plan


def _short(sql: str, width: int = 100) -> str:
    sql = " ".join(sql.split())
    return sql if len(sql) <= width else sql[: width - 3] + "..."


def profile_store(memory: Memory, query: str, message: str, messages: Sequence[str], fact: str) -> str:
    """Per-statement plans and times for the slowest search and context, and one remember."""
    lines = []
    for label, call in (
        (f"Memory.search({query!r})", lambda: memory.search(query)),
        (f"Memory.context({message!r})", lambda: memory.context(message)),
        (f"Memory.remember({fact!r})", lambda: memory.remember(fact)),
    ):
        total, statements, nested = _statements(memory, call)
        lines.append(f"{label}: {total:.2f} ms in total, {len(statements)} statements")
        for sql in statements:
            elapsed, plan = _explain(memory, sql)
            lines.append(f"  {elapsed:7.2f} ms  {_short(sql)}")
            lines.append(f"             plan: {plan}")
        for sql, count in nested.most_common(3):
            lines.append(f"  {count:>7,}x    (inside FTS5) {_short(sql, 80)}")
    # Time every store call Memory.context makes, by handing it timed scopes for this run only.
    sink: defaultdict[str, list[float]] = defaultdict(list)
    store = memory.store
    real_scope = store.scope
    store.scope = lambda user_id: _TimedScope(real_scope(user_id), sink)  # type: ignore[method-assign]
    try:
        for text in messages:
            elapsed, _ = _timed(functools.partial(memory.context, text))
            sink["(whole Memory.context)"].append(elapsed)
    finally:
        del store.scope
    store_total = sum(sum(v) for k, v in sink.items() if not k.startswith("("))
    whole = sum(sink["(whole Memory.context)"])
    sink["(python outside the store)"] = [(whole - store_total) / len(messages)]
    lines.append(f"Memory.context over {len(messages)} messages, by store call (ms):")
    for name, values in sorted(sink.items(), key=lambda kv: -sum(kv[1])):
        lines.append(
            f"  {name:<28} calls {len(values):>4}  p50 {percentile(values, 50):7.2f}"
            f"  p95 {percentile(values, 95):7.2f}  total {sum(values):8.1f}"
        )
    return "\n".join(lines)


# --- output -----------------------------------------------------------------------------------

COLUMNS: tuple[tuple[str, str, Callable[[Result], str]], ...] = (
    ("scenario", "<", lambda r: r.scenario),
    ("facts", ">", lambda r: f"{r.facts:,}" + (f" x{r.users}" if r.users > 1 else "")),
    ("load s", ">", lambda r: f"{r.load_s:.1f}"),
    ("load f/s", ">", lambda r: f"{r.load_rate:,.0f}"),
    ("remember f/s", ">", lambda r: f"{r.remember_per_s:,.0f}"),
    ("rem p95 ms", ">", lambda r: f"{r.remember_p95_ms:.2f}"),
    ("search p50 ms", ">", lambda r: f"{r.search_p50_ms:.2f}"),
    ("search p95 ms", ">", lambda r: f"{r.search_p95_ms:.2f}"),
    ("context p50 ms", ">", lambda r: f"{r.context_p50_ms:.2f}"),
    ("context p95 ms", ">", lambda r: f"{r.context_p95_ms:.2f}"),
    ("db MB", ">", lambda r: f"{r.db_mb:.1f}"),
)


def render_table(results: Sequence[Result]) -> str:
    cells = [[fmt(r) for _, _, fmt in COLUMNS] for r in results]
    widths = [max(len(title), *(len(row[i]) for row in cells)) for i, (title, _, _) in enumerate(COLUMNS)]
    lines = ["  ".join(f"{title:{align}{w}}" for (title, align, _), w in zip(COLUMNS, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        aligned = zip(row, COLUMNS, widths, strict=True)
        lines.append("  ".join(f"{cell:{align}{w}}" for cell, (_, align, _), w in aligned))
    return "\n".join(lines)


def evaluate_targets(results: Sequence[Result]) -> list[dict[str, Any]]:
    by_facts = {r.facts: r for r in results if r.users == 1}
    checks = (
        ("10k facts: keyword search p50 <= 5 ms", 10_000, "search_p50_ms", 5.0),
        ("10k facts: context build p50 <= 10 ms", 10_000, "context_p50_ms", 10.0),
        ("100k facts: keyword search p95 <= 25 ms", 100_000, "search_p95_ms", 25.0),
    )
    found = []
    for label, facts, metric, limit in checks:
        result = by_facts.get(facts)
        value = getattr(result, metric) if result else None
        verdict = "n/a" if value is None else ("PASS" if value <= limit else "MISS")
        found.append({"target": label, "value_ms": value, "limit_ms": limit, "verdict": verdict})
    return found


def render_report(results: Sequence[Result], args: argparse.Namespace, elapsed: float) -> str:
    lines = [render_table(results), ""]
    if args.load_via == "store":
        path = "UserStore.insert_memory(NewMemory(...)) in one scope.transaction() per user"
    else:
        path = "Memory.remember(), one call per fact (clock set to each fact's created_at)"
    lines.append(f"Bulk load path: {path}.")
    lines.append(
        f"remember f/s: {REMEMBER_SAMPLE} Memory.remember() calls (duplicate detection + guard) "
        "on top of the loaded store, measured after search and context."
    )
    lines.append(
        f"search: {args.queries} Memory.search() calls, 1-3 keywords, ~1 in 8 with a date filter; "
        f"context: {args.queries} Memory.context(message) calls with touch. db MB after a WAL checkpoint."
    )
    for r in results:
        lines.append(
            f"  {r.scenario}: remember outcomes {r.remember_outcomes}, "
            f"remember p50 {r.remember_p50_ms:.2f} ms; "
            f"dated search p50 {r.search_dated_p50_ms:.2f} ms; avg hits/search {r.search_hits_avg:.1f}; "
            f"avg context tokens {r.context_tokens_avg:.0f}"
        )
    lines.append("")
    lines.append("Targets:")
    for check in evaluate_targets(results):
        value = "-" if check["value_ms"] is None else f"{check['value_ms']:.2f} ms"
        lines.append(f"  {check['verdict']:<5} {check['target']:<44} measured {value}")
    for r in results:
        if r.extra.get("profile"):
            lines.append(f"\nProfile of {r.scenario} (statements re-run alone, writes rolled back):")
            lines.append(r.extra["profile"])
    lines.append(
        f"\nTotal runtime {elapsed:.0f}s (seed {args.seed}); load average {args.load_before} before,"
        f" {_load_average()} after, on {os.cpu_count()} CPUs (above the CPU count, timings are inflated)."
    )
    return "\n".join(lines)


def _load_average() -> str:
    try:
        return "/".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "?"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="facts for the one-user scenarios, comma-separated (default: %(default)s)")
    parser.add_argument("--users", default="100x1000",
                        help="multi-user scenario as USERSxFACTS, or 'none' (default: %(default)s)")
    parser.add_argument("--queries", type=int, default=200, help="search and context calls per scenario")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--load-via", choices=("store", "remember"), default="store",
                        help="how the bulk is loaded (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--out", type=Path, help="also write the output to this file")
    parser.add_argument("--profile", action="store_true",
                        help="after the runs, profile the search and context statements on the largest store")
    remember_slices.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        args.size_list = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
        if args.users.lower() in ("", "none", "0"):
            args.multi = None
        else:
            count, _, per = args.users.lower().partition("x")
            args.multi = (int(count), int(per))
    except ValueError:
        parser.error("--sizes takes numbers like 1000,10000 and --users takes USERSxFACTS like 100x1000")
    if args.queries < 1:
        parser.error("--queries must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.load_before = _load_average()
    start = time.perf_counter()
    if args.remember_slices:
        now = time.time()
        table = remember_slices.run(
            args, lambda salt: Generator(args.seed * 1000 + 777_000 + salt, now), progress
        )
        output = (
            f"{table}\nTotal runtime {time.perf_counter() - start:.0f}s (seed {args.seed}); load average"
            f" {args.load_before} before, {_load_average()} after, on {os.cpu_count()} CPUs."
        )
        print(output)
        if args.out:
            args.out.write_text(output + "\n", encoding="utf-8")
        return 0
    results = []
    scenarios = [(f"1 user, {n:,} facts", 1, n) for n in args.size_list]
    if args.multi:
        users, per = args.multi
        scenarios.append((f"{users} users x {per:,} facts", users, per))
    for name, users, per in scenarios:
        progress(f"{name}: start")
        results.append(run_scenario(name, users, per, args))
    elapsed = time.perf_counter() - start
    if args.json:
        output = json.dumps(
            {"results": [asdict(r) for r in results], "targets": evaluate_targets(results),
             "load_via": args.load_via, "queries": args.queries, "seed": args.seed,
             "remember_sample": REMEMBER_SAMPLE, "runtime_s": elapsed, "cpus": os.cpu_count(),
             "load_average_before": args.load_before, "load_average_after": _load_average()},
            indent=2,
        )
    else:
        output = render_report(results, args, elapsed)
    print(output)
    if args.out:
        args.out.write_text(output + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ReverieError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
