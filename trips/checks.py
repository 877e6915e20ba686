"""System checks: ``manage.py check`` names a supplier configuration that cannot work."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register

from handlers.supplier.duffel import token_problem

SUPPLIERS = ("sandbox", "duffel")


@register()
def supplier_configuration(app_configs=None, **kwargs):
    conf = settings.TRIPDESK
    chosen = conf.get("SUPPLIER", "sandbox")
    if chosen not in SUPPLIERS:
        return [
            Error(
                f"TRIPDESK_SUPPLIER is {chosen!r}; it must be one of {', '.join(SUPPLIERS)}.",
                hint="Unset it for the offline sandbox, or set TRIPDESK_SUPPLIER=duffel with DUFFEL_ACCESS_TOKEN.",
                id="tripdesk.E101",
            )
        ]
    if chosen == "duffel":
        problem = token_problem(conf["DUFFEL"]["ACCESS_TOKEN"])
        if problem:
            return [
                Error(
                    f"TRIPDESK_SUPPLIER=duffel, but {problem}",
                    hint="Create a test token in the Duffel dashboard (Developers > Access tokens) and set "
                    "DUFFEL_ACCESS_TOKEN=duffel_test_…; see README, 'Booking with Duffel'.",
                    id="tripdesk.E102",
                )
            ]
    return []
