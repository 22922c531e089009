"""PINs, one-time, door and alarm codes refused as secrets in many languages (a code word, then
its digits); flight, order, room and extension numbers, postcodes, years and counts stored.
"""

from __future__ import annotations

import pytest

from reverie.extract.guard import check_memory_text
from reverie.extract.guard_codes import find_secret_code

CODES = [
    "Garage door code is 7-3-9-1.",
    "Mi PIN del banco es 5512.",
    "Der Türcode lautet 4827.",
    "Il codice di verifica ricevuto via SMS è 730 215.",
    "Mijn pincode: 6603",
    "私の暗証番号は5827です",
    "인증번호는 483920 입니다",
    "验证码：449102",
    "The bike lock combination is 2291.",
    "Changed the front door code to 0518 yesterday.",
    "Пин-код от карты — 3390.",
    "4417 is my voicemail PIN.",
    "The code for the building door is 4 7 1 9.",
    "Alarm panel code – 2580.",
    "Ma carte bleue, code 4412.",
    "El pin de mi tarjeta es el 7391.",
    "The safe in the bedroom opens with 1-9-8-4.",
    "Key safe at mum's house: 6021.",
    "The combination to the gym locker is 12-34-56.",
    "The code to disarm the alarm is 6-6-1-2.",
    "my pin's 4471",
    "Code d'entrée de l'immeuble : 47B12 puis 2580.",
    "Der Zahlencode für das Fahrradschloss ist 3-7-1-9.",
    "El código para abrir la caja fuerte es 0099.",
    "Pinkoden till kortet är 8815.",
    "Kapı şifresi 4455.",
    "Код от домофона 1379.",
]

NOT_CODES = [
    "Flight LH 4071 leaves Frankfurt at 6:40.",
    "Order number 558812 arrived damaged.",
    "We stayed in room 4071 at the Hilton.",
    "Her phone extension is 4417.",
    "Postcode 75011, Paris, near the canal.",
    "My PIN has four digits and I changed it in 2023.",
    "The verification code arrives by SMS within 60 seconds.",
    "The bank sends a one-time code to +44 7700 900123.",
    "The door code for the gym changes every 30 days.",
    "A 6-digit code is required to log in at work.",
    "The alarm code was reset on 12 March by the installer.",
    "Booking confirmation code 448812 for the ferry to Tallinn.",
    "User lives at 4412 Maple Avenue, apartment 12.",
    "User's gym locker number is 1984.",
    "User's building has a new entry code system since May.",
    "User forgot their PIN twice this month and had to visit the bank.",
    "User's PIN was blocked after three wrong attempts.",
    "User's password was leaked in a breach last year.",
    "User keeps the spare key in a key safe by the back door.",
    "User's flight confirmation code is X7K2PQ.",
    "La mia camera d'albergo è la 4412.",
    "Номер моего рейса SU 1234.",
    "部屋番号は1207です。",
]


# A UK National Insurance number has no check digit: it is a secret when it is named as one.
NI_NUMBERS = ["Her national insurance number is JK 12 34 56 C.", "NI no: PR483920A"]
NOT_NI = ["Parcel reference PR483920A arrives on Tuesday.", "Seat row AB 12 34 56 C is not a thing."]


@pytest.mark.parametrize("text", NI_NUMBERS)
def test_named_national_insurance_number_is_refused(text: str) -> None:
    assert check_memory_text(text).reason == "secret", text


@pytest.mark.parametrize("text", NOT_NI)
def test_the_same_shape_as_a_reference_is_stored(text: str) -> None:
    assert check_memory_text(text).ok, text


@pytest.mark.parametrize("text", CODES)
def test_code_with_its_digits_is_a_secret(text: str) -> None:
    assert find_secret_code(text) is not None, text
    verdict = check_memory_text(text)
    assert not verdict.ok and verdict.reason == "secret", text
    assert check_memory_text(text, allow_sensitive=True).ok, text


@pytest.mark.parametrize("text", NOT_CODES)
def test_other_numbers_are_stored(text: str) -> None:
    assert check_memory_text(text).ok, text
