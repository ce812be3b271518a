"""Test overrides: a fast password hasher, in-memory SQLite unless DATABASE_URL is set."""

import os
import tempfile

from campaign.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if not os.environ.get("DATABASE_URL"):
    # In memory, with the same transaction options as the SQLite file of `make run`.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": ":memory:",
            "OPTIONS": SQLITE_OPTIONS,  # noqa: F405
        }
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

MEDIA_ROOT = tempfile.mkdtemp(prefix="crusade-test-media-")
# Pictures stay on disk in tests, whatever bucket the shell happens to name
# (tests/deploy/ runs the app with a bucket, in its own servers).
STORAGES["default"] = {"BACKEND": "django.core.files.storage.FileSystemStorage"}  # noqa: F405
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# Tests never run collectstatic: let WhiteNoise find files as in development instead of
# warning that STATIC_ROOT does not exist.
WHITENOISE_AUTOREFRESH = True
# Tasks run at once, in the request, so a test sees its email in mail.outbox once the
# transaction commits; tests/views/test_email_worker.py uses the database backend and the
# real worker instead.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
