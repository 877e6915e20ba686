"""TripDesk's models, one module per subject."""

from .audit import AccountEvent, AppendOnlyError, AuditEvent
from .chat import ChatMessage
from .commerce import ApprovalRequest, Booking, Hold, PaymentMethod
from .org import Membership, Organisation
from .supplier import SupplierState
from .tools import ToolDefinition, ToolRun
from .travellers import Companion, TravellerProfile, TripPassenger
from .trip import Phase, State, Trip

__all__ = [
    "AccountEvent",
    "AppendOnlyError",
    "ApprovalRequest",
    "AuditEvent",
    "Booking",
    "ChatMessage",
    "Companion",
    "Hold",
    "Membership",
    "Organisation",
    "PaymentMethod",
    "Phase",
    "State",
    "SupplierState",
    "ToolDefinition",
    "ToolRun",
    "TravellerProfile",
    "Trip",
    "TripPassenger",
]
