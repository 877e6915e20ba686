"""The supplier is chosen by configuration; `manage.py check` names a missing or malformed token."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.utils import timezone

from handlers.supplier import SandboxSupplier, Supplier
from handlers.supplier.duffel import DuffelSupplier
from trips.hosting.factory import tool_deps

GOOD = "duffel_test_" + "a1B2c3D4e5F6g7H8i9J0"


def with_supplier(settings, name, token=""):
    settings.TRIPDESK = {
        **settings.TRIPDESK,
        "SUPPLIER": name,
        "DUFFEL": {**settings.TRIPDESK["DUFFEL"], "ACCESS_TOKEN": token},
    }


def test_the_sandbox_is_the_default(settings):
    supplier = tool_deps(clock=timezone.now).supplier
    assert isinstance(supplier, SandboxSupplier) and isinstance(supplier, Supplier)


def test_duffel_is_chosen_by_the_environment(settings):
    with_supplier(settings, "duffel", GOOD)
    deps = tool_deps(clock=timezone.now)
    assert isinstance(deps.supplier, DuffelSupplier) and deps.supplier.directory is deps.passengers


@pytest.mark.parametrize(
    "token, words",
    [
        ("", "DUFFEL_ACCESS_TOKEN is not set"),
        ("sk-live-123456789012345678", "must start with duffel_test_"),
        ("duffel_test_abc", "too short"),
        ("duffel_test_abcdefghij klmnopqrstu", "spaces"),
    ],
)
def test_check_names_a_bad_token_without_showing_it(settings, token, words):
    with_supplier(settings, "duffel", token)
    with pytest.raises(SystemCheckError) as caught:
        call_command("check", stdout=StringIO(), stderr=StringIO())
    text = str(caught.value)
    assert "tripdesk.E102" in text and words in text
    assert not token or token not in text


def test_check_names_an_unknown_supplier(settings):
    with_supplier(settings, "amadeus")
    with pytest.raises(SystemCheckError, match="tripdesk.E101"):
        call_command("check", stdout=StringIO(), stderr=StringIO())


def test_check_passes_with_a_well_formed_token(settings):
    with_supplier(settings, "duffel", GOOD)
    out = StringIO()
    call_command("check", stdout=out, stderr=StringIO())
    assert "no issues" in out.getvalue()
