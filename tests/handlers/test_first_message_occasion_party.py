"""An occasion that is a couple's counts two travellers, told: "for our 10th anniversary" (with their
children too); someone else's anniversary does not."""

from __future__ import annotations

import pytest

from tests.handlers.test_first_messages import read  # (the fields and what was told of one first message)


@pytest.mark.parametrize(
    "text, children",
    [
        ("plan a trip to Paris for our 10th anniversary, from chicago may 3-10", 0),
        ("chicago to rome for our anniversary may 3-10", 0),
        ("celebrating our 25th wedding anniversary, seattle to honolulu jan 10-17, bringing the kids 6 and 9", 2),
    ],
)
def test_our_anniversary_is_two_travellers_told(text, children):
    fields, told = read(text)
    assert (fields["adults"], fields["children"] or 0) == (2, children)
    assert any(line.startswith("Counted 2 travellers for a") and "anniversary" in line for line in told), told


def test_someone_elses_anniversary_is_not_a_couples_trip():
    fields, told = read("flying to tampa for my parents' 40th anniversary party, from nyc dec 18-21")
    assert fields["adults"] != 2
    assert not any(line.startswith("Counted 2 travellers") for line in told)
