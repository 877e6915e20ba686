"""Re-seed the tool registry: databases seeded before the searches learned the traveller's hard
filters (avoided and required airlines, red-eyes, the departure window, the nightly cap) keep the
old argument schemas until their registry rows are brought up to ``DEFAULT_TOOLS`` again.

Rows an operator disabled stay disabled; everything else about a default tool follows the code.
"""

from django.db import migrations

from handlers.common.defaults import DEFAULT_TOOLS

FIELDS = ("handler", "description", "schema", "timeout_s", "side_effects", "read_only", "internal", "version")


def reseed(apps, schema_editor):
    ToolDefinition = apps.get_model("trips", "ToolDefinition")
    for tool in DEFAULT_TOOLS:
        values = {field: tool.get(field, False if field == "internal" else None) for field in FIELDS}
        row = ToolDefinition.objects.filter(registry_key="default", name=tool["name"]).first()
        if row is None:
            ToolDefinition.objects.create(
                registry_key="default", name=tool["name"], enabled=tool.get("enabled", True), **values
            )
            continue
        for field, value in values.items():
            setattr(row, field, value)
        row.save()


class Migration(migrations.Migration):
    dependencies = [("trips", "0006_account_events")]

    operations = [migrations.RunPython(reseed, migrations.RunPython.noop)]
