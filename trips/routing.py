"""Websocket routes, mounted by ``tripdesk.asgi`` under its auth and origin checks."""

from django.urls import path

from trips.consumers import TripChatConsumer

websocket_urlpatterns = [
    path("ws/trips/<int:trip_id>/", TripChatConsumer.as_asgi()),
]
