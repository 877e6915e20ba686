"""Production settings: ``tripdesk.settings`` served over HTTPS only.

``DJANGO_SETTINGS_MODULE=tripdesk.settings_production``. The base settings stay the single
source of everything else (database, Redis, Celery, the mission core); this module adds what
``manage.py check --deploy`` asks of a public deployment and refuses to start without a real
secret key or an explicit host list, so a forgotten variable fails loudly instead of quietly
running on the development defaults.

TLS usually ends at a proxy in front of daphne/uvicorn: it must set ``X-Forwarded-Proto``
(``DJANGO_SECURE_PROXY_SSL_HEADER``, on by default) or the SSL redirect would loop.
"""

from django.core.exceptions import ImproperlyConfigured

from .settings import *  # noqa: F403 - production is the base settings plus the lines below
from .settings import env

DEBUG = False
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("tripdesk-insecure"):
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY to a random value of 50 characters or more.")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set DJANGO_ALLOWED_HOSTS to the host names TripDesk is served on.")

SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
if env.bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=True):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"
