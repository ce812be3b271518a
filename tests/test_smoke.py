"""The site is up: pages render, htmx is wired, and login guards the dashboard."""

import pytest
from django.urls import reverse


def test_it_serves_the_home_page_with_htmx_and_the_csrf_header(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'src="/static/vendor/htmx/htmx-2.0.11.min.js"' in html
    assert '<body hx-headers=\'{"X-CSRFToken": "' in html


def test_it_serves_the_login_page(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert '<label for="id_username">' in response.content.decode()


def test_it_sends_an_anonymous_visitor_from_the_dashboard_to_the_login_page(client):
    response = client.get(reverse("dashboard"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('dashboard')}"


@pytest.mark.django_db
def test_it_shows_the_dashboard_to_a_signed_in_player(client, django_user_model):
    player = django_user_model.objects.create_user(username="alice", password="pw")
    client.force_login(player)

    response = client.get(reverse("dashboard"))

    assert response.status_code == 200
    assert "Welcome, alice" in response.content.decode()


@pytest.mark.django_db
def test_it_logs_out_with_a_post(client, django_user_model):
    client.force_login(django_user_model.objects.create_user(username="alice"))

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302


def test_it_shows_no_template_comment_to_players():
    """`{# ... #}` ends on its own line: a comment that goes on is printed on the page."""
    from pathlib import Path

    templates = Path(__file__).resolve().parents[1] / "templates"
    open_ended = [
        f"{path.relative_to(templates)}:{number}"
        for path in sorted(templates.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]

    assert open_ended == []
