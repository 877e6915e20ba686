"""Passenger checks as suppliers enforce them (handlers/supplier/passengers.py)."""

from datetime import date

import pytest

from handlers.supplier.passengers import normalise_phone, party_problems, passenger_problems

TRIP = date(2027, 1, 30)
ADULT = {"type": "adult", "given_name": "Ada", "family_name": "Lovelace", "born_on": "1985-12-10"}


@pytest.mark.parametrize(
    "given, family, field",
    [
        ("Zoë", "Lovelace", "given_name"),  # accents are written without them
        ("Ada", "Lovelace3", "family_name"),
        ("", "Lovelace", "given_name"),
        ("A" * 36, "Lovelace", "given_name"),
        ("A" * 30, "B" * 30, "family_name"),  # 60 together
    ],
)
def test_names_are_what_booking_systems_accept(given, family, field):
    problems = passenger_problems(
        {**ADULT, "given_name": given, "family_name": family}, travel_date=TRIP, contact_required=False
    )
    assert field in problems


def test_good_names_pass():
    assert (
        passenger_problems(
            {**ADULT, "given_name": "Mary-Jane", "family_name": "O'Neil"}, travel_date=TRIP, contact_required=False
        )
        == {}
    )


@pytest.mark.parametrize(
    "kind, born, ok",
    [
        ("adult", "2009-01-30", True),  # 18 on the travel date
        ("adult", "2009-01-31", False),  # 17 for one more day
        ("child", "2024-12-31", True),  # 2
        ("child", "2025-02-01", True),  # under 2 with a seat of its own: airlines allow it
        ("infant", "2025-02-01", True),
        ("infant", "2024-12-31", False),  # 2 or more needs a seat
        ("adult", "2027-02-01", False),  # born after the trip
    ],
)
def test_age_on_the_travel_date_matches_the_type(kind, born, ok):
    problems = passenger_problems({**ADULT, "type": kind, "born_on": born}, travel_date=TRIP, contact_required=False)
    assert ("born_on" not in problems) == ok, problems


def test_the_lead_needs_contact_details_airlines_accept():
    problems = passenger_problems(
        {**ADULT, "email": "nope", "phone_number": "12"}, travel_date=TRIP, contact_required=True
    )
    assert {"email", "phone_number", "title", "gender"} <= set(problems)
    assert normalise_phone("+44 20 8016 0508") == "+442080160508"
    assert normalise_phone("020 8016 0508", "GB") == "+442080160508" and normalise_phone("+1 555") is None


def test_the_party_must_match_and_infants_sit_with_different_adults():
    adult = {"passenger_id": "a", "type": "adult"}
    infant = {"passenger_id": "i", "type": "infant", "infant_of": "a"}
    assert party_problems([adult, infant], {"adults": 1, "infants": 1}) == []
    twins = [adult, infant, {"passenger_id": "j", "type": "infant", "infant_of": "a"}]
    problems = party_problems(twins, {"adults": 1, "infants": 2})
    assert any("outnumber" in p for p in problems) and any("its own adult" in p for p in problems)
    assert party_problems([adult], {"adults": 2}) == ["The trip is for 2 adults, but 1 are named."]
    child = {"passenger_id": "c", "type": "child", "age": 9}
    assert "ages" in party_problems([adult, child], {"adults": 1, "children": 1, "child_ages": [7]})[0]


def test_identity_fields_are_masked_wherever_redaction_runs():
    from handlers.common.redact import MASK, redact

    record = {"passengers": [{"passenger_id": "pax_1", "born_on": "1985-12-10", "phone_number": "+442080160508"}]}
    masked = redact(record)["passengers"][0]
    assert masked == {"passenger_id": "pax_1", "born_on": MASK, "phone_number": MASK}
    doc = redact({"identity_documents": [{"type": "passport", "unique_identifier": "X1234567"}]})
    assert "X1234567" not in str(doc)
