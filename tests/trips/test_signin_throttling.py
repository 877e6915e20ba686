"""Sign-in throttling (django-axes) on every door that takes a password."""

import base64

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
LIMIT = 5


def _basic(username: str, password: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()}


def test_the_sign_in_page_locks_a_guessed_account_out(traveller, other_traveller):
    client = Client()
    for _ in range(LIMIT - 1):
        assert client.post("/signin/", {"username": "alice", "password": "wrong"}).status_code == 200
    assert client.post("/signin/", {"username": "alice", "password": "wrong"}).status_code == 429
    assert client.post("/signin/", {"username": "alice", "password": "pw"}).status_code == 429, "even the right one"
    assert client.post("/signin/", {"username": "bob", "password": "pw"}).status_code == 302, "others sign in"


def test_the_admin_sign_in_is_throttled(support):
    client = Client()
    for _ in range(LIMIT):
        client.post("/admin/login/", {"username": "sam", "password": "wrong"})
    assert client.post("/admin/login/", {"username": "sam", "password": "pw"}).status_code == 429


def test_the_api_s_basic_auth_is_throttled(traveller, other_traveller):
    client = Client()
    for _ in range(LIMIT - 1):
        assert client.get("/api/trips/", **_basic("alice", "wrong")).status_code in {401, 403}
    assert client.get("/api/trips/", **_basic("alice", "wrong")).status_code == 429
    assert client.get("/api/trips/", **_basic("alice", "pw")).status_code == 429
    assert client.get("/api/trips/", **_basic("bob", "pw")).status_code == 200


def test_a_success_resets_the_count(traveller):
    client = Client()
    for _ in range(LIMIT - 1):
        client.post("/signin/", {"username": "alice", "password": "wrong"})
    assert client.post("/signin/", {"username": "alice", "password": "pw"}).status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        client.post("/signin/", {"username": "alice", "password": "wrong"})
    assert client.post("/signin/", {"username": "alice", "password": "pw"}).status_code == 302
