"""ASGI entry point: HTTP through Django, websockets through Channels.

Django must be set up (``get_asgi_application()``) before anything imports models, so the
websocket routes are imported after it.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from trips.consumers import NoSuchRoute  # noqa: E402
from trips.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            # Any other path: refused at the handshake (HTTP 403), not a 500 from the router.
            AuthMiddlewareStack(URLRouter([*websocket_urlpatterns, re_path(r"", NoSuchRoute.as_asgi())]))
        ),
    }
)
