"""Settings for the marram service, read from the environment.

With no environment at all this is a development setup that needs nothing
installed: SQLite in ``db.sqlite3``, Celery tasks run eagerly in-process, mail
printed to the console. ``DJANGO_ENV=production`` (or the settings module
``marram_site.settings_production``) turns on the hardening that
``manage.py check --deploy`` asks for and makes the secrets mandatory.

Environment variables:

- ``DJANGO_ENV``: ``production`` or anything else (development).
- ``DJANGO_DEBUG``: defaults to on in development, off in production.
- ``DJANGO_SECRET_KEY``: required unless DEBUG is on.
- ``DJANGO_ALLOWED_HOSTS``, ``DJANGO_CSRF_TRUSTED_ORIGINS``: comma-separated.
- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/marram``, or with a
  standby ``postgres://user:pass@db,standby:6432/marram?target_session_attrs=read-write&connect_timeout=2&tcp_user_timeout=3000``
  (libpq's parameters; whichever host takes writes, docs/operations.md);
  ``DATABASE_CONN_MAX_AGE`` in seconds (a Celery worker keeps its connection
  from task to task by the same rule); ``DATABASE_CONN_HEALTH_CHECKS`` (off by
  default) checks a kept connection with a ``SELECT 1`` before each request reuses
  it. Off, a request arriving just after the database restarted fails once on its
  worker (the broken connection is then dropped); on, every request pays a round
  trip for that.
- ``REDIS_URL``: Celery's broker; without it tasks run eagerly.
  ``CELERY_TASK_ALWAYS_EAGER`` overrides that choice either way.
- ``MARRAM_TASK_VISIBILITY_TIMEOUT``: seconds after which a task a lost worker
  took is handed to another (300); ``MARRAM_BEAT_LOCK_SECONDS``: how long beat's
  lock outlives a lost holder (30): see marram_site.beat.
- ``MARRAM_DATABASE_OUT_SECONDS``: how long a web process, once a request found
  the database out, refuses at once (503) the requests that need it before one
  of them tries it again (1): see web.database_out.
- ``MARRAM_BACKGROUND_TASKS``: where tasks run eagerly, run the slow ones (a
  computer player's move) on a thread of the web process once the answer to the
  request that enqueued them is sent, as a worker would, instead of inside that
  request (games.background). On by default without ``REDIS_URL`` (``./dev
  run``); off with it, and in the tests, which count on an eager task having run
  when its commit returns.
- ``CACHE_URL``: a Redis database for the cache (the throttles' counts), e.g.
  ``redis://redis:6379/1``; without it each process counts on its own. While that
  Redis cannot be reached, nothing fails: each process counts in its own memory
  (so the limits hold per process) and tries Redis again every few seconds.
- ``MARRAM_STREAM``: open game pages follow moves through the stream server
  (marram_site/stream.py) instead of polling; needs ``REDIS_URL``. Its limits:
  ``MARRAM_STREAM_MAX_CONNECTIONS``, ``MARRAM_STREAM_HEARTBEAT``,
  ``MARRAM_STREAM_WAIT``, and how long a stream's token is good,
  ``MARRAM_STREAM_TOKEN_AGE`` (below).
- ``MARRAM_TRUSTED_PROXIES``: comma-separated addresses or networks of the proxies
  in front of the server (e.g. ``172.16.0.0/12`` for a compose network, or
  ``10.0.0.5``); empty by default. Only a connection from one of them may say
  through X-Forwarded-For whom it forwards; every other client is its connection's
  own address. The throttles count per client address (``web.addresses``).
- ``MARRAM_PASSWORD_HASHING_SLOTS`` (1), ``MARRAM_PASSWORD_HASHING_WAIT`` (0
  seconds): how many password hashes a process computes at once, and how long a
  request waits for its turn before a 503 with Retry-After (``accounts.passwords``).
  A waiting request holds a thread as surely as a hashing one: under guessing from
  many addresses, waiting a second kept the ping of benchmarks/signin_bench.py at
  seconds, not waiting at milliseconds.
- ``EMAIL_BACKEND``, ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``,
  ``DEFAULT_FROM_EMAIL``, ``SERVER_EMAIL``, ``EMAIL_TIMEOUT``: outgoing mail;
  with no ``EMAIL_HOST`` mail goes to the console (or, with the filebased
  backend, to files in ``EMAIL_FILE_PATH``, by default tests/artifacts/mail/);
  outside production, through ``notifications.devmail``, which also keeps the
  mail the outbox does not hold in ``MARRAM_DEV_MAIL_DIR`` (``dev-mail/``) for
  the mail page.
- ``MARRAM_SITE_NAME``: the site's own name, which every page's title, the
  header and the mail go by (``marram``, the software's name, by default); each
  game keeps its own title.
- ``MARRAM_BASE_URL``: the site's address in every link that leaves it (all
  mail, invitation links), whatever host a request came in by; ``./dev run
  ADDR`` sets it from the address it serves (``http://127.0.0.1:8000`` by
  default). Set it in production.
- ``REPLY_DOMAIN``: the mail domain of the signed reply addresses
  (``move+...@REPLY_DOMAIN``); its MX must reach ``manage.py mail_listener`` or a
  hosted provider that posts to ``/mail/inbound/``.
- ``MARRAM_RETURN_PATH``: each mail is sent with its own return path
  (``bounce+...@REPLY_DOMAIN`` as the envelope's sender, VERP), so that the
  listener reads its bounces and stops mailing an address that keeps bouncing
  (on by default; ``0`` sends with ``DEFAULT_FROM_EMAIL`` as the envelope's
  sender, for a relay that will take no other).
- ``MARRAM_MAIL_INBOX_PAGE``: the page /mail/ where a player reads and answers
  the mail sent to them (development only: always off in production); where the
  mail backend is the development one it also shows, without sign-in, the mail to
  an address (``/mail/?to=``: the password reset, invitations).
- ``MAIL_WEBHOOK_SECRET``: the shared secret a hosted mail provider sends in the
  ``X-Marram-Webhook-Secret`` header to ``/mail/inbound/``, or as the password of
  HTTP Basic auth (user ``marram``) to its own form's ``/mail/inbound/<provider>/``;
  the webhooks are off without it.
- ``MAILGUN_WEBHOOK_SIGNING_KEY``, ``POSTAL_WEBHOOK_KEY``: the keys those
  providers sign their inbound posts with (``/mail/inbound/mailgun/`` and
  ``/mail/inbound/postal/`` are off without them).
- ``MARRAM_WEBHOOK_ALLOWED_NETWORKS``: comma-separated networks (CIDR) or
  addresses that players' webhooks may call although they are not public (e.g.
  ``10.20.0.0/16`` for a chat server on the operator's own network); empty by
  default. Without it a webhook whose host resolves to a loopback, private,
  link-local, multicast, reserved or unspecified address, or to one of the
  server's own, is refused (``notifications.webhook_http``).
- ``MARRAM_VAPID_PRIVATE_KEY`` (or ``MARRAM_VAPID_KEY_FILE``) and
  ``MARRAM_VAPID_SUBJECT``: the site's key for Web Push (``manage.py vapid_keys``
  makes one) and the address push services may write to; push is off without a
  key (``notifications.push``). Pushes go to the browsers' push services through
  the same guard as webhooks, so ``MARRAM_WEBHOOK_ALLOWED_NETWORKS`` applies.
- ``MARRAM_MAX_BODY_KIB``: the largest request body taken, in KiB (256); a larger
  one is a JSON 413 ``too_large``. nginx's ``client_max_body_size`` is filled in
  from the same variable, so the limit is one: nginx refuses a larger body itself
  and never passes one on.
- ``MARRAM_MAX_OPEN_GAMES``: how many games one player may have started that still
  wait for players (20).
- ``MARRAM_TOURNAMENTS_PER_DAY``: how many tournaments one player may create in a
  day (3); ``MARRAM_TOURNAMENT_MAX_PLAYERS``: the most entrants a tournament may
  take (256).
- ``MARRAM_DRAW_INLINE``: draw the chance a change leaves a game waiting for
  (the rules' own draw) in that change's own write instead of in a Celery task
  right after it (off by default).
- ``MARRAM_SNAPSHOT_EVERY``: store a game's state once every this many events,
  so that a game no worker holds is read from its newest snapshot (50; 0 stores
  none). See games.snapshots.
- ``DJANGO_SECURE_SSL_REDIRECT``, ``DJANGO_SECURE_HSTS_SECONDS``: production
  HTTPS behaviour, on by default.
- ``DJANGO_LOG_LEVEL``: level of the console log, ``INFO`` by default.
"""

import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from marram_site.cache import redis_cache

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = env_str(name)
    if not raw:
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no")


def env_int(name: str, default: int) -> int:
    raw = env_str(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def env_float(name: str, default: float) -> float:
    raw = env_str(name)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = env_str(name)
    if not raw:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    """A comma-separated list of addresses or networks, each checked."""
    found = env_list(name, [])
    for network in found:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {network!r} is not an address or a network") from None
    return found


def env_required(name: str) -> str:
    value = env_str(name)
    if not value:
        raise ImproperlyConfigured(f"{name} must be set when DJANGO_ENV=production")
    return value


# --- Mode ---------------------------------------------------------------------

PRODUCTION = env_str("DJANGO_ENV").lower() == "production"
DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG must be off when DJANGO_ENV=production")

if PRODUCTION or not DEBUG:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY")
    if not SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DEBUG is off")
else:
    SECRET_KEY = env_str(
        "DJANGO_SECRET_KEY", "django-insecure-marram-development-only-never-use-this-key"
    )

if PRODUCTION:
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_ENV=production")
else:
    # `./dev run` listens on 0.0.0.0, so any name that reaches it is fine.
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# --- Applications -------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served as static files
    # The project's apps, from the bottom up: each imports only those above it
    # in this list (tests/service/test_app_boundaries.py).
    "live",  # the state cache, JSON Patch changes, the live stream
    "web",  # HTTP plumbing every app shares; registers the <id:...> converter
    "accounts",  # sign-up, sign-in and its limits, passwords, sessions, throttles
    "games",  # games and their events, the API and the pages
    "notifications",  # mail, webhooks and push through one outbox
    "notes",  # a player's private note on a game
    "ratings",  # ratings, leaderboards, rematches
    "chat",  # a game's chat
    "bots",  # computer players
    "tournaments",  # round robins, Swiss tournaments and knockouts
    "reviews",  # the review of a finished game by the strong computer player
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "marram_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # the database found out a moment ago: refused at once, not tried again by
    # every request (web.database_out, MARRAM_DATABASE_OUT_SECONDS)
    "web.database_out.DatabaseOutMiddleware",
    # JSON answers gzipped for clients that accept it (never HTML: BREACH)
    "marram_site.compression.JSONCompressionMiddleware",
    # an ETag on every GET answer that has none, and 304 when If-None-Match names it
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.signin.SigninMiddleware",
    # Django's, the store of notices made only for a request that uses it
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "marram_site.urls"
WSGI_APPLICATION = "marram_site.wsgi.application"
ASGI_APPLICATION = "marram_site.asgi.application"

# Each app keeps its own templates in <app>/templates/<app>/.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # each game's UI folder (ui/<key>/templates): its board and move UI
        "DIRS": sorted(BASE_DIR.glob("ui/*/templates")),
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

# --- Database -----------------------------------------------------------------

if PRODUCTION:
    env_required("DATABASE_URL")
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60 if PRODUCTION else 0),
        conn_health_checks=env_bool("DATABASE_CONN_HEALTH_CHECKS", False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, so that psycopg prepares a statement the
    # fifth time a connection runs it and the database stops planning it again:
    # the statements of every move (games.store) run on each request.
    # (Behind a pooler in transaction mode, set DATABASE_PREPARE_THRESHOLD=0. A
    # rollback makes psycopg drop a connection's prepared statements.)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=env_int("DATABASE_PREPARE_THRESHOLD", 5) or None,
    )
# Once a request has found the database out, the web process refuses the requests
# that need it at once for this long, then lets one try it (web.database_out).
# Short beside the 503's Retry-After (5 s): a database back is seen within a
# second and one connection attempt.
MARRAM_DATABASE_OUT_SECONDS = env_float("MARRAM_DATABASE_OUT_SECONDS", 1.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth ---------------------------------------------------------------------

# Failed password checks are limited per account and per address, and hashing is
# bounded per process: see accounts.signin and accounts.passwords.
AUTHENTICATION_BACKENDS = ["accounts.signin.ThrottledModelBackend"]
PASSWORD_HASHERS = [
    "accounts.passwords.PBKDF2PasswordHasher",
    "accounts.passwords.PBKDF2SHA1PasswordHasher",
    "accounts.passwords.Argon2PasswordHasher",
    "accounts.passwords.BCryptSHA256PasswordHasher",
    "accounts.passwords.ScryptPasswordHasher",
]
MARRAM_PASSWORD_HASHING_SLOTS = env_int("MARRAM_PASSWORD_HASHING_SLOTS", 1)
MARRAM_PASSWORD_HASHING_WAIT = env_float("MARRAM_PASSWORD_HASHING_WAIT", 0.0)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.passwords.MaximumLengthValidator"},
]

# Whose X-Forwarded-For to believe (web.addresses.client_address).
MARRAM_TRUSTED_PROXIES = env_networks("MARRAM_TRUSTED_PROXIES")
# Where players' webhooks may go although it is not the public internet.
MARRAM_WEBHOOK_ALLOWED_NETWORKS = env_networks("MARRAM_WEBHOOK_ALLOWED_NETWORKS")
if env_str("MARRAM_NUM_PROXIES"):
    raise ImproperlyConfigured(
        "MARRAM_NUM_PROXIES is no longer read: set MARRAM_TRUSTED_PROXIES to the addresses "
        "(or networks) of the proxies in front of the server")

# --- Internationalisation -----------------------------------------------------

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Requests and static files ------------------------------------------------

# Moves and mail replies are small; anything bigger is a mistake or an attack.
# The one limit on a request's body: nginx's client_max_body_size is filled in
# from the same variable (deploy/nginx/marram.conf.template, docker-compose.yml).
MARRAM_MAX_BODY_KIB = env_int("MARRAM_MAX_BODY_KIB", 256)
DATA_UPLOAD_MAX_MEMORY_SIZE = MARRAM_MAX_BODY_KIB * 1024

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# each game's UI folder (ui/<key>/static/<key>/...): its page and replay modules
STATICFILES_DIRS = sorted(BASE_DIR.glob("ui/*/static"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest needs `collectstatic`, which only deployments run.
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}
if not PRODUCTION:
    # Serve straight from the apps' static folders, as `collectstatic` never ran.
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True

# --- API ----------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's TokenAuthentication, remembering checked tokens for a few seconds.
        "accounts.auth.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only, refused with a 413 past DATA_UPLOAD_MAX_MEMORY_SIZE.
    "DEFAULT_PARSER_CLASSES": ["web.http.BoundedJSONParser"],
    # DRF's negotiation, deciding the usual Accept header without parsing it
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "web.http.JSONFirstNegotiation",
    "DEFAULT_RENDERER_CLASSES": [
        "web.http.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # Every error is {"code", "message", ...}; see web.http.exception_handler.
    "EXCEPTION_HANDLER": "web.http.exception_handler",
}
# How often (see accounts.throttles): per address for accounts and tokens, per player
# for invitations and new games; failed password checks per address and per
# account (see accounts.signin); None for no limit.
MARRAM_THROTTLE_RATES = {
    "signup": "20/hour", "token": "20/hour", "invite": "30/hour", "game_create": "30/hour",
    "signin_address": "30/15m", "signin_account": "10/15m",
    "password_reset": "10/hour", "password_reset_mail": "3/hour",
}
# How many games one player may have started that still wait for players: the
# lobby lists every open game, so one account must not be able to fill it.
MARRAM_MAX_OPEN_GAMES = env_int("MARRAM_MAX_OPEN_GAMES", 20)
# Tournaments (tournaments.services): how many one player may create in 24 hours,
# and the most entrants one takes; the list shows them all, as the lobby does games.
MARRAM_TOURNAMENTS_PER_DAY = env_int("MARRAM_TOURNAMENTS_PER_DAY", 3)
MARRAM_TOURNAMENT_MAX_PLAYERS = env_int("MARRAM_TOURNAMENT_MAX_PLAYERS", 256)
# Replies by mail whose first line starts with one of these words are handed to
# that function (game_id, user, line) instead of being read as a move.
MARRAM_MAIL_COMMANDS = {"say": "chat.services.chat_post_by_mail"}
# The site's own name, which its pages and mail go by (the games it serves have
# their own titles): the software's name by default.
MARRAM_SITE_NAME = env_str("MARRAM_SITE_NAME", "marram")
# Games a page of the lobby, my games and finished games (the API gives 50 a page).
MARRAM_LIST_PAGE_SIZE = 25

SPECTACULAR_SETTINGS = {
    "TITLE": f"{MARRAM_SITE_NAME} API",
    "DESCRIPTION": "Board games by correspondence: games, moves and their history.",
    # then each game's actions, with examples from its legal actions
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "games.schema.describe_games"],
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # from this site, not a CDN: the Content-Security-Policy allows no other origin
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "/favicon.ico",
    "REDOC_DIST": "SIDECAR",
    # no badge from validator.swagger.io: the page loads nothing from elsewhere
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # the computer players' levels, one name wherever they are a choice
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "engine.bots.LEVELS",
                            "GameStatusEnum": "games.models.Game.Status",
                            "TournamentStatusEnum": "tournaments.models.Tournament.Status",
                            "ReviewStatusEnum": "reviews.models.Review.Status"},
}

# --- Content-Security-Policy (marram_site/csp.py) -------------------------------

# Only the site's own files, no inline script or style, no plugins, no framing.
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

# Sessions in the database, Django's; a cookie of another shape is no session
# and costs no query (accounts.sessions).
SESSION_ENGINE = "accounts.sessions"

# --- Cache --------------------------------------------------------------------

# The throttles' counts. Shared by every process with CACHE_URL (a Redis database
# of its own, apart from Celery's queue); in-process memory otherwise. With Redis
# down the requests that count go on, counted in each process's memory meanwhile
# (marram_site.cache).
CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": redis_cache(CACHE_URL)
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

# --- Celery -------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL")
# Eager tasks still take a producer from the broker's pool; naming the in-memory
# broker's host keeps kombu from warning that none was given on every move.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
# An eager task that fails should fail the request or test that ran it.
CELERY_TASK_EAGER_PROPAGATES = True
# Eager tasks that think for seconds (a computer's move) run after the answer, on
# a thread of the web process (games.background), where there is no broker.
MARRAM_BACKGROUND_TASKS = env_bool("MARRAM_BACKGROUND_TASKS", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task is acknowledged when it has run, not when it arrives: a worker that dies
# mid-task leaves it to be delivered again (the tasks are idempotent). A request
# that enqueues with Redis down must not hang: connect briefly, once; the beat
# sweep picks up whatever was not enqueued.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A worker keeps its database connection from task to task as a web thread does
# from request to request: Django's CONN_MAX_AGE and health checks decide, through
# close_old_connections around each task (marram_site.celery). Celery's Django
# fixup would otherwise close it before and after every task, so that each task
# opened a connection and PostgreSQL started a backend for it; its own count of
# tasks between closes is set out of reach.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1_000_000)
# A worker that lost Redis keeps trying to reconnect, however long it is down.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task taken by a worker that then died (its machine lost) is unacknowledged in
# Redis; after MARRAM_TASK_VISIBILITY_TIMEOUT seconds (300) a live worker's scan
# (every fifth of that, 10 s at most) hands it out again. Longer than any task runs
# (a webhook call's 10 s, a computer's move), or a running task is handed out twice,
# which the tasks bear (each locks what it works on) but need not pay for. Kombu's
# default is an hour, with a scan every 100 s.
MARRAM_TASK_VISIBILITY_TIMEOUT = env_int("MARRAM_TASK_VISIBILITY_TIMEOUT", 300)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": MARRAM_TASK_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(10, MARRAM_TASK_VISIBILITY_TIMEOUT // 5)),
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # How hard a publisher tries to connect; the worker's own reconnecting is
    # governed by CELERY_BROKER_CONNECTION_* and keeps trying.
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Webhook calls on a queue of their own, taken by workers of their own
# (docker-compose.yml's webhooks service: `celery worker -Q webhooks`): a receiver
# that answers slowly holds one of them, never a worker that sends mail. Every
# other task goes to the default queue, "celery" (the worker service: -Q celery).
CELERY_TASK_DEFAULT_QUEUE = "celery"
MARRAM_WEBHOOK_QUEUE = "webhooks"
# Push notifications on a queue of their own too (docker-compose.yml's push
# service): a slow push service holds a push worker, never a mail worker.
MARRAM_PUSH_QUEUE = "push"
CELERY_TASK_ROUTES = {"notifications.tasks.webhook_deliver": {"queue": MARRAM_WEBHOOK_QUEUE},
                      "notifications.tasks.push_deliver": {"queue": MARRAM_PUSH_QUEUE},
                      "notifications.tasks.push_drain": {"queue": MARRAM_PUSH_QUEUE}}
# The computers think: a computer's move for up to seconds, a finished game's
# review (reviews.tasks.review_make) for a minute or two, CPU all the while.
# MARRAM_COMPUTER_QUEUE=computers puts both on a queue of their own, for a worker
# of processes of its own (docker-compose.yml's computers service: `celery worker
# -Q computers`, a process a core), so that they never share a core, or a
# thread's turn at the interpreter, with the default queue's worker: threads of
# one process, whose tasks (a draw, a mail) wait on the database and the mail
# server far more than they compute. MARRAM_REVIEW_QUEUE=reviews puts the
# reviews on a queue of their own again, for a worker of their own (`-Q reviews`).
MARRAM_COMPUTER_QUEUE = env_str("MARRAM_COMPUTER_QUEUE", CELERY_TASK_DEFAULT_QUEUE)
CELERY_TASK_ROUTES["bots.tasks.bot_move"] = {"queue": MARRAM_COMPUTER_QUEUE}
MARRAM_REVIEW_QUEUE = env_str("MARRAM_REVIEW_QUEUE", MARRAM_COMPUTER_QUEUE)
CELERY_TASK_ROUTES["reviews.tasks.review_make"] = {"queue": MARRAM_REVIEW_QUEUE}
# The review's budget: the strong player's playouts a move and the paired samples
# that judge a move against its choice; 0 takes each game's own (its strong
# player's budget, its ReviewSettings.samples). docs/bots.md has the CPU figures.
MARRAM_REVIEW_PLAYOUTS = env_int("MARRAM_REVIEW_PLAYOUTS", 0)
MARRAM_REVIEW_SAMPLES = env_int("MARRAM_REVIEW_SAMPLES", 0)
# The beat schedule is in marram_site/celery.py. Beat may run on every machine:
# the one holding a lock in Redis (marram_site.beat) runs the schedule, the others
# wait to take over, MARRAM_BEAT_LOCK_SECONDS (30) after the holder stops renewing it.
CELERY_BEAT_SCHEDULER = "marram_site.beat:LockedScheduler"
MARRAM_BEAT_LOCK_SECONDS = env_int("MARRAM_BEAT_LOCK_SECONDS", 30)
# Draw chance in the change's own write (no task); see games.services.append.
MARRAM_DRAW_INLINE = env_bool("MARRAM_DRAW_INLINE", default=False)
# Store a game's state every this many events (games.snapshots); 0: never.
MARRAM_SNAPSHOT_EVERY = env_int("MARRAM_SNAPSHOT_EVERY", 50)
# Games whose latest state each process keeps (live.state_cache). An entry is a
# game's state: about 2 KB for Animals on Board, 30-90 KB for Marram and Pond in
# mid-game (measured with tracemalloc), so 512 Marram games are 15-45 MB a
# process. A game not kept is replayed from its newest snapshot on its next read.
MARRAM_STATE_CACHE_SIZE = env_int("MARRAM_STATE_CACHE_SIZE", 512)

# --- Live updates (live.stream, marram_site/stream.py) --------------------------

# Open game pages hear of moves from the stream server (server-sent events)
# instead of polling; needs REDIS_URL and the stream server behind the same
# address, under MARRAM_STREAM_PATH (nginx routes it: deploy/nginx/).
MARRAM_STREAM = env_bool("MARRAM_STREAM", default=False)
MARRAM_STREAM_PATH = env_str("MARRAM_STREAM_PATH", "/stream")
# The stream server's own limits, per process: connections held at once (more
# are refused with a 503 and those pages poll), seconds between two keep-alive
# comments of an event stream, and seconds a long poll waits.
MARRAM_STREAM_MAX_CONNECTIONS = env_int("MARRAM_STREAM_MAX_CONNECTIONS", 5000)
MARRAM_STREAM_HEARTBEAT = env_float("MARRAM_STREAM_HEARTBEAT", 25.0)
MARRAM_STREAM_WAIT = env_float("MARRAM_STREAM_WAIT", 25.0)
# How long a stream's token is good, in seconds (live.stream): the stream server
# refuses an older one and ends a stream whose token has grown older; the page
# (or API client) then asks for a fresh address, which follows the seat's player.
MARRAM_STREAM_TOKEN_AGE = env_int("MARRAM_STREAM_TOKEN_AGE", 3600)
# What a seat's stream is sent when a commit leaves it to move (live.stream): the
# games app's answer to the seat's own GET.
MARRAM_STREAM_SEAT_VIEW = "games.streaming.seat_view"

# --- Mail ---------------------------------------------------------------------

# What the games app calls where a change to a game calls for mail (games.mail):
# the notifications app's outbox.
MARRAM_GAME_MAIL = "notifications.game_mail.OutboxMail"

# What follows a change to a game (games.after_move), in this order, each a class
# made with no arguments: the chance it leaves to draw, the mail it calls for, the
# ratings of a game it ended, the computer players it leaves to move.
MARRAM_AFTER_MOVE = [
    "games.tasks.ChanceDraw",
    "notifications.after_move.TurnMail",
    "ratings.after_move.RatingsUpdate",
    "tournaments.after_move.TournamentResult",
    "bots.after_move.ComputerMoves",
]

# Who besides people may sit in a game's seats (games.seating): the bots app's
# computer players.
MARRAM_SEAT_PLAYERS = "bots.hooks.BotPlayers"

EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend" if PRODUCTION
    # development: the console, and what the outbox does not hold kept for /mail/
    else "notifications.devmail.DevelopmentMailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587 if EMAIL_HOST else 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=bool(EMAIL_HOST))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "marram <marram@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
# ./dev run can keep its mail as files: EMAIL_BACKEND=...filebased.EmailBackend.
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "tests" / "artifacts" / "mail"))

# Links in mail point here (web.links.site_url); replies to a move mail go
# to move+...@REPLY_DOMAIN.
MARRAM_BASE_URL = env_str("MARRAM_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
REPLY_DOMAIN = env_str("REPLY_DOMAIN", "marram.localhost")
MAIL_WEBHOOK_SECRET = env_str("MAIL_WEBHOOK_SECRET")
# Bounces come back to bounce+...@REPLY_DOMAIN (notifications.bounces).
MARRAM_RETURN_PATH = env_bool("MARRAM_RETURN_PATH", default=True)
MAILGUN_WEBHOOK_SIGNING_KEY = env_str("MAILGUN_WEBHOOK_SIGNING_KEY")
POSTAL_WEBHOOK_KEY = env_str("POSTAL_WEBHOOK_KEY")
# A page (/mail/) where each player reads the mail the site sent them and answers
# it, through the same inbound path as SMTP and the webhook: reply-by-mail with
# nothing but ./dev run. Never in production (settings_production forces it off).
MARRAM_MAIL_INBOX_PAGE = env_bool("MARRAM_MAIL_INBOX_PAGE", default=True) and not PRODUCTION
# Where the development mail backend keeps the mail the outbox does not hold (the
# password reset) for that page, which shows it by address (notifications.devmail).
MARRAM_DEV_MAIL_DIR = env_str("MARRAM_DEV_MAIL_DIR", str(BASE_DIR / "dev-mail"))

# --- Push notifications (notifications.push) -----------------------------------

# The site's VAPID key (RFC 8292), which names it to the browsers' push services:
# MARRAM_VAPID_PRIVATE_KEY, as `manage.py vapid_keys` prints it, or a PEM file,
# MARRAM_VAPID_KEY_FILE, made on first use (./dev run's dev-vapid.pem). Neither:
# the site sends no push, and its settings page says so.
MARRAM_VAPID_PRIVATE_KEY = env_str("MARRAM_VAPID_PRIVATE_KEY")
MARRAM_VAPID_KEY_FILE = env_str("MARRAM_VAPID_KEY_FILE")
# Whom a push service writes to about the site's pushes: a mailto: or https: URL
# (by default mailto: DEFAULT_FROM_EMAIL's address).
MARRAM_VAPID_SUBJECT = env_str("MARRAM_VAPID_SUBJECT")

# --- Production hardening -----------------------------------------------------

if PRODUCTION:
    # TLS ends at the proxy in front of the web server, which says so in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# --- Logging ------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    # Replaces Django's own "django" logger, which would print everything twice.
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
