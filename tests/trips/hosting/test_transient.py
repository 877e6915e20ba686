"""One durable step retried on its own after a transient database error, and only then."""

import pytest
from django.db import IntegrityError, OperationalError

from trips.hosting.transient import transient_retried

pytestmark = pytest.mark.django_db  # between attempts a connection the error broke is replaced


class Step:
    """Fails with ``errors`` in turn, then returns ``"done"``; counts its calls."""

    def __init__(self, *errors):
        self.errors, self.calls = list(errors), 0

    def __call__(self):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "done"


def test_a_transient_error_runs_the_step_again_after_a_growing_pause():
    pauses = []
    step = Step(OperationalError("database is locked"), OperationalError("database is locked"))
    assert transient_retried(step, attempts=4, pause=0.5, sleep=pauses.append) == "done"
    assert step.calls == 3 and pauses == [0.5, 1.0]


def test_other_errors_are_not_retried():
    step = Step(IntegrityError("duplicate key"))
    with pytest.raises(IntegrityError):
        transient_retried(step, sleep=lambda _: None)
    assert step.calls == 1


def test_the_last_attempts_error_goes_to_the_caller():
    step = Step(*[OperationalError("database is locked")] * 3)
    with pytest.raises(OperationalError):
        transient_retried(step, attempts=3, sleep=lambda _: None)
    assert step.calls == 3
