import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from handlers.common.defaults import DEFAULT_TOOLS
from handlers.common.stores import StaleVersion
from trips.hosting.stores import DjangoKeyValueStore, DjangoToolStore, DjangoTripStore
from trips.models import SupplierState, Trip
from trips.services.batch import TurnWrites, atomic_with


def test_new_trip_has_an_empty_intent_with_the_organisations_policy(trip):
    doc = DjangoTripStore().get(str(trip.pk))
    assert doc["trip_id"] == str(trip.pk) and doc["version"] == 0
    assert doc["policy"] == trip.organisation.policy
    assert doc["status"]["phase"] == "intake"


def test_versioned_save_refuses_a_stale_version(trip):
    store = DjangoTripStore()
    first, second = store.get(str(trip.pk)), store.get(str(trip.pk))
    first["status"]["phase"] = "quoting"
    assert store.save(str(trip.pk), first, expected_version=0) == 1
    second["status"]["phase"] = "presenting"
    with pytest.raises(StaleVersion):
        store.save(str(trip.pk), second, expected_version=0)
    trip.refresh_from_db()
    assert (trip.version, trip.phase, trip.intent["status"]["phase"], trip.intent["version"]) == (
        1,
        "quoting",
        "quoting",
        1,
    )


def test_save_copies_phase_and_state_only_when_known(trip):
    store = DjangoTripStore()
    doc = store.get(str(trip.pk))
    doc["status"].update(phase="no-such-phase", state="running")
    store.save(str(trip.pk), doc, expected_version=0)
    trip.refresh_from_db()
    assert (trip.phase, trip.state) == ("intake", "running")


def test_tool_store_serves_the_seeded_registry(db):
    tools = DjangoToolStore().get_tools()
    assert {t["name"] for t in tools} == {t["name"] for t in DEFAULT_TOOLS}
    by_name = {t["name"]: t for t in tools}
    for default in DEFAULT_TOOLS:
        assert by_name[default["name"]]["schema"] == default["schema"]
        assert by_name[default["name"]]["handler"] == default["handler"]


def test_disabled_tools_are_not_served(db):
    from trips.models import ToolDefinition

    ToolDefinition.objects.filter(name="booking_cancel").update(enabled=False)
    assert "booking_cancel" not in {t["name"] for t in DjangoToolStore().get_tools()}


def test_a_registry_change_saved_elsewhere_is_served_by_the_next_store(db):
    """The registry is kept between turns; the admin's change form saves the row, and the next
    turn's store serves the change (the stamp is read from the database, as another process would)."""
    from trips.models import ToolDefinition

    assert {t["name"]: t for t in DjangoToolStore().get_tools()}["booking_cancel"]["timeout_s"] != 42
    row = ToolDefinition.objects.get(registry_key="default", name="booking_cancel")
    row.timeout_s = 42
    row.save()
    assert {t["name"]: t for t in DjangoToolStore().get_tools()}["booking_cancel"]["timeout_s"] == 42
    row.enabled = False
    row.save()
    assert "booking_cancel" not in {t["name"] for t in DjangoToolStore().get_tools()}


def test_an_unchanged_registry_is_not_read_again(db, django_assert_num_queries):
    DjangoToolStore().get_tools()
    with django_assert_num_queries(1):  # the stamp only
        tools = DjangoToolStore().get_tools()
    assert {t["name"] for t in tools} == {t["name"] for t in DEFAULT_TOOLS}


def test_key_value_store_round_trip_and_put_if_absent(db):
    kv = DjangoKeyValueStore()
    assert kv.get("offer:1") is None
    kv.put("offer:1", {"price": "10.00"})
    assert kv.get("offer:1") == {"price": "10.00"}
    assert kv.put_if_absent("offer:1", {"price": "99"}) is False
    assert kv.put_if_absent("offer:2", {"price": "5"}) is True
    assert kv.get("offer:1") == {"price": "10.00"}


def test_counter_incr_respects_the_floor(db):
    kv = DjangoKeyValueStore()
    assert kv.incr("seats", -1, floor=0, initial=2) == 1
    assert kv.incr("seats", -1, floor=0) == 0
    assert kv.incr("seats", -1, floor=0) is None
    assert kv.get("seats") == {"n": 0}
    assert kv.incr("seats", 5) == 5


def test_trip_row_is_untouched_by_a_failed_save(trip):
    store = DjangoTripStore()
    with pytest.raises(StaleVersion):
        store.save(str(trip.pk), {"status": {}}, expected_version=7)
    assert Trip.objects.get(pk=trip.pk).version == 0


def test_batch_writes_upsert_values_and_keep_existing_counters(db, django_assert_max_num_queries):
    kv = DjangoKeyValueStore()
    kv.put("offer:1", {"price": "1.00"})
    assert kv.incr("stock:1", -2, initial=9) == 7  # a purchase already took two seats
    with django_assert_max_num_queries(6):  # one read, then one insert-or-ignore + one upsert, whatever the count
        assert kv.counters_init({"stock:1": 9, "stock:2": 4}) == {"stock:1": 7, "stock:2": 4}
        kv.put_many({"offer:1": {"price": "2.00"}, "offer:2": {"price": "3.00"}})
    assert kv.get("offer:1") == {"price": "2.00"} and kv.get("offer:2") == {"price": "3.00"}
    assert kv.incr("stock:2", -4, floor=0) == 0


def test_missing_counters_wait_for_the_next_write_and_never_overwrite(db):
    kv, other = DjangoKeyValueStore(), DjangoKeyValueStore()
    assert kv.counters_init({"stock:9": 5}) == {"stock:9": 5}
    assert kv.get("stock:9") is None, "reading the stock writes nothing"
    assert other.incr("stock:9", -2, initial=5) == 3  # another writer got there first
    kv.put_many({"offer:9": {"price": "1.00"}})
    assert kv.get("stock:9") == {"n": 3}, "the late create keeps the other writer's count"


def test_in_a_turn_batch_writes_wait_for_the_turns_next_transaction(db, django_assert_max_num_queries):
    writes = TurnWrites()
    kv = DjangoKeyValueStore(writes=writes)
    assert kv.counters_init({"stock:5": 3}) == {"stock:5": 3}
    with django_assert_max_num_queries(0):
        kv.put_many({"offer:5": {"price": "5.00"}})
    assert kv.get("offer:5") == {"price": "5.00"}, "the store sees its own queued values"
    assert not SupplierState.objects.filter(key__in=["offer:5", "stock:5"]).exists()
    with atomic_with(writes):
        pass
    assert DjangoKeyValueStore().get("offer:5") == {"price": "5.00"}
    assert DjangoKeyValueStore().get("stock:5") == {"n": 3}


def test_any_other_write_stores_the_queued_batch_first(db):
    kv = DjangoKeyValueStore(writes=TurnWrites())
    kv.put_many({"offer:6": {"price": "6.00"}})
    assert kv.incr("stock:6", -1, initial=2) == 1  # a hold in the same turn
    assert DjangoKeyValueStore().get("offer:6") == {"price": "6.00"}


def test_counter_read_creates_the_counter_with_its_marks_in_the_next_write_then_only_reads(
    db, django_assert_num_queries
):
    kv = DjangoKeyValueStore()
    with django_assert_num_queries(1):  # one read: what is missing waits for the next write
        assert kv.counter_read("stock:7", 4, marks=("stocked:s7",)) == 4
    assert kv.get("stocked:s7") is None and kv.get("stock:7") is None, "reading the stock writes nothing"
    with CaptureQueriesContext(connection) as written:
        assert kv.put_if_absent("hold:7", {"status": "held"}) is True
    statements = [q["sql"].split()[0] for q in written.captured_queries]
    assert [s for s in statements if s not in ("SAVEPOINT", "RELEASE")] == ["INSERT", "INSERT"], (
        "the hold, with the counter and its mark, in one transaction"
    )
    assert kv.get("stocked:s7") == {} and kv.get("stock:7") == {"n": 4}, "the mark is made with the counter"
    assert kv.incr("stock:7", -3, floor=0) == 1  # a purchase took three
    with django_assert_num_queries(1):  # both exist: one read, no write, no lock
        assert kv.counter_read("stock:7", 4, marks=("stocked:s7",)) == 1


def test_counter_read_keeps_a_counter_another_writer_created(db):
    kv, other = DjangoKeyValueStore(), DjangoKeyValueStore()
    assert other.incr("stock:8", -1, initial=5) == 4  # created, and one taken, before any mark
    assert kv.counter_read("stock:8", 5, marks=("stocked:s8",)) == 4
    kv.put_if_absent("hold:8", {"status": "held"})
    assert kv.get("stocked:s8") == {}


def test_a_counter_created_between_the_read_and_the_write_is_kept(db):
    kv, other = DjangoKeyValueStore(), DjangoKeyValueStore()
    assert kv.counter_read("stock:10", 5, marks=("stocked:s10",)) == 5
    assert other.incr("stock:10", -2, initial=5) == 3  # another writer created it meanwhile
    assert kv.put_if_absent("hold:10", {"status": "held"}) is True
    assert kv.get("stock:10") == {"n": 3} and kv.get("stocked:s10") == {}


def test_a_hold_that_lost_the_race_writes_nothing(db):
    kv = DjangoKeyValueStore()
    DjangoKeyValueStore().put_if_absent("hold:11", {"status": "held", "by": "twin"})
    assert kv.counter_read("stock:11", 5, marks=("stocked:s11",)) == 5
    assert kv.put_if_absent("hold:11", {"status": "held", "by": "us"}) is False
    assert kv.get("hold:11") == {"status": "held", "by": "twin"}
    assert kv.get("stock:11") is None, "the counters due went with the refused write's transaction"


def test_a_bulk_update_of_the_registry_is_served_by_the_next_store(db):
    """``update()`` skips ``save()`` and its ``auto_now``: the registry's queryset stamps the rows
    itself, so a kept registry sees a bulk change of any field."""
    from trips.models import ToolDefinition

    assert {t["name"]: t for t in DjangoToolStore().get_tools()}["booking_cancel"]["timeout_s"] != 43
    ToolDefinition.objects.filter(name="booking_cancel").update(timeout_s=43)
    assert {t["name"]: t for t in DjangoToolStore().get_tools()}["booking_cancel"]["timeout_s"] == 43
