"""Alliances: organisers define and retire them; a player picks one for their force once,
and only an organiser changes it afterwards, with a reason."""

import json
from pathlib import Path

import pytest

from campaign import documents, selectors, services
from campaign.models import Alliance, CustomContent, HistoryAction, HistoryEntry
from tests.factories import make_campaign, make_force, make_user, reload
from tests.packs.helpers import SAMPLE as SAMPLE_PACK
from tests.services.checks import latest_history, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("organiser", is_staff=True)


@pytest.fixture
def campaign(organiser):
    return make_campaign(organiser=organiser, name="Vraks")


def define(campaign, organiser, name="Wardens", colour="#3366cc", **extra):
    return services.define_alliance(
        actor=organiser, campaign=campaign, name=name, colour=colour, **extra
    )


def test_it_forms_an_alliance_with_a_history_row_naming_the_campaign(campaign, organiser):
    revision = campaign.revision

    alliance = define(campaign, organiser, description="Hold the walls")

    assert (alliance.campaign, alliance.name, alliance.colour) == (campaign, "Wardens", "#3366cc")
    entry = latest_history(HistoryAction.ALLIANCE_CHANGED)
    assert (entry.campaign, entry.force, entry.actor) == (campaign, None, organiser)
    assert entry.changes["name"] == [None, "Wardens"]
    assert reload(campaign).revision > revision


def test_it_edits_an_alliance_and_records_what_changed(campaign, organiser):
    alliance = define(campaign, organiser)

    define(campaign, organiser, name="Gate Wardens", colour="#AA0000", alliance=alliance)

    alliance.refresh_from_db()
    assert (alliance.name, alliance.colour) == ("Gate Wardens", "#aa0000")
    entry = latest_history(HistoryAction.ALLIANCE_CHANGED)
    assert entry.changes == {"name": ["Wardens", "Gate Wardens"], "colour": ["#3366cc", "#aa0000"]}


def test_it_refuses_a_second_alliance_of_the_same_name_by_field(campaign, organiser):
    define(campaign, organiser)

    with refused(containing=["already has an alliance called"]) as info:
        define(campaign, organiser, name="wardens")
    assert "name" in info.value.message_dict


def test_the_same_name_is_fine_in_another_campaign(campaign, organiser):
    define(campaign, organiser)

    define(make_campaign(organiser=organiser), organiser)

    assert Alliance.objects.filter(name="Wardens").count() == 2


@pytest.mark.parametrize("colour", ["blue", "#12345", "#1234567", "#ggg000", ""])
def test_it_refuses_a_colour_that_is_not_hash_and_six_hex_digits(campaign, organiser, colour):
    with refused() as info:
        define(campaign, organiser, colour=colour)
    assert "colour" in info.value.message_dict


def test_it_refuses_a_blank_name(campaign, organiser):
    with refused("Give the alliance a name.") as info:
        define(campaign, organiser, name="   ")
    assert "name" in info.value.message_dict


def test_it_refuses_to_edit_another_campaigns_alliance(campaign, organiser):
    theirs = define(make_campaign(organiser=organiser), organiser)

    with refused("That alliance belongs to another campaign."):
        define(campaign, organiser, name="Other", alliance=theirs)


def test_retiring_keeps_the_forces_that_fight_for_it(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force(campaign=campaign)
    services.choose_alliance(actor=force.player, force=force, alliance=alliance)

    services.retire_alliance(actor=organiser, alliance=alliance, reason="Broken at the gate")

    assert reload(alliance).retired
    assert reload(force).alliance == alliance
    entry = latest_history(HistoryAction.ALLIANCE_CHANGED)
    assert (entry.reason, entry.campaign, entry.changes) == (
        "Broken at the gate",
        campaign,
        {"retired": [False, True]},
    )


def test_retiring_needs_a_reason_and_happens_once(campaign, organiser):
    alliance = define(campaign, organiser)
    with refused() as info:
        services.retire_alliance(actor=organiser, alliance=alliance, reason=" ")
    assert "reason" in info.value.message_dict

    services.retire_alliance(actor=organiser, alliance=alliance, reason="Gone")
    with refused("Wardens has already been retired."):
        services.retire_alliance(actor=organiser, alliance=alliance, reason="Gone")


def test_a_player_picks_an_alliance_for_their_force(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force(campaign=campaign, name="Iron Host")
    revision = reload(force).revision

    services.choose_alliance(actor=force.player, force=force, alliance=alliance)

    force = reload(force)
    assert force.alliance == alliance
    assert force.revision > revision
    entry = latest_history(HistoryAction.FORCE_ALLIANCE_CHANGED)
    assert (entry.force, entry.actor, entry.summary) == (
        force,
        force.player,
        "Iron Host fights for Wardens",
    )
    assert entry.changes == {"alliance": [None, "Wardens"]}


def test_once_picked_the_player_cannot_change_it(campaign, organiser):
    first, second = define(campaign, organiser), define(campaign, organiser, name="Raiders")
    force = make_force(campaign=campaign)
    services.choose_alliance(actor=force.player, force=force, alliance=first)

    with refused(containing=["only an organiser can change that"]):
        services.choose_alliance(actor=force.player, force=force, alliance=second)


def test_a_player_cannot_pick_for_another_players_force(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force(campaign=campaign)

    with refused("Only the force's player picks its alliance."):
        services.choose_alliance(actor=make_user(), force=force, alliance=alliance)


def test_a_player_cannot_pick_another_campaigns_alliance(campaign, organiser):
    theirs = define(make_campaign(organiser=organiser), organiser)
    force = make_force(campaign=campaign)

    with refused("That is not one of this campaign's alliances.") as info:
        services.choose_alliance(actor=force.player, force=force, alliance=theirs)
    assert "alliance" in info.value.message_dict


def test_a_force_outside_any_campaign_has_no_alliance_to_pick(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force()

    with refused("That is not one of this campaign's alliances."):
        services.choose_alliance(actor=force.player, force=force, alliance=alliance)


def test_a_player_cannot_pick_a_retired_alliance(campaign, organiser):
    alliance = define(campaign, organiser)
    services.retire_alliance(actor=organiser, alliance=alliance, reason="Gone")
    force = make_force(campaign=campaign)

    with refused("Wardens has been retired: pick another."):
        services.choose_alliance(actor=force.player, force=force, alliance=alliance)


def test_an_organiser_changes_a_forces_alliance_with_a_reason(campaign, organiser):
    first, second = define(campaign, organiser), define(campaign, organiser, name="Raiders")
    force = make_force(campaign=campaign)
    services.choose_alliance(actor=force.player, force=force, alliance=first)

    services.change_force_alliance(
        actor=organiser, force=force, alliance=second, reason="Betrayed the Wardens"
    )

    assert reload(force).alliance == second
    entry = latest_history(HistoryAction.FORCE_ALLIANCE_CHANGED)
    assert (entry.actor, entry.reason, entry.changes) == (
        organiser,
        "Betrayed the Wardens",
        {"alliance": ["Wardens", "Raiders"]},
    )


def test_an_organiser_can_take_a_force_out_of_its_alliance(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force(campaign=campaign, name="Iron Host")
    services.choose_alliance(actor=force.player, force=force, alliance=alliance)

    services.change_force_alliance(actor=organiser, force=force, alliance=None, reason="Deserted")

    assert reload(force).alliance is None
    entry = latest_history(HistoryAction.FORCE_ALLIANCE_CHANGED)
    assert entry.summary == "Iron Host left the Wardens alliance"
    assert entry.changes == {"alliance": ["Wardens", None]}


def test_an_organisers_change_needs_a_reason(campaign, organiser):
    alliance = define(campaign, organiser)
    force = make_force(campaign=campaign)

    with refused() as info:
        services.change_force_alliance(actor=organiser, force=force, alliance=alliance, reason="")
    assert "reason" in info.value.message_dict


def test_an_organisers_change_stays_within_the_campaign_and_its_live_alliances(campaign, organiser):
    theirs = define(make_campaign(organiser=organiser), organiser)
    retired = define(campaign, organiser, name="Fallen")
    services.retire_alliance(actor=organiser, alliance=retired, reason="Gone")
    force = make_force(campaign=campaign)

    with refused("That is not one of this campaign's alliances."):
        services.change_force_alliance(actor=organiser, force=force, alliance=theirs, reason="x")
    with refused("Fallen has been retired: pick another."):
        services.change_force_alliance(actor=organiser, force=force, alliance=retired, reason="x")
    with refused("The force already fights for that alliance."):
        services.change_force_alliance(actor=organiser, force=force, alliance=None, reason="x")


def sample_pack(organiser, campaign=None):
    return services.import_pack(actor=organiser, data=SAMPLE_PACK.read_bytes(), campaign=campaign)


def test_enabling_a_pack_gives_the_campaign_its_alliances(campaign, organiser):
    pack = sample_pack(organiser)

    services.enable_pack(actor=organiser, campaign=campaign, pack=pack)

    alliances = list(campaign.alliances.order_by("pk"))
    assert [(a.name, a.colour) for a in alliances] == [
        ("Wardens of the Vell", "#2f6fb3"),
        ("The Besieging Host", "#b3302f"),
        ("Scavenger Bands", "#c9a227"),
    ]
    assert all(a.pack_item.pack == pack and a.description for a in alliances)
    formed = HistoryEntry.objects.filter(action=HistoryAction.ALLIANCE_CHANGED, campaign=campaign)
    assert formed.count() == 3
    assert not formed.filter(force__isnull=False).exists()


def test_importing_a_pack_into_a_campaign_gives_it_the_alliances_too(campaign, organiser):
    sample_pack(organiser, campaign)

    assert campaign.alliances.count() == 3


def test_a_pack_alliance_whose_name_the_campaign_has_is_left_out(campaign, organiser):
    own = define(campaign, organiser, name="wardens of the vell", colour="#000000")

    sample_pack(organiser, campaign)

    assert campaign.alliances.count() == 3
    assert reload(own).colour == "#000000"
    assert reload(own).pack_item is None


def test_turning_the_pack_off_keeps_its_alliances_and_their_forces(campaign, organiser):
    pack = sample_pack(organiser)
    services.enable_pack(actor=organiser, campaign=campaign, pack=pack)
    force = make_force(campaign=campaign)
    wardens = campaign.alliances.get(name="Wardens of the Vell")
    services.choose_alliance(actor=force.player, force=force, alliance=wardens)

    services.disable_pack(actor=organiser, campaign=campaign, pack=pack, reason="Next season")
    services.enable_pack(actor=organiser, campaign=campaign, pack=pack)

    assert campaign.alliances.count() == 3
    assert reload(force).alliance == wardens


def test_a_retired_pack_alliance_is_not_copied(campaign, organiser):
    pack = sample_pack(organiser)
    item = pack.items.get(kind=CustomContent.Kind.ALLIANCE, key="scavengers")
    services.retire_custom_content(actor=organiser, content=item, reason="Not this season")

    services.enable_pack(actor=organiser, campaign=campaign, pack=pack)

    assert "Scavenger Bands" not in set(campaign.alliances.values_list("name", flat=True))


VERSION_1 = Path(__file__).parent / "data" / "force-export-v1.json"


def restore(document, campaign):
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)
    return services.restore_force(actor=player, player=player, campaign=campaign, document=document)


def fighting_for(campaign, organiser, name="Wardens"):
    alliance = define(campaign, organiser, name=name)
    force = make_force(campaign=campaign)
    services.choose_alliance(actor=force.player, force=force, alliance=alliance)
    return force


def test_an_export_names_the_forces_alliance(campaign, organiser):
    force = fighting_for(campaign, organiser)

    document = selectors.force_document(force)

    assert document["force"]["alliance"] == "Wardens"
    assert document["version"] == documents.VERSION


def test_an_export_of_a_force_without_an_alliance_names_none(campaign):
    assert selectors.force_document(make_force(campaign=campaign))["force"]["alliance"] == ""


def test_a_restore_fights_for_the_alliance_of_that_name_in_the_new_campaign(organiser):
    document = selectors.force_document(fighting_for(make_campaign(), organiser))
    elsewhere = make_campaign(organiser=organiser)
    wardens = define(elsewhere, organiser)

    restored = restore(document, elsewhere)

    assert restored.alliance == wardens
    assert selectors.force_document(restored)["force"]["alliance"] == "Wardens"


@pytest.mark.parametrize("theirs", ["Raiders", "wardens", None])
def test_a_restore_fights_for_none_without_exactly_that_name(organiser, theirs):
    document = selectors.force_document(fighting_for(make_campaign(), organiser))
    elsewhere = make_campaign(organiser=organiser)
    if theirs:
        define(elsewhere, organiser, name=theirs)

    assert restore(document, elsewhere).alliance is None


def test_a_restore_does_not_join_a_retired_alliance(organiser):
    document = selectors.force_document(fighting_for(make_campaign(), organiser))
    elsewhere = make_campaign(organiser=organiser)
    services.retire_alliance(actor=organiser, alliance=define(elsewhere, organiser), reason="x")

    assert restore(document, elsewhere).alliance is None


def test_exports_made_before_alliances_still_restore_without_one(campaign, organiser):
    define(campaign, organiser)
    version_1 = json.loads(VERSION_1.read_text())
    version_2 = selectors.force_document(make_force(campaign=make_campaign()))
    del version_2["force"]["alliance"]
    del version_2["signature"]

    assert "alliance" not in version_1["force"]
    assert restore(version_1, campaign).alliance is None
    assert restore(version_2, campaign).alliance is None


@pytest.mark.parametrize("value", [3, ["Wardens"], {"name": "Wardens"}, "x" * 81])
def test_a_restore_refuses_an_alliance_that_is_not_a_name(campaign, value):
    document = selectors.force_document(make_force(campaign=make_campaign()))
    document["force"]["alliance"] = value
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)

    with refused("force.alliance must be the name of an alliance, or empty."):
        services.restore_force(actor=player, player=player, campaign=campaign, document=document)
