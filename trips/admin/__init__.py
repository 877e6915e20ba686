"""The back office: one module per subject; importing them registers their ModelAdmins."""

from . import audit, commerce, org, site, tools, travellers, trips, users

__all__ = ["audit", "commerce", "org", "site", "tools", "travellers", "trips", "users"]
