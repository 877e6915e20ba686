"""What a supplier is to the tools: one typed protocol the sandbox and real adapters implement.

The specialists call ``ToolDeps.supplier`` through this protocol only; the host picks the
implementation by configuration (``TRIPDESK_SUPPLIER=sandbox|duffel``). Shapes are the ones
SUPPLIER.md describes (a real adapter translates its API into them), so rankers, policy checks
and widgets never know which supplier answered.

The three clocks travel on every offer and hold:

* ``expires_at`` (offer/rate): after it the offer cannot be held or bought;
* ``payment_required_by`` (hold): after it the space is released;
* ``price_guarantee_expires_at`` (hold, nullable): until then paying costs the held price,
  after it the price is quoted again (``price_hold``).

Passengers travel by reference (``PassengerRef``: an opaque id, the passenger type, an age
for children and, for a lap infant, the adult it sits with). Only a real adapter turns the refs
into names, dates of birth and contacts, through the host's ``PassengerDirectory`` at the very
call that needs them: the core, its tool results and the LLM never see personal data.

Refusals are ``SupplierError`` with a stable ``code`` and a sentence a traveller can read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List, Literal, Optional, Protocol, Sequence, TypedDict, runtime_checkable

ItemType = Literal["flight", "hotel"]
PassengerType = Literal["adult", "child", "infant"]
HoldStatus = Literal["held", "expired", "released", "purchased", "failed"]


class Money(TypedDict):
    amount: str  # decimal string, 2 places
    currency: str


class PartyCount(TypedDict, total=False):
    """How many travel (a flight search's ``passengers``): lap infants have no seat."""

    adults: int
    children: int
    child_ages: List[int]
    infants: int


class _PassengerRefBase(TypedDict):
    passenger_id: str  # the host's opaque reference, never a name
    type: PassengerType


class PassengerRef(_PassengerRefBase, total=False):
    age: int  # children (and infants) only: suppliers price by age
    infant_of: str  # a lap infant's adult (its ``passenger_id``)


class Passenger(TypedDict, total=False):
    """What a real supplier needs about one traveller; resolved by the host at the call."""

    passenger_id: str
    type: PassengerType
    title: str  # mr | ms | mrs | miss | dr
    given_name: str  # exactly as on the travel document
    family_name: str
    born_on: str  # ISO date
    gender: str  # m | f
    email: str
    phone_number: str  # E.164
    infant_of: str
    loyalty_programme_accounts: List[Dict[str, str]]  # [{airline_iata_code, account_number}]
    known_traveler_number: str


class FlightOffer(TypedDict, total=False):
    offer_id: str
    owner: Dict[str, Any]  # {"iata_code", "name"}
    created_at: str
    expires_at: str  # clock 1: the offer is unusable after it
    requires_instant_payment: bool
    slices: List[Dict[str, Any]]  # [{duration_minutes, segments: [{origin, destination, depart_at, ...}]}]
    passengers: List[Dict[str, Any]]  # [{id, type, age?, cabin, fare_basis, baggage}]
    price: Dict[str, str]  # base_amount, tax_amount, total_amount, currency
    conditions: Dict[str, Any]
    seats_remaining: int
    hold_policy: Dict[str, Any]  # {holdable, max_hold_minutes, price_guarantee_minutes?}
    supplier: str


class HotelRate(TypedDict, total=False):
    rate_id: str
    hotel: Dict[str, Any]
    check_in: str
    check_out: str
    nights: int
    rooms: int
    guests_per_room: int
    room: Dict[str, Any]
    board_type: str
    payment_type: str
    price: Dict[str, Any]
    cancellation_timeline: List[Dict[str, Any]]
    conditions: List[Any]
    expires_at: str
    quantity_available: int
    hold_policy: Dict[str, Any]
    supplier: str


class Hold(TypedDict, total=False):
    hold_id: str
    item_type: ItemType
    item_id: str
    offer_id: str
    rate_id: str
    status: HoldStatus
    quantity: int
    payment_required_by: str  # clock 2
    price_guarantee_expires_at: Optional[str]  # clock 3 (None: no guarantee)
    held_total: Money
    idempotency_key: str
    created_at: str
    order_id: Optional[str]
    passengers: List[PassengerRef]
    instant: bool  # a reservation of a pay-at-once offer: bought with one instant order


class PriceQuote(TypedDict):
    hold_id: str
    amount: str
    currency: str
    repriced: bool


class Order(TypedDict, total=False):
    order_id: str
    hold_id: str
    item_type: ItemType
    item_id: str
    status: str  # confirmed | voided | cancelled
    record_locator: str
    total: Money
    charged: Money
    payment_method: Dict[str, Any]  # {id, brand, last4}: a reference, never a card number
    idempotency_key: str
    created_at: str
    refund_rules: List[Dict[str, Any]]
    replayed: bool


class CancelQuote(TypedDict, total=False):
    quote_id: str
    ref_id: str  # an order id or a hold id
    refund_amount: str
    currency: str
    created_at: str
    expires_at: str


class Cancellation(TypedDict, total=False):
    ref_id: str
    quote_id: str
    status: str
    refund_amount: str
    currency: str
    cancelled_at: str
    replayed: bool


@runtime_checkable
class Supplier(Protocol):
    """Every call takes ``now`` (the turn's clock) and raises ``SupplierError`` on refusal."""

    name: str

    def search_flights(
        self,
        *,
        origin: str,
        destination: str,
        depart_date: Any,
        passengers: PartyCount,
        cabin: str = "economy",
        now: Optional[datetime] = None,
    ) -> List[FlightOffer]: ...

    def search_hotels(
        self,
        *,
        location_code: str,
        check_in: Any,
        check_out: Any,
        rooms: int,
        guests_per_room: int,
        now: Optional[datetime] = None,
    ) -> List[HotelRate]: ...

    def get_item(self, item_type: str, item_id: str) -> Dict[str, Any]:
        """The offer or rate as last seen by a search (``not_found`` if never seen)."""
        ...

    def refresh_offer(self, item_type: str, item_id: str, *, now: Optional[datetime] = None) -> Dict[str, Any]:
        """The offer or rate re-priced now (``offer_expired`` / ``sold_out`` when it is gone)."""
        ...

    def hold_create(
        self,
        *,
        item_type: str,
        item_id: str,
        idempotency_key: str,
        passengers: Optional[Sequence[PassengerRef]] = None,
        trip_id: Optional[str] = None,
        now: Optional[datetime] = None,
    ) -> Hold:
        """Hold one offer or rate for ``passengers``; the same key returns the same hold.

        An offer that must be paid at once gets a reservation instead (``instant: true``, nothing
        placed at the supplier, lapsing with the offer); paying it refreshes the offer and books
        it with ``book_instant`` (``handlers.supplier.instant``)."""
        ...

    def get_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> Hold: ...

    def hold_release(self, hold_id: str, *, now: Optional[datetime] = None) -> Hold: ...

    def price_hold(self, hold_id: str, *, now: Optional[datetime] = None) -> PriceQuote:
        """What paying for the hold costs now (the held price while the guarantee lasts)."""
        ...

    def purchase(
        self,
        *,
        hold_id: str,
        amount_due: str,
        payment_method: Dict[str, Any],
        idempotency_key: str,
        now: Optional[datetime] = None,
    ) -> Order:
        """Pay a hold at ``amount_due``; a replayed key returns the first order and charges nothing."""
        ...

    def book_instant(
        self,
        *,
        item_type: str,
        item_id: str,
        amount_due: str,
        payment_method: Dict[str, Any],
        idempotency_key: str,
        passengers: Optional[Sequence[PassengerRef]] = None,
        trip_id: Optional[str] = None,
        now: Optional[datetime] = None,
    ) -> Order:
        """Buy an offer that cannot be held, in one step (hold and pay under one key)."""
        ...

    def get_order(self, order_id: str) -> Order: ...

    def order_void(self, order_id: str, *, now: Optional[datetime] = None) -> Order: ...

    def cancel_quote(self, ref_id: str, *, now: Optional[datetime] = None) -> CancelQuote: ...

    def cancel_confirm(self, quote_id: str, *, now: Optional[datetime] = None) -> Cancellation: ...


class PassengerDirectory(Protocol):
    """The host's passengers: references for the core, details only for a supplier's request."""

    def refs(self, trip_id: str) -> List[PassengerRef]:
        """The trip's named passengers as references ([] when nobody is named yet)."""
        ...

    def resolve(self, trip_id: str, refs: Sequence[PassengerRef]) -> List[Passenger]:
        """The details behind ``refs`` (same order); raises ``SupplierError('passengers_missing')``."""
        ...


class BookingRecords(Protocol):
    """Bookings live with the host (its database), not with any supplier."""

    def get(self, booking_id: str) -> Optional[Dict[str, Any]]: ...
