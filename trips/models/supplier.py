"""State of the sandbox supplier (the core's ``KeyValueStore``): JSON values and atomic counters."""

from django.db import models


class SupplierState(models.Model):
    key = models.CharField(max_length=255, unique=True)
    value = models.JSONField(default=dict)
    counter = models.BigIntegerField(null=True, blank=True, help_text="Set for counters (inventory, sequences).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "supplier state"

    def __str__(self) -> str:
        return self.key
