"""Deployment security: ``check --deploy`` is clean with the production settings, cookies are
HTTPS-only there, missing secrets stop the server from starting, and every form (sign-in,
sign-out, new trip, each admin action, API writes over a session) refuses a request without its
CSRF token.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory

from tests.factories import organisation_make, sign_in, user_make
from trips.models import Membership, Trip

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "tripdesk.settings_production",
    "DJANGO_SECRET_KEY": "k3Y-" + "x7Qp2vLm9Rt4Zw8Nc1Bd6Fh0Js5Gk3Ya" * 2,
    "DJANGO_ALLOWED_HOSTS": "tripdesk.example.com",
    "DJANGO_DEBUG": "true",  # production ignores it: DEBUG is always off there
}


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_production_settings():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}, **PRODUCTION},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_the_development_settings_would_not_pass():
    """The check is not vacuous: the same command on the base settings reports the HTTPS gaps."""
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            "DJANGO_SETTINGS_MODULE": "tripdesk.settings",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "security.W012" in done.stdout + done.stderr


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_its_secrets(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    done = run_python("import django; django.setup()", **env)
    assert done.returncode != 0 and "ImproperlyConfigured" in done.stderr and missing in done.stderr


def test_production_cookies_are_secure_and_https_is_enforced():
    probe = """
import django; django.setup()
from django.conf import settings
from django.test import Client, RequestFactory
c = Client()
plain = c.get("/signin/", HTTP_HOST="tripdesk.example.com")
https = c.get("/signin/", HTTP_HOST="tripdesk.example.com", secure=True)
print(settings.DEBUG, plain.status_code, plain["Location"], https.status_code,
      https.cookies["csrftoken"]["secure"], https["Strict-Transport-Security"],
      settings.SESSION_COOKIE_SECURE, settings.SESSION_COOKIE_HTTPONLY, sep="|")
"""
    done = run_python(probe, **PRODUCTION)
    assert done.returncode == 0, done.stderr
    debug, status, location, https_status, csrf_secure, hsts, session_secure, httponly = done.stdout.strip().split("|")
    assert (debug, status, location) == ("False", "301", "https://tripdesk.example.com/signin/")
    assert https_status == "200" and csrf_secure == "True" and hsts.startswith("max-age=31536000")
    assert session_secure == "True" and httponly == "True"


# -- CSRF -------------------------------------------------------------------------------------------------
def csrf_client(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        sign_in(client, user)
    return client


def token_of(client: Client, page: str) -> str:
    client.get(page)
    return client.cookies["csrftoken"].value


@pytest.mark.django_db
def test_sign_in_needs_its_csrf_token(traveller):
    client = csrf_client()
    assert client.post("/signin/", {"username": "alice", "password": "pw"}).status_code == 403
    token = token_of(client, "/signin/")
    signed_in = client.post("/signin/", {"username": "alice", "password": "pw", "csrfmiddlewaretoken": token})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.django_db
def test_sign_out_and_new_trip_need_their_csrf_tokens(traveller):
    client = csrf_client(traveller)
    assert client.post("/trips/new/").status_code == 403 and not Trip.objects.filter(owner=traveller).exists()
    assert client.post("/signout/").status_code == 403 and "_auth_user_id" in client.session
    token = token_of(client, "/")
    assert client.post("/trips/new/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert Trip.objects.filter(owner=traveller).count() == 1


@pytest.mark.django_db
def test_every_admin_action_needs_its_csrf_token(superuser):
    client = csrf_client(superuser)
    with_actions = [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model_admin.get_actions(_request_for(superuser))
    ]
    assert len(with_actions) >= 3
    for model, model_admin in with_actions:
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        for action in model_admin.get_actions(_request_for(superuser)):
            response = client.post(url, {"action": action, "_selected_action": ["1"]})
            assert response.status_code == 403, (url, action, response.status_code)
    membership = Membership.objects.create(user=user_make(), organisation=organisation_make())
    token = token_of(client, "/admin/trips/membership/")
    response = client.post(
        "/admin/trips/membership/",
        {"action": "delete_selected", "_selected_action": [str(membership.pk)], "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 200, "with the token the same action is accepted (its confirmation page)"


@pytest.mark.django_db
def test_api_writes_over_a_session_need_the_csrf_token(traveller, trip):
    client = csrf_client(traveller)
    body = {"text": "I'm going to San Francisco", "client_id": "csrf1"}
    assert client.post(f"/api/trips/{trip.pk}/messages/", body, content_type="application/json").status_code == 403
    token = token_of(client, "/")
    accepted = client.post(
        f"/api/trips/{trip.pk}/messages/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert accepted.status_code == 202


def _request_for(user):
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


@pytest.mark.django_db
def test_every_page_carries_a_content_security_policy_without_inline_script(traveller, superuser, trip):
    traveller_client, staff_client = Client(), Client()
    sign_in(traveller_client, traveller)
    sign_in(staff_client, superuser)
    pages = [
        (Client(), "/signin/"),
        (traveller_client, "/"),
        (traveller_client, f"/trips/{trip.pk}/"),
        (staff_client, "/admin/"),
        (staff_client, f"/admin/trips/trip/{trip.pk}/change/"),
    ]
    for client, path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        policy = dict(
            part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";") if part.strip()
        )
        assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'", path
        body = response.content.decode()
        inline = [chunk for chunk in body.split("<script")[1:] if "src=" not in chunk.split(">")[0]]
        assert all('type="application/json"' in chunk.split(">")[0] for chunk in inline), (path, inline[:1])
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", body), (path, "an inline event handler")
