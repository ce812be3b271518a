"""Campaign Points: each side of a completed battle scores by the campaign's scoring, for
its force and its alliance; a void takes them back exactly."""

import pytest

from campaign import services
from campaign.models import Alliance, BattleParticipant, HistoryEntry
from campaign.models.campaigns import MOST_SCORE
from campaign.services import campaign_points
from campaign.services import territories as territory_service
from tests.factories import (
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
    reload,
)
from tests.services.checks import refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("points-organiser", is_staff=True)


@pytest.fixture
def campaign(organiser):
    campaign = make_campaign(organiser=organiser, name="Vigilus")
    return services.set_scoring(
        actor=organiser,
        campaign=campaign,
        points_for_win=5,
        points_for_draw=2,
        points_for_loss=1,
        points_for_taking=3,
        points_for_holding=2,
    )


@pytest.fixture
def sides(campaign):
    """Two forces, each with a Warlord, of two alliances."""
    order = Alliance.objects.create(campaign=campaign, name="Order", colour="#1f5f99")
    chaos = Alliance.objects.create(campaign=campaign, name="Chaos", colour="#7a1f1f")
    ours, theirs = (make_force(campaign=campaign, name=name) for name in ("Ours", "Theirs"))
    for force, alliance in ((ours, order), (theirs, chaos)):
        make_character(force)
        force.alliance = alliance
        force.save(update_fields=["alliance"])
    return ours, theirs


def side(battle, force) -> BattleParticipant:
    return battle.participants.get(force=force)


@pytest.mark.parametrize(
    ("result", "mine", "theirs"), [("win", 5, 1), ("draw", 2, 2), ("loss", 1, 5)]
)
def test_each_side_scores_by_its_result(campaign, sides, result, mine, theirs):
    ours, rival = sides

    battle = make_recorded_battle(ours, rival, result=result, campaign=campaign)

    assert (side(battle, ours).campaign_points, side(battle, rival).campaign_points) == (
        mine,
        theirs,
    )
    assert (reload(ours).campaign_points, reload(rival).campaign_points) == (mine, theirs)


def test_each_side_keeps_the_alliance_it_fought_for(campaign, sides):
    ours, rival = sides
    battle = make_recorded_battle(ours, rival, campaign=campaign)
    fought_for = ours.alliance

    ours.alliance = rival.alliance
    ours.save(update_fields=["alliance"])

    assert side(battle, ours).alliance == fought_for
    assert side(battle, rival).alliance == rival.alliance


def test_a_force_without_an_alliance_still_scores(campaign, sides):
    ours, rival = sides
    ours.alliance = None
    ours.save(update_fields=["alliance"])

    battle = make_recorded_battle(ours, rival, campaign=campaign)

    assert side(battle, ours).alliance is None
    assert reload(ours).campaign_points == 5


@pytest.mark.parametrize(("ground", "points"), [("took", 5 + 3), ("held", 5 + 2)])
def test_the_winner_scores_for_taking_or_holding_ground(
    campaign, sides, monkeypatch, ground, points
):
    """The map's part says which side took or held the territory (side pk -> what)."""
    ours, rival = sides
    monkeypatch.setattr(
        territory_service,
        "after_battle",
        lambda actor, battle, fought: {s.pk: ground for s in fought if s.force_id == ours.pk},
    )

    battle = make_recorded_battle(ours, rival, campaign=campaign)

    assert side(battle, ours).campaign_points == points
    assert side(battle, rival).campaign_points == 1
    assert reload(ours).campaign_points == points


def test_scoring_costs_three_queries_whatever_the_sides(campaign, sides, django_assert_num_queries):
    """The sides, the forces and the alliances' totals: one UPDATE each, once the
    alliances have a battle in the phase (the first makes their rows)."""
    ours, rival = sides
    make_recorded_battle(ours, rival, campaign=campaign)
    battle = make_battle(ours, rival, campaign=campaign)
    fought = list(battle.participants.select_related("force__campaign"))
    for one in fought:
        one.result = "win" if one.force_id == ours.pk else "loss"

    with django_assert_num_queries(3):
        campaign_points.score(battle, fought, {})


def test_a_void_takes_back_exactly_what_the_battle_scored(campaign, sides, organiser):
    ours, rival = sides
    make_recorded_battle(ours, rival, campaign=campaign)
    battle = make_recorded_battle(ours, rival, result="draw", campaign=campaign)
    assert (reload(ours).campaign_points, reload(rival).campaign_points) == (7, 3)

    services.void_battle(actor=organiser, battle=battle, reason="Played the wrong mission")

    assert (reload(ours).campaign_points, reload(rival).campaign_points) == (5, 1)


def test_a_void_never_takes_a_force_below_zero(campaign, sides, organiser):
    ours, rival = sides
    battle = make_recorded_battle(ours, rival, campaign=campaign)
    type(ours).objects.filter(pk=ours.pk).update(campaign_points=2)

    services.void_battle(actor=organiser, battle=battle, reason="Corrected by hand before")

    assert reload(ours).campaign_points == 0


def _mustered(campaign, ours, rival):
    battle = make_battle(ours, rival, campaign=campaign)
    for one in battle.participants.select_related("force__player"):
        warlord = one.force.units.filter(is_character=True).first()
        services.muster_army(
            actor=one.force.player,
            participant=one,
            units=[warlord],
            warlord=warlord,
            faction="Adeptus Astartes",
            detachment="Gladius",
        )
    return battle


def test_settling_a_disputed_battle_scores_and_voiding_it_takes_it_back(campaign, sides, organiser):
    ours, rival = sides
    battle = _mustered(campaign, ours, rival)

    services.settle_battle(
        actor=organiser,
        battle=battle,
        results={side(battle, ours).pk: "loss", side(battle, rival).pk: "win"},
        reason="The scoresheet says so",
    )

    assert (reload(ours).campaign_points, reload(rival).campaign_points) == (1, 5)
    assert side(battle, rival).alliance == rival.alliance

    services.void_battle(actor=organiser, battle=battle, reason="Played on the wrong table")

    assert (reload(ours).campaign_points, reload(rival).campaign_points) == (0, 0)


def test_a_battle_without_a_campaign_scores_nothing(sides):
    ours, rival = sides
    battle = make_recorded_battle(ours, rival)

    assert battle.campaign_id is None
    assert side(battle, ours).campaign_points == 0
    assert reload(ours).campaign_points == 0


def test_it_changes_the_scoring_with_a_history_row_and_keeps_past_battles(
    campaign, sides, organiser
):
    ours, rival = sides
    battle = make_recorded_battle(ours, rival, campaign=campaign)

    services.set_scoring(
        actor=organiser, campaign=campaign, points_for_win=10, reason="Wins count more"
    )

    row = HistoryEntry.objects.filter(action="scoring_changed").order_by("-pk").first()
    assert (row.campaign_id, row.force_id, row.reason) == (campaign.pk, None, "Wins count more")
    assert row.changes == {"points_for_win": [5, 10]}
    assert side(battle, ours).campaign_points == 5
    assert reload(ours).campaign_points == 5


def test_it_refuses_scoring_out_of_bounds_next_to_the_field(campaign, organiser):
    with refused() as info:
        services.set_scoring(actor=organiser, campaign=campaign, points_for_win=MOST_SCORE + 1)
    assert "points_for_win" in info.value.message_dict
    with refused():
        services.set_scoring(actor=organiser, campaign=campaign, points_for_loss=-1)


def test_scoring_unchanged_writes_no_row(campaign, organiser):
    before = HistoryEntry.objects.count()

    services.set_scoring(actor=organiser, campaign=campaign, points_for_win=5)

    assert HistoryEntry.objects.count() == before
