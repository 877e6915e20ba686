"""What the API shows and accepts. Read-only except a new trip and a new message."""

from rest_framework import serializers

from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold, Trip
from trips.web.protocol import MAX_TEXT_CHARS, FrameError, traveller_action_parse


class TripSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    organisation = serializers.CharField(source="organisation.slug", read_only=True)

    class Meta:
        model = Trip
        fields = [
            "id",
            "title",
            "owner",
            "organisation",
            "phase",
            "state",
            "version",
            "flagged",
            "last_activity_at",
            "created_at",
        ]
        read_only_fields = [f for f in fields if f != "title"]


class TripDetailSerializer(TripSerializer):
    intent = serializers.JSONField(read_only=True, help_text="The TripIntent document.")

    class Meta(TripSerializer.Meta):
        fields = TripSerializer.Meta.fields + ["intent"]
        read_only_fields = TripSerializer.Meta.read_only_fields + ["intent"]


class ChatMessageSerializer(serializers.ModelSerializer):
    """The same fields as the websocket's message frame (``trips.services.chat.chat_message_frame``)."""

    class Meta:
        model = ChatMessage
        fields = ["seq", "role", "kind", "text", "widget", "client_id", "created_at"]
        read_only_fields = fields


class MessageCreateSerializer(serializers.Serializer):
    """A message or a button press; exactly one of ``text`` and ``action``.

    Validated by the websocket's own schema (``trips.web.protocol.traveller_action_parse``):
    the same limits, the same normalisation; ``validated_data["act"]`` is the parsed action.
    """

    text = serializers.CharField(
        required=False, max_length=MAX_TEXT_CHARS, help_text=f"At most {MAX_TEXT_CHARS:,} characters."
    )
    action = serializers.DictField(
        required=False,
        help_text='{"type": "select", "bundle_id"} | {"type": "hold"} | {"type": "retry"} | '
        '{"type": "purchase", "approval_token", "payment_method_id"} | {"type": "cancel_booking", "booking_id"} | '
        '{"type": "auto_approve"}',
    )
    client_id = serializers.CharField(required=False, max_length=64, allow_blank=True)

    def to_internal_value(self, data):
        try:
            return {"act": traveller_action_parse(data, client_id_required=False)}
        except FrameError as refusal:
            raise serializers.ValidationError({"code": refusal.code, "detail": refusal.message}) from None


class AuditEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = ["seq", "type", "actor", "causation_id", "payload", "created_at"]
        read_only_fields = fields


# Events about staff work (flags and their reasons, staff retries) that a traveller does not see.
STAFF_ONLY_EVENTS = ("staff.", "trip.flagged")


class TravellerAuditEventSerializer(AuditEventSerializer):
    """The trail as the trip's traveller sees it: no staff internals.

    Staff-only events are left out by the view (``STAFF_ONLY_EVENTS``); here any person other
    than the traveller is named ``staff``, never by their user id.
    """

    def to_representation(self, instance):
        data = super().to_representation(instance)
        own = f"user:{self.context['traveller_id']}"
        if data["actor"].startswith("user:") and data["actor"] != own:
            data["actor"] = "staff"
        return data


class HoldSerializer(serializers.ModelSerializer):
    class Meta:
        model = Hold
        fields = [
            "id",
            "trip",
            "hold_id",
            "item_type",
            "offer_id",
            "segment_id",
            "status",
            "amount",
            "currency",
            "payment_required_by",
            "price_guarantee_expires_at",
            "created_at",
        ]
        read_only_fields = fields


class ApprovalRequestSerializer(serializers.ModelSerializer):
    """Never the token nor its hash."""

    class Meta:
        model = ApprovalRequest
        fields = [
            "id",
            "trip",
            "kind",
            "status",
            "snapshot",
            "hold_ids",
            "amount_ceiling",
            "currency",
            "expires_at",
            "decided_at",
            "reason",
            "used_at",
            "created_at",
        ]
        read_only_fields = fields


class AutoApprovalSerializer(serializers.Serializer):
    """The answer to an automatic approval: the granted request and its one-time token (shown once)."""

    approval = ApprovalRequestSerializer(read_only=True)
    approval_token = serializers.CharField(read_only=True)
