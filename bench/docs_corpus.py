"""A household folder of real-looking documents and questions about them, for bench/docs_bench.py.

Fourteen files: appliance manuals (two dishwasher models that share error codes, a printer, a
router as a PDF), heating notes and warranties as Word files, home-server notes, an app's changelog, car
notes, recipes, a garden journal and travel plans. Several hold many chunks that are close in
meaning (error-code sections, release notes, firmware pages), which is where an exact
identifier has to win over meaning.

Each question names the file that answers it and a string that chunk holds. ``kind`` is
``id`` when the question names an exact identifier (a model or part number, an error code, a
file name or path, a version, a hex code, a booking reference) and ``other`` when it is worded
without them, as far as possible without the document's own words. The questions were
written before any score was seen. ``half`` splits each kind alternately into ``tune`` and
``held``: anything tuned is tuned on ``tune`` only and reported on ``held`` as well.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from docx import Document
from fpdf import FPDF

DW450 = """# Aqualine DW-450 dishwasher: owner's manual

## Before first use

Remove the transport lock from the lower basket and take out the bag of accessories. Fill the
salt container with 1.5 kg of dishwasher salt before the first wash; water may overflow the
container the first time, which is normal. Set the water hardness to level H3 if your water
company reports between 14 and 21 degrees of German hardness.

## Programs

Eco 50 takes 3 h 15 min and uses 9.5 litres of water: it is the most efficient program for
normally soiled dishes. Intensive 70 runs hot for pots and pans with burnt-on food. Quick 35
washes lightly soiled glasses and cups in 29 minutes. Glass 40 is gentle on delicate glassware.
Machine Care 70 cleans the inside of the appliance and should be run every two months.

## Loading

Put plates in the lower basket facing the centre and cups upside down in the upper basket.
Long knives lie flat in the cutlery drawer. Do not wash wooden chopping boards, cast iron or
hand-painted china.

## Cleaning the filters

Twist the cylindrical filter anticlockwise and lift out the filter system. Rinse the fine
filter and the micro filter under the tap once a month and push the system back until it
clicks. A dirty filter causes poor results and a smell.

## Error codes

### E09 heating element

E09: the heating element does not reach the set temperature. Switch off at the wall for one
minute; if E09 returns, call customer service, the heater relay may have failed.

### E15 base tray

E15: water has collected in the base tray and the anti-flood protection switched on. Tilt the
appliance gently to drain the tray and look for a leaking hose connection.

### E22 filters

E22: the filters are blocked. Clean the filter system as described above and check the spray
arms turn freely.

### E24 drain

E24: waste water cannot drain. The drain hose is kinked, or the sink trap it connects to is
blocked; straighten the hose and clear the trap.

### E25 drain pump

E25: the drain pump cover is jammed, often by a piece of glass or a fruit stone. Scoop out the
water, lift the cover with a spoon and remove what blocks it.

### E27 supply voltage

E27: the mains voltage is too low (under 200 V). This is not a fault of the appliance; ask an
electrician to check the supply.

## Specifications

Model DW-450, part number 9001-4821. Width 60 cm, 13 place settings, noise 44 dB, energy
class C. Water pressure between 0.5 and 10 bar.
"""

DW460 = """Aqualine DW-460 quick guide

The DW-460 is the slimline model: 45 cm wide, 10 place settings. It shares its programs with
the larger models, but the half-load option is missing and the cutlery basket sits in the
door.

Salt and rinse aid. Top up the rinse aid when the indicator lights; set the dose to 4 for
soft water and 5 for hard water.

Fault display. The display shows a code when the wash stops.

E15: the anti-flood tray under the machine holds water. Unplug the machine and call service.

E22: the filter is clogged; clean the three-part filter under the lower spray arm.

E24: the water inlet is blocked. On this model E24 means the inlet hose filter at the tap
end is full of limescale: turn off the tap, unscrew the hose and rinse the small mesh.

E25: drain pump blocked. Remove the pump cover behind the filter.

Door adjustment. If the door falls open by itself, turn the two spring screws at the bottom of
the side panels a quarter turn clockwise.
"""

PRINTER = """# InkJet Pro 9020 all-in-one printer

## Loading paper

The main tray takes A4, Letter and Legal paper up to 250 sheets. Photo paper up to 13 x 18 cm
goes in the upper tray, glossy side down.

## Replacing cartridges

Open the access door and wait until the carriage stops. Press the front of the old cartridge to
release it. The printer takes 963 cartridges; 963XL high-yield cartridges print about 2,000
pages in black.

## Cleaning the printhead

When lines or streaks appear, run Clean Printhead from the Printer Maintenance menu. Each pass
uses some ink; run the second level only if the first did not help, and let the printer rest
for an hour before a third.

## Wi-Fi Direct

To print from a phone without joining your home network, turn on Wi-Fi Direct from the control
panel and connect the phone to the network DIRECT-20-InkJet Pro; the password is printed on the
information page.

## Drivers

The full driver and software package is pro9020_full_webpack_53.8.exe for Windows; on macOS use
the AirPrint driver built into the system. The basic driver pro9020_basicx64_53.8.exe installs
without the scanning software.

## Error 0x61011BED

0x61011BED: the carriage cannot move. Open the access door, remove any jammed paper or packing
tape, and check that the carriage moves freely by hand.

## Error 0xB39D2000

0xB39D2000: an ink system failure. Turn the printer off, unplug it for sixty seconds, and
reseat each cartridge. If it persists the printhead needs replacing.

## Error 0x83C0000A

0x83C0000A: a firmware problem after an interrupted update. Hold the power button for twenty
seconds with the cable unplugged, then reinstall the firmware over USB.

## Error OE-04

OE-04: the paper size in the tray does not match the size set for the job. Change the size in
the print dialog or load the right paper.

## Error 0x7E0A0C01

0x7E0A0C01: the output tray extender is obstructed. Clear the front of the printer and push the
extender back in.
"""

ROUTER_PAGES = [
    "NetHaven AX3000 router: getting started.\n\nConnect the yellow WAN port to your modem with the "
    "supplied cable, then power on. Open http://192.168.8.1 in a browser; the admin password is on "
    "the label under the router. Change it during the setup wizard.",
    "Status lights.\n\nSolid white: connected to the internet. Blinking amber: the router has no "
    "internet connection; check the modem cable. Solid red: the router is overheating; move it "
    "somewhere with more air around it. Slow blue pulse: pairing a mesh satellite.",
    "Firmware v1.0.8 (launch release).\n\nFirst public firmware. Supports WPA2 and WPA3 personal, a "
    "guest network, and parental controls by device.",
    "Firmware v1.1.2.\n\nFixes clients dropping off the network when they roam between bands with "
    "WPA3. Improves 2.4 GHz range slightly. Adds the option to hide the network name.",
    "Firmware v1.2.0.\n\nAdds scheduling for the guest network (for example off at night) and an "
    "activity report per device. Fixes a rare reboot when many clients connect at once.",
    "Firmware v1.2.4.\n\nSecurity release: patches CVE-2024-31337, a flaw in the UPnP service that "
    "let a device on the network open ports without asking. Install it as soon as possible.",
    "Error messages.\n\nPPP-651: the modem rejected the login; check the ISP username and password "
    "on the Internet page. DNS-0x1F: the upstream DNS server timed out; set the DNS server to "
    "1.1.1.1 or your provider's.",
    "Factory reset.\n\nWith the router on, press and hold the reset pin on the back for 10 seconds "
    "until the light blinks white. All settings are lost, including the Wi-Fi password.",
    "Port forwarding.\n\nTo reach a game console or a camera from outside the home, open Advanced > "
    "NAT > Virtual Servers, choose the device, and enter the external and internal port.",
    "Mesh.\n\nTo cover a larger home, add an NH-S1 satellite: place it halfway between the router and "
    "the weak spot, press its pair button, then press the WPS button on the router within two minutes.",
]

HEATING = [
    ("heading1", "Heating and hot water"),
    (
        "para",
        "The boiler is a ThermaCore 28C combi in the utility room, serial number TC28-7731-0042. It "
        "was installed in March 2021 by J. Price Heating, who also fitted the magnetic filter.",
    ),
    ("heading2", "Pressure"),
    (
        "para",
        "The gauge on the front of the boiler should read between 1 and 1.5 bar when the heating is "
        "cold. To top it up, open the two taps of the filling loop under the boiler slowly until the "
        "needle reaches 1.5 bar, then close both.",
    ),
    ("heading2", "Fault codes"),
    ("para", "F.22: the water pressure is too low. Top up through the filling loop as above."),
    (
        "para",
        "F.28: the boiler failed to light. Check that the gas valve under the boiler is open and "
        "that the gas meter has credit, then press reset once.",
    ),
    ("para", "F.75: the pump pressure sensor did not see a pressure change; call the engineer."),
    ("heading2", "Thermostat schedule"),
    (
        "table",
        [
            ["Time", "Weekdays", "Weekends"],
            ["06:30", "20 C", "18 C"],
            ["08:30", "17 C", "20 C"],
            ["17:00", "21 C", "21 C"],
            ["22:30", "16 C", "16 C"],
        ],
    ),
    ("heading2", "Radiators"),
    (
        "para",
        "Bleed the radiators each October with the key from the kitchen drawer, starting with the "
        "upstairs bathroom and ending with the lounge. Check the pressure afterwards.",
    ),
    ("heading2", "Service"),
    (
        "para",
        "The annual service is under contract HC-55102 with HomeCare; they send a reminder in "
        "September. The last service found a worn condensate trap seal, replaced for free.",
    ),
]

HOMELAB = """# Home server notes

## Reverse proxy

nginx serves the photo library. Its site file is /etc/nginx/sites-available/photos.conf and it
listens on port 8443 with a certificate from Let's Encrypt. The certbot timer renews it; check
with systemctl list-timers if the site ever shows an expired certificate.

## Backups

The script ~/bin/backup_nightly.sh runs from cron at 02:30. It copies the photo library and the
documents to the NAS at 192.168.1.40 (share /volume1/backups) with rsync and keeps 14 days of
snapshots. A summary email goes out only when something failed.

## Media

/srv/media/docker-compose.yml runs Jellyfin 10.8.13 and Pi-hole. Update them with docker compose
pull followed by docker compose up -d, never with the web interfaces.

## Database

PostgreSQL was upgraded from 15.4 to 16.2 on 10 February 2024 with pg_upgrade --link; the old
cluster was deleted a week later once the photo app had run cleanly.

## Network reservations

The printer's MAC address 3C:52:82:1A:9F:04 is reserved at 192.168.1.23, and the NAS at
192.168.1.40. The DHCP range starts at 192.168.1.100 so that reserved addresses never clash.

## Power

An APC Back-UPS BX1600MI protects the server and the NAS; it signals a shutdown over USB after
five minutes on battery. The battery was replaced in 2023.
"""

_NOTEWELL_RELEASES = [
    ("2.4.1", "18 June 2024", "Fixes search results missing notes edited on another device until a restart."),
    ("2.4.0", "3 June 2024", "Adds tags with colours and a tag filter in the sidebar."),
    ("2.4.0-beta.2", "21 May 2024", "Beta: tags can be renamed; fixes the tag list not scrolling."),
    ("2.4.0-beta.1", "9 May 2024", "Beta: first preview of tags; may lose tag colours on sync."),
    ("2.3.2", "25 April 2024", "Fixes the dark theme turning code blocks unreadable."),
    ("2.3.1", "12 April 2024", "Fixes a crash when attaching photos larger than 20 MB to a note."),
    ("2.3.0", "28 March 2024", "Adds handwriting notes with a stylus and exports to PDF."),
    ("2.2.3", "2 March 2024", "Fixes reminders firing an hour late after the clocks changed."),
    ("2.2.0", "1 February 2024", "Adds offline mode: notes can be read and edited without a connection."),
    ("2.1.5", "11 January 2024", "Fixes sync stopping when a note title held an emoji."),
    ("2.1.0", "4 December 2023", "Adds shared notebooks for families, with per-person permissions."),
    ("2.0.0", "6 November 2023", "A new editor; notes from 1.x are converted on first start."),
]

NOTEWELL = "# Notewell release notes\n\n" + "\n\n".join(
    f"## Notewell {version} ({date})\n\n{text} Update from the app store or from Settings > About."
    for version, date, text in _NOTEWELL_RELEASES
)

CAR = """Car notes: 2017 Skoda Octavia estate 1.5 TSI

Tyres. 205/55 R16 91V all round. Pressure 2.3 bar front and 2.1 bar rear when lightly loaded,
2.6 bar rear with a full boot. The locking wheel nut key is in the spare wheel well.

Oil. 5W-30 to VW 504.00, about 4 litres with the filter. The long-life service interval is up
to two years or 30,000 km, whichever comes first.

Parts. Front wiper blades: part 5E1998002. Cabin pollen filter: 5Q0819653. Brake pads were
replaced in October 2023 at 61,000 km.

Check engine light. In August 2023 the OBD reader showed P0420, catalytic converter efficiency
below threshold; the garage replaced the rear oxygen sensor and the code has not returned.

Inspection. The next MOT is due on 14 March 2025; book it two weeks ahead at Hillside Motors.
"""

BREAD = """# Bread

## Everyday sourdough

500 g strong white flour, 375 g water (75% hydration), 100 g active starter, 10 g salt. Mix the
flour and water and rest for an hour before adding starter and salt. Stretch and fold four
times, half an hour apart. Bulk ferment at about 24 C until the dough has grown by half, then
shape, and prove overnight in the fridge.

## Baking the sourdough

Heat the oven to 250 C with the cast-iron pot inside for forty minutes. Bake with the lid on for
20 minutes, then lid off at 230 C for another 25 minutes until deep brown. Cool for an hour
before cutting.

## Focaccia

Mix 400 g flour, 320 g water, 8 g salt and 4 g instant yeast; pour 40 ml olive oil into a
tin and leave the dough to rise in it for two hours. Dimple it with oiled fingers, scatter
rosemary and flaky salt, and bake at 220 C for 22 minutes.

## Starter care

Feed the starter every twelve hours at room temperature with equal weights of flour and water.
Kept in the fridge, it needs feeding once a week and a day at room temperature before baking.
"""

DINNERS = """# Weeknight dinners

## Red lentil soup

Soften an onion, two carrots and a celery stick in olive oil. Add 200 g red lentils, a
teaspoon of cumin and 1.2 litres of stock, and simmer for 25 minutes until the lentils
collapse. Blend half of it and finish with lemon juice.

## Chicken curry

Brown 600 g chicken thighs. Fry an onion with ginger, garlic, two teaspoons of garam masala,
one of turmeric and one of chilli powder. Add a tin of tomatoes and 200 ml coconut milk and
cook for 30 minutes. Serve with rice and coriander.

## Pasta with broccoli and anchovies

Boil the pasta with the broccoli florets for the last four minutes. Melt six anchovies in olive
oil with garlic and chilli flakes, then toss everything with pasta water and parmesan.

## Sheet pan salmon

Roast salmon fillets with new potatoes and green beans at 200 C for 18 minutes, with a dressing
of soy sauce, honey and lime.
"""

DESSERTS = """Desserts we keep making

Brownies. Melt 200 g dark chocolate with 175 g butter. Whisk three eggs with 250 g sugar until
pale and thick, fold in the chocolate, then 80 g flour and 30 g cocoa. Bake in a 20 cm square
tin at 180 C for 25 minutes; the middle should still wobble.

Lemon tart. Blind bake a sweet pastry case. Whisk five eggs, 150 g sugar, the zest and juice of
three lemons and 150 ml double cream; bake at 150 C for 30 minutes until just set. For a
dairy-free tart use coconut cream instead of double cream.

Apple crumble. Slice six apples with cinnamon and a little sugar. Rub 150 g flour with 100 g
butter and stir in 75 g brown sugar and a handful of oats. Bake at 190 C for 35 minutes.
"""

GARDEN = """Garden journal

Tomatoes. Sow indoors in late March. Plant out only after the last frost, usually mid-May here.
Last summer Sungold gave the most fruit by far; Brandywine split in the rain.

Blueberries. They need acid soil, pH 4.5 to 5.5, so they grow in tubs of ericaceous compost and
are watered with rainwater from the butt, never tap water.

Lawn. Scarify in September and overseed the bare patches; feed in April with a spring feed,
never in a dry spell.

Compost. Turn the heap every month. Too wet and smelly means more cardboard; too dry means more
grass cuttings.
"""

LISBON = """# Lisbon trip, May 2025

## Travel

Flight TP1337 leaves Manchester at 06:40 on 12 May and lands in Lisbon at 09:25. Return on
TP1338 on 18 May. Each of us has one 23 kg bag.

## Staying

Hotel Alfama Patio, booking reference XK7Q2M, five nights, breakfast included. Check-in from
15:00; they keep bags if we arrive early.

## Things to do

Tram 28 climbs from Martim Moniz up to the castle; board early to get a seat. Pasteis de Belem
for custard tarts (go before 10). A day trip to Sintra by train from Rossio station, 40 minutes.
"""

WARRANTIES = [
    ("heading1", "Warranties and policies"),
    (
        "para",
        "Home insurance: policy HX-88213-B with Meridian, renewed every 1 July. Accidental damage is "
        "covered for the contents only.",
    ),
    (
        "para",
        "Washing machine: five-year warranty to November 2027, registration code WM-5Y-20931. Keep the "
        "receipt in the blue folder.",
    ),
    (
        "para",
        "Television: the extended cover ended in 2024; the retailer offers repair at a fixed price.",
    ),
    (
        "para",
        "Boiler: ten-year manufacturer guarantee to March 2031, valid only with a yearly service.",
    ),
]


@dataclass(frozen=True)
class Question:
    """A question, the file and the text of the chunk that answers it."""

    kind: Literal["id", "other"]
    text: str
    file: str
    expected: str


def _q(kind: Literal["id", "other"], text: str, file: str, expected: str) -> Question:
    return Question(kind, text, file, expected)


QUESTIONS: list[Question] = [
    # -- naming an exact identifier ----------------------------------------------------------
    _q("id", "What does error E24 mean on the DW-450?", "dishwasher_manual.md", "sink trap"),
    _q("id", "My DW-460 shows E24, what should I check?", "aqualine_DW-460_quick_guide.txt", "limescale"),
    _q("id", "What is E15 on the DW-450 dishwasher?", "dishwasher_manual.md", "anti-flood protection"),
    _q("id", "What does code E27 mean?", "dishwasher_manual.md", "under 200 V"),
    _q("id", "The router says PPP-651", "nethaven_router.pdf", "rejected the login"),
    _q("id", "How do I fix DNS-0x1F?", "nethaven_router.pdf", "upstream DNS"),
    _q("id", "What changed in firmware v1.2.4?", "nethaven_router.pdf", "UPnP"),
    _q("id", "Is v1.1.2 worth installing?", "nethaven_router.pdf", "roam between bands"),
    _q("id", "Boiler shows F.22, what do I do?", "heating_notes.docx", "pressure is too low"),
    _q("id", "What is contract HC-55102?", "heating_notes.docx", "annual service"),
    _q("id", "What is in /etc/nginx/sites-available/photos.conf?", "homelab.md", "8443"),
    _q("id", "When does backup_nightly.sh run?", "homelab.md", "02:30"),
    _q("id", "Which address is 3C:52:82:1A:9F:04 given?", "homelab.md", "192.168.1.23"),
    _q("id", "How did the upgrade to PostgreSQL 16.2 go?", "homelab.md", "pg_upgrade"),
    _q("id", "Printer error 0x61011BED", "inkjet_pro_9020.md", "carriage cannot move"),
    _q("id", "What does 0x83C0000A mean on the printer?", "inkjet_pro_9020.md", "interrupted update"),
    _q("id", "What is pro9020_basicx64_53.8.exe?", "inkjet_pro_9020.md", "without the scanning"),
    _q("id", "What did Notewell 2.3.1 fix?", "notewell_changelog.md", "larger than 20 MB"),
    _q("id", "What was new in 2.4.0-beta.2?", "notewell_changelog.md", "renamed"),
    _q("id", "What does P0420 mean for the car?", "car_notes.txt", "catalytic converter"),
    _q("id", "What is part 5E1998002?", "car_notes.txt", "wiper blades"),
    _q("id", "What is booking XK7Q2M?", "lisbon_trip.md", "Alfama Patio"),
    _q("id", "When does TP1337 land?", "lisbon_trip.md", "09:25"),
    _q("id", "What does policy HX-88213-B cover?", "warranties.docx", "Accidental damage"),
    # -- worded without the identifiers (and, where possible, without the document's words) ---
    _q(
        "other",
        "How long does the energy-saving dishwasher cycle last?",
        "dishwasher_manual.md",
        "3 h 15 min",
    ),
    _q("other", "How often should I rinse the dishwasher sieve?", "dishwasher_manual.md", "once a month"),
    _q("other", "How much salt goes in before the first run?", "dishwasher_manual.md", "1.5 kg"),
    _q("other", "Can I put my wooden board in the dishwasher?", "dishwasher_manual.md", "wooden chopping"),
    _q(
        "other",
        "The slim dishwasher's door drops open on its own",
        "aqualine_DW-460_quick_guide.txt",
        "spring screws",
    ),
    _q("other", "How do I open the router's settings page?", "nethaven_router.pdf", "192.168.8.1"),
    _q("other", "The router light flashes orange", "nethaven_router.pdf", "no internet"),
    _q("other", "How do I wipe the router back to how it came?", "nethaven_router.pdf", "reset pin"),
    _q("other", "How can my game console be reached from outside?", "nethaven_router.pdf", "Virtual Servers"),
    _q("other", "How do I extend wifi to the far bedroom?", "nethaven_router.pdf", "satellite"),
    _q(
        "other",
        "Which router update let me turn off guest wifi at night?",
        "nethaven_router.pdf",
        "scheduling",
    ),
    _q("other", "What should the boiler gauge read?", "heating_notes.docx", "between 1 and 1.5 bar"),
    _q(
        "other",
        "What temperature is the house set to first thing on a weekday?",
        "heating_notes.docx",
        "06:30",
    ),
    _q(
        "other",
        "Where is the key for letting air out of the radiators?",
        "heating_notes.docx",
        "kitchen drawer",
    ),
    _q("other", "Who put in our boiler?", "heating_notes.docx", "J. Price"),
    _q("other", "The boiler will not light", "heating_notes.docx", "gas valve"),
    _q("other", "How long are the server's backup copies kept?", "homelab.md", "14 days"),
    _q("other", "How does the photo site's certificate stay valid?", "homelab.md", "certbot"),
    _q("other", "What keeps the server running in a power cut?", "homelab.md", "Back-UPS"),
    _q("other", "How do I update the media server containers?", "homelab.md", "pull"),
    _q("other", "My prints have streaks", "inkjet_pro_9020.md", "Clean Printhead"),
    _q(
        "other",
        "How do I print from my phone without joining the home wifi?",
        "inkjet_pro_9020.md",
        "DIRECT-20",
    ),
    _q("other", "How many pages does a high-capacity black ink last?", "inkjet_pro_9020.md", "2,000"),
    _q("other", "The printer complains the paper is the wrong size", "inkjet_pro_9020.md", "does not match"),
    _q(
        "other",
        "Which note app update added working without internet?",
        "notewell_changelog.md",
        "offline mode",
    ),
    _q(
        "other",
        "When did the notes app start letting families share notebooks?",
        "notewell_changelog.md",
        "shared notebooks",
    ),
    _q(
        "other",
        "Which notes app version fixed reminders after daylight saving?",
        "notewell_changelog.md",
        "hour late",
    ),
    _q("other", "What pressure should the back tyres be with a loaded boot?", "car_notes.txt", "2.6 bar"),
    _q("other", "Which engine oil does the car take?", "car_notes.txt", "504.00"),
    _q("other", "When is the car's next roadworthiness test?", "car_notes.txt", "14 March 2025"),
    _q("other", "How wet is my usual loaf dough?", "bread.md", "75% hydration"),
    _q("other", "How hot should the oven be for the olive oil flatbread?", "bread.md", "220 C"),
    _q("other", "How often do I feed the starter when it lives in the fridge?", "bread.md", "once a week"),
    _q("other", "How long does the red lentil dish simmer?", "dinners.md", "25 minutes"),
    _q("other", "Which spices go into the chicken dish?", "dinners.md", "garam masala"),
    _q("other", "A quick fish dinner on one tray", "dinners.md", "salmon"),
    _q("other", "How long do the chocolate squares bake?", "desserts.txt", "25 minutes"),
    _q("other", "How can I make the citrus tart without cream?", "desserts.txt", "coconut cream"),
    _q("other", "When is it safe to put tomato plants outdoors?", "garden_journal.txt", "mid-May"),
    _q("other", "Which tomato did best last year?", "garden_journal.txt", "Sungold"),
    _q("other", "What soil do the blueberries need?", "garden_journal.txt", "pH 4.5"),
    _q("other", "Which tram goes up to the castle in Lisbon?", "lisbon_trip.md", "Tram 28"),
    _q("other", "Where can we get custard tarts in Lisbon?", "lisbon_trip.md", "Pasteis de Belem"),
    _q("other", "Until when is the washing machine guaranteed?", "warranties.docx", "November 2027"),
]


def halves(questions: list[Question]) -> dict[str, list[Question]]:
    """Each kind's questions alternately in ``tune`` and ``held``."""
    split: dict[str, list[Question]] = {"tune": [], "held": []}
    seen = {"id": 0, "other": 0}
    for question in questions:
        split["tune" if seen[question.kind] % 2 == 0 else "held"].append(question)
        seen[question.kind] += 1
    return split


def _pdf(path: Path, pages: list[str]) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        for paragraph in text.split("\n\n"):
            pdf.multi_cell(0, 6, paragraph)
            pdf.ln(6)
    pdf.output(str(path))


def _docx(path: Path, parts: list[tuple[str, object]]) -> None:
    document = Document()
    for kind, value in parts:
        if kind == "table":
            rows: list[list[str]] = value  # type: ignore[assignment]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif kind.startswith("heading"):
            document.add_heading(str(value), level=int(kind[-1]))
        else:
            document.add_paragraph(str(value))
    document.save(str(path))


_FAULTS = [
    "the door is not closed properly; press it shut until it clicks",
    "the water tap is turned off or the supply pressure is too low",
    "the drain pump is blocked by debris; clean the pump cover",
    "the heater has failed; call customer service",
    "the temperature sensor gives no reading; unplug for a minute and try again",
    "the motor is overloaded; reduce the load and restart the program",
    "the water level sensor reports an error; check the hose to the pressure switch",
    "the aquastop valve in the inlet hose has closed; replace the inlet hose",
    "the water is not heating fast enough; check the supply voltage",
    "the drain hose is blocked or kinked; check the hose behind the machine",
    "the filter is blocked; clean the filter under the lower spray arm",
    "water has leaked into the base; switch off and call service",
]
_CODES = ["E01", "E04", "E09", "E12", "E15", "E18", "E22", "E24", "E25", "E27", "E31", "E36"]
_CHANGES = [
    "Fixes a crash when opening large attachments.",
    "Fixes sync stopping after the device slept overnight.",
    "Adds a dark theme and larger text options.",
    "Improves start-up time on older phones.",
    "Fixes reminders not showing on the lock screen.",
    "Adds export to Markdown and PDF.",
    "Fixes search missing items added on another device.",
    "Adds sharing with family members.",
    "Fixes a security flaw in link previews.",
    "Improves battery use when syncing in the background.",
]
_VERSIONS = ["1.0.8", "1.1.2", "1.2.0", "1.2.4", "2.2.0", "2.3.0", "2.3.1", "2.3.2", "2.4.0", "2.4.1"]


def write_distractors(folder: Path, seed: int = 20) -> list[Path]:
    """Other manuals and changelogs close in meaning to the answers, sharing their codes and versions.

    Ten appliance manuals of other models with the same error codes meaning other things,
    six changelogs and four firmware notes with the same version numbers, and two boiler notes
    with the same fault codes: an identifier question must still find its own document's chunk.
    """
    rng = random.Random(seed)
    written: list[Path] = []
    appliances = [("Aqualine", "DW", n, "dishwasher") for n in (410, 420, 430, 440, 470, 480)]
    appliances += [("Brightwash", "WM", n, "washing machine") for n in (712, 714, 810, 914)]
    for brand, prefix, number, what in appliances:
        lines = [f"# {brand} {prefix}-{number} {what}: user manual", ""]
        lines += ["## Programs", "", f"The {what} offers Eco, Quick, Intensive and Care programs.", ""]
        for code in sorted(rng.sample(_CODES, 8)):
            lines += [f"## Fault {code}", "", f"{code}: {rng.choice(_FAULTS)}.", ""]
        path = folder / f"{brand.lower()}_{prefix.lower()}{number}_manual.md"
        path.write_text("\n".join(lines), encoding="utf-8")
        written.append(path)
    for app in ("Pagewise", "Tidynote", "Listly", "Jotter", "Memoboard", "Inkwell"):
        releases = sorted(
            rng.sample(_VERSIONS, 7), key=lambda v: [int(p) for p in v.split(".")], reverse=True
        )
        text = f"# {app} changelog\n\n" + "\n\n".join(
            f"## {app} {version}\n\n{rng.choice(_CHANGES)} {rng.choice(_CHANGES)}" for version in releases
        )
        path = folder / f"{app.lower()}_changelog.md"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    for device in ("MeshPoint M5", "AirLink R7", "HomeGate 600", "NetHaven AX1800"):
        versions = rng.sample(_VERSIONS[:4], 4)
        text = f"{device} firmware notes\n\n" + "\n\n".join(
            f"Firmware v{version}: {rng.choice(_CHANGES)} Improves Wi-Fi stability on the 5 GHz band."
            for version in versions
        )
        text += "\n\nError PPP-691: the login was refused. Error DNS-0x2A: no DNS answer; restart the modem."
        path = folder / f"{device.lower().replace(' ', '_')}_firmware.txt"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    for place in ("cottage", "office"):
        text = (
            f"Boiler notes for the {place}\n\nF.22: the flue sensor tripped; call the engineer.\n\n"
            "F.28: no flame after five tries; the gas supply may be off.\n\n"
            "F.75: the pump is stuck; tap the pump housing gently.\n\n"
            "The pressure should be between 1 and 2 bar; top up through the filling loop."
        )
        path = folder / f"boiler_{place}.txt"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def write_folder(folder: Path) -> list[Path]:
    """Write the documents into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = {
        "dishwasher_manual.md": DW450,
        "aqualine_DW-460_quick_guide.txt": DW460,
        "inkjet_pro_9020.md": PRINTER,
        "homelab.md": HOMELAB,
        "notewell_changelog.md": NOTEWELL,
        "car_notes.txt": CAR,
        "bread.md": BREAD,
        "dinners.md": DINNERS,
        "desserts.txt": DESSERTS,
        "garden_journal.txt": GARDEN,
        "lisbon_trip.md": LISBON,
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    _pdf(folder / "nethaven_router.pdf", ROUTER_PAGES)
    _docx(folder / "heating_notes.docx", HEATING)
    _docx(folder / "warranties.docx", WARRANTIES)
    return sorted(folder.iterdir())
