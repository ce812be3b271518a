"""R11.2/R11.3: the underdog picks its Crusade Blessings (`services.pick_blessings`)."""

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors, services
from campaign.models import BlessingPick, HistoryEntry
from campaign.services.blessings import army_crusade_points, army_queryset
from tests.blessings import blessing, blessing_pack, give_honours
from tests.factories import make_unit
from tests.views.helpers import record, set_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """Two mustered armies; the opponent's captain holds 2 honours, so the owner's side is
    the underdog by 2 Crusade points: one Blessing by the pack's thresholds."""
    table = set_table()
    blessing_pack(table.organiser, table.campaign)
    give_honours(table.enemy_captain, 2)
    return table


def pick(table, *names, side=None, actor=None):
    side = side or table.mine
    return services.pick_blessings(
        actor=actor or side.force.player,
        participant=side,
        blessings=[blessing(name, table.campaign) for name in names],
    )


def refusal(call) -> str:
    with pytest.raises(ValidationError) as error:
        call()
    return " ".join(error.value.messages)


def test_it_totals_only_the_mustered_army_and_not_its_removed_units_r11_2(table):
    give_honours(table.captain, 1)
    outside = make_unit(table.force, name="Left at home")
    give_honours(outside, 5)
    entries = list(army_queryset().filter(participant=table.mine))

    assert army_crusade_points(entries) == 1
    for entry in entries:
        entry.unit.status = "removed" if entry.unit_id == table.captain.pk else entry.unit.status
    assert army_crusade_points(entries) == 0


def test_it_lets_the_underdog_pick_what_its_gap_gives_with_a_history_row_r11_3(table):
    pick(table, "Second Wind")

    picked = BlessingPick.objects.get(participant=table.mine)
    assert (picked.blessing.name, picked.picked_by) == ("Second Wind", table.owner)
    entry = HistoryEntry.objects.get(action="blessings_picked")
    assert entry.battle == table.battle and entry.force == table.force
    assert "Second Wind" in entry.summary and "underdog by 2" in entry.summary
    assert entry.changes == {"blessings": [[], ["Second Wind"]]}


def test_it_refuses_more_blessings_than_the_gap_gives_and_saves_nothing_r11_3(table):
    message = refusal(lambda: pick(table, "Second Wind", "Local Guides"))

    assert "gap of 2" in message and "1 Blessing" in message
    assert not BlessingPick.objects.exists()
    assert not HistoryEntry.objects.filter(action="blessings_picked").exists()


def test_it_gives_more_blessings_for_a_wider_gap_r11_3(table):
    give_honours(table.enemy_squad, 2)

    pick(table, "Second Wind", "Local Guides")

    assert BlessingPick.objects.filter(participant=table.mine).count() == 2


def test_it_refuses_blessings_to_the_stronger_side_r11_3(table):
    message = refusal(lambda: pick(table, "Second Wind", side=table.theirs))

    assert "not the underdog" in message
    assert not BlessingPick.objects.exists()


def test_it_refuses_blessings_when_the_crusade_points_are_equal_r11_3(table):
    give_honours(table.squad, 2)

    assert "nobody is the underdog" in refusal(lambda: pick(table, "Second Wind"))


def test_it_refuses_blessings_before_every_side_has_mustered_r11_3():
    table = set_table(muster=False)
    blessing_pack(table.organiser, table.campaign)
    give_honours(table.enemy_captain, 2)
    services.muster_army(
        actor=table.owner,
        participant=table.mine,
        units=[table.captain, table.squad],
        warlord=table.captain,
        faction="Adeptus Astartes",
        detachment="Gladius",
    )

    assert "waiting for Red Talons" in refusal(lambda: pick(table, "Second Wind"))


def test_it_refuses_blessings_after_the_side_has_recorded_r11_3(table):
    services.record_side(actor=table.owner, participant=table.mine, result="loss", outcomes={})

    assert "recorded" in refusal(lambda: pick(table, "Second Wind"))


def test_it_refuses_blessings_once_the_battle_is_over_r11_3(table):
    record(table)

    assert "already been recorded" in refusal(lambda: pick(table, "Second Wind"))


def test_it_refuses_a_blessing_the_campaign_does_not_offer_r11_3(table):
    other = set_table()
    blessing_pack(other.organiser, other.campaign, blessings=["Foreign Gift"])

    message = refusal(
        lambda: services.pick_blessings(
            actor=table.owner,
            participant=table.mine,
            blessings=[blessing("Foreign Gift", other.campaign)],
        )
    )

    assert "not one of this campaign's Crusade Blessings" in message


def test_it_refuses_an_empty_pick(table):
    assert "at least one" in refusal(lambda: pick(table))


def test_it_replaces_the_picks_when_the_underdog_picks_again_with_a_history_row_r11_3(table):
    pick(table, "Second Wind")

    pick(table, "Local Guides")

    assert [p.blessing.name for p in BlessingPick.objects.all()] == ["Local Guides"]
    last = HistoryEntry.objects.filter(action="blessings_picked").order_by("-pk").first()
    assert last.changes == {"blessings": [["Second Wind"], ["Local Guides"]]}
    assert "now picks" in last.summary


def test_it_writes_nothing_when_the_same_blessings_are_picked_again(table):
    pick(table, "Second Wind")

    pick(table, "Second Wind")

    assert HistoryEntry.objects.filter(action="blessings_picked").count() == 1


def test_it_takes_the_most_any_enabled_pack_gives_for_the_gap_r11_3(table):
    blessing_pack(table.organiser, table.campaign, thresholds=[(2, 2)], blessings=["Omen"])

    pick(table, "Second Wind", "Omen")

    assert BlessingPick.objects.filter(participant=table.mine).count() == 2


def test_it_keeps_the_picks_as_a_record_when_the_battle_is_voided(table):
    pick(table, "Second Wind")

    services.void_battle(actor=table.organiser, battle=table.battle, reason="Wrong mission")

    assert BlessingPick.objects.filter(participant=table.mine).count() == 1


def test_it_exports_and_restores_a_force_that_picked_blessings(table):
    pick(table, "Second Wind")
    record(table)
    document = selectors.force_document(table.force)

    restored = services.restore_force(
        actor=table.owner,
        player=table.owner,
        campaign=table.campaign,
        document=document,
        name="Iron Wolves again",
    )

    assert restored.units.count() == table.force.units.count()
