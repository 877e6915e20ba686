"""The back office's trip list and trip page, and the audited staff actions."""

from datetime import timedelta
from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Subquery
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme

from trips.access import FLAG, RELEASE, RETRY, may, trips_visible_to
from trips.hosting.factory import tool_deps
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold, ToolRun, Trip
from trips.services.staff import toolrun_retry, trip_flag, trip_holds_release, trip_unflag
from trips.web.labels import trip_label

from .audit import actor_name, event_summary
from .base import SlimListMixin, TripScopedInline
from .trip_page import intent_html, trip_glance

EXPIRING_SOON = timedelta(hours=24)
TIMELINE_EVENTS = 50
CENT = Decimal("0.01")


def _count(queryset) -> Subquery:
    """A correlated ``COUNT(*)`` (one subquery per column instead of multiplying joins)."""
    counted = queryset.order_by().values("trip").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


class ChatInline(TripScopedInline):
    model = ChatMessage
    fields = ["seq", "role", "kind", "text", "turn_status", "created_at"]
    ordering = ["seq"]
    verbose_name_plural = "chat"


class ToolRunInline(TripScopedInline):
    """Which tools ran and how; arguments and results only on each run's own page."""

    model = ToolRun
    fields = ["run_link", "tool", "status", "attempt", "latency_ms", "error_code", "created_at"]
    ordering = ["id"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("arguments", "result")

    @admin.display(description="call")
    def run_link(self, obj: ToolRun) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:trips_toolrun_change", args=[obj.pk]), obj.call_id)

    @admin.display(description="error")
    def error_code(self, obj: ToolRun) -> str:
        error = obj.error if isinstance(obj.error, dict) else {}
        return " · ".join(str(error[key]) for key in ("code", "message") if error.get(key)) or "—"


class TimelineFormSet(BaseInlineFormSet):
    """The trip page shows the latest ``TIMELINE_EVENTS``; ``more_link`` leads to all of them."""

    def more_link(self) -> str:
        total = self.instance.last_event_seq  # the trail's seq is gap-free: the last one is the count
        url = reverse("admin:trips_auditevent_changelist") + f"?trip__id__exact={self.instance.pk}"
        shown = f"The latest {TIMELINE_EVENTS}, newest first" if total > TIMELINE_EVENTS else "Newest first"
        return format_html('{} · <a href="{}">all {} events</a>', shown, url, total)


class AuditInline(TripScopedInline):
    """The audit timeline: one line per event, each linking to the event's page with its whole payload."""

    model = AuditEvent
    formset = TimelineFormSet
    fields = ["seq", "type", "who", "summary", "created_at"]
    ordering = ["-seq"]
    verbose_name_plural = "audit timeline"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(seq__gt=F("trip__last_event_seq") - TIMELINE_EVENTS)
            .select_related("actor_user", "trip__owner")
        )

    @admin.display(description="who")
    def who(self, obj: AuditEvent) -> str:
        return actor_name(obj)

    @admin.display(description="what happened")
    def summary(self, obj: AuditEvent) -> str:
        url = reverse("admin:trips_auditevent_change", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, event_summary(obj) or obj.type)


class AwaitingApprovalFilter(admin.SimpleListFilter):
    title = "awaiting approval"
    parameter_name = "awaiting"

    def lookups(self, request, model_admin):
        return [("yes", "Yes")]

    def queryset(self, request, queryset):
        return queryset.filter(awaiting_approval=True) if self.value() == "yes" else queryset


class FailedToolsFilter(admin.SimpleListFilter):
    title = "failed tools"
    parameter_name = "failed_tools"

    def lookups(self, request, model_admin):
        return [("yes", "Some")]

    def queryset(self, request, queryset):
        return queryset.filter(failed_tools__gt=0) if self.value() == "yes" else queryset


class ExpiringHoldsFilter(admin.SimpleListFilter):
    title = "holds expiring within 24 h"
    parameter_name = "expiring"

    def lookups(self, request, model_admin):
        return [("yes", "Yes")]

    def queryset(self, request, queryset):
        return queryset.filter(expiring_holds__gt=0) if self.value() == "yes" else queryset


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=1000, strip=True)


@admin.register(Trip)
class TripAdmin(SlimListMixin, admin.ModelAdmin):
    # Triage first: what needs someone now fits beside the filters at 1280 px; the rest follows.
    list_display = [
        "name",
        "owner",
        "phase",
        "flagged",
        "awaiting_approval_display",
        "expiring_holds_display",
        "failed_tools_display",
        "last_activity_at",
        "state",
        "llm_cost_display",
        "organisation",
    ]
    list_filter = [
        "phase",
        "state",
        "flagged",
        AwaitingApprovalFilter,
        ExpiringHoldsFilter,
        FailedToolsFilter,
        ("organisation", admin.RelatedOnlyFieldListFilter),  # only the organisations the user sees
    ]
    search_fields = ["=id", "title", "owner__username", "owner__email"]
    list_select_related = ["owner", "organisation"]
    date_hierarchy = "last_activity_at"
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "owner",
                    "organisation",
                    ("phase", "state", "version"),
                    "flagged",
                    "llm_cost_display",
                    ("last_activity_at", "created_at"),
                ]
            },
        ),
        ("TripIntent", {"fields": ["intent_pretty"]}),
    ]
    readonly_fields = [
        "name",
        "owner",
        "organisation",
        "phase",
        "state",
        "version",
        "flagged",
        "llm_cost_display",
        "last_activity_at",
        "created_at",
        "intent_pretty",
    ]
    inlines = [ChatInline, ToolRunInline, AuditInline]
    actions = ["flag_for_attention", "clear_flag", "retry_failed_tool", "release_holds"]
    # The trip page offers the same actions as buttons (``staff_buttons``): power, then whether it applies.
    PAGE_ACTIONS = [
        ("flag_for_attention", "Flag for attention…", FLAG, lambda trip: not trip.flagged),
        ("clear_flag", "Clear the flag…", FLAG, lambda trip: trip.flagged),
        (
            "retry_failed_tool",
            "Retry the last failed tool…",
            RETRY,
            lambda trip: trip.tool_runs.filter(status=ToolRun.Status.FAILED).exists(),
        ),
        ("release_holds", "Release holds…", RELEASE, lambda trip: trip.holds.filter(status=Hold.Status.HELD).exists()),
    ]

    def get_queryset(self, request):
        now = timezone.now()
        queryset = trips_visible_to(request.user) if not request.user.is_superuser else Trip.objects.all()
        return queryset.annotate(
            expiring_holds=_count(
                Hold.objects.filter(
                    trip=OuterRef("pk"),
                    status=Hold.Status.HELD,
                    payment_required_by__gt=now,
                    payment_required_by__lte=now + EXPIRING_SOON,
                )
            ),
            # A hold that asked for the travellers' names waits on the traveller: not a failure to look into.
            failed_tools=_count(
                ToolRun.objects.filter(trip=OuterRef("pk"), status=ToolRun.Status.FAILED).exclude(
                    error__code="passengers_missing"
                )
            ),
            awaiting_approval=Exists(
                ApprovalRequest.objects.filter(trip=OuterRef("pk"), status=ApprovalRequest.Status.PENDING)
            ),
        )

    def list_queryset(self, queryset):
        """The list never shows the document; an untitled trip's name needs only its first leg."""
        return queryset.defer("intent").annotate(first_leg=KeyTransform("0", "intent__itinerary__segments"))

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context.update(
                glance=trip_glance(obj), subtitle=trip_label(obj), staff_buttons=self.staff_buttons(request, obj)
            )
        return super().render_change_form(request, context, add=add, change=change, form_url=form_url, obj=obj)

    def has_add_permission(self, request) -> bool:
        return False  # travellers start trips from the chat

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the trip page is read-only; staff act through the audited actions

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def staff_buttons(self, request, trip: Trip) -> list[dict]:
        """The staff actions this person may take on this trip now (by their role in its organisation)."""
        return [
            {"action": action, "label": label}
            for action, label, power, applies in self.PAGE_ACTIONS
            if may(request.user, power, organisation_id=trip.organisation_id) and applies(trip)
        ]

    def has_flag_permission(self, request) -> bool:
        return request.user.has_perm("trips.flag_trip")

    def has_retry_permission(self, request) -> bool:
        return request.user.has_perm("trips.retry_tool")

    def has_release_permission(self, request) -> bool:
        return request.user.has_perm("trips.release_hold")

    @admin.display(description="holds expiring", ordering="expiring_holds")
    def expiring_holds_display(self, obj: Trip) -> int:
        return obj.expiring_holds

    @admin.display(description="awaiting approval", boolean=True, ordering="awaiting_approval")
    def awaiting_approval_display(self, obj: Trip) -> bool:
        return obj.awaiting_approval

    @admin.display(description="failed tools", ordering="failed_tools")
    def failed_tools_display(self, obj: Trip) -> int:
        return obj.failed_tools

    @admin.display(description="trip", ordering="title")
    def name(self, obj: Trip) -> str:
        """The title, else the name the chat gives it ("EWR → DEN · Jan 30")."""
        if hasattr(obj, "first_leg"):  # a list row: the document was left out
            obj = Trip(pk=obj.pk, title=obj.title, intent={"itinerary": {"segments": [obj.first_leg]}})
        return trip_label(obj)

    @admin.display(description="LLM cost (USD)", ordering="llm_cost")
    def llm_cost_display(self, obj: Trip) -> str:
        if 0 < obj.llm_cost < CENT / 2:
            return "< 0.01"
        return str(obj.llm_cost.quantize(CENT))

    @admin.display(description="TripIntent")
    def intent_pretty(self, obj: Trip) -> str:
        return intent_html(obj.intent or {})

    @admin.action(description="Flag for attention…", permissions=["flag"])
    def flag_for_attention(self, request, queryset):
        return self._with_reason(request, queryset, "Flag for attention", trip_flag)

    @admin.action(description="Clear the flag…", permissions=["flag"])
    def clear_flag(self, request, queryset):
        return self._with_reason(request, queryset, "Clear the flag", trip_unflag)

    @admin.action(description="Retry the last failed tool…", permissions=["retry"])
    def retry_failed_tool(self, request, queryset):
        def retry(*, trip, actor, reason):
            run = ToolRun.objects.filter(trip=trip, status=ToolRun.Status.FAILED).order_by("-pk").first()
            if run is None:
                raise ValidationError("No failed tool run.")
            return toolrun_retry(tool_run=run, actor=actor, reason=reason)

        return self._with_reason(request, queryset, "Retry the last failed tool", retry)

    @admin.action(description="Release holds…", permissions=["release"])
    def release_holds(self, request, queryset):
        def release(*, trip, actor, reason):
            supplier = tool_deps(clock=timezone.now).supplier  # the tools' own supplier, on the same state
            return trip_holds_release(trip=trip, actor=actor, reason=reason, supplier=supplier)

        return self._with_reason(request, queryset, "Release holds", release)

    def _with_reason(self, request, queryset, title, act):
        """Ask for a reason on an intermediate page, then call the service ``act(trip=, actor=, reason=)`` per trip."""
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for trip in queryset:
                try:
                    act(trip=trip, actor=request.user, reason=form.cleaned_data["reason"])
                except (ValidationError, PermissionDenied) as exc:
                    self.message_user(
                        request, f"{trip}: {'; '.join(getattr(exc, 'messages', [str(exc)]))}", messages.WARNING
                    )
                else:
                    self.message_user(request, f"{trip}: {title.lower()} done.", messages.SUCCESS)
            back = request.POST.get("next", "")
            if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
                return HttpResponseRedirect(back)  # started from the trip page: back to it
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "form": form,
            "trips": queryset,
            "next": request.POST.get("next", ""),
            "action": request.POST.get("action"),
            "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/trips/staff_action.html", context)
