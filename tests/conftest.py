"""Fixtures shared by every Django test: organisations, people in each role, a trip."""

import pytest

from tests.factories import organisation_make, trip_make, user_make
from trips.models import Membership


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _celery_join_flag_cleared():
    """Each test starts with Celery's process-wide "inside a task" flag down.

    Eager tasks that overlap in two threads (the live server's turn threads, an approval email's
    settling timer) save and restore that one global out of order and can leave it raised; the
    next test's ``EagerResult.get()`` then refuses with "Never call result.get() within a task!".
    """
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _emails_at_commit(settings):
    """Approval emails leave at commit here; tests of the settling wait set it themselves."""
    settings.TRIPDESK = {**settings.TRIPDESK, "APPROVAL_EMAIL_SETTLE_SECONDS": 0}


@pytest.fixture
def acme(db):
    return organisation_make(name="Acme")


@pytest.fixture
def globex(db):
    return organisation_make(name="Globex")


@pytest.fixture
def traveller(acme):
    return user_make(organisation=acme, username="alice")


@pytest.fixture
def other_traveller(acme):
    return user_make(organisation=acme, username="bob")


@pytest.fixture
def support(acme):
    return user_make(organisation=acme, role=Membership.Role.SUPPORT, username="sam")


@pytest.fixture
def approver(acme):
    return user_make(organisation=acme, role=Membership.Role.APPROVER, username="ann")


@pytest.fixture
def globex_support(globex):
    return user_make(organisation=globex, role=Membership.Role.SUPPORT, username="gus")


@pytest.fixture
def superuser(db):
    return user_make(username="admin", superuser=True)


@pytest.fixture
def trip(traveller, acme):
    return trip_make(owner=traveller, organisation=acme, title="Denver offsite")


def pytest_collection_modifyitems(items):
    """Give transactional tests a serialized rollback.

    A transactional test empties every table afterwards, including the rows migrations seed
    (the tool registry, the staff groups); serialized rollback puts them back for the next one.
    """
    for item in items:
        marker = item.get_closest_marker("django_db")
        if marker and marker.kwargs.get("transaction") and "serialized_rollback" not in marker.kwargs:
            item.add_marker(
                pytest.mark.django_db(*marker.args, **marker.kwargs, serialized_rollback=True), append=False
            )


@pytest.fixture
def large_supplier():
    """The sandbox answers each flight search with 120 offers, as a large supplier would: its own
    and priced copies of them as other flights (``benchmarks.host.padded_offers``), decoded from
    JSON text as a supplier's response is."""
    from benchmarks.host import padded_offers

    undo = padded_offers(120)
    yield
    undo()
