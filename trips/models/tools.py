"""The tool registry (seeded from ``handlers.common.defaults.DEFAULT_TOOLS``) and each tool run."""

from typing import Any

from django.db import models
from django.utils import timezone

from .chat import ChatMessage
from .json_text import JSONTextEncoder
from .trip import Trip


class ToolDefinitionQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> int:
        """A bulk update stamps ``updated_at`` as ``save()`` does: every process keeps the registry
        until its stamp (``trips.hosting.stores._registry_stamp``) moves."""
        kwargs.setdefault("updated_at", timezone.now())
        return super().update(**kwargs)


class ToolDefinition(models.Model):
    registry_key = models.CharField(max_length=64, default="default")
    name = models.CharField(max_length=100)
    handler = models.CharField(max_length=200, help_text="module:Class of the tool handler.")
    description = models.TextField(blank=True)
    schema = models.JSONField(default=dict, help_text="JSON schema of the arguments.")
    timeout_s = models.FloatField(default=15)
    side_effects = models.BooleanField(default=False)
    read_only = models.BooleanField(default=True)
    internal = models.BooleanField(default=False, help_text="Run by the core itself, never offered to an LLM.")
    enabled = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ToolDefinitionQuerySet.as_manager()

    class Meta:
        ordering = ["registry_key", "name"]
        constraints = [models.UniqueConstraint(fields=["registry_key", "name"], name="tooldefinition_unique_name")]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"

    def as_core_tool(self) -> dict:
        """The registry entry in the shape of ``DEFAULT_TOOLS``."""
        return {
            "name": self.name,
            "handler": self.handler,
            "description": self.description,
            "side_effects": self.side_effects,
            "read_only": self.read_only,
            "internal": self.internal,
            "timeout_s": self.timeout_s,
            "enabled": self.enabled,
            "version": self.version,
            "schema": self.schema,
        }


class ToolRun(models.Model):
    class Status(models.TextChoices):
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    trip = models.ForeignKey(Trip, on_delete=models.CASCADE, related_name="tool_runs")
    message = models.ForeignKey(
        ChatMessage,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tool_runs",
        help_text="The user message whose turn ran the tool.",
    )
    call_id = models.CharField(max_length=64)
    tool = models.CharField(max_length=100, db_index=True)
    arguments = models.JSONField(
        default=dict, encoder=JSONTextEncoder, help_text="Redacted: never a token or card number."
    )
    result = models.JSONField(
        null=True, blank=True, encoder=JSONTextEncoder, help_text="The handler result (redacted)."
    )
    status = models.CharField(max_length=16, choices=Status.choices, db_index=True)
    error = models.JSONField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    attempt = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trip", "id"]

    def __str__(self) -> str:
        return f"{self.tool} [{self.status}] {self.call_id}"
