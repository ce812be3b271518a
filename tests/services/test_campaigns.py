"""Campaign services the admin writes through: details, member roles, custom content."""

import pytest

from campaign import rules, services
from campaign.models import CustomContent, HistoryEntry, Membership, Promotion
from tests.factories import make_campaign, make_user, reload
from tests.services.cards import commissar, krieg_force, krieg_squad
from tests.services.checks import latest_history, refused
from tests.services.earned import pending_promotion
from tests.services.fights import destroyed_in_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def warmaster():
    return make_user("warmaster", is_staff=True)


@pytest.fixture
def campaign(warmaster):
    return make_campaign(organiser=warmaster, name="Vraks")


def member(campaign, username: str) -> Membership:
    user = make_user(username)
    return services.join_campaign(actor=user, user=user, campaign=campaign)


def organise(campaign, user, *, by) -> Membership:
    """``by`` invites ``user`` to organise ``campaign`` and they accept."""
    invitation = services.invite_to_campaign(
        actor=by, user=user, campaign=campaign, role="organiser"
    )
    return services.accept_campaign_invitation(actor=user, invitation=invitation)


def test_it_renames_a_campaign_and_keeps_the_old_name_in_history(warmaster, campaign):
    services.update_campaign_details(
        actor=warmaster, campaign=campaign, name="Siege of Vraks", description="Year 813"
    )

    assert reload(campaign).name == "Siege of Vraks"
    entry = latest_history("campaign_edited", campaign=campaign)
    assert entry.changes == {"name": ["Vraks", "Siege of Vraks"], "description": ["", "Year 813"]}
    assert entry.actor == warmaster


def test_it_refuses_a_campaign_without_a_name(warmaster, campaign):
    with refused("Give the campaign a name."):
        services.update_campaign_details(actor=warmaster, campaign=campaign, name="  ")


def test_it_makes_a_player_an_organiser_once_they_accept_with_a_history_row(warmaster, campaign):
    alice = member(campaign, "alice")

    organise(campaign, alice.user, by=warmaster)

    assert reload(alice).role == Membership.Role.ORGANISER
    changes = HistoryEntry.objects.filter(action="member_role_changed").values_list("changes")
    assert {"role": ["player", "organiser"]} in [c for (c,) in changes]


@pytest.mark.parametrize("how", ["promoted", "added as organiser"])
def test_it_opens_the_admin_to_a_member_made_organiser_once(warmaster, campaign, how):
    """An organiser runs the campaign in the admin, which shows staff only the campaigns
    they organise: naming one gives staff status, with its own history row."""
    alice = member(campaign, "alice").user if how == "promoted" else make_user("alice")
    organise(campaign, alice, by=warmaster)
    other = make_campaign(organiser=warmaster, name="Armageddon")
    organise(other, alice, by=warmaster)

    user = reload(alice)
    assert user.is_staff and not user.is_superuser
    opened = HistoryEntry.objects.filter(
        changes={"is_staff": [False, True]}, campaign__isnull=False
    )
    assert [e.campaign for e in opened if e.summary.startswith("alice")] == [campaign]


def test_it_refuses_to_demote_a_campaigns_last_organiser(warmaster, campaign):
    only = campaign.memberships.get(user=warmaster)

    with refused("A campaign needs at least one organiser."):
        services.change_member_role(actor=warmaster, membership=only, role="player")


def test_it_lets_an_organiser_step_down_once_another_is_named(warmaster, campaign):
    alice = member(campaign, "alice")
    organise(campaign, alice.user, by=warmaster)

    services.change_member_role(
        actor=warmaster, membership=campaign.memberships.get(user=warmaster), role="player"
    )

    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"warmaster": "player", "alice": "organiser"}


def test_it_changes_nothing_when_the_role_is_the_same(warmaster, campaign):
    alice = member(campaign, "alice")
    before = HistoryEntry.objects.count()

    services.change_member_role(actor=warmaster, membership=alice, role="player")

    assert HistoryEntry.objects.count() == before


def test_it_adds_a_campaigns_own_relic_with_its_category(warmaster, campaign):
    relic = services.add_custom_content(
        actor=warmaster,
        campaign=campaign,
        kind=CustomContent.Kind.CRUSADE_RELIC,
        name="Blade of Vraks",
        relic_category=rules.RelicCategory.ANTIQUITY,
    )

    assert relic.relic_category == "antiquity"
    assert latest_history("custom_content_added", campaign=campaign).changes["name"] == [
        None,
        "Blade of Vraks",
    ]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"kind": "crusade_relic", "name": "Blade"}, "needs its category"),
        ({"kind": "battle_scar", "name": "Gassed", "relic_category": "legendary"}, "Only Crusade"),
        ({"kind": "battle_scar", "name": "Gassed", "trait_table": "Infantry"}, "Only Battle"),
        ({"kind": "battle_scar", "name": " "}, "Give it a name."),
    ],
    ids=["relic-without-category", "scar-with-category", "scar-with-table", "no-name"],
)
def test_it_refuses_custom_content_that_does_not_fit_its_kind(warmaster, campaign, values, message):
    with refused(containing=[message]):
        services.add_custom_content(actor=warmaster, campaign=campaign, **values)


def test_it_refuses_a_second_custom_scar_of_the_same_name(warmaster, campaign):
    services.add_custom_content(actor=warmaster, campaign=campaign, kind="battle_scar", name="Gas")

    with refused(containing=["already has a Battle Scar called that"]):
        services.add_custom_content(
            actor=warmaster, campaign=campaign, kind="battle_scar", name="gas"
        )


def test_it_retires_custom_content_instead_of_deleting_it(warmaster, campaign):
    scar = services.add_custom_content(
        actor=warmaster, campaign=campaign, kind="battle_scar", name="Gas-blinded"
    )

    services.retire_custom_content(actor=warmaster, content=scar, reason="Too harsh")

    scar = reload(scar)
    assert scar.is_retired
    assert CustomContent.objects.filter(pk=scar.pk).exists()
    assert latest_history("custom_content_retired", campaign=campaign).reason == "Too harsh"
    with refused("Gas-blinded has already been retired."):
        services.retire_custom_content(actor=warmaster, content=scar)


def test_it_stops_offering_retired_content_and_refuses_it(warmaster, campaign):
    force = krieg_force(campaign=campaign)
    squad = krieg_squad(force)
    trait = services.add_custom_content(
        actor=warmaster,
        campaign=campaign,
        kind="battle_trait",
        name="Trench Fighters",
        trait_table="Infantry",
    )
    services.retire_custom_content(actor=warmaster, content=trait)

    offered = services.battle_trait_choices(reload(squad))
    assert "Trench Fighters" not in {name for names in offered.values() for name, _ in names}
    assert services.campaign_content(reload(squad), CustomContent.Kind.BATTLE_TRAIT) == []
    promotion = pending_promotion(squad)
    with refused(containing=["not one of this campaign's Battle Traits"]):
        services.settle_with_battle_trait(
            actor=force.player, promotion=promotion, custom=reload(trait)
        )


def test_it_keeps_retired_content_on_the_cards_that_hold_it(warmaster, campaign):
    force = krieg_force(campaign=campaign)
    squad = krieg_squad(force)
    scar = services.add_custom_content(
        actor=warmaster, campaign=campaign, kind="battle_scar", name="Gas-blinded"
    )
    test = services.take_out_of_action_test(
        actor=force.player, test=destroyed_in_battle(squad, leader=commissar(force)), roll=1
    )
    services.resolve_out_of_action(
        actor=force.player, test=test, choice=rules.OutOfAction.BATTLE_SCAR, custom_scar=scar
    )

    services.retire_custom_content(actor=warmaster, content=scar)

    assert [s.name for s in reload(squad).active_scars()] == ["Gas-blinded"]


def test_it_records_how_each_promotion_was_settled():
    """R3.7: a Battle Honour, or an Enhancement through Renowned Heroes instead."""
    force = krieg_force()
    vell = commissar(force)
    squad = krieg_squad(force)
    by_honour = pending_promotion(squad)
    services.settle_with_battle_trait(
        actor=force.player, promotion=by_honour, table="Infantry", trait="Headhunters"
    )
    by_enhancement = pending_promotion(vell)
    services.renowned_heroes(
        actor=force.player, unit=vell, enhancement="Drill Commander", enhancement_points=20
    )

    settled = dict(Promotion.objects.values_list("pk", "settled_by"))
    assert settled == {
        by_honour.pk: rules.PromotionReward.BATTLE_HONOUR,
        by_enhancement.pk: rules.PromotionReward.RENOWNED_HEROES,
    }
