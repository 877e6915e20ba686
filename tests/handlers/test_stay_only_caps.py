"""A cap said on its own on a trip that is only a stay ("hotel in austin dec 14-16, cheap, like under
150") is the nightly rate, as hotels are priced; a word of a total keeps it the stay's total, and on a
trip with flights a bare cap stays the trip's total."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.extractor import extract_fields

TODAY = date(2026, 12, 1)


def _caps(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    return fields["hotel_max_per_night"], fields["budget_total"]


@pytest.mark.parametrize(
    ("text", "nightly"),
    [
        ("hotel in austin dec 14-16, cheap, like under 150", 150),
        ("just need a room in nashville jan 8 to jan 10, no more than $200", 200),
        ("room in boston jan 3-5, around 180 or less", 180),
        ("hotel in vegas jan 2-4, cheap under 100", 100),
        ("room in denver jan 3-5 for 1, 120 or less", 120),  # the cap said after the amount
        ("hotel in miami jan 3-5, 200 tops", 200),
    ],
)
def test_a_bare_cap_on_a_stay_alone_is_the_nightly_rate(text, nightly):
    assert _caps(text) == (nightly, None)


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("hotel in austin dec 14-20, budget 900", 900),
        ("hotel in austin dec 14-20, under 900 total", 900),
        ("hotel in austin dec 14-16 under $400 for the 2 nights", 400),
        ("hotel in austin dec 14-16, under $400 for both nights", 400),
        ("hotel in paris jan 3-10, under 2000", 2000),  # more than a night costs
        ("hotel in denver jan 3-5 for 1, 300 max for the whole stay", 300),
        ("flights to miami dec 3-5, under 300", 300),  # a trip with flights: the trip's total
    ],
)
def test_a_total_said_or_a_trip_with_flights_keeps_the_total(text, total):
    assert _caps(text) == (None, total)
