"""WSGI entry point for gunicorn: `gunicorn campaign.wsgi` (runserver loads it too).

Each process that loads it holds the SQLite database's "in use" lock for its whole life,
so `manage.py restore` refuses while the app runs (campaign.serving).

Once loaded, the process's objects (Django, the app, the URLs: about 100,000) are moved
out of the garbage collector's sight (`gc.freeze()`): they live as long as the process,
and every full collection a request's garbage sets off would scan them all again. That
was most of the time of a page that builds many objects: in a process holding 100,000,
the export of a veteran's force took 215 ms, and 63 ms once they were frozen. Python's
documentation advises the same before a server forks its workers.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

application = get_wsgi_application()

from campaign.serving import hold_database_open  # noqa: E402  (needs the settings above)

hold_database_open()
gc.freeze()
