"""Pegboard's settings, all read from the environment so one codebase runs embedded or scaled.

Embedded (nothing set): SQLite in the project folder, Celery tasks eager in-process, local-memory
cache. Scaled: DATABASE_URL=postgres://..., REDIS_URL=redis://... (broker and cache).
"""

from __future__ import annotations

import os
import secrets
import tempfile
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)
PRODUCTION = env_bool("PEGBOARD_PRODUCTION", default=False)


def _secret_key() -> str:
    """SECRET_KEY from the environment; in development, one generated once into .secret_key."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    if PRODUCTION:
        raise RuntimeError("SECRET_KEY must be set in production (see docs/guide/operator.md).")
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "django_tables2",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_prometheus",
    "league",
    "tournaments",
    "federation",
    "teamleagues",
]

MIDDLEWARE = [
    # Prometheus's counters (django-prometheus) wrap everything; /metrics is behind a token.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # /healthz and /readyz are answered here, before the HTTPS redirect and the Host check:
    # a probe over plain HTTP from the host gets 200 or 503 (config/health.py).
    "config.health.HealthMiddleware",
    # A score entry that queued past its phone's patience is answered 503 at once (config/shed.py).
    "config.shed.ShedStaleWritesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # An offline entry is sent only by the session of whoever typed it (league/typist.py).
    "league.typist.TypistMiddleware",
    # A signed-in person's pages are Cache-Control: private (the micro-cache's second guard).
    "config.visitor_cache.PrivateForSignedInMiddleware",
    # Gives a browser that just signed in its device cookie (league/lockout.py).
    "league.lockout.DeviceCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The organiser's pages say when beat or the worker has stopped.
                "config.health.sending_stalled",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # A kept connection is checked as each request starts: after PostgreSQL drops its
        # connections (a restart, a failover), a worker opens a new one instead of one 500.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while a captain writes; IMMEDIATE transactions take the write lock
    # at BEGIN, so two writers queue (up to the timeout) instead of failing with "locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not memory) so the concurrency tests' threads share it; one per test process.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"pegboard-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -----------------------------------------------------------------------


def _redis_url_of_this_process(url: str) -> str:
    """Parallel test processes (pytest-xdist sets PYTEST_XDIST_WORKER=gw0, gw1...) each get
    their own Redis database below the one named, since clearing a cache empties the database."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker.startswith("gw"):
        return url
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    db = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(db - 1 - int(worker[2:])) % 16}"))


# A Redis that accepts connections and never answers must cost a captain a fraction of a second,
# not gunicorn's 30 s timeout: every socket to it (cache, broker, result backend) times out.
# Redis on the same network answers in about a millisecond; these leave it a hundred times that.
REDIS_SOCKET_TIMEOUT = float(os.environ.get("REDIS_SOCKET_TIMEOUT", "0.25"))


def redis_cache(url: str) -> dict[str, dict[str, object]]:
    """The CACHES setting for a Redis at ``url`` (also what the fault tests point at a dead or a
    silent Redis, so they test these options)."""
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "pegboard",
            "OPTIONS": {
                "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
                "socket_timeout": REDIS_SOCKET_TIMEOUT,
            },
        }
    }


REDIS_URL = _redis_url_of_this_process(os.environ.get("REDIS_URL", ""))
if REDIS_URL:
    CACHES = redis_cache(REDIS_URL)
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_TASK_ALWAYS_EAGER = True
if os.environ.get("PEGBOARD_CACHE") == "dummy":  # benchmarks: every read misses the cache
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A broker that is down must not hold up a captain's write: publish fails fast and the
# standings are recomputed on read instead (standings_for_season, league/selectors/standings.py).
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 0,
    "socket_connect_timeout": 1,
    "socket_timeout": 1,
}
CELERY_TASK_PUBLISH_RETRY = False
# ... but the worker and beat outlive a broker outage: they wait for Redis to come back, at
# start and whenever the connection drops, however long it takes (docs/runbook.md), and a task
# cut off by the loss is given back to the queue (acks late) rather than half-done and lost.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Log lines carry the time, the level and the logger, as Django's do (LOGGING below).
CELERY_WORKER_LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(processName)s %(message)s"
CELERY_WORKER_TASK_LOG_FORMAT = (
    "%(asctime)s %(levelname)s %(name)s %(processName)s %(task_name)s[%(task_id)s] %(message)s"
)
# No task result is read back today; should a Redis result backend be set, its sockets time out.
CELERY_REDIS_SOCKET_TIMEOUT = 1.0
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1.0
# Seconds a request waits for a task to reach the broker after its commit; past that the send
# goes on in the background and the request answers (a stale season is caught up by beat).
PEGBOARD_ENQUEUE_WAIT = float(os.environ.get("PEGBOARD_ENQUEUE_WAIT", "0.2"))
# Beat and a worker prove they are alive (league/kernel/heartbeat.py): beat sends a heartbeat
# this often, a worker stamps it; either stamp older than PEGBOARD_HEARTBEAT_STALE seconds makes
# /readyz answer 503 and the organiser's pages say that messages are not going out.
PEGBOARD_HEARTBEAT_EVERY = float(os.environ.get("PEGBOARD_HEARTBEAT_EVERY", "60"))
PEGBOARD_HEARTBEAT_STALE = float(
    os.environ.get("PEGBOARD_HEARTBEAT_STALE", str(3 * PEGBOARD_HEARTBEAT_EVERY + 30))
)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "heartbeat": {
        "task": "league.tasks.heartbeat",
        "schedule": PEGBOARD_HEARTBEAT_EVERY,
        # A heartbeat not run within its period is dropped: a worker coming back after an
        # outage does not look alive by running a backlog of old ones.
        "options": {"expires": PEGBOARD_HEARTBEAT_EVERY},
    },
    # Standings marked stale whose recompute never ran (broker down at the time) catch up.
    "recompute-stale-standings": {
        "task": "league.tasks.recompute_stale_standings",
        "schedule": float(os.environ.get("STALE_STANDINGS_EVERY", "60")),
    },
    # Finished games nobody confirmed or disputed within their season's grace period close.
    "close-unconfirmed-results": {
        "task": "league.tasks.close_unconfirmed_results",
        "schedule": float(os.environ.get("CLOSE_RESULTS_EVERY", "600")),
    },
    # Players hear about their nights (league/kernel/notify.py): reminders and a last call to
    # confirm, every quarter hour (each sent once however often this runs), and failed sends.
    "notify-scheduled": {
        "task": "league.tasks.notify_scheduled",
        "schedule": float(os.environ.get("NOTIFY_EVERY", "900")),
    },
    # The outbox's sweep: every message still owed (written while the broker was down, failed
    # with attempts left, or claimed by a sender that died) is sent.
    "notify-retry-failed": {
        "task": "league.tasks.notify_retry_failed",
        "schedule": float(os.environ.get("NOTIFY_RETRY_EVERY", "60")),
    },
}
# Seconds a sender's claim on a message lasts: rows a killed sender left "sending" are sent by
# the next sender after this.
PEGBOARD_NOTIFY_LEASE = int(os.environ.get("PEGBOARD_NOTIFY_LEASE", "300"))
# Pushes have their own queue, so a slow push service never holds up a mail or a sign-in link:
# run a worker with `-Q push` beside the one for `-Q celery`. A worker started without -Q
# consumes both, so nothing is stranded where only one runs.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("push"))
CELERY_TASK_ROUTES = {"league.tasks.notify_push": {"queue": "push"}}
# Web Push: seconds a player's devices get in all for one notification, and how many players'
# pushes go side by side.
PEGBOARD_PUSH_BUDGET = float(os.environ.get("PEGBOARD_PUSH_BUDGET", "3"))
PEGBOARD_PUSH_THREADS = int(os.environ.get("PEGBOARD_PUSH_THREADS", "64"))
# Origins of a test's stand-in push service (http://127.0.0.1:port) the worker may post to.
# Tests and benches set it; it is not read from the environment, so production never has it.
PEGBOARD_PUSH_TEST_ORIGINS: list[str] = []
# Notifications: links in mails are absolute, from this address; the night reminder goes this
# many hours before the night; a finished game unconfirmed this long gets a last reminder.
PEGBOARD_SITE_URL = os.environ.get("PEGBOARD_SITE_URL", "http://127.0.0.1:8000")
PEGBOARD_REMINDER_HOURS = int(os.environ.get("PEGBOARD_REMINDER_HOURS", "48"))
PEGBOARD_CONFIRM_REMINDER_HOURS = int(os.environ.get("PEGBOARD_CONFIRM_REMINDER_HOURS", "24"))
# Ratings (information only): a player or pair is "provisional" until rated on this many games.
PEGBOARD_RATING_PROVISIONAL_GAMES = int(os.environ.get("PEGBOARD_RATING_PROVISIONAL_GAMES", "10"))
# Web Push: the VAPID pair (base64url, as `manage.py vapid_keys` prints them) from the
# environment; without it, the one `seed_demo` wrote to vapid.json beside the database; without
# either, no push is sent (mail still is).
PEGBOARD_VAPID_SUBJECT = os.environ.get("PEGBOARD_VAPID_SUBJECT", "mailto:pegboard@localhost")
PEGBOARD_VAPID_FILE = Path(os.environ.get("PEGBOARD_VAPID_FILE", BASE_DIR / "vapid.json"))
PEGBOARD_VAPID_PUBLIC_KEY = os.environ.get("PEGBOARD_VAPID_PUBLIC_KEY", "")
PEGBOARD_VAPID_PRIVATE_KEY = os.environ.get("PEGBOARD_VAPID_PRIVATE_KEY", "")
# Calendar feeds: a night starts at this time (the venue's time zone) and lasts this long.
PEGBOARD_NIGHT_STARTS = os.environ.get("PEGBOARD_NIGHT_STARTS", "19:00")
PEGBOARD_NIGHT_HOURS = int(os.environ.get("PEGBOARD_NIGHT_HOURS", "3"))

SESSION_ENGINE = "django.contrib.sessions.backends.db"

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Brute force (league/lockout.py and docs/security.md): AXES_FAILURE_LIMIT wrong passwords for
# one user name from one address lock that name at that address for AXES_COOLOFF_MINUTES. Per
# name AND address, so a bar's shared address never locks out every captain; and the right
# password from a device that signed in as that user before is let through even then, so
# someone at the same bar cannot lock a captain out of her own phone.
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_WHITELIST_CALLABLE = "league.lockout.right_password_from_own_device"
PEGBOARD_DEVICE_DAYS = int(os.environ.get("PEGBOARD_DEVICE_DAYS", "180"))
# The client's address: X-Real-IP is believed only from these proxies (addresses or networks);
# nginx sets it and overwrites any a client sent. Default: loopback, and in production the
# private networks docker gives the compose services. Anyone else is counted at their own address.
PEGBOARD_TRUSTED_PROXIES = env_list(
    "PEGBOARD_TRUSTED_PROXIES",
    "127.0.0.1,::1,172.16.0.0/12,10.0.0.0/8,192.168.0.0/16" if PRODUCTION else "127.0.0.1,::1",
)
AXES_CLIENT_IP_CALLABLE = "league.lockout.client_ip"
# The locked log-in page offers "email me a sign-in link" (league/services/signin_links.py): the
# link lasts PEGBOARD_SIGNIN_LINK_MINUTES and works once; at most PEGBOARD_SIGNIN_LINKS_PER_HOUR
# requests an hour per address and per account.
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
PEGBOARD_SIGNIN_LINK_MINUTES = int(os.environ.get("PEGBOARD_SIGNIN_LINK_MINUTES", "15"))
PEGBOARD_SIGNIN_LINKS_PER_HOUR = int(os.environ.get("PEGBOARD_SIGNIN_LINKS_PER_HOUR", "5"))
# API tokens (phone apps) expire this many days after they were issued; a new password revokes
# them, and DELETE /api/auth/token/ signs an app out (league/services/tokens.py).
API_TOKEN_DAYS = int(os.environ.get("API_TOKEN_DAYS", "30"))
# A score entry that waited in nginx's queue longer than this is answered 503 with Retry-After
# (config/shed.py): its phone has given up on it (20 s) and sends it again. 0: never shed.
SHED_QUEUED_SECONDS = float(os.environ.get("SHED_QUEUED_SECONDS", "10"))
SHED_RETRY_AFTER = int(os.environ.get("SHED_RETRY_AFTER", "5"))
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous write answers 401 with WWW-Authenticate.
        "league.api.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bounded in size and depth (league.kernel.parsers), and forms.
    "DEFAULT_PARSER_CLASSES": [
        "league.kernel.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "league.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    # Score entry (POST /api/games/{id}/deals/) per signed-in user; league.kernel.throttles.
    "DEFAULT_THROTTLE_RATES": {"deals": os.environ.get("THROTTLE_DEALS", "120/min")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pegboard API",
    "DESCRIPTION": "Cribbage leagues: schedule, games deal by deal, standings.",
    "VERSION": "1.0.0",
    # Swagger UI served from our own static files: no CDN, so the CSP can stay 'self'.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "league.models.games.GameStatus",
        "DisputeStatusEnum": "league.models.disputes.DisputeStatus",
    },
}

# Disputes one player may raise in an hour, whichever door (API, web form, rejecting a game):
# each one emails both captains, so a flood is stopped in the dispute service (counted in the
# database, so it holds with Redis down too). Judges opening reviews are not counted.
PEGBOARD_DISPUTES_PER_HOUR = int(os.environ.get("DISPUTES_PER_HOUR", "10"))

# The largest season archive import_season reads, in bytes (a season of 500 games is about 2 MB).
PEGBOARD_ARCHIVE_MAX_BYTES = int(
    os.environ.get("PEGBOARD_ARCHIVE_MAX_BYTES", str(20 * 1024 * 1024))
)

# The venue TV shows at most this many tables a screen (by table number): a venue with more has
# several screens, which one TV shows in turn or several TVs show one each (?screen=K).
PEGBOARD_TV_SCREEN_TABLES = int(os.environ.get("PEGBOARD_TV_SCREEN_TABLES", "32"))
# Seconds a TV left on the scoreboard without ?screen= shows each screen before the next.
PEGBOARD_TV_ROTATE_SECONDS = int(os.environ.get("PEGBOARD_TV_ROTATE_SECONDS", "20"))

# --- I18N -----------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static ---------------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Development (make demo, runserver or gunicorn without collectstatic) serves static files
# straight from the apps and static/; production serves the collected, hashed copies.
WHITENOISE_AUTOREFRESH = DEBUG or not PRODUCTION
WHITENOISE_USE_FINDERS = not PRODUCTION
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Email ----------------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
# Seconds a mail server gets to answer: one that never does must not hold the mail worker.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pegboard@localhost")

# --- Logging, errors, metrics ---------------------------------------------------------------
# Every line names its time, level and logger; LOG_FORMAT=json writes one JSON object a line
# (for a log collector). Django's default logging is kept: with ADMINS set and DEBUG off, a
# server error is mailed to them.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "config.logformat.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
# ADMINS="Ann <ann@example.org>, bob@example.org": who is mailed each server error (500).
ADMINS = [
    (name, address) for name, address in getaddresses([os.environ.get("ADMINS", "")]) if address
]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# Prometheus (django-prometheus) at /metrics, only for a request that carries
# "Authorization: Bearer $PEGBOARD_METRICS_TOKEN"; without a token, /metrics does not exist.
# Under several gunicorn workers, set PROMETHEUS_MULTIPROC_DIR (deploy/pegboard-web.service).
PEGBOARD_METRICS_TOKEN = os.environ.get("PEGBOARD_METRICS_TOKEN", "")
# Error reporting to Sentry (or any service speaking its protocol), off unless SENTRY_DSN is set.
# sentry-sdk's send_default_pii stays off (its default): no player's name, address or cookie.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )

# --- Production hardening ---------------------------------------------------------------------
if PRODUCTION:
    # Never debug in production, whatever DEBUG says: error pages show no traceback or settings.
    DEBUG = False
    DEBUG_PROPAGATE_EXCEPTIONS = False
    WHITENOISE_AUTOREFRESH = False
    # nginx terminates TLS and sets X-Forwarded-Proto; nothing else can reach gunicorn.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_REFERRER_POLICY = "same-origin"
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    # Content-Security-Policy (config/csp.py): only our own scripts, styles and frames.
    CSP = {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "style-src": ["'self'"],
        "script-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
    MIDDLEWARE = [*MIDDLEWARE, "config.csp.ContentSecurityPolicyMiddleware"]
