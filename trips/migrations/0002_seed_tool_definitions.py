"""Seed the tool registry from the mission core's defaults (``handlers.common.defaults.DEFAULT_TOOLS``)."""
from django.db import migrations

from handlers.common.defaults import DEFAULT_TOOLS

FIELDS = ("handler", "description", "schema", "timeout_s", "side_effects", "read_only", "internal", "enabled", "version")


def seed(apps, schema_editor):
    ToolDefinition = apps.get_model("trips", "ToolDefinition")
    for tool in DEFAULT_TOOLS:
        ToolDefinition.objects.update_or_create(
            registry_key="default",
            name=tool["name"],
            defaults={field: tool.get(field, False if field == "internal" else None) for field in FIELDS},
        )


def unseed(apps, schema_editor):
    ToolDefinition = apps.get_model("trips", "ToolDefinition")
    ToolDefinition.objects.filter(registry_key="default", name__in=[t["name"] for t in DEFAULT_TOOLS]).delete()


class Migration(migrations.Migration):
    dependencies = [("trips", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
