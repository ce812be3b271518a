"""What the admin's forms would post, and a battle recorded through the services."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign import services
from campaign.models import Battle, Campaign, CrusadeForce
from tests.factories import make_character, make_force


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


def recorded_battle(*, actor, campaign: Campaign) -> tuple[Battle, CrusadeForce, CrusadeForce]:
    """Two forces fight an Incursion; the first wins. Returns (battle, winner, loser)."""
    winner = make_force(campaign=campaign, name="Ultramarines 2nd Company")
    loser = make_force(campaign=campaign, name="Iron Hands Clan Raukaan")
    captains = {
        winner.pk: make_character(winner, name="Captain Acheran"),
        loser.pk: make_character(loser, name="Iron Father Vurn"),
    }
    battle = services.start_battle(
        actor=actor, forces=[winner, loser], battle_size="Incursion", campaign=campaign
    )
    participants = list(battle.participants.all())
    for participant in participants:
        captain = captains[participant.force_id]
        services.muster_army(
            actor=actor,
            participant=participant,
            faction="Adeptus Astartes",
            detachment="Gladius Task Force",
            units=[captain],
            warlord=captain,
        )
    services.record_battle_end(
        actor=actor,
        battle=battle,
        results={p.pk: "win" if p.force_id == winner.pk else "loss" for p in participants},
        outcomes={},
    )
    return battle, winner, loser
