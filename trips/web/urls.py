"""Pages for travellers: the trip list and chat, a new trip, sign-in and sign-out."""

from django.urls import path

from . import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("trips/new/", views.trip_new, name="trip-new"),
    path("trips/<int:trip_id>/", views.trip_detail, name="trip"),
    path("signin/", views.SignInView.as_view(), name="signin"),
    path("signout/", views.SignOutView.as_view(), name="signout"),
]
