"""The addresses pages write, worked out once a process (`templatetags.addresses`): the
same as Django's ``{% url %}`` and ``{% static %}``, and forgotten when the settings
they come from change."""

from __future__ import annotations

from django.template import engines
from django.templatetags.static import static as django_static
from django.urls import reverse

from campaign.templatetags.addresses import address, numbered, static


def test_they_are_the_addresses_django_gives():
    assert address("dashboard") == reverse("dashboard")
    assert address("admin:index") == reverse("admin:index")
    for pk in (1, 10, 2002, 123456):
        assert address("battle_detail", pk) == reverse("battle_detail", args=[pk])
        assert numbered("force_detail", pk) == reverse("force_detail", args=[pk])
    assert static("css/app.css") == django_static("css/app.css")


def test_the_tags_write_them_as_the_templates_did():
    page = engines["django"].from_string(
        "{% load addresses %}{% address 'force_detail' 7 %} {% static 'css/app.css' %}"
    )
    assert page.render({}) == f"{reverse('force_detail', args=[7])} {django_static('css/app.css')}"


def test_a_change_to_the_static_files_address_shows_at_once(settings):
    static("css/app.css")
    settings.STATIC_URL = "/elsewhere/"

    assert static("css/app.css").startswith("/elsewhere/")
