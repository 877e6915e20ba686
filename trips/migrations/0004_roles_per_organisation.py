"""Powers come from the role a membership holds in its organisation, not from global groups.

Before this, the "Support" and "Approvers" groups granted their permissions everywhere and a
user's organisations came from any membership: an approver of one organisation who travelled
for another could approve there. Now ``trips.access`` decides every power by the role in the
trip's organisation, and this migration moves what the groups said into the memberships:

- a group member with exactly one membership, a traveller one, and no staff role anywhere
  becomes that group's role in that organisation (a single-organisation staff member whose
  role was only recorded by the group);
- a group member with several memberships keeps their roles as recorded: which organisation
  the group was meant for cannot be told, so no power is guessed (an administrator sets it);
- staff roles get admin access (``is_staff``); the two groups are deleted, so no global
  permission is left behind. Reversing recreates the groups from the roles.
"""

from django.db import migrations, models

GROUP_ROLE = {"Support": "support", "Approvers": "approver"}
STAFF_ROLES = ("support", "approver", "org_admin")


def roles_from_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Membership = apps.get_model("trips", "Membership")
    User = apps.get_model("auth", "User")
    for group in Group.objects.filter(name__in=GROUP_ROLE):
        role = GROUP_ROLE[group.name]
        for user in group.user_set.all():
            memberships = list(Membership.objects.filter(user=user))
            in_both = user.groups.filter(name__in=GROUP_ROLE).count() > 1
            if len(memberships) == 1 and memberships[0].role == "traveller" and not in_both:
                memberships[0].role = role
                memberships[0].save(update_fields=["role"])
    User.objects.filter(memberships__role__in=STAFF_ROLES, is_staff=False).update(is_staff=True)
    Group.objects.filter(name__in=GROUP_ROLE).delete()


def groups_from_roles(apps, schema_editor):
    from importlib import import_module

    import_module("trips.migrations.0003_staff_groups").create_groups(apps, schema_editor)
    Group = apps.get_model("auth", "Group")
    Membership = apps.get_model("trips", "Membership")
    for name, role in GROUP_ROLE.items():
        group = Group.objects.get(name=name)
        for membership in Membership.objects.filter(role=role).select_related("user"):
            membership.user.groups.add(group)


class Migration(migrations.Migration):
    dependencies = [("trips", "0003_staff_groups")]

    operations = [
        migrations.AlterField(
            model_name="membership",
            name="role",
            field=models.CharField(
                choices=[
                    ("traveller", "Traveller"),
                    ("support", "Support staff"),
                    ("approver", "Approver"),
                    ("org_admin", "Organisation admin"),
                ],
                default="traveller",
                max_length=16,
            ),
        ),
        migrations.RunPython(roles_from_groups, groups_from_roles),
    ]
