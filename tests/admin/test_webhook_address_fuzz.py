"""Every address of `hostile_addresses.CASES` typed into the admin's add and change
forms, posted to the real pages (a sample), given to the model's own validation and to
the check run before each delivery. No real name is looked up (`fake_dns`). For every
address: never a 500; a refused one is an error next to the address field and nothing is
saved; an accepted one is `safe`: https, on an allowed port, and every address its host
resolves to on the public internet; the addresses known to be fine are accepted.
"""

from __future__ import annotations

import socket

import pytest
from django.contrib.admin import site
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import RequestFactory
from django.urls import reverse

from campaign import addresses, services
from campaign.models import Webhook

from .helpers import form_data
from .hostile_addresses import (
    ALLOWED_PORTS,
    CASES,
    GOOD,
    PUBLIC_V4,
    PUBLIC_V6,
    Case,
    public,
    resolve,
    safe,
)

pytestmark = pytest.mark.django_db
ADD = reverse("admin:campaign_webhook_add")


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = []
    settings.WEBHOOK_ALLOWED_PORTS = [port for port in ALLOWED_PORTS if port != 443]
    looked_up: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        looked_up.append(host)
        found = resolve(host)
        return [
            (
                socket.AF_INET6 if ":" in ip else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (ip, port),
            )
            for ip in found
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return looked_up


def test_it_tells_public_addresses_from_inner_ones():
    assert public(PUBLIC_V4) and public(PUBLIC_V6)
    assert public("2002:5db8:d70e::1")  # 6to4, carrying the public IPv4 address
    inner = ["127.0.0.1", "10.0.0.5", "100.64.0.9", "0.0.0.0", "::1", "::ffff:127.0.0.1"]
    assert not any(public(ip) for ip in [*inner, "fd00::53", "2002:7f00:1::1", "ff02::1"])


def test_it_has_a_broad_set_of_addresses():
    assert len(CASES) > 600
    assert len({c.url for c in CASES}) > 550
    assert sum(c.form is True for c in CASES) > 40


# --- Through the admin, the model and the delivery check -------------------------------


def judge(case: Case, accepted: bool, saved_url: str | None, *, want: bool | None) -> str:
    """What is wrong with the outcome for ``case`` ('' when nothing)."""
    if want is not None and accepted != want:
        return f"{'accepted' if accepted else 'refused'}, expected the other: {case.url!r}"
    if accepted and not safe(saved_url):
        return f"accepted an unsafe address: {case.url!r} saved as {saved_url!r}"
    return ""


def posted(campaign, url: str) -> dict:
    return {
        "campaign": campaign.pk,
        "name": "Vraks vox relay",
        "kind": "json",
        "url": url,
        **{name: "on" for name in Webhook.EVENT_FIELDS},
    }


def report(problems: list[str]) -> str:
    return f"{len(problems)} wrong, the first:\n" + "\n".join(problems[:25])


def admin_form(organiser, obj=None):
    """The form class the webhook admin gives ``organiser`` (add, or change of ``obj``)."""
    request = RequestFactory().post(ADD)
    request.user = organiser
    return site._registry[Webhook].get_form(request, obj, change=obj is not None)


def through_form(form) -> tuple[bool, Webhook | None, list[str]]:
    """(accepted, the webhook saved, what was refused) for a bound admin form, saved as
    the admin saves it: through the service, rolled back on its refusal."""
    if not form.is_valid():
        return False, None, sorted(form.errors)
    try:
        with transaction.atomic():
            return True, form.apply(), []
    except ValidationError as refused:
        return False, None, sorted(refused.message_dict)


def test_it_judges_every_address_typed_into_the_add_form(organiser, campaign):
    form_class = admin_form(organiser)
    problems = []
    for case in CASES:
        accepted, hook, refused = through_form(form_class(data=posted(campaign, case.url)))

        if not accepted and refused != ["url"]:
            problems.append(f"refused at {refused}, not at the address: {case.url!r}")
        if accepted != Webhook.objects.exists():
            problems.append(f"{'accepted' if accepted else 'refused'} but saved: {case.url!r}")
        if problem := judge(case, accepted, hook and hook.url, want=case.form):
            problems.append(problem)
        Webhook.objects.all().delete()

    assert not problems, report(problems)


def test_it_judges_every_address_typed_into_the_change_form(organiser, campaign):
    first = f"https://{GOOD}/first"
    hook = services.add_webhook(actor=organiser, campaign=campaign, name="Relay", url=first)
    problems = []
    for case in CASES:
        hook = Webhook.objects.get()
        form = admin_form(organiser, hook)(data=posted(campaign, case.url), instance=hook)
        accepted, _, refused = through_form(form)

        hook.refresh_from_db()
        if not accepted and (refused != ["url"] or hook.url != first):
            problems.append(f"refused at {refused}, stored {hook.url!r}: {case.url!r}")
        if problem := judge(case, accepted, hook.url, want=case.form):
            problems.append(problem)
        Webhook.objects.update(url=first)

    assert not problems, report(problems)


SAMPLE = CASES[::5]
"""Posted to the real pages as well: a fifth of the addresses, every kind among them."""


def test_it_answers_each_address_posted_to_the_admin_pages_without_a_500(
    organiser_client, organiser, campaign
):
    first = f"https://{GOOD}/first"
    hook = services.add_webhook(actor=organiser, campaign=campaign, name="Relay", url=first)
    change = reverse("admin:campaign_webhook_change", args=[hook.pk])
    data = form_data(organiser_client.get(change))
    problems = []
    for case in SAMPLE:
        for url, values in ((ADD, posted(campaign, case.url)), (change, {**data, "url": case.url})):
            before = list(Webhook.objects.values_list("pk", "url"))

            response = organiser_client.post(url, values)  # a 500 would raise here

            if response.status_code == 200:
                if not response.context["adminform"].form.errors.get("url"):
                    problems.append(f"refused with no message at the address: {case.url!r}")
                if list(Webhook.objects.values_list("pk", "url")) != before:
                    problems.append(f"refused but saved: {case.url!r}")
            elif response.status_code != 302:
                problems.append(f"answered {response.status_code}: {case.url!r}")
            elif case.form is False:
                problems.append(f"accepted: {case.url!r}")
            Webhook.objects.exclude(pk=hook.pk).delete()
            Webhook.objects.update(url=first)

    assert len(SAMPLE) > 100
    assert not problems, report(problems)


def test_it_judges_every_address_given_to_the_model(campaign):
    problems = []
    for case in CASES:
        hook = Webhook(campaign=campaign, name="Relay", url=case.url)
        try:
            hook.full_clean(exclude=["created_by", "site_url"], validate_unique=False)
        except ValidationError as error:
            accepted = False
            if set(error.message_dict) != {"url"}:
                problems.append(f"refused for {set(error.message_dict)}: {case.url!r}")
        else:
            accepted = True
        if problem := judge(case, accepted, case.url, want=case.model):
            problems.append(problem)

    assert not Webhook.objects.exists()
    assert not problems, report(problems)


def test_it_lets_the_check_before_each_delivery_pass_only_safe_addresses():
    """The worker's check (`addresses.check`) has none of the form's URL syntax rules
    behind it: on its own it must refuse every address that is not safe, and connect
    only to addresses it checked."""
    problems = []
    for case in CASES:
        try:
            target = addresses.check(case.url)
        except addresses.Refused:
            if case.model is True:
                problems.append(f"refused a fine address: {case.url!r}")
            continue
        if not safe(case.url):
            problems.append(f"passed an unsafe address: {case.url!r}")
        elif not all(public(ip) for ip in target.ips):
            problems.append(f"would connect to {target.ips}: {case.url!r}")

    assert not problems, report(problems)


def test_it_never_looks_a_name_up_in_the_real_world(fake_dns, organiser_client, campaign):
    organiser_client.post(ADD, posted(campaign, f"https://{GOOD}/hook"))

    assert set(fake_dns) == {GOOD}
    assert Webhook.objects.get().url == f"https://{GOOD}/hook"
