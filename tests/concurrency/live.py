"""A real server for the concurrency and deployment tests, and players to drive it.

The server is what a gaming group runs: gunicorn in a subprocess with several workers
and threads, production settings (`campaign.settings`, DEBUG=0), its own database
(a SQLite file, or a PostgreSQL database made for the test), a copy of one migrated
once for the run with `manage.py migrate`. Players are plain HTTP clients (stdlib only),
each with its own cookies: session, CSRF token and messages.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http import cookies
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
# Every user the scenarios create has this password (hashed once, by Django's default hasher).
PASSWORD = "crusade-live-test"
READY_TIMEOUT = 60
REQUEST_TIMEOUT = 60
COMMAND_TIMEOUT = 180

# What the app (or Django) reads from the environment: a server started here gets only ours.
# (tests/conftest.py sets DJANGO_ALLOW_ASYNC_UNSAFE for Playwright: never for a server.)
APP_ENVIRONMENT = {
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "CONN_MAX_AGE",
    "STATIC_ROOT",
    "MEDIA_ROOT",
    "MEDIA_STORAGE",
    "BEHIND_PROXY",
    "TRUSTED_PROXY_COUNT",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "TIME_ZONE",
    "LOG_LEVEL",
    "DJANGO_SETTINGS_MODULE",
}


def app_environment(**values) -> dict:
    """This process's environment without any of the app's settings, plus `values`."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in APP_ENVIRONMENT and not key.startswith("AWS_")
    }
    env.update({key: str(value) for key, value in values.items()})
    return env


def production_env(database_url: str, *, static_root: Path, media_root: Path) -> dict:
    """The environment of a production server on plain HTTP at 127.0.0.1."""
    env = app_environment()
    env.update(
        DJANGO_SETTINGS_MODULE="campaign.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        STATIC_ROOT=str(static_root),
        MEDIA_ROOT=str(media_root),
        # Plain HTTP on the loopback: no TLS to redirect to or to mark cookies for.
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        PYTHONUNBUFFERED="1",
    )
    return env


def manage(env: dict, *args: str) -> str:
    """Run a manage.py command in the server's environment; its stdout."""
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(
            f"manage.py {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout


def scenario(env: dict, name: str, **arguments) -> dict:
    """Build (or read back) data with `tests.concurrency.scenarios` inside the server's settings."""
    code = (
        "from tests.concurrency import scenarios; "
        f"scenarios.main({name!r}, {json.dumps(arguments)!r})"
    )
    out = manage(env, "shell", "--no-imports", "--command", code)
    return json.loads(out.strip().splitlines()[-1])


# --------------------------------------------------------------------------- databases


@contextlib.contextmanager
def temporary_directory(prefix: str) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def sqlite_file_database(directory: Path, *, template: Path | None = None) -> Iterator[str]:
    """A SQLite file (the default a newcomer gets), deleted with its directory; a copy of
    ``template`` (a closed, migrated database file) when given."""
    path = directory / "db.sqlite3"
    if template is not None:
        shutil.copyfile(template, path)
    yield f"sqlite:///{path}"


@contextlib.contextmanager
def postgresql_database(cluster_url: str, *, template: str | None = None) -> Iterator[str]:
    """A new database in the cluster of `cluster_url`, dropped afterwards; a copy of the
    database named ``template`` when given (no one may be connected to it)."""
    import psycopg
    from psycopg import sql

    name = f"crusade_live_{uuid.uuid4().hex[:12]}"
    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        create = sql.SQL("{} TEMPLATE {}").format(create, sql.Identifier(template))
    with psycopg.connect(cluster_url, autocommit=True) as admin:
        admin.execute(create)
    parts = urlsplit(cluster_url)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(cluster_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def database_name(url: str) -> str:
    """The database a PostgreSQL URL names."""
    return urlsplit(url).path.lstrip("/")


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    """gunicorn serving `campaign.wsgi` in a subprocess; its log is kept for failures."""

    env: dict
    log_path: Path
    workers: int = 2
    threads: int = 8
    options: tuple[str, ...] = ()
    """More of gunicorn's options, as written on its command line."""
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "gunicorn",
                    "campaign.wsgi",
                    f"--bind=127.0.0.1:{self.port}",
                    f"--workers={self.workers}",
                    f"--threads={self.threads}",
                    "--timeout=120",
                    "--graceful-timeout=10",
                    "--no-control-socket",
                    *self.options,
                ],
                cwd=REPO,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until_serving(f"{self.url}/accounts/login/", self.process, self.log)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=20)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def player(self) -> Player:
        return Player(self.url)


def wait_until_serving(url: str, process: subprocess.Popen, log=lambda: "") -> None:
    """Poll `url` until it answers 200; fail at once if the process exits."""
    deadline = time.monotonic() + READY_TIMEOUT
    while True:
        if process.poll() is not None:
            raise AssertionError(f"{url}: the server exited ({process.returncode}):\n{log()}")
        try:
            if Player(url).get(urlsplit(url).path or "/").status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer within {READY_TIMEOUT}s:\n{log()}")
        time.sleep(0.1)  # poll interval, not synchronisation


@contextlib.contextmanager
def running(server: Server) -> Iterator[Server]:
    try:
        server.start()
        yield server
    finally:
        server.stop()


# --------------------------------------------------------------------------- players


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    content: bytes
    path: str

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    def __str__(self) -> str:
        return f"{self.status} for {self.path}: {self.text[:300]!r}"


class Player:
    """One browser's worth of state against one server: its own cookies and CSRF token."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port
        self.cookies: dict[str, str] = {}
        self.requests = 0

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> Response:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT)
        self.requests += 1
        try:
            connection.request(method, path, body=body, headers=headers)
            raw = connection.getresponse()
            content = raw.read()
            for header in raw.headers.get_all("Set-Cookie") or []:
                self._keep(header)
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, content, path)
        finally:
            connection.close()

    def _keep(self, header: str) -> None:
        jar = cookies.SimpleCookie()
        jar.load(header)
        for name, morsel in jar.items():
            if morsel["max-age"] == "0" or not morsel.value.strip('"'):
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.value

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(
        self,
        path: str,
        data: dict | list | None = None,
        *,
        files: dict[str, tuple[str, bytes, str]] | None = None,
        htmx: bool = False,
    ) -> Response:
        """POST a form as a browser would: with the CSRF token, urlencoded or multipart."""
        fields = list(data.items()) if isinstance(data, dict) else list(data or [])
        fields.append(("csrfmiddlewaretoken", self.csrf_token()))
        headers = {"HX-Request": "true"} if htmx else {}
        if files:
            body, content_type = multipart(fields, files)
        else:
            body = urlencode(fields, doseq=True).encode()
            content_type = "application/x-www-form-urlencoded"
        headers["Content-Type"] = content_type
        return self.request("POST", path, body, headers)

    def follow(self, response: Response) -> Response:
        """GET the page a redirect points to (same server)."""
        assert response.status in (301, 302, 303), str(response)
        return self.get(urlsplit(response.location).path or "/")

    def csrf_token(self) -> str:
        if "csrftoken" not in self.cookies:
            self.get("/accounts/login/")
        return self.cookies["csrftoken"]

    def login(self, username: str, password: str = PASSWORD) -> None:
        response = self.post("/accounts/login/", {"username": username, "password": password})
        assert response.status == 302, f"{username} could not log in: {response}"
        assert "sessionid" in self.cookies


def multipart(
    fields: list[tuple[str, str]], files: dict[str, tuple[str, bytes, str]]
) -> tuple[bytes, str]:
    boundary = f"----crusade{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    for name, (filename, content, content_type) in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'.encode()
            + content
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class PageReader(HTMLParser):
    """What a test needs from a page: links, images, and the values of the POST forms."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.images: list[str] = []
        self.forms: list[dict] = []
        self._select: str | None = None
        self._textarea: str | None = None
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "img" and a.get("src"):
            self.images.append(a["src"])
        elif tag == "form":
            self.forms.append(
                {"action": a.get("action", ""), "method": a.get("method", "get"), "fields": []}
            )
            self.forms[-1]["names"] = set()
        elif not self.forms:
            return
        elif tag == "option" and self._select is not None:
            if "selected" in a:
                self.forms[-1]["fields"].append((self._select, a.get("value", "")))
        elif tag in ("input", "button", "select", "textarea") and "name" in a:
            self._control(tag, a)

    def _control(self, tag: str, a: dict[str, str]) -> None:
        form = self.forms[-1]
        form["names"].add(a["name"])
        kind = a.get("type", "text")
        if tag == "select":
            self._select = a["name"]
        elif tag == "textarea":
            self._textarea = a["name"]
            form["fields"].append((a["name"], ""))
        elif tag == "button" or kind in ("submit", "button", "file", "image", "reset"):
            return  # a button is sent only when pressed: the test adds it
        elif kind not in ("checkbox", "radio") or "checked" in a:
            form["fields"].append((a["name"], a.get("value", "")))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self.forms:
            name, value = self.forms[-1]["fields"][-1]
            self.forms[-1]["fields"][-1] = (name, value + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def post_form(self, action: str = "", *, having: str = "") -> list[tuple[str, str]]:
        """What the page's POST form would submit: the first whose action contains `action`
        and, if given, that has a control named `having`."""
        for form in self.forms:
            if (
                form["method"].lower() == "post"
                and action in form["action"]
                and (not having or having in form["names"])
            ):
                return list(form["fields"])
        raise AssertionError(f"no POST form to {action!r} with {having!r} on the page")


# --------------------------------------------------------------------------- driving them


def all_at_once(calls: list) -> list:
    """Run every call in its own thread, released together; each result or exception."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=60)
            outcomes[index] = calls[index]()
        except BaseException as error:  # returned to the test, which checks it
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT * 2)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    return outcomes


def logged_in(server: Server, usernames: list[str]) -> list[Player]:
    """One player per username, each logged in through the login form with its own session."""
    players = [server.player() for _ in usernames]
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(Player.login, players, usernames))
    return players


def fill(fields: list[tuple[str, str]], **values) -> list[tuple[str, str]]:
    """A form's submitted values with some replaced; a list value submits several."""
    kept = [(name, value) for name, value in fields if name not in values]
    for name, value in values.items():
        for one in value if isinstance(value, list | tuple) else [value]:
            kept.append((name, str(one)))
    return kept


def page_text(response: Response) -> str:
    """The page's text with HTML entities decoded, for looking for a message in it."""
    return html.unescape(response.text)


def failures(outcomes: list) -> list:
    """Outcomes that are not an answer from the app: exceptions and 5xx error pages."""
    return [o for o in outcomes if not isinstance(o, Response) or o.status >= 500]


def describe(outcomes: list) -> str:
    """A short account of the outcomes, and the first failure, for an assertion message."""
    bad = failures(outcomes)
    statuses = Counter(o.status if isinstance(o, Response) else type(o).__name__ for o in outcomes)
    first = bad[0] if bad else "-"
    return f"{len(bad)} of {len(outcomes)} failed ({dict(statuses)}); first: {first}"
