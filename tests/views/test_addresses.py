"""Addresses pages write, worked out once a process: the views' (`templatetags.addresses`),
the same as Django's ``{% url %}`` and forgotten when the settings they come from change;
the static files' (`campaign.static_files`), the manifest's."""

from __future__ import annotations

import json

import pytest
from django.template import engines
from django.urls import reverse
from whitenoise.storage import CompressedManifestStaticFilesStorage

from campaign.static_files import StaticFiles
from campaign.templatetags.addresses import address, numbered


def test_they_are_the_addresses_django_gives():
    assert address("dashboard") == reverse("dashboard")
    assert address("admin:index") == reverse("admin:index")
    for pk in (1, 10, 2002, 123456):
        assert address("battle_detail", pk) == reverse("battle_detail", args=[pk])
        assert numbered("force_detail", pk) == reverse("force_detail", args=[pk])


def test_the_tag_writes_them_as_the_url_tag_did():
    page = engines["django"].from_string(
        "{% load addresses %}{% address 'force_detail' 7 %} {% address 'dashboard' %}"
    )
    assert page.render({}) == f"{reverse('force_detail', args=[7])} {reverse('dashboard')}"


def test_a_change_to_the_apps_addresses_shows_at_once(settings):
    address("dashboard")
    settings.ROOT_URLCONF = "tests.views.elsewhere_urls"

    assert address("dashboard") == "/elsewhere/"


def test_a_static_files_address_is_the_manifests_looked_up_once(tmp_path, settings, monkeypatch):
    settings.DEBUG = False
    manifest = {"version": "1.1", "hash": "0", "paths": {"css/app.css": "css/app.0a1b.css"}}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    kept = StaticFiles(location=tmp_path, base_url="/static/")
    plain = CompressedManifestStaticFilesStorage(location=tmp_path, base_url="/static/")

    first = kept.url("css/app.css")
    monkeypatch.setattr(kept, "stored_name", lambda name: pytest.fail("looked up again"))

    assert first == plain.url("css/app.css") == "/static/css/app.0a1b.css"
    assert kept.url("css/app.css") == first
