"""Duffel (flights and stays) behind the supplier protocol: a small typed httpx client, the
error mapping and the adapter. Chosen by the host with ``TRIPDESK_SUPPLIER=duffel``."""

from .adapter import DuffelSupplier
from .client import API_URL, API_VERSION, DuffelApiError, DuffelClient, DuffelTransportError, token_problem

__all__ = [
    "API_URL",
    "API_VERSION",
    "DuffelApiError",
    "DuffelClient",
    "DuffelSupplier",
    "DuffelTransportError",
    "token_problem",
]
