"""The approver queue and decision page, and the commerce records: holds, bookings, payment methods.

Approvers work from the ApprovalRequest queue (their organisations' requests, soonest deadline
first, Pending unless they choose otherwise) and decide on each request's own page: the
request in words (``trips.sheets``), Grant and Deny buttons that name the amount, a reason
required to deny. Each button calls one ``trips.services.approvals`` function. The purchase
token goes to the traveller's chat, never to the approver's screen.
"""

from datetime import timedelta
from typing import Any, Callable, Optional

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.http import HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html

from trips.access import may, staff_organisation_ids
from trips.formats import money_text, when_text
from trips.hosting.factory import tool_deps
from trips.models import ApprovalRequest, Booking, Hold, PaymentMethod
from trips.services.approvals import DECIDE_PERMISSION, approval_deny, approval_grant, approval_revoke
from trips.services.holds import RELEASE_PERMISSION, holds_release
from trips.sheets import (
    POLICY_VERDICTS,
    approval_sheet,
    dates_text,
    party_text,
    person_name,
    policy_verdict,
    route_text,
)

from .base import ReadOnlyAdminMixin, TripScopedAdmin, pretty_json


class ReasonRequiredForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        strip=True,
        help_text="The traveller reads it; the audit trail keeps it.",
    )


def _label(obj: Any) -> str:
    return ", ".join(map(str, obj)) if isinstance(obj, list) else str(obj)


def act_with_reason(
    modeladmin: admin.ModelAdmin,
    request,
    queryset,
    *,
    title: str,
    form_class: type[forms.Form],
    act: Callable,
    together_by: Optional[Callable[[Any], Any]] = None,
):
    """Ask for a reason on an intermediate page, then run ``act(obj, reason)`` per row — or, with
    ``together_by``, ``act([objs], reason)`` once per group of rows sharing that key.

    Returns the intermediate page, or the list of ``(obj, result)`` that succeeded once the
    form is applied; refusals (permission, state) are reported as messages, row by row.
    """
    form = form_class(request.POST if "apply" in request.POST else None)
    if not form.is_valid():
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "objects": queryset,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/trips/commerce_action.html", context)
    done = []
    rows = list(queryset)
    if together_by is not None:
        groups: dict = {}
        for row in rows:
            groups.setdefault(together_by(row), []).append(row)
        rows = list(groups.values())
    for obj in rows:
        try:
            done.append((obj, act(obj, form.cleaned_data["reason"])))
        except (ValidationError, PermissionDenied) as exc:
            modeladmin.message_user(
                request, f"{_label(obj)}: {'; '.join(getattr(exc, 'messages', [str(exc)]))}", messages.WARNING
            )
        else:
            modeladmin.message_user(request, f"{_label(obj)}: {title.lower()} done.", messages.SUCCESS)
    return done


class QueueStatusFilter(admin.SimpleListFilter):
    """The queue opens on what waits for a decision: Pending unless another status (or All) is chosen."""

    title = "status"
    parameter_name = "status"
    DEFAULT = ApprovalRequest.Status.PENDING
    ALL = "all"

    def lookups(self, request, model_admin):
        return [*ApprovalRequest.Status.choices, (self.ALL, "All")]

    def choices(self, changelist):
        current = self.value() or self.DEFAULT
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value() or self.DEFAULT
        return queryset if value == self.ALL else queryset.filter(status=value)


class PolicyFilter(admin.SimpleListFilter):
    """Narrow the queue by what the policy and risk check found (``trips.sheets.policy_verdict``).

    The verdict reads each request's snapshot and its organisation's budget, so it is worked out
    here row by row over what the other filters left (the queue of an organisation, not the table).
    """

    title = "policy and risk"
    parameter_name = "policy"

    def lookups(self, request, model_admin):
        return POLICY_VERDICTS

    def queryset(self, request, queryset):
        if self.value() not in dict(POLICY_VERDICTS):
            return queryset
        rows = queryset.select_related("organisation").only(
            "pk", "snapshot", "amount_ceiling", "currency", "organisation__policy"
        )
        return queryset.filter(pk__in=[row.pk for row in rows if policy_verdict(row).kind == self.value()])


class DecisionPageForm(forms.Form):
    """The decision page's one form: a reason (required to deny or withdraw) and which button was pressed."""

    decision = forms.ChoiceField(choices=[("grant", "grant"), ("deny", "deny"), ("revoke", "revoke")])
    # The status the page showed when the approver decided: a request decided meanwhile is not decided again.
    seen = forms.ChoiceField(choices=ApprovalRequest.Status.choices, required=False)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=1000,
        strip=True,
        required=False,
        label="Reason",
        help_text="Required to deny or withdraw. The traveller reads it; the audit trail keeps it.",
    )

    def clean(self):
        data = super().clean()
        if data.get("decision") in ("deny", "revoke") and not data.get("reason"):
            self.add_error("reason", "Say why: the traveller will read the reason.")
        return data


@admin.register(ApprovalRequest)
class ApprovalRequestAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The approval queue (soonest deadline first, Pending by default) and one decision page per request."""

    # Who travels and where sit over their party and dates (a line each), so the whole row, status
    # included, fits beside the filters at 1,280 px (nine columns ran off to the right).
    list_display = ["request_link", "amount", "policy", "deadline", "traveller", "route", "status"]
    list_display_links = None
    list_filter = [QueueStatusFilter, PolicyFilter, "kind", ("organisation", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["trip__owner", "organisation"]
    search_fields = ["=id", "=trip__id", "trip__title", "trip__owner__username"]
    ordering = [F("expires_at").asc(nulls_last=True), "created_at"]
    actions = None

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organisation_id__in=staff_organisation_ids(request.user))

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Approval queue", **(extra_context or {})})

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        changelist.queryset = changelist.queryset.defer("trip__intent").annotate(
            trip_timezone=KeyTextTransform("timezone", KeyTransform("request", "trip__intent"))
        )
        return changelist

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm(DECIDE_PERMISSION)

    def waiting(self, request) -> dict[str, Any]:
        """What waits for a decision among the requests this person may see: the home page's count,
        the header's badge on every back-office page, and what that badge asks for while it is open."""
        if not self.has_view_permission(request):
            return {"visible": False}
        pending = self.get_queryset(request).filter(status=ApprovalRequest.Status.PENDING)
        return {
            "visible": True,
            "count": pending.count(),
            "url": reverse("admin:trips_approvalrequest_changelist"),
            "poll_url": reverse("admin:trips_approvalrequest_waiting"),
            "can_decide": self.has_decide_permission(request),
        }

    def get_urls(self):
        waiting = path("waiting/", self.admin_site.admin_view(self.waiting_view), name="trips_approvalrequest_waiting")
        return [waiting, *super().get_urls()]

    def waiting_view(self, request):
        """The badge's count, as JSON, never cached: asked every half minute while the back office is open."""
        waiting = self.waiting(request)
        if not waiting["visible"]:
            raise PermissionDenied("Only staff who may see the approval queue.")
        response = JsonResponse({k: waiting[k] for k in ("count", "url", "can_decide")})
        patch_cache_control(response, no_store=True)
        return response

    @admin.display(description="request")
    def request_link(self, obj: ApprovalRequest) -> str:
        url = reverse("admin:trips_approvalrequest_change", args=[obj.pk])
        return format_html('<a href="{}">{} #{}</a>', url, obj.get_kind_display(), obj.pk)

    @admin.display(description="traveller", ordering="trip__owner__username")
    def traveller(self, obj: ApprovalRequest) -> str:
        """The traveller, and under them who travels."""
        party = party_text((obj.snapshot or {}).get("travelers"))
        return format_html('{}<small class="queue-line">{}</small>', person_name(obj.trip.owner), party)

    @admin.display(description="trip")
    def route(self, obj: ApprovalRequest) -> str:
        """Where, and under it when."""
        snapshot = obj.snapshot or {}
        return format_html('{}<small class="queue-line">{}</small>', route_text(snapshot), dates_text(snapshot))

    @admin.display(description="amount", ordering="amount_ceiling")
    def amount(self, obj: ApprovalRequest) -> str:
        return money_text(obj.amount_ceiling, obj.currency)

    @admin.display(description="policy and risk")
    def policy(self, obj: ApprovalRequest) -> str:
        """Within policy, flagged or outside it, before anyone opens the request; the findings on hover."""
        verdict = policy_verdict(obj)
        return format_html(
            '<span class="policy-verdict policy-verdict--{}" data-policy="{}" title="{}">{}</span>{}',
            verdict.kind,
            verdict.kind,
            "\n".join(verdict.details),
            verdict.text,
            format_html('<small class="policy-finding">{}</small>', verdict.flags) if verdict.flags else "",
        )

    @admin.display(description="deadline", ordering="expires_at")
    def deadline(self, obj: ApprovalRequest) -> str:
        tz = getattr(obj, "trip_timezone", None) or obj.organisation.timezone
        return when_text(obj.expires_at, tz) if obj.expires_at else "—"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The decision page: the request in words, Grant and Deny naming the amount."""
        approval = self.get_object(request, unquote(object_id))
        if approval is None or not self.has_view_permission(request, approval):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        form = DecisionPageForm(request.POST if request.method == "POST" else None)
        if request.method == "POST":
            if not self._may_decide(request, approval):
                raise PermissionDenied("Only approvers of the request's organisation decide it.")
            if form.is_valid():
                try:
                    done = self._decide(request, approval, form.cleaned_data)
                except (ValidationError, PermissionDenied) as exc:
                    messages.error(request, "; ".join(getattr(exc, "messages", None) or [str(exc)]))
                else:
                    messages.success(request, done)
                    return HttpResponseRedirect(request.path)
        approval.refresh_from_db()
        sheet = approval_sheet(approval)
        context = {
            **self.admin_site.each_context(request),
            "title": f"{approval.get_kind_display()} approval #{approval.pk}",
            "subtitle": f"{sheet.traveller} · {sheet.route}",
            "opts": self.opts,
            "sheet": sheet,
            "approval": approval,
            "form": form,
            "can_decide": self._may_decide(request, approval),
            "is_pending": approval.status == ApprovalRequest.Status.PENDING,
            "is_granted": approval.status == ApprovalRequest.Status.GRANTED,
            "trip_url": reverse("admin:trips_trip_change", args=[approval.trip_id]),
            "queue_url": reverse("admin:trips_approvalrequest_changelist"),
            **(extra_context or {}),
        }
        response = TemplateResponse(request, "admin/trips/approvalrequest/decide.html", context)
        patch_cache_control(response, no_store=True, private=True)
        return response

    def _may_decide(self, request, approval: ApprovalRequest) -> bool:
        """The buttons show where the role in the request's organisation decides (the service checks again)."""
        return may(request.user, DECIDE_PERMISSION, organisation_id=approval.organisation_id)

    def _decide(self, request, approval: ApprovalRequest, data: dict) -> str:
        """Call the one service for the decision; returns what the approver is told."""
        now, amount = timezone.now(), money_text(approval.amount_ceiling, approval.currency)
        decision, reason, seen = data["decision"], data["reason"], data.get("seen") or None
        if decision == "grant":
            approval_grant(approval=approval, approver=request.user, reason=reason, now=now, seen_status=seen)
            if approval.kind == ApprovalRequest.Kind.HOLD:
                return "Granted: TripDesk is placing the holds and will tell the traveller."
            return f"Granted {amount}. The traveller can now pay from their chat; nothing more to pass on."
        if decision == "deny":
            approval_deny(approval=approval, approver=request.user, reason=reason, now=now, seen_status=seen)
            return f"Denied {amount}. The traveller has been told why."
        approval_revoke(approval=approval, actor=request.user, reason=reason, now=now)
        return "Approval withdrawn. The traveller has been told why."


class ExpiringSoonFilter(admin.SimpleListFilter):
    title = "deadline"
    parameter_name = "deadline"

    def lookups(self, request, model_admin):
        return [("24h", "Within 24 hours"), ("passed", "Passed, still marked held")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "24h":
            return queryset.filter(
                status=Hold.Status.HELD,
                payment_required_by__gt=now,
                payment_required_by__lte=now + timedelta(hours=24),
            )
        if self.value() == "passed":
            return queryset.filter(status=Hold.Status.HELD, payment_required_by__lte=now)
        return queryset


@admin.register(Hold)
class HoldAdmin(TripScopedAdmin):
    list_display = [
        "hold_id",
        "trip",
        "item_type",
        "status",
        "live",
        "price",
        "payment_required_by",
        "warned_at",
    ]
    list_filter = ["status", "item_type", ExpiringSoonFilter]
    list_select_related = ["trip"]
    search_fields = ["=hold_id", "=trip__id", "offer_id"]
    actions = ["release"]

    def has_release_permission(self, request) -> bool:
        return request.user.has_perm(RELEASE_PERMISSION)

    @admin.display(description="amount", ordering="amount")
    def price(self, obj: Hold) -> str:
        return money_text(obj.amount, obj.currency)

    @admin.display(boolean=True, description="live now")
    def live(self, obj: Hold) -> bool:
        return obj.is_live(timezone.now())

    @admin.action(description="Release at the supplier…", permissions=["release"])
    def release(self, request, queryset):
        supplier = tool_deps(clock=timezone.now).supplier
        done = act_with_reason(
            self,
            request,
            queryset,
            title="Release",
            form_class=ReasonRequiredForm,
            # One trip's holds go together: one HOLDS_CHANGED turn, one reply to the traveller.
            together_by=lambda hold: hold.trip_id,
            act=lambda holds, reason: holds_release(
                holds=holds, actor=request.user, reason=reason, supplier=supplier, now=timezone.now()
            ),
        )
        return None if isinstance(done, list) else done


@admin.register(Booking)
class BookingAdmin(TripScopedAdmin):
    list_display = ["booking_id", "trip", "status", "total_display", "locators", "created_at"]
    list_filter = ["status"]
    list_select_related = ["trip"]
    search_fields = ["=booking_id", "=trip__id"]
    fields = [
        "booking_id",
        "trip",
        "approval",
        "status",
        "total_display",
        "created_at",
        "orders_pretty",
        "locators",
    ]
    readonly_fields = fields

    @admin.display(description="total", ordering="total")
    def total_display(self, obj: Booking) -> str:
        return money_text(obj.total, obj.currency)

    @admin.display(description="record locators")
    def locators(self, obj: Booking) -> str:
        return ", ".join(str(locator) for locator in obj.record_locators)

    @admin.display(description="orders")
    def orders_pretty(self, obj: Booking) -> str:
        return pretty_json(obj.orders)


@admin.register(PaymentMethod)
class PaymentMethodAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Cards as staff may see them: brand and last four digits, never the provider reference."""

    list_display = ["__str__", "owner", "brand", "last4", "created_at"]
    list_select_related = ["owner"]
    search_fields = ["owner__username", "=last4"]
    fields = ["owner", "brand", "last4", "label", "created_at"]
    readonly_fields = fields

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(owner__memberships__organisation_id__in=staff_organisation_ids(request.user)).distinct()
