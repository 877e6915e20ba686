"""Create the "Support" and "Approvers" groups with their permissions.

Support staff read every trip record of their organisation and may take the audited staff
actions (flag, retry a failed tool, release a hold). Approvers read the same and decide
approval requests. Neither may change or delete audit events: nobody has those permissions
in the admin (see trips.admin.audit).
"""
from django.contrib.auth.management import create_permissions
from django.db import migrations

READ_MODELS = (
    "organisation",
    "membership",
    "trip",
    "chatmessage",
    "tooldefinition",
    "toolrun",
    "auditevent",
    "hold",
    "approvalrequest",
    "booking",
)
GROUPS = {
    "Support": [f"view_{model}" for model in READ_MODELS] + ["flag_trip", "retry_tool", "release_hold"],
    "Approvers": [f"view_{model}" for model in READ_MODELS] + ["decide_approvalrequest"],
}


def create_groups(apps, schema_editor):
    # Permissions are normally created after all migrations ran; the groups need them now.
    app_config = apps.get_app_config("trips")
    app_config.models_module = True  # a migration's app config stub lacks it; create_permissions checks it
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        permissions = Permission.objects.filter(content_type__app_label="trips", codename__in=codenames)
        missing = set(codenames) - set(permissions.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"permissions missing for group {name}: {sorted(missing)}")
        group.permissions.set(permissions)


def delete_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("trips", "0002_seed_tool_definitions"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
