"""Nights said with a window of days ("sometime between May 10 and May 20, about 6 nights") start on
the window's first day and are said as an assumption; days said plainly keep what they said."""

from datetime import date

import pytest

from handlers.extract.extractor import extract_fields

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("boston to rome sometime between May 10 and May 20, about 6 nights, 2 adults", "2027-05-16"),
        ("2 adults nyc to paris, any time between june 1 and june 15, for a week", "2027-06-08"),
        ("boston to rome may 10-20, 6 nights, 2 adults", "2027-05-20"),  # no window said: the days said
        ("boston to rome sometime between may 10 and may 13, 6 nights", "2027-05-13"),  # nights do not fit
    ],
)
def test_nights_start_on_the_first_day_of_a_window(text, back):
    assumptions: list = []
    fields, _ = extract_fields(text=text, today=TODAY, assumptions=assumptions)
    assert fields["return_date"] == back
    said = any("the first day of your window" in a for a in assumptions)
    assert said == (back not in ("2027-05-20", "2027-05-13"))
