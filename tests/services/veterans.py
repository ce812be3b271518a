"""A force with a past, for the tests that take a force out and bring it back."""

from __future__ import annotations

from django.utils import timezone

from campaign import services
from campaign.models import BattleHonour, BattleScar, CrusadeForce
from tests.factories import make_campaign
from tests.services import earned
from tests.services.cards import commissar, krieg_force, krieg_squad
from tests.services.fights import fight


def veteran_force() -> CrusadeForce:
    """A force with a past: battles, XP, every kind of honour, scars held and repaired, a
    promotion waiting, requisitions bought, campaign content and a removed unit."""
    campaign = make_campaign(name="The Long War")
    force = krieg_force(campaign=campaign, goals="Hold the line", vendettas="The Plague Wall")
    commissar_ = commissar(force, wargear="Power fist, plasma pistol")
    earned.renowned_hero(commissar_)
    squad = krieg_squad(force, name="Squad Keller", is_battleline=True)
    fight([commissar_, squad])
    earned.set_xp(commissar_, 20)
    earned.grant_trait(commissar_, "Natural Leader")
    earned.grant_relic(commissar_, "Master-crafted Armour")
    earned.grant_weapon_mods(commissar_, "Power fist")
    trait = earned.campaign_content(
        "battle_trait", "Veteran of Vraks", campaign=campaign, trait_table="Infantry"
    )
    first = earned.grant_trait(squad, "Obdurate Obedience")
    first.status, first.lost_at = BattleHonour.Status.LOST, timezone.now()
    first.lost_reason = "Devastating Blow"
    first.save()
    squad.honours.create(
        category="battle_trait",
        name=trait.name,
        effect="+1 Ld",
        custom_content=trait,
        replaces=first,
    )
    scar, _ = earned.old_scars(squad, "Fatigued", "Deep Scars")
    scar.status, scar.removed_at = BattleScar.Status.REPAIRED, timezone.now()
    scar.save()
    earned.pending_promotion(squad)
    earned.set_rp(force, 6)
    services.increase_supply_limit(actor=force.player, force=force)
    gone = krieg_squad(force, name="Squad Morn", counts_towards_supply=False)
    services.remove_unit(actor=force.player, unit=gone, reason="Lost at the gate")
    return CrusadeForce.objects.get(pk=force.pk)
