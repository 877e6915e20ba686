"""Back-office template tags: the pending-approval count on the home page and in every page's header."""

from django import template
from django.contrib import admin

from trips.models import ApprovalRequest

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_approvals(context) -> dict:
    """How many requests wait for a decision among those the signed-in person may see, and where they are.

    Counted through the queue's own queryset, so the home page, the header's badge and the queue
    agree on who sees what.
    """
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"visible": False}
    return admin.site._registry[ApprovalRequest].waiting(request)
