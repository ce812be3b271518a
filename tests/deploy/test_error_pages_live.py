"""The 500 page as production serves it: gunicorn, DEBUG=0, static files from
WhiteNoise's manifest, and a database that can't be opened."""

from __future__ import annotations

import re
from http.client import HTTPConnection
from pathlib import Path

from tests.concurrency.live import Server, production_env, running


def test_it_serves_the_apps_500_page_with_its_stylesheet_while_the_database_is_down(
    static_root: Path, workdir: Path
):
    nowhere = workdir / "no-such-folder" / "db.sqlite3"  # SQLite can't open it
    env = production_env(f"sqlite:///{nowhere}", static_root=static_root, media_root=workdir)
    server = Server(env=env, log_path=workdir / "gunicorn.log", workers=1, threads=2)
    with running(server):
        connection = HTTPConnection("127.0.0.1", server.port, timeout=30)
        # A session cookie makes the page ask the database for the session.
        connection.request("GET", "/dashboard/", headers={"Cookie": f"sessionid={'z' * 32}"})
        response = connection.getresponse()
        page = response.read().decode()
        stylesheet = re.search(r'href="(/static/css/app\.[0-9a-f]+\.css)"', page)
        assert stylesheet, page  # the manifest's name, found without a request
        connection.request("GET", stylesheet[1])
        css = connection.getresponse()
        css.read()

    assert response.status == 500
    assert "Something went wrong on our side" in page
    assert 'href="/dashboard/"' in page
    assert css.status == 200
