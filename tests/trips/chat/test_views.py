"""The chat pages: who may open which trip, a new trip, sign-in and sign-out."""

import json

import pytest
from django.urls import reverse

from tests.factories import sign_in
from trips.models import Trip

pytestmark = pytest.mark.django_db


def config_of(response) -> dict:
    html = response.content.decode()
    start = html.index('id="trip-config" type="application/json">') + len('id="trip-config" type="application/json">')
    return json.loads(html[start : html.index("</script>", start)])


def test_pages_need_a_signed_in_user(client, trip):
    for url in (reverse("web:home"), reverse("web:trip", args=[trip.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/signin/?next=")


def test_the_owner_sees_the_trip_with_the_socket_to_join(client, traveller, trip, django_assert_max_num_queries):
    sign_in(client, traveller)
    # session, user, whether a second factor is enrolled, the trip, the trip list, payment methods,
    # what may be paid for now (none here)
    with django_assert_max_num_queries(7):
        response = client.get(reverse("web:trip", args=[trip.pk]))
    assert response.status_code == 200
    config = config_of(response)
    assert config["ws_path"] == f"/ws/trips/{trip.pk}/"
    assert config["can_write"] is True
    assert config["status"]["phase"] == "intake"
    assert b'id="composer"' in response.content and b"Denver offsite" in response.content


@pytest.mark.parametrize("who", ["other_traveller", "globex_support"])
def test_someone_elses_trip_is_not_found(client, request, trip, who):
    sign_in(client, request.getfixturevalue(who))
    response = client.get(reverse("web:trip", args=[trip.pk]))
    assert response.status_code == 404
    assert b"Denver offsite" not in response.content and b"belongs to someone else" in response.content


def test_staff_of_the_organisation_get_a_read_only_page(client, support, trip):
    sign_in(client, support)
    response = client.get(reverse("web:trip", args=[trip.pk]))
    assert response.status_code == 200
    assert config_of(response)["can_write"] is False
    assert b'id="composer"' not in response.content and b"read-only" in response.content


def test_the_trip_list_shows_only_the_travellers_own_trips(client, traveller, other_traveller, trip):
    sign_in(client, other_traveller)
    assert b"Denver offsite" not in client.get(reverse("web:home")).content
    sign_in(client, traveller)
    assert b"Denver offsite" in client.get(reverse("web:home")).content


def test_a_new_trip_is_created_by_post_only(client, traveller):
    sign_in(client, traveller)
    assert client.get(reverse("web:trip-new")).status_code == 405
    response = client.post(reverse("web:trip-new"))
    trip = Trip.objects.get(owner=traveller)
    assert response["Location"] == reverse("web:trip", args=[trip.pk])


def test_someone_outside_every_organisation_is_told_why_they_cannot_plan(client, django_user_model):
    loner = django_user_model.objects.create_user(username="loner", password="pw")
    sign_in(client, loner)
    response = client.post(reverse("web:trip-new"), follow=True)
    assert not Trip.objects.exists()
    assert b"not part of an organisation" in response.content


def test_sign_in_then_sign_out(client, traveller):
    page = client.get(reverse("web:signin"))
    assert page.status_code == 200 and b'autocomplete="current-password"' in page.content
    bad = client.post(reverse("web:signin"), {"username": "alice", "password": "wrong"})
    assert bad.status_code == 200 and b'role="alert"' in bad.content
    good = client.post(reverse("web:signin"), {"username": "alice", "password": "pw"})
    assert good["Location"] == "/"
    assert client.get(reverse("web:signout")).status_code == 200  # asks first
    out = client.post(reverse("web:signout"), follow=True)
    assert out.redirect_chain[-1][0] == "/signin/"
    assert b"signed out" in out.content
    assert client.get(reverse("web:home")).status_code == 302
