"""Pages for travellers: the trip list and chat, a new trip, sign-in (with its second step) and sign-out."""

from django.urls import path

from . import travellers, twofactor, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("trips/new/", views.trip_new, name="trip-new"),
    path("trips/<int:trip_id>/", views.trip_detail, name="trip"),
    path("trips/<int:trip_id>/travellers/", travellers.trip_travellers, name="trip-travellers"),
    path("me/data/", travellers.my_data, name="my-data"),
    path("me/data/export/", travellers.my_data_export, name="my-data-export"),
    path("me/data/erase/", travellers.my_data_erase, name="my-data-erase"),
    path("signin/", views.SignInView.as_view(), name="signin"),
    path("signout/", views.SignOutView.as_view(), name="signout"),
    path("account/two-factor/", twofactor.manage, name="twofactor"),
    path("account/two-factor/setup/", twofactor.setup_confirm, name="twofactor-setup"),
    path("account/two-factor/verify/", twofactor.verify, name="twofactor-verify"),
    path("account/two-factor/recovery-codes/", twofactor.recovery_codes, name="twofactor-recovery-codes"),
    path("account/two-factor/disable/", twofactor.disable, name="twofactor-disable"),
]
