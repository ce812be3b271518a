"""What the admin's forms would post, what a save leaves behind, and a recorded battle."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.models import Battle, Campaign, CrusadeForce, HistoryEntry
from tests.factories import make_character, make_force
from tests.services.fights import Fight, fight, go_to_battle


def form_data(response) -> dict[str, Any]:
    """The POST data of the admin page in `response`, as a browser would send it unchanged."""
    page_forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        page_forms.append(inline.formset.management_form)
        page_forms.extend(inline.formset.forms)
    data: dict[str, Any] = {}
    for form in page_forms:
        for bound in form:
            value = bound.value()
            if isinstance(bound.field, forms.BooleanField):
                if value:
                    data[bound.html_name] = "on"
            elif value is not None:
                data[bound.html_name] = value
    return data


def post_change(client, url: str, **changes):
    """Post the admin change page at `url` as the browser would, with `changes` typed in."""
    data = form_data(client.get(url))
    data.update(changes)
    return client.post(url, data)


def form_errors(response) -> dict:
    """The errors of a refused save: the admin shows the page again (200) with them."""
    assert response.status_code == 200
    return response.context["adminform"].form.errors


def saved(
    response, action: str, *, changes: dict | None = None, not_also: str | None = None
) -> HistoryEntry:
    """The admin saved the page (it redirects) and wrote one `action` history row, with
    these `changes` if given, and no `not_also` row (the other service the page might have
    called). Returns the row."""
    assert response.status_code == 302
    if not_also is not None:
        assert not HistoryEntry.objects.filter(action=not_also).exists()
    entries = HistoryEntry.objects.filter(action=action)
    if changes is not None:
        entries = entries.filter(changes=changes)
    return entries.get()


def two_captains(campaign: Campaign) -> list[list]:
    """The armies of two forces of the campaign: one CHARACTER each."""
    first = make_force(campaign=campaign, name="Ultramarines 2nd Company")
    second = make_force(campaign=campaign, name="Iron Hands Clan Raukaan")
    return [
        [make_character(first, name="Captain Acheran")],
        [make_character(second, name="Iron Father Vurn")],
    ]


def recorded_battle(*, actor, campaign: Campaign) -> tuple[Battle, CrusadeForce, CrusadeForce]:
    """Two forces fight an Incursion, all done by `actor`; the first wins.
    Returns (battle, winner, loser)."""
    armies = two_captains(campaign)
    done = fight(*armies, campaign=campaign, actor=actor)
    return done.battle, armies[0][0].force, armies[1][0].force


def disputed_battle(*, campaign: Campaign) -> Fight:
    """Two players fight an Incursion and each records a Victory: the battle is disputed."""
    armies = two_captains(campaign)
    done = go_to_battle(*armies, campaign=campaign, results=["win", "win"])
    for army in armies:
        done.record_side(army[0].force)
    return done
