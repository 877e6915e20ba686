"""WSGI entry point (HTTP only; websockets need the ASGI application in ``asgi.py``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")

application = get_wsgi_application()
