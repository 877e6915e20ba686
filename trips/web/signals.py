"""Signing out ends the user's open chats: every websocket of theirs is closed (4401)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from trips.services.chat import user_group


@receiver(user_logged_out, dispatch_uid="trips.close_sockets_on_sign_out")
def close_sockets_on_sign_out(sender, request, user, **kwargs) -> None:
    if user is None:
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user.pk), {"type": "session.ended"})
