"""TripDesk settings, driven by the environment alone (see ``.env.example``).

Embedded default: SQLite file, in-memory channel layer, Celery tasks run eagerly in-process.
Scale-out: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channel layer + Celery broker).
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# Required only where it matters: a production deployment sets DJANGO_SECRET_KEY and DEBUG stays off.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="tripdesk-insecure-development-key-change-me")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
if env.bool("DJANGO_HTTPS", default=False):  # behind TLS (a proxy that sets X-Forwarded-Proto)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=3600)

INSTALLED_APPS = [
    "daphne",  # first: `runserver` then serves HTTP and websockets through ASGI
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "axes",  # sign-in throttling (AXES_* below)
    "csp",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    # Second factor (OTP_* below): TOTP apps, recovery codes (static tokens) and passkeys.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_otp_webauthn",
    "trips",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.otp_device: the second factor this sign-in proved
    "trips.admin.timezone.StaffTimezoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "trips.web.twofactor.SecondFactorMiddleware",  # no admin, no staff power without it (trips.twofactor)
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out sign-in with 429
]

ROOT_URLCONF = "tripdesk.urls"
WSGI_APPLICATION = "tripdesk.wsgi.application"
ASGI_APPLICATION = "tripdesk.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent readers and one writer without "database is locked" under the embedded default.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    # Django's, with JSON columns written compactly (tripdesk/db/sqlite3/base.py says why).
    DATABASES["default"]["ENGINE"] = "tripdesk.db.sqlite3"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with bulk inserts as multi-row VALUES (tripdesk/db/postgresql/compiler.py says why).
    DATABASES["default"]["ENGINE"] = "tripdesk.db.postgresql"
# Each thread keeps its connection a minute (``?conn_max_age=`` overrides; Django's default, 0,
# closes it after every request and task). On SQLite opening one costs Django more CPU than a
# tool's queries (it registers its SQL functions); on PostgreSQL each new connection starts a
# server process and warms its catalog caches again: a turn opened several (its task, its tools).
DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Passwords are checked by Django's backend; powers come from the role in each organisation
# (trips.access): global groups and per-user permissions grant nothing.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out sign-in before the password is checked
    "trips.access.PasswordBackend",
    "trips.access.OrganisationRoleBackend",
]

# Sign-in throttling (django-axes), for every door that takes a password: the sign-in page,
# the admin's and the API's Basic auth. After AXES_FAILURE_LIMIT failures for one username from
# one address, that pair is locked out for AXES_COOLOFF_TIME hours (429); a success resets it.
AXES_FAILURE_LIMIT = env.int("TRIPDESK_SIGNIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("TRIPDESK_SIGNIN_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False

# Two-factor sign-in (django-otp, django-otp-webauthn; trips.twofactor): required for support
# staff, approvers, organisation admins and superusers, optional for travellers. A TOTP code is
# accepted once, with one 30 s step of clock drift; every device backs off after failures.
OTP_TOTP_ISSUER = env.str("TRIPDESK_OTP_ISSUER", default="TripDesk")
# Passkeys (WebAuthn) need a domain name as the relying party and a secure origin: https, or
# http://localhost in development (not http://127.0.0.1: browsers refuse IP addresses).
OTP_WEBAUTHN_RP_ID = env.str("TRIPDESK_PASSKEY_RP_ID", default="localhost")
OTP_WEBAUTHN_RP_NAME = "TripDesk"
OTP_WEBAUTHN_ALLOWED_ORIGINS = env.list("TRIPDESK_PASSKEY_ORIGINS", default=["http://localhost:8000"])
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = False  # a passkey is the second step after the password

# Content-Security-Policy (django-csp): scripts only from our own static files, never inline
# (the chat and the admin have none); styles may be inline (the admin's JSON blocks use them);
# websockets to our own host. Only the API's Swagger page relaxes it (tripdesk.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = env.list(
    "DJANGO_PASSWORD_HASHERS",
    default=[
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
        "django.contrib.auth.hashers.Argon2PasswordHasher",
        "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
        "django.contrib.auth.hashers.ScryptPasswordHasher",
    ],
)

LOGIN_URL = "/signin/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/signin/"

LANGUAGE_CODE = "en-us"
FORMAT_MODULE_PATH = ["tripdesk.formats"]  # datetimes always carry their zone's name
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [path for path in [BASE_DIR / "static"] if path.exists()]
WHITENOISE_USE_FINDERS = True  # the embedded default serves static files without collectstatic
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- Channels and Celery: Redis when REDIS_URL is set, otherwise everything in-process. ---
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # socket_timeout=None: channels_redis blocks up to 5 s reading a websocket's queue, and redis-py 8's
    # own 5 s read timeout would race it and drop idle connections (close 1011) under load.
    # channels_redis's layer with fewer round trips per message (tripdesk/channel_layer.py says which).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tripdesk.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT = "tripdesk.broker:Transport"  # kombu's, surviving a restart mid-task
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A worker that dies mid-turn leaves its task to be redelivered at once: turns are idempotent,
# and the dead worker's turn lease expires after TURN_LEASE_SECONDS.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A whole worker that dies (no process left to reject the task) leaves it unacknowledged: Redis
# hands it to another worker after the visibility timeout (Celery's default, an hour, is far too
# long). Keep it a few minutes above the longest turn, or a live turn is delivered twice (harmless:
# the copy waits for the lease, then finds the turn done). The beat's turn sweep comes sooner.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("TRIPDESK_BROKER_VISIBILITY_SECONDS", default=300)}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup would close the worker's database connections around every task (a new
# PostgreSQL connection per turn); ``tripdesk.celery`` applies ``CONN_MAX_AGE`` instead.
CELERY_DB_REUSE_MAX = 1_000_000_000
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "hold-deadline-notifications": {
        "task": "trips.tasks.deadlines.hold_deadlines_notify",
        "schedule": env.float("TRIPDESK_DEADLINE_SCAN_SECONDS", default=60.0),
    },
    "stalled-turn-sweep": {
        "task": "trips.tasks.turns.turns_sweep",
        "schedule": env.float("TRIPDESK_TURN_SWEEP_SECONDS", default=60.0),
    },
    "purchase-reconciliation": {
        "task": "trips.tasks.purchases.purchases_reconcile_sweep",
        "schedule": env.float("TRIPDESK_PURCHASE_RECONCILE_SECONDS", default=30.0),
    },
}

# --- Email: notifications to approvers and travellers (trips.notifications). ---
# The embedded default prints emails to the console; a deployment sets EMAIL_URL or the EMAIL_* parts.
EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if env.str("EMAIL_HOST", default="")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(BASE_DIR / "sent-emails"))  # the file backend's folder
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="TripDesk <tripdesk@localhost>")
# Links in emails are absolute: the address people reach TripDesk at.
TRIPDESK_SITE_URL = env.str("TRIPDESK_SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# --- The mission core. ---
TRIPDESK = {
    "RUNNER_LIMITS": {
        "max_tool_calls": env.int("TRIPDESK_MAX_TOOL_CALLS", default=16),
        "max_calls_per_tool": env.int("TRIPDESK_MAX_CALLS_PER_TOOL", default=4),
        "max_wall_seconds": env.float("TRIPDESK_MAX_WALL_SECONDS", default=30.0),
    },
    # Which supplier the tools talk to: "sandbox" (default, offline) or "duffel" (needs DUFFEL_ACCESS_TOKEN;
    # a duffel_test_ token is Duffel's test mode). `manage.py check` names a missing or malformed token.
    "SUPPLIER": env.str("TRIPDESK_SUPPLIER", default="sandbox").strip().lower(),
    "DUFFEL": {
        "ACCESS_TOKEN": env.str("DUFFEL_ACCESS_TOKEN", default=""),
        "BASE_URL": env.str("DUFFEL_BASE_URL", default="https://api.duffel.com"),
        "TIMEOUT_S": env.float("DUFFEL_TIMEOUT_S", default=20.0),
    },
    "SUPPLIER_SEED": env.int("TRIPDESK_SUPPLIER_SEED", default=7),
    # Fault injection per tool, e.g. {"flight_quote_search": {"timeout": 1.0}} (tests and load runs).
    "SUPPLIER_FAULTS": env.json("TRIPDESK_SUPPLIER_FAULTS", default=None),
    # The turn lease: how long one worker may own a trip's turn before another may take over.
    "TURN_LEASE_SECONDS": env.int("TRIPDESK_TURN_LEASE_SECONDS", default=120),
    # A turn queued this long, its trip not leased, lost its task: the beat's sweep sends it again.
    "TURN_SWEEP_AFTER_SECONDS": env.int("TRIPDESK_TURN_SWEEP_AFTER_SECONDS", default=120),
    # The embedded server (runserver, eager Celery) resumes turns left queued: at startup, then
    # every this many seconds for turns queued that long on a trip nobody leases (0: off).
    # Chat websockets one user may hold open at once (counted in Redis across every ASGI process with
    # the Redis channel layer, in the process on the embedded default); more are closed with 4429.
    "WEBSOCKETS_PER_USER": env.int("TRIPDESK_WEBSOCKETS_PER_USER", default=20),
    # With Redis, a connection's place in that count lapses this long after its process stops renewing it.
    "WEBSOCKET_SLOT_TTL_SECONDS": env.float("TRIPDESK_WEBSOCKET_SLOT_TTL_SECONDS", default=60.0),
    "EMBEDDED_TURN_SWEEP_SECONDS": env.float("TRIPDESK_EMBEDDED_TURN_SWEEP_SECONDS", default=3.0),
    # An approval request's email waits this long after its commit, so a request the traveller
    # overtakes at once (holds another option a moment later) emails nobody (0: send at commit).
    "APPROVAL_EMAIL_SETTLE_SECONDS": env.float("TRIPDESK_APPROVAL_EMAIL_SETTLE_SECONDS", default=3.0),
    # A purchase stopped half way (a retryable failure) waits this long for the traveller to submit it
    # again; then the deadline task flags the trip for staff and tells the traveller.
    "HALF_PURCHASE_GRACE_MINUTES": env.int("TRIPDESK_HALF_PURCHASE_GRACE_MINUTES", default=30),
    # A purchase claimed this long ago with no turn left to finish it (its process died) is reconciled
    # with the supplier: resumed or undone (trips.services.purchase_reconcile).
    "PURCHASE_RECONCILE_AFTER_SECONDS": env.int("TRIPDESK_PURCHASE_RECONCILE_AFTER_SECONDS", default=30),
    # The LLM path (handlers.llm.factory): off unless OPENAI_API_KEY or OPENAI_BASE_URL is set;
    # without it the offline extractor does the job.
    "LLM": {
        name: env.str(name, default="")
        for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_FALLBACK_MODELS", "OPENAI_TIMEOUT_S")
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "trips.api.authentication.ThrottledBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON bounded in size and depth like the websocket's frames; forms for the browsable API.
    "DEFAULT_PARSER_CLASSES": [
        "trips.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "trips.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "TripDesk API",
    "DESCRIPTION": "Trips, their chat, audit events, holds and approvals.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact": {"()": "tripdesk.log_filters.RedactingFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact"], "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
}
