"""Who travels, checked the way airlines and hotels check it, before anything is held.

* Names as on the travel document, in the Latin letters booking systems accept (A–Z, spaces,
  hyphens, apostrophes), 1–35 characters each and 2–55 together.
* The passenger type matches the age on the travel date: adult 18+, child 2–17, lap infant
  under 2 (a child of 2 or more needs a seat).
* Every lap infant sits with a different adult, so infants never outnumber adults.
* A phone number in international form (validated with ``phonenumbers``), an email address, a
  title and a gender where airlines require them (Duffel orders do).

Every problem comes back as a sentence a traveller understands, keyed by the field.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Dict, List, Optional, Sequence

import phonenumbers

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
TITLES = ("mr", "ms", "mrs", "miss", "dr")
GENDERS = ("m", "f")
MAX_NAME, MAX_FULL_NAME = 35, 55
ADULT_AGE, INFANT_AGE = 18, 2


def age_on(born_on: date, on: date) -> int:
    return on.year - born_on.year - ((on.month, on.day) < (born_on.month, born_on.day))


def type_for_age(age: int, *, lap: bool = True) -> str:
    if age >= ADULT_AGE:
        return "adult"
    if age < INFANT_AGE and lap:
        return "infant"
    return "child"


def normalise_phone(raw: str, region: Optional[str] = None) -> Optional[str]:
    """The number in E.164 (``+442080160508``), or None when it is not a valid number."""
    try:
        parsed = phonenumbers.parse(raw or "", region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(parsed):
        return None
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def name_problems(given: str, family: str) -> Dict[str, str]:
    problems: Dict[str, str] = {}
    for field, label, value in (("given_name", "First name", given), ("family_name", "Last name", family)):
        value = (value or "").strip()
        if not value:
            problems[field] = f"{label} is needed, exactly as on the passport or ID."
        elif len(value) > MAX_NAME:
            problems[field] = f"{label} can be at most {MAX_NAME} characters; airlines cut longer names."
        elif not NAME_RE.match(value):
            problems[field] = (
                f"{label} may use only the letters A–Z (write accents without them, e.g. é as e), "
                "spaces, hyphens and apostrophes."
            )
    if not problems and len(given.strip()) + len(family.strip()) > MAX_FULL_NAME:
        problems["family_name"] = f"First and last name together can be at most {MAX_FULL_NAME} characters."
    return problems


def passenger_problems(p: Dict[str, Any], *, travel_date: Optional[date], contact_required: bool) -> Dict[str, str]:
    """What is wrong with one passenger's details for its type ({} when nothing)."""
    problems = name_problems(p.get("given_name") or "", p.get("family_name") or "")
    born = p.get("born_on")
    try:
        born_on = born if isinstance(born, date) else date.fromisoformat(str(born)) if born else None
    except ValueError:
        born_on = None
    kind = p.get("type")
    if born_on is None:
        problems["born_on"] = "Date of birth is needed (airlines check it against the ticket type)."
    elif travel_date is not None:
        if born_on > travel_date:
            problems["born_on"] = "The date of birth is after the trip."
        else:
            age = age_on(born_on, travel_date)
            expected = type_for_age(age, lap=kind == "infant")
            if kind and kind != expected:
                words = {
                    "adult": "an adult (18 or over)",
                    "child": "a child (2 to 17)",
                    "infant": "a lap infant (under 2)",
                }
                problems["born_on"] = (
                    f"On the travel date this person is {age}, so travels as {words[expected]}, not as {words[kind]}."
                )
    if p.get("title") and p["title"] not in TITLES:
        problems["title"] = "Title must be one of Mr, Ms, Mrs, Miss or Dr."
    if p.get("gender") and p["gender"] not in GENDERS:
        problems["gender"] = "Gender must be m or f, as on the travel document."
    if contact_required:
        if not p.get("title"):
            problems["title"] = "The airline needs a title (Mr, Ms, Mrs, Miss or Dr)."
        if not p.get("gender"):
            problems["gender"] = "The airline needs the gender shown on the travel document."
        if not EMAIL_RE.match(p.get("email") or ""):
            problems["email"] = "An email address is needed for the airline's messages."
        if not normalise_phone(p.get("phone_number") or ""):
            problems["phone_number"] = "A phone number in international form is needed, e.g. +44 20 8016 0508."
    return problems


def party_problems(passengers: Sequence[Dict[str, Any]], party: Dict[str, Any]) -> List[str]:
    """What stops this list of passengers from matching the party (one per seat, infants on laps)."""
    count = {kind: sum(1 for p in passengers if p.get("type") == kind) for kind in ("adult", "child", "infant")}
    wanted = {
        "adult": int(party.get("adults") or 1),
        "child": int(party.get("children") or 0),
        "infant": int(party.get("infants") or 0),
    }
    problems = []
    for kind, words in (("adult", "adults"), ("child", "children"), ("infant", "lap infants")):
        if count[kind] != wanted[kind]:
            problems.append(f"The trip is for {wanted[kind]} {words}, but {count[kind]} are named.")
    if count["infant"] > count["adult"]:
        problems.append("Each lap infant must sit with a different adult, so infants cannot outnumber adults.")
    adults = {p.get("passenger_id") for p in passengers if p.get("type") == "adult"}
    laps = [p.get("infant_of") for p in passengers if p.get("type") == "infant"]
    if any(a not in adults for a in laps) or len(set(laps)) != len(laps):
        problems.append("Each lap infant needs its own adult to sit with.")
    ages = sorted(int(a) for a in party.get("child_ages") or [])
    named = sorted(int(p["age"]) for p in passengers if p.get("type") == "child" and p.get("age") is not None)
    if ages and named and ages != named:
        problems.append(f"The children's ages on the trip are {ages}, but the named children are {named}.")
    return problems
