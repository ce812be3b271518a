"""WSGI entry point for gunicorn: `gunicorn campaign.wsgi` (runserver loads it too).

Each process that loads it holds the SQLite database's "in use" lock for its whole life,
so `manage.py restore` refuses while the app runs (campaign.serving).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

application = get_wsgi_application()

from campaign.serving import hold_database_open  # noqa: E402  (needs the settings above)

hold_database_open()
