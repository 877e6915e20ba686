"""ASGI entry point: HTTP through Django, websockets through Channels.

Django must be set up (``get_asgi_application()``) before anything imports models, so the
websocket routes are imported after it. Once the application is built, the process settles
(``tripdesk.settle``): when Celery is eager (the embedded default) its turns run in this process,
so the core's place tables are built first; then what it keeps is frozen out of the garbage
collector's full collections.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from tripdesk.settle import process_settled  # noqa: E402
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

process_settled(runs_turns=settings.CELERY_TASK_ALWAYS_EAGER)
