"""Style rule 4: every service call leaves a history row (who, what, the numbers)."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.files.base import ContentFile

from campaign import rules, selectors, services
from campaign.models import (
    Alliance,
    ContentPack,
    EnabledPack,
    HistoryEntry,
    Territory,
    history_action_choices,
)
from campaign.services import UnitOutcome
from tests.blessings import blessing, blessing_pack, give_honours
from tests.factories import make_campaign, make_user
from tests.maps.helpers import encode as encode_map
from tests.maps.helpers import small as small_map
from tests.packs.helpers import SAMPLE as SAMPLE_PACK
from tests.services.cards import commissar, krieg_force, krieg_squad
from tests.services.checks import latest_history
from tests.services.earned import grant_trait, old_scars, pending_promotion, set_xp
from tests.services.fights import destroyed_in_battle, fight, go_to_battle

pytestmark = pytest.mark.django_db

PUBLIC_HOOK = "https://93.184.216.34/api/webhooks/1/token"

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00"
    b"\x00\x00IEND\xaeB`\x82"
)


@dataclass
class World:
    """A campaign with one force, a leader and a squad; `actor` is the force's player."""

    organiser: object
    campaign: object
    force: object
    leader: object
    squad: object

    @property
    def actor(self):
        return self.force.player


def world() -> World:
    organiser = make_user()
    campaign = make_campaign(organiser=organiser)
    force = krieg_force(campaign=campaign)
    return World(organiser, campaign, force, commissar(force), krieg_squad(force))


def failed(w: World):
    test = destroyed_in_battle(w.squad, leader=w.leader)
    return services.take_out_of_action_test(actor=w.actor, test=test, roll=1)


def recorded(w: World):
    return fight([w.leader, w.squad]).battle


def invitation(w: World, *, to_me: bool = False):
    """A battle between the world's force and a rival's; the invited side (the world's
    force when `to_me`, started by the rival's player; else the rival's)."""
    rival = krieg_force(campaign=w.campaign, name="Rival Regiment")
    starter, invited = (rival, w.force) if to_me else (w.force, rival)
    battle = services.start_battle(
        actor=starter.player, force=starter, opponents=[invited], battle_size="Incursion"
    )
    return battle.participants.get(force=invited)


CALLS: dict[str, Callable[[World], object]] = {
    "create_campaign": lambda w: services.create_campaign(actor=w.actor, name="Vraks"),
    "start_campaign": lambda w: services.start_campaign(actor=w.actor, name="Armageddon"),
    "join_campaign": lambda w: services.join_campaign(
        actor=w.organiser, user=w.organiser, campaign=make_campaign()
    ),
    "invite_to_campaign": lambda w: services.invite_to_campaign(
        actor=w.organiser, user=make_user(), campaign=w.campaign, role="organiser"
    ),
    "accept_campaign_invitation": lambda w: services.accept_campaign_invitation(
        actor=w.actor, invitation=invited(w)
    ),
    "decline_campaign_invitation": lambda w: services.decline_campaign_invitation(
        actor=w.actor, invitation=invited(w)
    ),
    "withdraw_campaign_invitation": lambda w: services.withdraw_campaign_invitation(
        actor=w.organiser, invitation=invited(w)
    ),
    "define_phase": lambda w: services.define_phase(
        actor=w.organiser, campaign=w.campaign, name="The Landing"
    ),
    "advance_phase": lambda w: (
        services.advance_phase(
            actor=w.organiser,
            campaign=w.campaign,
            reason="The fleet arrives",
            from_phase=None,
        )
        if services.define_phase(actor=w.organiser, campaign=w.campaign, name="The Landing")
        else None
    ),
    "set_scoring": lambda w: services.set_scoring(
        actor=w.organiser, campaign=w.campaign, points_for_win=5
    ),
    "set_house_rules": lambda w: services.set_house_rules(
        actor=w.actor, campaign=w.campaign, supply_limit_increase=250
    ),
    "create_force": lambda w: services.create_force(
        actor=w.actor, player=w.actor, name="Cadian 8th", faction="Astra Militarum"
    ),
    "bring_force_into_campaign": lambda w: services.bring_force_into_campaign(
        actor=w.actor,
        force=krieg_force(player=w.actor, name="Cadian 8th"),
        campaign=w.campaign,
    ),
    "update_force_details": lambda w: services.update_force_details(
        actor=w.actor, force=w.force, goals="Take the Citadel"
    ),
    "add_unit": lambda w: krieg_squad(w.force, "Grenadiers"),
    "update_unit_details": lambda w: services.update_unit_details(
        actor=w.actor, unit=w.squad, notes="Dug in"
    ),
    "remove_unit": lambda w: services.remove_unit(actor=w.actor, unit=w.squad, reason="Lost"),
    "set_unit_picture": lambda w: services.set_unit_picture(
        actor=w.actor,
        unit=w.squad,
        picture=ContentFile(PNG, name="squad.png"),
        thumbnail=ContentFile(PNG, name="squad-thumb.png"),
    ),
    "set_force_banner": lambda w: services.set_force_banner(
        actor=w.actor,
        force=w.force,
        banner=ContentFile(PNG, name="banner.png"),
        thumbnail=ContentFile(PNG, name="banner-thumb.png"),
    ),
    "write_log_entry": lambda w: services.write_log_entry(
        actor=w.actor,
        campaign=w.campaign,
        title="Dawn at Vraks",
        text="The guns spoke.",
        picture=ContentFile(PNG, name="log.png"),
    ),
    "edit_log_entry": lambda w: services.edit_log_entry(
        actor=w.actor, entry=log_entry(w), title="Dusk at Vraks"
    ),
    "hide_log_entry": lambda w: services.hide_log_entry(
        actor=w.organiser, entry=log_entry(w), reason="Spoils the finale"
    ),
    "show_log_entry": lambda w: services.show_log_entry(
        actor=w.organiser,
        entry=services.hide_log_entry(actor=w.organiser, entry=log_entry(w), reason="Spoiler"),
        reason="After the finale",
    ),
    "start_battle": lambda w: services.start_battle(
        actor=w.actor, force=w.force, battle_size="Incursion"
    ),
    "accept_invitation": lambda w: services.accept_invitation(
        actor=w.actor, participant=invitation(w, to_me=True)
    ),
    "decline_invitation": lambda w: services.decline_invitation(
        actor=w.actor, participant=invitation(w, to_me=True)
    ),
    "withdraw_invitation": lambda w: services.withdraw_invitation(
        actor=w.actor, participant=invitation(w)
    ),
    "cancel_battle": lambda w: services.cancel_battle(actor=w.actor, battle=invitation(w).battle),
    "muster_army": lambda w: go_to_battle([w.leader, w.squad]),
    "record_side": lambda w: go_to_battle([w.leader, w.squad]).record_side(w.force),
    "record_battle_end": recorded,
    "settle_battle": lambda w: services.settle_battle(
        actor=w.organiser,
        battle=(battle := go_to_battle([w.leader, w.squad]).battle),
        results={battle.participants.get().pk: "win"},
        reason="Recorded for a player away on holiday",
    ),
    "take_out_of_action_test": failed,
    "resolve_out_of_action": lambda w: services.resolve_out_of_action(
        actor=w.actor, test=failed(w), choice=rules.OutOfAction.BATTLE_SCAR, scar_name="Fatigued"
    ),
    "void_battle": lambda w: services.void_battle(
        actor=w.actor, battle=recorded(w), reason="Wrong mission"
    ),
    "settle_with_battle_trait": lambda w: grant_trait(w.squad, "Headhunters"),
    "settle_with_weapon_modification": lambda w: services.settle_with_weapon_modification(
        actor=w.actor,
        promotion=pending_promotion(w.squad),
        model_name="Watchmaster",
        weapon="Long-las",
        modifications=("Brutal", "Precise"),
    ),
    "settle_with_crusade_relic": lambda w: services.settle_with_crusade_relic(
        actor=w.actor, promotion=pending_promotion(w.leader), relic="Artificer Weapon"
    ),
    "increase_supply_limit": lambda w: services.increase_supply_limit(actor=w.actor, force=w.force),
    "renowned_heroes": lambda w: services.renowned_heroes(
        actor=w.actor, unit=w.leader, enhancement="Drill Commander", enhancement_points=20
    ),
    "legendary_veterans": lambda w: (
        set_xp(w.squad, 30),
        services.legendary_veterans(actor=w.actor, unit=w.squad),
    ),
    "rearm_and_resupply": lambda w: services.rearm_and_resupply(
        actor=w.actor, unit=w.squad, wargear="Lasguns, meltagun", points=75
    ),
    "repair_and_recuperate": lambda w: services.repair_and_recuperate(
        actor=w.actor, unit=w.squad, scar=old_scars(w.squad, "Fatigued")[0]
    ),
    "fresh_recruits": lambda w: services.fresh_recruits(
        actor=w.actor, unit=w.squad, models_added=10, points=145
    ),
    "correct_force": lambda w: services.correct_force(
        actor=w.actor, force=w.force, reason="Typo", rp=7
    ),
    "correct_unit": lambda w: services.correct_unit(
        actor=w.actor, unit=w.squad, reason="Typo", xp=3
    ),
    "update_campaign_details": lambda w: services.update_campaign_details(
        actor=w.organiser, campaign=w.campaign, description="The siege of Vraks Prime"
    ),
    "change_member_role": lambda w: services.change_member_role(
        actor=w.organiser,
        membership=services.accept_campaign_invitation(actor=w.actor, invitation=invited(w)),
        role="player",
    ),
    "add_custom_content": lambda w: services.add_custom_content(
        actor=w.organiser, campaign=w.campaign, kind="battle_scar", name="Shell-shocked"
    ),
    "update_custom_content": lambda w: services.update_custom_content(
        actor=w.organiser, content=custom_scar(w), effect="Cannot fire Overwatch."
    ),
    "inflict_battle_scar": lambda w: services.inflict_battle_scar(
        actor=w.actor, unit=w.squad, reason="Agenda: Gas Attack", scar_name="Fatigued"
    ),
    "retire_custom_content": lambda w: services.retire_custom_content(
        actor=w.organiser, content=custom_scar(w), reason="Not used"
    ),
    "import_pack": lambda w: services.import_pack(
        actor=w.organiser, data=SAMPLE_PACK.read_bytes(), campaign=w.campaign
    ),
    "enable_pack": lambda w: services.enable_pack(
        actor=w.organiser, campaign=w.campaign, pack=library_pack(w)
    ),
    "disable_pack": lambda w: services.disable_pack(
        actor=w.organiser,
        campaign=w.campaign,
        pack=services.enable_pack(
            actor=w.organiser, campaign=w.campaign, pack=library_pack(w)
        ).pack,
        reason="Next season",
    ),
    "buy_pack_requisition": lambda w: services.buy_pack_requisition(
        actor=w.actor, force=w.force, requisition=pack_item(w, "scavenging-party")
    ),
    "correct_counter": lambda w: services.correct_counter(
        actor=w.organiser,
        force=w.force,
        counter=pack_item(w, "salvage"),
        value=3,
        reason="Paper records",
    ),
    "import_roster": lambda w: services.import_roster(
        actor=w.actor,
        force=w.force,
        units=[
            services.NewUnit(name="Squad 2", datasheet="Squad", points=60, faction_keywords="x")
        ],
    ),
    "restore_force": lambda w: services.restore_force(
        actor=w.actor,
        player=w.actor,
        campaign=w.campaign,
        document=selectors.force_document(w.force),
        name="Restored",
    ),
    "pick_blessings": lambda w: services.pick_blessings(
        actor=w.actor, participant=underdog(w), blessings=[blessing_pack_item(w)]
    ),
    "approve_restored_force": lambda w: services.approve_restored_force(
        actor=w.organiser, force=awaiting_approval(w), reason="Paper roster checked"
    ),
    "refuse_restored_force": lambda w: services.refuse_restored_force(
        actor=w.organiser, force=awaiting_approval(w), reason="Not the roster we saw"
    ),
    "define_alliance": lambda w: alliance(w),
    "retire_alliance": lambda w: services.retire_alliance(
        actor=w.organiser, alliance=alliance(w), reason="Wiped out in the last phase"
    ),
    "choose_alliance": lambda w: services.choose_alliance(
        actor=w.actor, force=w.force, alliance=alliance(w)
    ),
    "change_force_alliance": lambda w: services.change_force_alliance(
        actor=w.organiser, force=w.force, alliance=alliance(w), reason="Swapped sides"
    ),
    "import_map": lambda w: services.import_map(
        actor=w.organiser, campaign=w.campaign, data=encode_map(unheld_map())
    ),
    "apply_pack_map": lambda w: services.apply_pack_map(
        actor=w.organiser, campaign=w.campaign, pack=map_pack(w)
    ),
    "define_territory": lambda w: services.define_territory(
        actor=w.organiser, campaign=w.campaign, key="spire", name="The Spire", column=3, row=4
    ),
    "set_territory_holder": lambda w: services.set_territory_holder(
        actor=w.organiser, territory=a_territory(w), alliance=None, reason="Razed"
    ),
    "set_map_rules": lambda w: services.set_map_rules(
        actor=w.organiser, campaign=w.campaign, control_threshold=5
    ),
    "add_webhook": lambda w: webhook(w),
    "change_webhook": lambda w: services.change_webhook(
        actor=w.organiser, webhook=webhook(w), on_log_entry=False
    ),
    "pause_webhook": lambda w: services.pause_webhook(
        actor=w.organiser, webhook=webhook(w), reason="Too chatty"
    ),
    "resume_webhook": lambda w: services.resume_webhook(
        actor=w.organiser,
        webhook=services.pause_webhook(actor=w.organiser, webhook=webhook(w), reason="Away"),
    ),
}


def webhook(w: World):
    """A webhook of the world's campaign, at a public address (an address, no name to
    look up)."""
    return services.add_webhook(
        actor=w.organiser, campaign=w.campaign, name="Discord #crusade", url=PUBLIC_HOOK
    )


def alliance(w: World):
    return services.define_alliance(
        actor=w.organiser, campaign=w.campaign, name="Wardens of the Gate", colour="#3366cc"
    )


def log_entry(w: World):
    """An entry the world's player wrote in the campaign's log."""
    return services.write_log_entry(
        actor=w.actor, campaign=w.campaign, title="Dawn at Vraks", text="The guns spoke."
    )


def unheld_map() -> dict:
    """The small test map with nobody holding anything."""
    data = small_map()
    for territory in data["territories"]:
        territory.pop("held_by", None)
    return data


def map_pack(w: World):
    """A pack of the world's campaign carrying the small test map."""
    data = unheld_map()
    section = {**data["map"], "territories": data["territories"]}
    pack = ContentPack.objects.create(
        slug="reach", name="Reach", source="house rules", campaign=w.campaign, map=section
    )
    EnabledPack.objects.create(campaign=w.campaign, pack=pack)
    return pack


def a_territory(w: World):
    """A territory of the world's campaign, held by an alliance."""
    alliance = Alliance.objects.create(campaign=w.campaign, name="Imperium")
    return Territory.objects.create(
        campaign=w.campaign, key="hive", name="Hive", column=0, row=0, held_by=alliance
    )


def underdog(w: World):
    """The world's force in a battle as the underdog: its rival holds 2 Crusade points."""
    rival = krieg_force(campaign=w.campaign, name="Rival Regiment")
    rival_leader = commissar(rival)
    give_honours(rival_leader, 2)
    battle = go_to_battle(
        [w.leader, w.squad], [rival_leader, krieg_squad(rival)], campaign=w.campaign
    )
    return battle.participant(w.force)


def blessing_pack_item(w: World):
    blessing_pack(w.organiser, w.campaign)
    return blessing("Second Wind", w.campaign)


def invited(w: World):
    """The world's organiser invites its player to organise the campaign."""
    return services.invite_to_campaign(
        actor=w.organiser, user=w.actor, campaign=w.campaign, role="organiser"
    )


def awaiting_approval(w: World):
    """The world's force restored from its export with one word changed: unverified."""
    document = selectors.force_document(w.force)
    document["force"] = {**document["force"], "goals": "Edited by hand"}
    return services.restore_force(
        actor=w.actor, player=w.actor, campaign=w.campaign, document=document, name="Copy"
    )


def pack_item(w: World, key: str):
    """An item of the sample pack, imported into the world's campaign."""
    services.import_pack(actor=w.organiser, data=SAMPLE_PACK.read_bytes(), campaign=w.campaign)
    return w.campaign.enabled_packs.get().pack.items.get(key=key)


def library_pack(w: World):
    return services.import_pack(actor=w.organiser, data=SAMPLE_PACK.read_bytes())


def custom_scar(w: World):
    return services.add_custom_content(
        actor=w.organiser, campaign=w.campaign, kind="battle_scar", name="Gas-blinded"
    )


def test_it_covers_every_service_that_changes_state():
    """A new service gets a row in CALLS, so it is checked below."""
    changers = set(services.__all__) - {
        "NewUnit",
        "RequisitionOption",
        "UnitOutcome",
        "ForceGain",
        "check_army",
        "disagreement",
        "muster_refusal",
        "out_of_action_choices",
        "preview_side",
        "relics_in_force",
        "requisition_options",
        "other_enhancements_read",
        "battle_trait_choices",
        "campaign_content",
        "crusade_relic_choices",
        "units_with_pending_choices",
        "ImportPlan",
        "plan_import",
        "read_document",
        "roster_card",
        "split_unit_key",
        "unique_names",
        "play_refusal",
        "require_approved",
        "read_pack_file",
        "read_map_file",
    }
    assert changers == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_it_writes_a_history_row_naming_who_did_it(name):
    w = world()
    last = HistoryEntry.objects.order_by("-pk").values_list("pk", flat=True).first()

    CALLS[name](w)

    new = HistoryEntry.objects.filter(pk__gt=last)
    assert new.exists()
    assert all(e.actor is not None for e in new)
    assert new.filter(actor=w.actor).exists() or new.filter(actor=w.organiser).exists()
    # A pack imported into the library belongs to no campaign yet.
    assert all(e.force_id or e.campaign_id or e.action == "pack_imported" for e in new)
    assert all(e.summary for e in new)
    assert {e.action for e in new} <= set(dict(history_action_choices()))


def test_it_records_supply_used_before_and_after_adding_a_unit():
    force = krieg_force()
    commissar(force)

    squad = krieg_squad(force)

    entry = latest_history("unit_added", unit=squad)
    assert (entry.actor, entry.force) == (force.player, force)
    assert entry.changes == {"supply_used": [65, 135]}
    assert (
        entry.summary
        == "1st Line Company (Death Korps of Krieg, 70 points) joined 13th Siege Regiment"
    )


def test_it_records_rp_before_and_after_a_requisition():
    force = krieg_force()

    services.increase_supply_limit(actor=force.player, force=force)
    services.increase_supply_limit(actor=force.player, force=force)

    entries = HistoryEntry.objects.filter(action="requisition_increase_supply_limit").order_by("pk")
    assert [e.changes["rp"] for e in entries] == [[5, 4], [4, 3]]
    assert [e.changes["supply_limit"] for e in entries] == [[1000, 1200], [1200, 1400]]


def test_it_records_the_reason_for_a_correction():
    force = krieg_force()
    organiser = make_user()

    services.correct_force(
        actor=organiser, force=force, reason="Forgot the RP from the last battle", rp=6
    )

    entry = latest_history("force_corrected", force=force)
    assert (entry.actor, entry.reason, entry.changes) == (
        organiser,
        "Forgot the RP from the last battle",
        {"rp": [5, 6]},
    )


def test_it_records_a_units_xp_before_and_after_a_battle():
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)

    done = fight([leader, squad], outcomes={squad: UnitOutcome(enemy_units_destroyed=3)})

    entry = latest_history("unit_battle_recorded", unit=squad)
    assert entry.battle == done.battle
    assert entry.changes == {
        "xp": [0, 2],
        "battles_played": [0, 1],
        "battles_survived": [0, 1],
        "units_destroyed": [0, 3],
    }


def test_it_records_crusade_points_before_and_after_a_scar():
    w = world()
    services.resolve_out_of_action(
        actor=w.actor, test=failed(w), choice=rules.OutOfAction.BATTLE_SCAR, scar_name="Fatigued"
    )

    entry = latest_history("out_of_action_resolved", unit=w.squad)
    assert entry.changes == {"crusade_points": [0, -1]}
    assert entry.summary == "1st Line Company gains the Battle Scar Fatigued"
