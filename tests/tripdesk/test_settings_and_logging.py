import logging
import os
import subprocess
import sys

from tripdesk.log_filters import RedactingFilter

from .fresh import printed_by_fresh_process

TOKEN = "tdk_apv_" + "A" * 43


def _settings_under(env: dict) -> dict:
    """Load the settings in a fresh interpreter with ``env`` (settings are read once per process)."""
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'db': settings.DATABASES['default']['ENGINE'],"
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'eager': settings.CELERY_TASK_ALWAYS_EAGER,"
        "'broker': settings.CELERY_BROKER_URL}))"
    )
    return printed_by_fresh_process(code, env)


def test_embedded_default_needs_nothing():
    assert _settings_under({}) == {
        "db": "tripdesk.db.sqlite3",  # Django's, JSON columns written compactly
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "broker": "memory://",
    }


def test_scale_out_is_chosen_by_the_environment_alone():
    chosen = _settings_under({"DATABASE_URL": "postgres://u@db:5432/x", "REDIS_URL": "redis://r:6379/0"})
    assert chosen == {
        "db": "tripdesk.db.postgresql",  # Django's, bulk inserts as multi-row VALUES
        "layer": "tripdesk.channel_layer.RedisChannelLayer",  # channels_redis's, fewer round trips
        "eager": False,
        "broker": "redis://r:6379/0",
    }


def _record(msg, args):
    return logging.LogRecord("t", logging.INFO, __file__, 1, msg, args, None)


def test_log_records_never_carry_tokens():
    record = _record("purchase with %s for %s", (TOKEN, {"approval_token": "x", "trip": 4}))
    RedactingFilter().filter(record)
    assert TOKEN not in record.getMessage() and "'approval_token': '[REDACTED]'" in record.getMessage()
    plain = _record(f"token={TOKEN} card 4242 4242 4242 4242", None)
    RedactingFilter().filter(plain)
    assert TOKEN not in plain.getMessage() and "4242 4242" not in plain.getMessage()


def test_the_configured_console_log_redacts():
    code = f"import django, logging; django.setup(); logging.getLogger('trips').warning('got %s', '{TOKEN}')"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tripdesk.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "got [REDACTED]" in out.stderr and TOKEN not in out.stderr


def test_static_files_are_served_without_collectstatic(client):
    response = client.get("/static/admin/css/base.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).strip()
