"""The REST API (DRF): trips, their messages and events, holds and approvals."""
