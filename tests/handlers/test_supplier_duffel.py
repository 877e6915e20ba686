"""Contract tests of the Duffel adapter against the fake Duffel server (tests/fakes/duffel_server.py).

Exact request bodies for search, order (passengers included) and payment; each documented
error as the tool's error and the traveller's sentence; 429 retried after its reset; nothing
written twice when a write is retried.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest

from handlers.common import geo
from handlers.common.clock import FrozenClock
from handlers.common.host import ToolDeps
from handlers.common.stores import InMemoryKeyValueStore
from handlers.specialists.booking_cancel import BookingCancel
from handlers.specialists.booking_confirm_and_purchase import BookingConfirmAndPurchase
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.reservation_hold_create import ReservationHoldCreate
from handlers.supplier import Supplier, SupplierError
from handlers.supplier.duffel import DuffelClient, DuffelSupplier, token_problem
from handlers.supplier.table import without_tables
from handlers.testing import InMemoryApprovals, InMemoryBookings, InMemoryPassengers, InMemoryPaymentMethods
from tests.fakes.duffel_server import FakeDuffel, Fault

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
ADA = {
    "passenger_id": "pax_1",
    "type": "adult",
    "title": "ms",
    "gender": "f",
    "given_name": "Ada",
    "family_name": "Lovelace",
    "born_on": "1985-12-10",
    "email": "ada@example.com",
    "phone_number": "+442080160508",
}
TEO = {
    **ADA,
    "passenger_id": "pax_2",
    "type": "infant",
    "given_name": "Teo",
    "born_on": "2026-03-01",
    "infant_of": "pax_1",
}


@pytest.fixture
def clock():
    return FrozenClock(NOW)


@pytest.fixture
def duffel(clock):
    with FakeDuffel(clock=clock) as server:
        yield server


def make_deps(duffel, clock, people=(ADA,), sleeps=None):
    client = DuffelClient(
        FakeDuffel.TOKEN,
        base_url=duffel.base_url,
        timeout=2.0,
        sleep=(sleeps.append if sleeps is not None else time.sleep),
        backoff=0.01,
    )
    passengers = InMemoryPassengers({"t1": [dict(p) for p in people]})
    approvals = InMemoryApprovals()
    payments = InMemoryPaymentMethods({"t1": [{"id": "pm_1", "brand": "visa", "last4": "4242"}]})
    supplier = DuffelSupplier(client, InMemoryKeyValueStore(), clock=clock, passengers=passengers)
    return ToolDeps(
        supplier=supplier,
        clock=clock,
        approvals=approvals,
        payments=payments,
        passengers=passengers,
        bookings=InMemoryBookings(approvals),
    )


def run(tool, deps, args):
    return tool(deps).run({"args": args, "now": NOW.isoformat(), "trip_id": "t1"})


def search(deps, **party):
    args = {
        "segment_id": "s1",
        "origin": {"code": "JFK"},
        "destination": {"code": "LAX"},
        "depart_date": "2027-01-30",
        "passengers": party or {"adults": 1},
    }
    return without_tables(run(FlightQuoteSearch, deps, args)["output"])  # its offers as a list


def search_result(deps):
    """The whole tool result (``search`` returns only the output)."""
    args = {"segment_id": "s1", "origin": "JFK", "destination": "LAX", "depart_date": "2027-01-30"}
    return run(FlightQuoteSearch, deps, {**args, "passengers": {"adults": 1}})


def hold(deps, offer_id, key="k1"):
    items = [{"item_type": "flight", "offer_id": offer_id, "segment_id": "s1"}]
    return run(
        ReservationHoldCreate, deps, {"trip_id": "t1", "bundle_id": "B1", "items": items, "idempotency_key": key}
    )


def buy(deps, holds):
    token = deps.approvals.grant(trip_id="t1", holds=holds, now=NOW)
    args = {
        "trip_id": "t1",
        "hold_ids": [h["hold_id"] for h in holds],
        "approval_token": token,
        "payment_method_id": "pm_1",
    }
    return run(BookingConfirmAndPurchase, deps, args)


def holdable(out):
    return next(o for o in out["offers"] if o["summary"]["holdable"])


def test_the_adapter_is_a_supplier(duffel, clock):
    assert isinstance(make_deps(duffel, clock).supplier, Supplier)


def test_search_sends_the_documented_offer_request(duffel, clock):
    out = search(make_deps(duffel, clock, people=(ADA, TEO)), adults=1, children=1, child_ages=[7], infants=1)
    request = duffel.writes("/air/offer_requests")[0]
    assert request.json == {
        "data": {
            "slices": [{"origin": "JFK", "destination": "LAX", "departure_date": "2027-01-30"}],
            "passengers": [{"type": "adult"}, {"age": 7}, {"type": "infant_without_seat"}],
            "cabin_class": "economy",
        }
    }
    assert request.headers["duffel-version"] == "v2" and request.headers["authorization"].startswith("Bearer ")
    assert request.headers["idempotency-key"]
    offer = out["offers"][0]
    # Local times with the airport's offset, and the three kinds of passengers.
    assert offer["legs"][0]["depart_at"] == "2027-01-30T08:00:00-05:00"
    assert list(offer["baggage"]) == ["adult", "child", "infant"]
    assert offer["summary"]["carrier"] == "ZZ" and out["count"] == 3


def test_hold_sends_passengers_and_carries_the_three_clocks(duffel, clock):
    deps = make_deps(duffel, clock, people=(ADA, TEO))
    offer = holdable(search(deps, adults=1, infants=1))
    out = hold(deps, offer["offer_id"])
    assert out["success"], out
    body = duffel.writes("/air/orders")[0].json["data"]
    adult_id, infant_id = (p["id"] for p in duffel.app.offers[offer["offer_id"]]["passengers"])  # the airline's ids
    assert body["type"] == "hold" and body["selected_offers"] == [offer["offer_id"]]
    assert body["passengers"] == [
        {
            "id": adult_id,
            "title": "ms",
            "gender": "f",
            "given_name": "Ada",
            "family_name": "Lovelace",
            "born_on": "1985-12-10",
            "email": "ada@example.com",
            "phone_number": "+442080160508",
            "infant_passenger_id": infant_id,
        },
        {
            "id": infant_id,
            "title": "ms",
            "gender": "f",
            "given_name": "Teo",
            "family_name": "Lovelace",
            "born_on": "2026-03-01",
            "email": "ada@example.com",
            "phone_number": "+442080160508",
        },
    ]
    held = out["output"]["holds"][0]
    order = next(iter(duffel.app.orders.values()))
    assert held["hold_id"] == order["id"] and held["status"] == "held"
    assert held["payment_required_by"] == order["payment_status"]["payment_required_by"]
    assert held["price_guarantee_expires_at"] == order["payment_status"]["price_guarantee_expires_at"]
    assert offer["summary"]["expires_at"] == duffel.app.offers[offer["offer_id"]]["expires_at"]
    # The tool result names passengers by reference only.
    assert held["passengers"] == [
        {"passenger_id": "pax_1", "type": "adult"},
        {"passenger_id": "pax_2", "type": "infant", "infant_of": "pax_1"},
    ]
    assert "Lovelace" not in repr(out) and "1985-12-10" not in repr(out)


def test_pay_a_hold_sends_the_documented_payment_and_records_the_locator(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, holdable(search(deps))["offer_id"])["output"]["holds"]
    out = buy(deps, held)
    assert out["success"], out
    order = duffel.app.orders[held[0]["hold_id"]]
    assert [r.json for r in duffel.writes("/air/payments")] == [
        {
            "data": {
                "order_id": order["id"],
                "payment": {"type": "balance", "amount": order["total_amount"], "currency": "USD"},
            }
        }
    ]
    booking = out["output"]["booking"]
    assert booking["record_locators"] == [order["booking_reference"]]
    assert order["payment_status"]["awaiting_payment"] is False


def test_instant_booking_is_one_order_with_its_payment(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = next(o for o in search(deps)["offers"] if not o["summary"]["holdable"])
    args = dict(
        item_type="flight",
        item_id=offer["offer_id"],
        amount_due=offer["summary"]["total"],
        payment_method={"id": "pm_1", "brand": "visa", "last4": "4242"},
        idempotency_key="i1",
        passengers=deps.passengers.refs("t1"),
        trip_id="t1",
        now=NOW,
    )
    first = deps.supplier.book_instant(**args)
    again = deps.supplier.book_instant(**args)
    body = duffel.writes("/air/orders")[0].json["data"]
    assert body["type"] == "instant" and body["payments"] == [
        {"type": "balance", "amount": offer["summary"]["total"], "currency": "USD"}
    ]
    assert first["record_locator"] and again["replayed"] and again["order_id"] == first["order_id"]
    assert len(duffel.writes("/air/orders")) == 1


def test_cancellation_is_quoted_then_confirmed(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = next(o for o in search(deps)["offers"] if o["conditions"]["refund_before_departure"]["allowed"])
    booking = buy(deps, hold(deps, offer["offer_id"])["output"]["holds"])["output"]["booking"]
    quote = run(BookingCancel, deps, {"booking_id": booking["booking_id"], "action": "quote"})["output"]
    made = next(iter(duffel.app.cancellations.values()))
    assert quote["refund_amount"] == made["refund_amount"] and made["confirmed_at"] is None
    done = run(
        BookingCancel, deps, {"booking_id": booking["booking_id"], "action": "confirm", "quote_id": quote["quote_id"]}
    )
    assert done["output"]["status"] == "cancelled" and made["confirmed_at"] is not None
    again = run(
        BookingCancel, deps, {"booking_id": booking["booking_id"], "action": "confirm", "quote_id": quote["quote_id"]}
    )
    assert again["output"]["replayed"] is True
    assert len([r for r in duffel.requests if r.path.endswith("/actions/confirm")]) == 1


def test_stays_search_quote_book_and_cancel(duffel, clock):
    deps = make_deps(duffel, clock)
    rates = deps.supplier.search_hotels(
        location_code="LAX", check_in="2027-01-30", check_out="2027-02-01", rooms=1, guests_per_room=1, now=NOW
    )
    lax = geo.place("LAX")
    assert duffel.writes("/stays/search")[0].json == {
        "data": {
            "rooms": 1,
            "guests": [{"type": "adult"}],
            "check_in_date": "2027-01-30",
            "check_out_date": "2027-02-01",
            "location": {"radius": 10, "geographic_coordinates": {"latitude": lax["lat"], "longitude": lax["lon"]}},
        }
    }
    # The search names each accommodation with its cheapest rate only; every rate comes from
    # fetch_all_rates on each search result (an empty body, like every Duffel action).
    fetched = [r for r in duffel.requests if r.path.endswith("/actions/fetch_all_rates")]
    assert sorted(r.path for r in fetched) == sorted(
        f"/stays/search_results/{result_id}/actions/fetch_all_rates" for result_id in duffel.app.search_results
    )
    assert all(r.method == "POST" and r.json == {"data": {}} for r in fetched) and len(fetched) == 2
    assert sorted(r["rate_id"] for r in rates) == sorted(duffel.app.rates)
    rate = next(r for r in rates if r["cancellation_timeline"])
    held = deps.supplier.hold_create(
        item_type="hotel",
        item_id=rate["rate_id"],
        idempotency_key="h1",
        passengers=deps.passengers.refs("t1"),
        trip_id="t1",
        now=NOW,
    )
    assert duffel.writes("/stays/quotes")[0].json == {"data": {"rate_id": rate["rate_id"]}}
    assert held["payment_required_by"] == rate["expires_at"]
    order = deps.supplier.purchase(
        hold_id=held["hold_id"],
        amount_due=held["held_total"]["amount"],
        payment_method={"id": "pm_1"},
        idempotency_key="p1",
        now=NOW,
    )
    assert duffel.writes("/stays/bookings")[0].json == {
        "data": {
            "quote_id": held["hold_id"],
            "guests": [{"given_name": "Ada", "family_name": "Lovelace"}],
            "email": "ada@example.com",
            "phone_number": "+442080160508",
        }
    }
    assert order["record_locator"].startswith("H")
    quote = deps.supplier.cancel_quote(order["order_id"], now=NOW)
    assert quote["refund_amount"] == rate["price"]["total_amount"]
    deps.supplier.cancel_confirm(quote["quote_id"], now=NOW)
    assert duffel.app.bookings[order["order_id"]]["status"] == "cancelled"


def test_a_stays_search_whose_result_expired_says_so_in_words(duffel, clock):
    deps = make_deps(duffel, clock)
    stay = dict(location_code="LAX", check_in="2027-01-30", check_out="2027-02-01", rooms=1, guests_per_room=1)
    duffel.fault("POST", "/stays/search_results/", Fault(422, "search_result_expired", "invalid_state_error"))
    with pytest.raises(SupplierError) as refused:
        deps.supplier.search_hotels(**stay, now=NOW)
    assert (
        refused.value.code == "supplier_refused" and refused.value.details["supplier_code"] == "search_result_expired"
    )
    assert refused.value.message.startswith("The hotel refused the hotel search, so nothing changed")


def test_a_stays_search_fetches_rates_for_at_most_the_cheapest_ten(duffel, clock, monkeypatch):
    from handlers.supplier.duffel import adapter

    monkeypatch.setattr(adapter, "STAY_RESULTS_PRICED", 1)
    deps = make_deps(duffel, clock)
    rates = deps.supplier.search_hotels(
        location_code="LAX", check_in="2027-01-30", check_out="2027-02-01", rooms=1, guests_per_room=1, now=NOW
    )
    fetched = [r.path for r in duffel.requests if r.path.endswith("/actions/fetch_all_rates")]
    cheapest = min(duffel.app.search_results.values(), key=lambda r: float(r["cheapest_rate_total_amount"]))
    assert fetched == [f"/stays/search_results/{cheapest['id']}/actions/fetch_all_rates"]
    assert {r["hotel"]["name"] for r in rates} == {cheapest["accommodation"]["name"]}


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault, code, retryable, words",
    [
        (Fault.offer_gone(), "offer_expired", False, "no longer available"),
        (Fault.passenger_invalid(), "passenger_invalid", False, "exactly as on the passport"),
        (Fault.error(503), "supplier_error", True, "Try again"),
    ],
)
def test_order_errors_become_tool_errors_with_a_sentence(duffel, clock, fault, code, retryable, words):
    deps = make_deps(duffel, clock)
    offer = holdable(search(deps))
    duffel.fault("POST", "/air/orders", fault, times=9)
    out = hold(deps, offer["offer_id"])
    error = out["output"]["error"]
    assert (error["code"], error["retryable"]) == (code, retryable) and words in error["message"], error


def test_an_expired_offer_asks_to_search_again_in_the_chat(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = holdable(search(deps))
    duffel.expire_offers()
    error = hold(deps, offer["offer_id"])["output"]["error"]
    assert error["code"] == "offer_expired" and "search again" in error["message"]


def test_a_price_change_at_payment_is_refused_with_the_new_price(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, holdable(search(deps))["offer_id"])["output"]["holds"]
    duffel.reprice_orders("+250.00")
    out = buy(deps, held)["output"]
    assert out["error"]["code"] == "price_changed" and out["needs_new_approval"], out
    assert not re.search(r"\d\.\d\d [A-Z]{3}\b", out["error"]["message"]), out["error"]["message"]
    assert "approved" in out["error"]["message"] and duffel.writes("/air/payments") == []


def test_a_payment_refusal_charges_nothing(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, holdable(search(deps))["offer_id"])["output"]["holds"]
    duffel.fault("POST", "/air/payments", Fault.insufficient_balance())
    out = buy(deps, held)["output"]
    assert out["error"]["code"] == "payment_failed" and "nothing was bought" in out["error"]["message"]
    assert duffel.app.payments == []


def test_missing_passengers_stop_the_hold_before_any_request(duffel, clock):
    deps = make_deps(duffel, clock, people=())
    offer = holdable(search(deps))
    error = hold(deps, offer["offer_id"])["output"]["error"]
    assert error["code"] == "passengers_missing" and "everyone travelling must be named" in error["message"]
    assert duffel.writes("/air/orders") == []


def test_429_is_retried_after_the_reset(duffel, clock):
    deps = make_deps(duffel, clock)
    duffel.fault("POST", "/air/offer_requests", Fault.rate_limited(reset_in=1.0))
    started = time.monotonic()
    out = search(deps)
    assert out["count"] == 3
    asked = duffel.writes("/air/offer_requests")
    assert len(asked) == 2 and time.monotonic() - started >= 0.9
    assert asked[0].headers["idempotency-key"] == asked[1].headers["idempotency-key"]


def test_429_past_the_retries_is_a_retryable_tool_error(duffel, clock):
    sleeps = []
    deps = make_deps(duffel, clock, sleeps=sleeps)
    duffel.fault(
        "POST",
        "/air/offer_requests",
        Fault(429, "rate_limit_exceeded", "rate_limit_error", {"retry-after": "0.2"}),
        times=9,
    )
    out = search_result(deps)
    error = out["output"]["error"]
    assert error["code"] == "rate_limited" and error["retryable"] and "busy" in error["message"]
    assert sleeps == [0.2, 0.2, 0.2]


def test_a_lost_answer_to_a_write_never_writes_twice(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = holdable(search(deps))
    duffel.fault("POST", "/air/orders", Fault.error(503), after=True)  # the order is made, the answer lost
    first = hold(deps, offer["offer_id"])
    assert first["success"], first
    assert len(duffel.app.orders) == 1 and len(duffel.writes("/air/orders")) == 2
    held = first["output"]["holds"]
    duffel.fault("POST", "/air/payments", Fault.error(504), after=True)  # paid, answer lost: retried
    assert buy(deps, held)["success"]
    assert len([p for p in duffel.app.payments if p.get("order_id")]) == 1
    # The same tool call again (a redelivered turn) replays: no new order, no new payment.
    assert hold(deps, offer["offer_id"])["output"]["holds"][0]["hold_id"] == held[0]["hold_id"]
    assert len(duffel.app.orders) == 1 and len([p for p in duffel.app.payments if p.get("order_id")]) == 1


def test_a_500_on_a_payment_is_not_retried_and_the_resubmission_pays_once(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, holdable(search(deps))["offer_id"])["output"]["holds"]
    duffel.fault("POST", "/air/payments", Fault.error(500), after=True)  # Duffel: do not retry a 500
    token = deps.approvals.grant(trip_id="t1", holds=held, now=NOW)
    args = {"trip_id": "t1", "hold_ids": [held[0]["hold_id"]], "approval_token": token, "payment_method_id": "pm_1"}
    first = run(BookingConfirmAndPurchase, deps, args)["output"]
    assert first["error"]["code"] == "supplier_error" and first["error"]["retryable"]
    assert len(duffel.writes("/air/payments")) == 1
    second = run(BookingConfirmAndPurchase, deps, args)
    assert second["success"], second
    assert len(duffel.writes("/air/payments")) == 1  # the order was already paid: read back, not paid again


def test_a_slow_answer_times_out_as_a_retryable_error(duffel, clock):
    deps = make_deps(duffel, clock)
    deps.supplier.client = DuffelClient(
        FakeDuffel.TOKEN, base_url=duffel.base_url, timeout=0.3, max_retries=1, sleep=lambda s: None
    )
    duffel.fault("POST", "/air/offer_requests", Fault.slow(1.0), times=2)
    error = (
        search(deps)["error"]
        if False
        else run(
            FlightQuoteSearch,
            deps,
            {
                "segment_id": "s1",
                "origin": "JFK",
                "destination": "LAX",
                "depart_date": "2027-01-30",
                "passengers": {"adults": 1},
            },
        )["output"]["error"]
    )
    assert error["code"] == "timeout" and error["retryable"]


@pytest.mark.parametrize(
    "token, ok",
    [
        ("duffel_test_abcdefghijklmnopqrstuvwxyz", True),
        ("", False),
        ("sk-abc", False),
        ("duffel_test_xq7", False),
        ("duffel_test_abcdefghijklmnop qrst", False),
    ],
)
def test_token_problems_are_named(token, ok):
    assert (token_problem(token) is None) == ok
    assert token[12:] not in (token_problem(token) or "") or not token[12:]


def test_supplier_error_is_raised_for_unknown_holds(duffel, clock):
    with pytest.raises(SupplierError) as caught:
        make_deps(duffel, clock).supplier.get_hold("ord_nope", now=NOW)
    assert caught.value.code == "not_found"


# -- instant fares ----------------------------------------------------------------------------------


def instant_offer(deps):
    return next(o for o in search(deps)["offers"] if not o["summary"]["holdable"])


def test_an_instant_fare_is_reserved_approved_and_bought_in_one_instant_order(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = instant_offer(deps)
    held = hold(deps, offer["offer_id"])["output"]["holds"]
    assert held[0]["instant"] and held[0]["payment_required_by"] == offer["summary"]["expires_at"]
    assert duffel.writes("/air/orders") == []  # nothing placed at Duffel until the traveller pays

    out = buy(deps, held)
    assert out["success"], out
    writes = duffel.writes("/air/orders")
    assert len(writes) == 1 and writes[0].json == {
        "data": {
            "type": "instant",
            "selected_offers": [offer["offer_id"]],
            "passengers": writes[0].json["data"]["passengers"],
            "payments": [{"type": "balance", "amount": offer["summary"]["total"], "currency": "USD"}],
            "metadata": writes[0].json["data"]["metadata"],
        }
    }
    assert [(p["given_name"], p["family_name"], p["born_on"]) for p in writes[0].json["data"]["passengers"]] == [
        ("Ada", "Lovelace", "1985-12-10")
    ]
    order_at = next(i for i, r in enumerate(duffel.requests) if r is writes[0])
    refreshed = [
        i for i, r in enumerate(duffel.requests) if r.method == "GET" and r.path == f"/air/offers/{offer['offer_id']}"
    ]
    assert len(refreshed) == 2 and refreshed[-1] < order_at  # checked against the approval, then right before ordering

    booked = out["output"]["booking"]["orders"][0]
    order = duffel.app.orders[booked["order_id"]]
    assert booked["record_locator"] == order["booking_reference"] and booked["supplier"] == "duffel"
    assert booked["instant"] is True and booked["hold_id"] == held[0]["hold_id"]
    assert order["payment_status"]["awaiting_payment"] is False and duffel.writes("/air/payments") == []


def test_an_instant_fare_asks_for_the_travellers_before_it_is_reserved(duffel, clock):
    deps = make_deps(duffel, clock, people=())
    error = hold(deps, instant_offer(deps)["offer_id"])["output"]["error"]
    assert error["code"] == "passengers_missing" and duffel.writes("/air/orders") == []


def test_an_instant_fare_whose_price_moved_is_not_bought(duffel, clock):
    deps = make_deps(duffel, clock)
    offer = instant_offer(deps)
    held = hold(deps, offer["offer_id"])["output"]["holds"]
    duffel.app.offers[offer["offer_id"]]["total_amount"] = "9999.00"  # the airline's price now
    out = buy(deps, held)["output"]
    assert out["error"]["code"] == "price_changed" and out["needs_new_approval"] is True
    assert duffel.writes("/air/orders") == [] and duffel.app.payments == []


def test_an_instant_fare_gone_at_the_airline_is_not_bought(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, instant_offer(deps)["offer_id"])["output"]["holds"]
    duffel.fault("GET", "/air/offers/", Fault.offer_gone())
    out = buy(deps, held)["output"]
    assert out["error"]["code"] == "offer_expired" and "search again" in out["error"]["message"]
    assert duffel.writes("/air/orders") == []


def test_an_instant_order_whose_answer_was_lost_is_not_written_twice(duffel, clock):
    deps = make_deps(duffel, clock)
    held = hold(deps, instant_offer(deps)["offer_id"])["output"]["holds"]
    token = deps.approvals.grant(trip_id="t1", holds=held, now=NOW)
    args = {"trip_id": "t1", "hold_ids": [held[0]["hold_id"]], "approval_token": token, "payment_method_id": "pm_1"}
    # Duffel makes the order, but every answer (the first and the client's three retries) is lost.
    duffel.fault("POST", "/air/orders", Fault.error(503), times=4, after=True)
    first = run(BookingConfirmAndPurchase, deps, args)["output"]
    assert first["error"]["retryable"] is True
    again = run(BookingConfirmAndPurchase, deps, args)["output"]
    assert again["booking"]["record_locators"] and len(duffel.app.orders) == 1
    keys = {r.headers["idempotency-key"] for r in duffel.writes("/air/orders")}
    assert len(keys) == 1
