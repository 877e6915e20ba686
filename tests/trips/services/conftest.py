"""The commerce tests' clocks and held trip, for the staff actions that release holds."""

from tests.trips.commerce.conftest import clock, frozen, held_trip  # noqa: F401 - shared fixtures
