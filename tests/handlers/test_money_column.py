"""A column of amounts read at once (``moneys``) is ``money`` of each: the same Decimals, digits and
exponent, whether every amount is as suppliers send it or some are not."""

import pytest

from handlers.supplier.money import from_cents, in_cents, money, moneys

COLUMNS = [
    ["911.08", "1.00", "-3.50", " 12.30", "123456789012.34"],  # as sent: read without rounding
    ["911.08", "1.0", "7", "2.005"],  # some rounded to cents
    ["911.08", 12, 3.5, "4.10"],  # not all strings
    ["1234567890123.45", "0.10"],  # too long to be read as sent
    [],
]


@pytest.mark.parametrize("column", COLUMNS)
def test_a_column_of_amounts_is_money_of_each(column):
    expected = [money(value) for value in column]
    got = moneys(column)
    assert got == expected
    assert [value.as_tuple() for value in got] == [value.as_tuple() for value in expected]


def test_an_amount_money_refuses_is_refused_in_a_column():
    with pytest.raises(ArithmeticError):
        money("abc.12")
    with pytest.raises(ArithmeticError):
        moneys(["1.00", "abc.12"])
    with pytest.raises(ArithmeticError):
        moneys(["1.00\n2.00", "3.00"])  # (two amounts as sent on two lines: one value)


@pytest.mark.parametrize(
    "column",
    [
        ["911.08", "1.00", "0.05", "007.50", "0.00", "999999999999.99"],
        ["911.08", "-3.50"],  # a sign
        ["911.08", " 12.30"],  # a space
        ["911.08", "1.0"],  # one place
        ["911.08", 12],
        ["1234567890123.45"],  # too long
        [],
    ],
)
def test_plain_amounts_in_cents_are_money_in_hundredths(column):
    cents = in_cents(column)
    plain = bool(column) and all(type(v) is str and v.replace(".", "", 1).isdigit() and v[-3] == "." for v in column)
    if cents is None:
        assert column and not (plain and all(len(v) < 16 for v in column))
        return
    made = [from_cents(c) for c in cents]
    assert made == [money(v) for v in column]
    assert [m.as_tuple() for m in made] == [money(v).as_tuple() for v in column]
