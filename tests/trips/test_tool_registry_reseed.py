"""Migration 0007: a registry seeded with the old search schemas gets today's arguments back."""

import importlib

import pytest
from django.apps import apps as django_apps

from handlers.common.defaults import DEFAULT_TOOLS

reseed = importlib.import_module("trips.migrations.0007_reseed_tool_definitions").reseed


@pytest.mark.django_db
def test_reseed_brings_stale_search_schemas_up_to_date_and_keeps_disabled_rows_disabled():
    from trips.models import ToolDefinition

    flight = ToolDefinition.objects.get(registry_key="default", name="flight_quote_search")
    flight.schema = {"type": "object", "properties": {"segment_id": {"type": "string"}}}  # an old database
    flight.enabled = False
    flight.save()
    ToolDefinition.objects.filter(registry_key="default", name="hotel_quote_search").delete()

    reseed(django_apps, None)

    flight.refresh_from_db()
    want = {t["name"]: t for t in DEFAULT_TOOLS}
    assert "airlines_avoid" in flight.schema["properties"] and flight.schema == want["flight_quote_search"]["schema"]
    assert flight.enabled is False  # an operator's switch is theirs
    hotel = ToolDefinition.objects.get(registry_key="default", name="hotel_quote_search")
    assert "max_nightly" in hotel.schema["properties"] and hotel.enabled is True
