"""Settings for the Crusade tracker, read from the environment.

Local use needs nothing set: DEBUG is on and the database is a SQLite file in
the project. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and
DATABASE_URL (PostgreSQL); the secure defaults below then apply. Several app
servers also share one bucket for pictures (AWS_STORAGE_BUCKET_NAME, ...).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-local-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "campaign.admin_site.CrusadeAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "campaign",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the CSRF check: a list pasted over the upload limit is answered on its form.
    "campaign.middleware.OversizedPostMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, the signed-in user read with a query compiled once (campaign.sessions).
    "campaign.sessions.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "campaign.middleware.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A form sent twice (a double-click, a retry, htmx queueing) applies once (campaign.once).
    "campaign.middleware.FormOnceMiddleware",
    # Last, as its documentation asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords from one
# client address, logins from that address wait LOGIN_COOLOFF_MINUTES. The attempts are
# kept in the database, so several app servers count them together.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# Locked per client address only. Locking a username too would let anyone lock a player
# out from anywhere (five wrong passwords for their name); locking username *and* address
# together would let one address guess across many usernames. By address alone, the
# attacker's address is stopped whatever usernames it tries, and the player logs in from
# their own. (Guessing one password from many addresses is what the limit can't stop.)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
# The address is the client's, read behind a proxy from X-Forwarded-For as far as our own
# proxies wrote it (campaign/client_address.py), never from what the client claims.
AXES_CLIENT_IP_CALLABLE = "campaign.client_address.client_address"
# A right password does not clear the count: else a guesser would log into an account of
# their own between guesses and never be stopped. The count lapses LOGIN_COOLOFF_MINUTES
# after the last failure.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

ROOT_URLCONF = "campaign.urls"

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

WSGI_APPLICATION = "campaign.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}

# SQLite shared by several threads or processes (runserver, gunicorn) without errors:
# - IMMEDIATE: each transaction takes the write lock when it begins. A deferred one reads
#   first and then fails "database is locked" when it wants to write after another writer
#   (busy_timeout cannot help there). The lock also stands in for select_for_update,
#   which SQLite ignores, so the services' read-check-write stays serialised.
# - timeout: how long a connection waits for that lock before giving up, in seconds.
# - WAL: readers and the writer no longer block each other; synchronous=NORMAL is the
#   safe, faster setting in WAL mode (a power cut may lose the last commits, never corrupt).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}

# PostgreSQL: a page's rows are in memory, where reading a row by an index costs about what
# reading the next row of a table does; left at its default (4, for spinning disks), the
# planner read every honour of the league to find a force's fifty cards' (2.4 ms, where by
# the cards' index it takes 0.4). 1.1 is the usual value for SSDs.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["OPTIONS"] = {
        "options": "-c random_page_cost=" + os.environ.get("DATABASE_RANDOM_PAGE_COST", "1.1"),
        **DATABASES["default"].get("OPTIONS", {}),
    }

# PostgreSQL: parameters bound by the server, so psycopg prepares a query once a connection
# has run it five times and PostgreSQL plans it once per connection, not on every page
# (planning the joins of a page's queries can cost more than running them). Turn it off
# (DATABASE_SERVER_SIDE_BINDING=0) behind a pooler in transaction mode, which cannot keep
# a connection's prepared statements.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_SERVER_SIDE_BINDING", True
):
    options = DATABASES["default"]["OPTIONS"]
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": 5,
        **options,  # what DATABASE_URL says wins, as before
        # A prepared query is planned once, for any values: left to choose, PostgreSQL
        # planned most of the pages' queries again on every run (planning a dashboard's
        # version query took longer than running it). Their values are keys and states,
        # for which one plan serves all.
        "options": options["options"]
        + " -c plan_cache_mode="
        + os.environ.get("DATABASE_PLAN_CACHE_MODE", "force_generic_plan"),
    }

DATABASE_PREPARED_MAX = int(os.environ.get("DATABASE_PREPARED_MAX", "1000"))
"""PostgreSQL: how many prepared statements a connection keeps (`campaign.connections`)."""

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Nothing is kept in one process's memory, so several app processes (or machines) behind
# one load balancer behave as one: sessions live in the database, messages in a cookie
# (or the session). Django's cache (each process's own memory) holds only pictures of
# Crusade cards, each under a hash of what it shows, and the long tables of the Order of
# Battle and campaign pages, each under a version of what it shows, read from the database
# (`selectors.versions`): a process never serves one stale, it only builds each version
# once itself. About 0.1 to 0.3 MB a card, 200 at most; tables are smaller. Every key
# also names the database's generation, which `manage.py restore` moves on, because a
# restore takes revisions back to numbers that named other states (campaign.serving).
SESSION_ENGINE = "campaign.sessions"
MESSAGE_STORAGE = "django.contrib.messages.storage.fallback.FallbackStorage"
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "crusade",
        "OPTIONS": {"MAX_ENTRIES": 200},
        "KEY_FUNCTION": "campaign.serving.cache_key",
    },
    "template_fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "crusade-fragments",
        "OPTIONS": {"MAX_ENTRIES": 1000},
        "KEY_FUNCTION": "campaign.serving.cache_key",
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "home"

# Any signed-in player may start a campaign (/campaigns/new/) and so become its organiser,
# with the admin open to them for that campaign. Off: only staff start campaigns, in the
# admin, and a superuser makes organisers.
CRUSADE_SELF_SERVICE_CAMPAIGNS = env_bool("CRUSADE_SELF_SERVICE_CAMPAIGNS", True)

# A battle's page, while it is played, and a player's dashboard ask the server every
# CRUSADE_LIVE_SECONDS whether anything changed (one query, a 304 while nothing did), so
# players at one table each see the others' answers and records without reloading.
CRUSADE_LIVE_SECONDS = float(os.environ.get("CRUSADE_LIVE_SECONDS", "3"))

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Uploaded pictures: on this machine's disk (MEDIA_ROOT) by default, or in S3-compatible
# object storage (AWS S3, MinIO, Garage, ...) that several app servers share. The S3
# credentials are never settings: boto3 reads AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY
# from the environment, or the machine's role.
MEDIA_STORAGE = os.environ.get("MEDIA_STORAGE", "").strip().lower() or (
    "s3" if os.environ.get("AWS_STORAGE_BUCKET_NAME") else "local"
)
if MEDIA_STORAGE == "local":
    MEDIA_BACKEND = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
elif MEDIA_STORAGE == "s3":
    if not os.environ.get("AWS_STORAGE_BUCKET_NAME"):
        raise ImproperlyConfigured("MEDIA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME.")
    MEDIA_BACKEND = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["AWS_STORAGE_BUCKET_NAME"],
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "addressing_style": os.environ.get("AWS_S3_ADDRESSING_STYLE") or None,
            "location": os.environ.get("AWS_LOCATION", ""),
            "custom_domain": os.environ.get("AWS_S3_CUSTOM_DOMAIN") or None,
            # A private bucket by default: picture URLs are signed and expire.
            "querystring_auth": env_bool("AWS_QUERYSTRING_AUTH", True),
            "querystring_expire": int(os.environ.get("AWS_QUERYSTRING_EXPIRE", "3600")),
            "default_acl": None,
            "file_overwrite": False,
        },
    }
else:
    raise ImproperlyConfigured(f"MEDIA_STORAGE is {MEDIA_STORAGE!r}: use 'local' or 's3'.")

STORAGES = {
    "default": MEDIA_BACKEND,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "campaign.static_files.StaticFiles"
        )
    },
}

# Uploads: pictures are at most 10 MB; anything larger is refused by the form.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Production hardening: on whenever DEBUG is off, each can be turned off behind a
# proxy that terminates TLS differently.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Preloading is a hard-to-undo commitment for the whole domain, so it stays opt-in and
# `check --deploy` does not nag about it (security.W021). An index's covering columns
# (INCLUDE: a card's last battles, migration 0031) are PostgreSQL's; SQLite builds the
# same index on its key columns alone, which is what it should do (models.W040).
SILENCED_SYSTEM_CHECKS = ["security.W021", "models.W040"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind reverse proxies of our own (BEHIND_PROXY): trust their X-Forwarded-Proto, and
# read the client's address from X-Forwarded-For, the entry the outermost of the
# TRUSTED_PROXY_COUNT proxies appended (default 1; campaign/client_address.py). Unset,
# TRUSTED_PROXY_COUNT is None, so `check --deploy` can tell it was given without a proxy.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
try:
    TRUSTED_PROXY_COUNT = (
        int(os.environ["TRUSTED_PROXY_COUNT"]) if os.environ.get("TRUSTED_PROXY_COUNT") else None
    )
except ValueError:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be a whole number, e.g. 1.") from None
if TRUSTED_PROXY_COUNT is not None and TRUSTED_PROXY_COUNT < 1:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT counts proxies: 1 or more.")
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (campaign.middleware): scripts and styles only from this site
# (htmx is vendored; no inline script), pictures from here or the media store.
MEDIA_ORIGIN = os.environ.get("MEDIA_ORIGIN", "")
"""Where uploaded pictures are served from when that is another origin (an S3 bucket or
CDN), e.g. https://pictures.example.org; derived from the S3 settings when unset."""
if not MEDIA_ORIGIN and MEDIA_STORAGE == "s3":
    _domain = os.environ.get("AWS_S3_CUSTOM_DOMAIN")
    MEDIA_ORIGIN = f"https://{_domain}" if _domain else "https:"
    if os.environ.get("AWS_S3_ENDPOINT_URL") and not _domain:
        MEDIA_ORIGIN = os.environ["AWS_S3_ENDPOINT_URL"].rstrip("/")
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # Progress bars set their width in a style attribute; no style elements inline.
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        f"img-src 'self' data: {MEDIA_ORIGIN}".strip(),
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# Email: from the environment. With EMAIL_HOST set, mail goes out by SMTP (password
# resets; battle invitations, a turn to record, a dispute); in local development (DEBUG)
# it is printed on the console; otherwise there is none, and pages that would send mail
# say so instead of claiming a message was sent.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Crusade Tracker <crusade@localhost>")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
EMAIL_ENABLED = bool(EMAIL_HOST) or DEBUG
"""Whether the app sends mail at all (and may tell a player that an email is on its way)."""

# Background tasks (django-tasks): email to players is queued in the database and sent by
# `manage.py db_worker`, which runs beside the app servers; no request waits on a mail
# server. Email queued while no worker runs waits in the database until one does.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

# Announcements to a campaign's group chat (campaign.webhooks), sent by the same worker.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
"""The site's address, e.g. https://crusade.example.org, that messages link back to (the
worker has no request). Unset: each webhook links to the address the admin was used at
when it was saved."""
WEBHOOK_ALLOWED_HOSTS = env_list("WEBHOOK_ALLOWED_HOSTS", "")
"""Hosts a webhook may post to even inside a private network, plain http and any port
included: a self-hoster's own chat server (or the tests' local one). Empty by default."""
WEBHOOK_ALLOWED_PORTS = [int(p) for p in env_list("WEBHOOK_ALLOWED_PORTS", "")]
"""Ports besides 443 a webhook's https address may use."""
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "10"))
"""Seconds to connect and to wait for the answer, each."""
WEBHOOK_MOST_TRIES = int(os.environ.get("WEBHOOK_MOST_TRIES", "5"))
"""Tries of one message before it is given up."""
WEBHOOK_RETRY_SECONDS = float(os.environ.get("WEBHOOK_RETRY_SECONDS", "30"))
"""The wait before the second try, doubled before each next one (30 s, 1, 2, 4 min)."""
WEBHOOK_PAUSE_AFTER = int(os.environ.get("WEBHOOK_PAUSE_AFTER", "3"))
"""Messages given up in a row that pause a webhook until an organiser resumes it."""

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
