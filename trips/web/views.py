"""The traveller's pages: the trip list with one trip's chat, a new trip, sign-in and sign-out.

Views are adapters: access goes through ``trip_get_for_user`` and the one write (a new
trip) through ``trip_create``. The chat itself arrives over the websocket.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from trips.access import may_write_in, trip_get_for_user
from trips.models import Organisation, Trip
from trips.services.trips import trip_create

from .labels import PHASE_LABELS, phase_label, trip_label, trip_status_titled
from .protocol import MAX_TEXT_CHARS
from .travellers import travellers_context, trip_party_known
from .twofactor import after_password


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "trips/chat.html", {"trips": _own_trips(request), "trip": None})


@login_required
def trip_detail(request: HttpRequest, trip_id: int) -> HttpResponse:
    """One trip's chat; someone else's trip is a 404 (its existence is not disclosed)."""
    try:
        trip = trip_get_for_user(request.user, trip_id)
    except Trip.DoesNotExist:
        raise Http404("No such trip.") from None
    is_owner = may_write_in(request.user, trip)
    methods = _methods(request, is_owner)
    config = {
        "trip_id": trip.pk,
        "ws_path": f"/ws/trips/{trip.pk}/",
        "status": trip_status_titled(trip),
        "can_write": is_owner,
        "phase_labels": PHASE_LABELS,
        # The composer's limit is the websocket's and the API's (longer text is refused, never cut).
        "max_text_chars": MAX_TEXT_CHARS,
        # Deadlines and message times read in the trip's zone, as the chat's own words give them.
        "timezone": ((trip.intent or {}).get("request") or {}).get("timezone") or "UTC",
        "payment_methods": [{"id": method.pk, "brand": method.brand, "last4": method.last4} for method in methods],
        # The chat's travellers card loads and saves the form here (owner only).
        "travellers_url": reverse("web:trip-travellers", args=[trip.pk]) if is_owner else None,
    }
    context = {
        "trips": _own_trips(request),
        "trip": trip,
        "trip_label": trip_label(trip),
        "phase_label": phase_label(trip.phase),
        "is_owner": is_owner,
        "payment_methods": methods,
        "config": config,
        # Who's travelling: a form card once the party is known (trips/_travellers_card.html).
        "travellers": travellers_context(trip, request.user) if is_owner and trip_party_known(trip) else None,
    }
    return render(request, "trips/chat.html", context)


@login_required
@require_POST
def trip_new(request: HttpRequest) -> HttpResponse:
    try:
        trip = trip_create(owner=request.user)
    except Organisation.DoesNotExist:
        messages.error(request, "Your account is not part of an organisation yet, so it cannot book trips.")
        return redirect("web:home")
    return redirect("web:trip", trip_id=trip.pk)


class SignInView(LoginView):
    """The password; then, for staff and anyone who enrolled, the second step (``trips.web.twofactor``)."""

    template_name = "registration/signin.html"
    redirect_authenticated_user = True

    def get_success_url(self) -> str:
        next_url = super().get_success_url()
        return after_password(self.request, self.get_redirect_url()) or next_url


class SignOutView(LogoutView):
    """GET asks (a page that works without JavaScript); POST signs out and says so."""

    http_method_names = ["get", "post", "options"]
    template_name = "registration/signout.html"

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect("web:signin")
        return TemplateResponse(request, self.template_name, self.get_context_data())

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You're signed out.")
        return response


def _methods(request: HttpRequest, is_owner: bool) -> list:
    """The owner's cards (brand and last four digits only); staff watching the trip see none."""
    return list(request.user.payment_methods.all()) if is_owner else []


def _own_trips(request: HttpRequest) -> list[dict]:
    """The sidebar: the traveller's latest trips, newest activity first."""
    trips = Trip.objects.filter(owner=request.user).order_by("-last_activity_at")[:50]
    return [{"pk": trip.pk, "label": trip_label(trip), "phase": phase_label(trip.phase)} for trip in trips]
