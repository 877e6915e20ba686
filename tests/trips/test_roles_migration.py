"""0004: what the global staff groups said moves into the memberships, and the groups go."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE, AFTER = [("trips", "0003_staff_groups")], [("trips", "0004_roles_per_organisation")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_latest():
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest")
def test_group_roles_move_into_memberships_without_crossing_organisations():
    apps = migrate(BEFORE)
    User, Group = apps.get_model("auth", "User"), apps.get_model("auth", "Group")
    Organisation, Membership = apps.get_model("trips", "Organisation"), apps.get_model("trips", "Membership")
    acme = Organisation.objects.create(name="Acme", slug="acme-m")
    globex = Organisation.objects.create(name="Globex", slug="globex-m")
    support, approvers = Group.objects.get(name="Support"), Group.objects.get(name="Approvers")

    def person(name, group, *memberships):
        user = User.objects.create(username=name)
        if group:
            user.groups.add(group)
        for organisation, role in memberships:
            Membership.objects.create(user=user, organisation=organisation, role=role)
        return user

    person("one_org_approver", approvers, (acme, "traveller"))  # the group said approver; one organisation
    person("two_org_approver", approvers, (acme, "traveller"), (globex, "approver"))  # the leak of issue 15
    person("recorded_support", support, (globex, "support"))
    person("plain", None, (acme, "traveller"))

    apps = migrate(AFTER)
    Membership, Group = apps.get_model("trips", "Membership"), apps.get_model("auth", "Group")
    roles = {
        (m.user.username, m.organisation.slug): m.role
        for m in Membership.objects.select_related("user", "organisation")
    }
    assert roles == {
        ("one_org_approver", "acme-m"): "approver",
        ("two_org_approver", "acme-m"): "traveller",  # stays a traveller where it travels
        ("two_org_approver", "globex-m"): "approver",
        ("recorded_support", "globex-m"): "support",
        ("plain", "acme-m"): "traveller",
    }
    assert not Group.objects.filter(name__in=["Support", "Approvers"]).exists()
    staff = set(apps.get_model("auth", "User").objects.filter(is_staff=True).values_list("username", flat=True))
    assert staff == {"one_org_approver", "two_org_approver", "recorded_support"}
