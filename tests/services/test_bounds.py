"""The services refuse a number its row cannot hold, by field, whoever calls them (issue
18, item 4): an admin's correction, a Requisition's new points, one more Supply Limit
increase. Before, 10**30 reached the database (a 500) and 2**31 was stored."""

import pytest

from campaign import services
from campaign.models import MOST_POINTS, MOST_RP, MOST_SUPPLY, MOST_TALLY, Campaign, CrusadeForce
from tests.factories import make_campaign, make_user
from tests.services.cards import krieg_force, krieg_squad
from tests.services.checks import refused

pytestmark = pytest.mark.django_db

HUGE = 10**30


@pytest.mark.parametrize("value", [HUGE, 2**31, MOST_SUPPLY + 1])
def test_it_refuses_a_correction_past_the_supply_limits_bound(value):
    force = krieg_force()

    with refused(f"Supply limit must be from 0 to {MOST_SUPPLY}, not {value}.") as info:
        services.correct_force(actor=force.player, force=force, reason="Typo", supply_limit=value)

    assert list(info.value.error_dict) == ["supply_limit"]


def test_it_refuses_a_cards_correction_past_its_tallies_bound():
    unit = krieg_squad(krieg_force())

    with refused(containing=[f"from 0 to {MOST_TALLY}"]) as info:
        services.correct_unit(
            actor=unit.force.player, unit=unit, reason="Typo", units_destroyed=2**31
        )

    assert list(info.value.error_dict) == ["units_destroyed"]


@pytest.mark.parametrize("points", [HUGE, MOST_POINTS + 1])
def test_it_refuses_to_rearm_a_unit_that_does_not_count_with_more_points_than_a_card_holds(
    points,
):
    """R6.4: no Supply Limit check stops a unit left out of Supply Used; its card's bound
    does."""
    unit = krieg_squad(krieg_force(), counts_towards_supply=False)

    with refused(containing=[f"from 0 to {MOST_POINTS}"]) as info:
        services.rearm_and_resupply(
            actor=unit.force.player, unit=unit, wargear="Lasguns", points=points
        )

    assert list(info.value.error_dict) == ["points"]


def test_it_refuses_a_supply_limit_increase_past_the_most_a_force_holds():
    """R6.1 (house): a campaign's big step stops at the most a Supply Limit can be."""
    campaign = make_campaign(starting_supply_limit=MOST_SUPPLY, supply_limit_increase=200)
    force = krieg_force(campaign=campaign)

    with refused(containing=[f"from 0 to {MOST_SUPPLY}, not {MOST_SUPPLY + 200}"]):
        services.increase_supply_limit(actor=force.player, force=force)

    assert CrusadeForce.objects.get(pk=force.pk).supply_limit == MOST_SUPPLY


@pytest.mark.parametrize("value", [HUGE, 2**31])
def test_it_refuses_a_new_campaigns_house_rule_past_its_bound(value):
    organiser = make_user("warmaster")

    with refused(f"Starting supply limit must be from 0 to {MOST_SUPPLY}, not {value}."):
        services.create_campaign(actor=organiser, name="Nachmund", starting_supply_limit=value)

    assert not Campaign.objects.filter(name="Nachmund").exists()


def test_it_refuses_a_house_rule_change_past_its_bound():
    campaign = make_campaign()

    with refused(f"RP cap must be from 1 to {MOST_RP}, not {MOST_RP + 1}.") as info:
        services.set_house_rules(actor=None, campaign=campaign, rp_cap=MOST_RP + 1)

    assert list(info.value.error_dict) == ["rp_cap"]
