"""``purchases_reconcile_sweep``: the beat task that reconciles interrupted purchases with the supplier."""

from celery import shared_task
from django.utils import timezone

from trips.hosting.factory import tool_deps
from trips.services.purchase_reconcile import purchases_reconcile, reconcile_grace


@shared_task
def purchases_reconcile_sweep() -> int:
    """Resume or undo purchases claimed past the grace period that no turn will finish; returns how many.

    Safe to run twice or in two workers at once: each reconciliation re-checks the claim under
    the approval's row lock, and the supplier calls it makes are idempotent (a void is a void).
    """
    supplier = tool_deps(clock=timezone.now).supplier  # the tools' own supplier, on the same state
    return purchases_reconcile(supplier=supplier, now=timezone.now(), grace=reconcile_grace())
