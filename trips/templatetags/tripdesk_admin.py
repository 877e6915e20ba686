"""Back-office template tags: the pending-approval count on the home page."""

from django import template
from django.contrib import admin
from django.urls import reverse

from trips.models import ApprovalRequest

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_approvals(context) -> dict:
    """How many requests wait for a decision among those the signed-in person may see, and where they are.

    Counted through the queue's own queryset, so the home page and the queue agree on who sees what.
    """
    request = context["request"]
    queue = admin.site._registry[ApprovalRequest]
    if not queue.has_view_permission(request):
        return {"visible": False}
    pending = queue.get_queryset(request).filter(status=ApprovalRequest.Status.PENDING)
    return {
        "visible": True,
        "count": pending.count(),
        "url": reverse("admin:trips_approvalrequest_changelist"),
        "can_decide": queue.has_decide_permission(request),
    }
