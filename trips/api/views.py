"""Thin API views: querysets through ``trips_visible_to``, writes through services."""

from typing import Optional

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from trips.access import VIEW_TRIPS, may, may_write_in, trips_visible_to
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold, Organisation
from trips.services.actions import traveller_act
from trips.services.trips import trip_create
from trips.services.turns import UnknownAction
from trips.web.protocol import TravellerAction

from .serializers import (
    STAFF_ONLY_EVENTS,
    ApprovalRequestSerializer,
    AuditEventSerializer,
    AutoApprovalSerializer,
    ChatMessageSerializer,
    HoldSerializer,
    MessageCreateSerializer,
    TravellerAuditEventSerializer,
    TripDetailSerializer,
    TripSerializer,
)

AFTER = OpenApiParameter("after", int, description="Only items with a greater seq (resume).")
TRIP = OpenApiParameter("trip", int, description="Only this trip's.")
# Keys and sequence numbers are 64-bit columns: a larger number would reach the database and fail there.
LARGEST_ID = 2**63 - 1


def id_param(request, name: str) -> Optional[int]:
    """The query parameter ``name`` as a non-negative 64-bit integer (``None`` when absent); 400 otherwise."""
    raw = request.query_params.get(name, "")
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) > LARGEST_ID:
        raise ValidationError({name: f"must be a whole number from 0 to {LARGEST_ID}"})
    return int(raw)


class TripViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Trips the caller may see; a traveller creates trips for their own organisation."""

    def get_queryset(self):
        return trips_visible_to(self.request.user).select_related("owner", "organisation").order_by("-last_activity_at")

    def get_serializer_class(self):
        return TripDetailSerializer if self.action == "retrieve" else TripSerializer

    def perform_create(self, serializer):
        try:
            serializer.instance = trip_create(owner=self.request.user, title=serializer.validated_data.get("title", ""))
        except Organisation.DoesNotExist:
            raise ValidationError("You belong to no organisation, so you cannot start a trip.") from None

    @extend_schema(parameters=[AFTER], responses=ChatMessageSerializer(many=True))
    @action(detail=True, methods=["get"], serializer_class=ChatMessageSerializer)
    def messages(self, request, pk=None, format=None):
        """The chat, in seq order (``?after=<seq>`` to resume)."""
        trip = self.get_object()
        queryset = ChatMessage.objects.filter(trip=trip, seq__gt=id_param(request, "after") or 0).order_by("seq")
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(ChatMessageSerializer(page, many=True).data)

    @extend_schema(request=MessageCreateSerializer, responses={202: ChatMessageSerializer, 200: AutoApprovalSerializer})
    @messages.mapping.post
    def message_create(self, request, pk=None, format=None):
        """Say something or press a button; the turn runs in the background (202).

        ``{"action": {"type": "auto_approve"}}`` is the same as ``auto-approve/`` (200 with the token).
        """
        trip = self.get_object()
        if not may_write_in(request.user, trip):
            raise PermissionDenied("Only the traveller can write in this trip.")
        incoming = MessageCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        return self._act(trip, incoming.validated_data["act"])

    @extend_schema(request=None, responses={200: AutoApprovalSerializer})
    @action(detail=True, methods=["post"], url_path="auto-approve")
    def auto_approve(self, request, pk=None, format=None):
        """The traveller's explicit request to approve the pending purchase by the organisation's policy.

        Only under ``rules.auto_approve_below`` (off by default); refusals are audited. The
        token is in this response once (never stored) and reaches the traveller's open chat
        page as an ``approval_token`` frame, as an approver's grant does. Asked again once it is
        so approved: 200 with the request and ``approval_token: null`` (nothing granted twice).
        """
        request.data  # noqa: B018 - no body is needed, but one that is too large or too deep is still refused
        return self._act(self.get_object(), TravellerAction(client_id=None, action={"type": "auto_approve"}))

    def _act(self, trip, act: TravellerAction) -> Response:
        """The one door (``traveller_act``), as the websocket uses it; refusals become 403/400."""
        try:
            outcome = traveller_act(trip=trip, user=self.request.user, act=act)
        except UnknownAction as exc:
            raise ValidationError({"action": str(exc)}) from None
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from None
        except DjangoValidationError as exc:
            raise ValidationError(exc.messages) from None
        if outcome.approval_token is None and outcome.message is not None:
            return Response(ChatMessageSerializer(outcome.message).data, status=status.HTTP_202_ACCEPTED)
        approval = ApprovalRequest.objects.filter(trip=trip, kind=ApprovalRequest.Kind.PURCHASE).latest("decided_at")
        # A repeated automatic approval grants nothing more: the request as it stands, no second token.
        body = AutoApprovalSerializer({"approval": approval, "approval_token": outcome.approval_token}).data
        return Response(body, headers={"Cache-Control": "no-store"})

    @extend_schema(parameters=[AFTER], responses=AuditEventSerializer(many=True))
    @action(detail=True, methods=["get"], serializer_class=AuditEventSerializer)
    def events(self, request, pk=None, format=None):
        """The audit trail, in seq order (``?after=<seq>``); the traveller's view leaves out staff internals
        (flags and their reasons, staff retries) and names staff ``staff``, not by user id."""
        trip = self.get_object()
        queryset = AuditEvent.objects.filter(trip=trip, seq__gt=id_param(request, "after") or 0).order_by("seq")
        if may(request.user, VIEW_TRIPS, organisation_id=trip.organisation_id):  # staff of the trip's organisation
            page = self.paginate_queryset(queryset)
            return self.get_paginated_response(AuditEventSerializer(page, many=True).data)
        for prefix in STAFF_ONLY_EVENTS:
            queryset = queryset.exclude(type__startswith=prefix)
        page = self.paginate_queryset(queryset)
        context = {"traveller_id": request.user.pk}
        return self.get_paginated_response(TravellerAuditEventSerializer(page, many=True, context=context).data)


class TripScopedViewSet(viewsets.ReadOnlyModelViewSet):
    """Rows of trips the caller may see (``?trip=<id>`` narrows to one)."""

    def get_queryset(self):
        queryset = self.queryset.filter(trip__in=trips_visible_to(self.request.user))
        trip_id = id_param(self.request, "trip")
        return queryset if trip_id is None else queryset.filter(trip_id=trip_id)


@extend_schema(parameters=[TRIP])
class HoldViewSet(TripScopedViewSet):
    queryset = Hold.objects.order_by("payment_required_by")
    serializer_class = HoldSerializer


@extend_schema(parameters=[TRIP])
class ApprovalRequestViewSet(TripScopedViewSet):
    queryset = ApprovalRequest.objects.order_by("-created_at")
    serializer_class = ApprovalRequestSerializer
