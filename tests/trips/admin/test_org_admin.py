"""Organisation admins: their organisation's policy and members' roles, nothing of anyone else's."""

import pytest
from django.test import Client

from tests.factories import sign_in, user_make
from trips.models import Membership


@pytest.fixture
def org_admin(acme, globex):
    user = user_make(organisation=acme, role=Membership.Role.ORG_ADMIN, username="oscar")
    Membership.objects.create(user=user, organisation=globex, role=Membership.Role.TRAVELLER)
    return user


def _client(user) -> Client:
    client = Client()
    sign_in(client, user)
    return client


def _set_role(client, membership, role):
    return client.post(f"/admin/trips/membership/{membership.pk}/change/", {"role": role})


@pytest.mark.django_db
def test_an_organisation_admin_changes_roles_in_their_organisation_only(org_admin, traveller, globex):
    client = _client(org_admin)
    home = Membership.objects.get(user=traveller)
    assert _set_role(client, home, Membership.Role.APPROVER).status_code == 302
    assert Membership.objects.get(pk=home.pk).role == Membership.Role.APPROVER

    abroad = Membership.objects.create(user=user_make(), organisation=globex)
    assert _set_role(client, abroad, Membership.Role.APPROVER).status_code in {302, 403, 404}
    assert Membership.objects.get(pk=abroad.pk).role == Membership.Role.TRAVELLER
    own_there = Membership.objects.get(user=org_admin, organisation=globex)
    _set_role(client, own_there, Membership.Role.ORG_ADMIN)
    assert Membership.objects.get(pk=own_there.pk).role == Membership.Role.TRAVELLER, "no self-promotion elsewhere"


@pytest.mark.django_db
def test_an_organisation_admin_adds_nobody_and_sees_only_their_organisations(org_admin, acme, globex):
    client = _client(org_admin)
    assert client.get("/admin/trips/membership/add/").status_code == 403
    names = client.get("/admin/trips/organisation/").content.decode()
    assert acme.name in names and globex.name not in names
    assert client.get("/admin/auth/user/").status_code == 403
    assert client.get(f"/admin/trips/organisation/{globex.pk}/change/").status_code in {302, 404}
