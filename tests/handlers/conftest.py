import gc

import pytest


@pytest.fixture
def collections_started():
    """The generation of each collection of the cyclic garbage collector that starts meanwhile."""
    seen = []

    def note(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)
