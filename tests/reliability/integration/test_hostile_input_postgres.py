"""The hostile-input tests on PostgreSQL, where NUL is what a careless edge lets through to a 500."""

import pytest

from tests.reliability.test_hostile_input import (  # noqa: F401 - collected here again, on PostgreSQL
    queued,
    test_every_api_action_refuses_hostile_input_with_a_4xx_and_stores_nothing,
    test_every_websocket_frame_type_refuses_hostile_input_and_stays_open,
    test_websocket_upgrades_to_unrouted_paths_are_refused_cleanly,
)


@pytest.fixture(autouse=True)
def _on_postgresql(scale_out):
    """Skipped, with the reason, unless the suite runs on PostgreSQL and Redis."""
