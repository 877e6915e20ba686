"""The approver queue and the commerce records: holds, bookings, payment methods.

Approvers work from the ApprovalRequest list: filtered to their own organisation, the
server's snapshot shown read-only, grant / deny / revoke as actions that ask for a reason on
an intermediate page and call ``trips.services.approvals``. A granted token is shown once, on
the page that answers the grant, and nowhere else (the response is marked ``no-store``).
"""

from datetime import timedelta
from typing import Any, Callable, Optional

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html, format_html_join

from trips.access import staff_organisation_ids
from trips.hosting.runner import tool_deps
from trips.models import ApprovalRequest, Booking, Hold, PaymentMethod
from trips.services.approvals import DECIDE_PERMISSION, approval_deny, approval_grant, approval_revoke
from trips.services.holds import RELEASE_PERMISSION, holds_release

from .base import ReadOnlyAdminMixin, TripScopedAdmin, pretty_json


class DecisionForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        strip=True,
        required=False,
        help_text="The traveller reads it; the audit trail keeps it.",
    )


class ReasonRequiredForm(DecisionForm):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=1000, strip=True)


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


@admin.register(ApprovalRequest)
class ApprovalRequestAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "__str__",
        "kind",
        "trip",
        "organisation",
        "status",
        "amount_ceiling",
        "currency",
        "expires_at",
        "decided_by",
        "created_at",
    ]
    list_filter = ["status", "kind", ("organisation", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["trip", "organisation", "decided_by"]
    search_fields = ["=id", "=trip__id", "trip__title", "trip__owner__username"]
    date_hierarchy = "created_at"
    fields = [
        "kind",
        "trip",
        "organisation",
        "status",
        "snapshot_summary",
        "amount_ceiling",
        "currency",
        "hold_ids",
        "expires_at",
        "auto_approved",
        "decided_by",
        "decided_at",
        "reason",
        "used_at",
        "failed_attempts",
        "supersedes",
        "created_at",
        "snapshot_pretty",
    ]
    readonly_fields = fields
    actions = ["grant", "deny", "revoke"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organisation_id__in=staff_organisation_ids(request.user))

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        changelist.queryset = changelist.queryset.defer("snapshot")
        return changelist

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm(DECIDE_PERMISSION)

    @admin.display(description="what is approved")
    def snapshot_summary(self, obj: ApprovalRequest) -> str:
        snap = obj.snapshot or {}
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{} {}</td><td>{}</td></tr>",
            (
                (
                    item.get("item_type"),
                    _describe(item.get("summary")) or item.get("ref"),
                    item.get("amount", ""),
                    item.get("currency", ""),
                    item.get("payment_required_by") or "",
                )
                for item in snap.get("items") or []
            ),
        )
        findings = snap.get("policy_findings") or {}
        notes = format_html_join(
            "",
            "<li>{}: {}</li>",
            ((f["code"], f["message"]) for f in findings.get("blocking", []) + findings.get("warnings", [])),
        )
        return format_html(
            "<table><tr><th>item</th><th>what</th><th>price</th><th>hold deadline</th></tr>{}</table>"
            "<p><strong>Total {} {}</strong> · earliest deadline {}</p><ul>{}</ul>",
            rows,
            snap.get("total"),
            snap.get("currency"),
            snap.get("earliest_deadline") or "—",
            notes,
        )

    @admin.display(description="snapshot (as stored)")
    def snapshot_pretty(self, obj: ApprovalRequest) -> str:
        return pretty_json(obj.snapshot)

    @admin.action(description="Grant…", permissions=["decide"])
    def grant(self, request, queryset):
        done = act_with_reason(
            self,
            request,
            queryset,
            title="Grant",
            form_class=DecisionForm,
            act=lambda approval, reason: approval_grant(
                approval=approval, approver=request.user, reason=reason, now=timezone.now()
            ),
        )
        if not isinstance(done, list):
            return done
        issued = [(approval, token) for approval, token in done if token]
        if not issued:
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Approval tokens",
            "issued": issued,
            "opts": self.model._meta,
        }
        response = TemplateResponse(request, "admin/trips/approvalrequest/tokens.html", context)
        patch_cache_control(response, no_store=True, no_cache=True, private=True)
        return response

    @admin.action(description="Deny…", permissions=["decide"])
    def deny(self, request, queryset):
        done = act_with_reason(
            self,
            request,
            queryset,
            title="Deny",
            form_class=ReasonRequiredForm,
            act=lambda approval, reason: approval_deny(
                approval=approval, approver=request.user, reason=reason, now=timezone.now()
            ),
        )
        return None if isinstance(done, list) else done

    @admin.action(description="Revoke…", permissions=["decide"])
    def revoke(self, request, queryset):
        done = act_with_reason(
            self,
            request,
            queryset,
            title="Revoke",
            form_class=ReasonRequiredForm,
            act=lambda approval, reason: approval_revoke(
                approval=approval, actor=request.user, reason=reason, now=timezone.now()
            ),
        )
        return None if isinstance(done, list) else done


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
        "amount",
        "currency",
        "payment_required_by",
        "warned_at",
    ]
    list_filter = ["status", "item_type", ExpiringSoonFilter]
    list_select_related = ["trip"]
    search_fields = ["=hold_id", "=trip__id", "offer_id"]
    actions = ["release"]

    def has_release_permission(self, request) -> bool:
        return request.user.has_perm(RELEASE_PERMISSION)

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
    list_display = ["booking_id", "trip", "status", "total", "currency", "locators", "created_at"]
    list_filter = ["status"]
    list_select_related = ["trip"]
    search_fields = ["=booking_id", "=trip__id"]
    fields = [
        "booking_id",
        "trip",
        "approval",
        "status",
        "total",
        "currency",
        "created_at",
        "orders_pretty",
        "locators",
    ]
    readonly_fields = fields

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


def _describe(summary) -> str:
    """One line for a flight or hotel summary in the snapshot."""
    if not isinstance(summary, dict):
        return ""
    if summary.get("hotel_name"):
        return f"{summary['hotel_name']} ({summary.get('nights', '?')} nights, {summary.get('board_type', '')})"
    flights = ", ".join(summary.get("flight_numbers") or [])
    return (
        f"{summary.get('carrier_name') or summary.get('carrier', '')} {flights} {summary.get('depart_at', '')}".strip()
    )
