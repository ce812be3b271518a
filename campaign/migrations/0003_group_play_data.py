"""The data of group play's schema change: each step brings rows written before it in
step with the new fields (a migration of its own: see 0002)."""

from django.db import migrations

from campaign import rules

# Values the rows were written with before history actions became a fixed list.
RENAMED_ACTIONS = {
    "force_banner": "force_banner_changed",
    "unit_picture": "unit_picture_changed",
    "custom_content_removed": "custom_content_deleted",
}
RENOWNED_PREFIX = f"{rules.Requisition.RENOWNED_HEROES.label}: "

TABLE_KEYWORDS = {"Infantry": "is_infantry", "Mounted": "is_mounted", "Vehicle": "is_vehicle"}
"""The traits table a card named now becomes the keyword the table is chosen by."""


def settled_by_and_action_names(apps, schema_editor):
    """How each settled promotion was settled becomes a field; old action names are renamed."""
    Promotion = apps.get_model("campaign", "Promotion")
    HistoryEntry = apps.get_model("campaign", "HistoryEntry")
    for promotion in Promotion.objects.filter(status="settled").only("settled_with"):
        if promotion.settled_with.startswith(RENOWNED_PREFIX):
            promotion.settled_by = "renowned_heroes"
            promotion.settled_with = promotion.settled_with[len(RENOWNED_PREFIX) :]
        else:
            promotion.settled_by = "battle_honour"
        promotion.save(update_fields=["settled_by", "settled_with"])
    for old, new in RENAMED_ACTIONS.items():
        HistoryEntry.objects.filter(action=old).update(action=new)


def settled_with_text_and_old_action_names(apps, schema_editor):
    Promotion = apps.get_model("campaign", "Promotion")
    HistoryEntry = apps.get_model("campaign", "HistoryEntry")
    for promotion in Promotion.objects.filter(settled_by="renowned_heroes"):
        promotion.settled_with = RENOWNED_PREFIX + promotion.settled_with
        promotion.save(update_fields=["settled_with"])
    for old, new in RENAMED_ACTIONS.items():
        HistoryEntry.objects.filter(action=new).update(action=old)


def unit_points(unit, honours, scars) -> int:
    """A card's Crusade points from its held honours and scars, as the rules count them."""
    relics = [h.relic_category for h in honours if h.category == "crusade_relic"]
    return rules.crusade_points(
        battle_honours=len(honours) - len(relics),
        battle_scars=len(scars),
        titanic=unit.is_titanic,
        relics=relics,
    )


def store_totals(apps, schema_editor):
    """Fill in each force's stored totals from its active cards."""
    CrusadeForce = apps.get_model("campaign", "CrusadeForce")
    Unit = apps.get_model("campaign", "Unit")
    for force in CrusadeForce.objects.all():
        units = Unit.objects.filter(force=force, status="active")
        force.supply_used = sum(u.points for u in units if u.counts_towards_supply)
        force.unit_count = len(units)
        force.crusade_points = sum(
            unit_points(
                u,
                list(u.honours.filter(status="active")),
                list(u.scars.filter(status="active")),
            )
            for u in units
        )
        force.save(update_fields=["supply_used", "unit_count", "crusade_points"])


def keywords_and_enhancement_points(apps, schema_editor):
    """Traits tables become keywords; cards whose points left out their Enhancement (it was
    given on the new-unit form, not bought) now include it, with a history row each."""
    Unit = apps.get_model("campaign", "Unit")
    HistoryEntry = apps.get_model("campaign", "HistoryEntry")
    for table, flag in TABLE_KEYWORDS.items():
        Unit.objects.filter(trait_table=table).update(**{flag: True})
    bought = apps.get_model("campaign", "RequisitionPurchase").objects.filter(
        requisition=rules.Requisition.RENOWNED_HEROES
    )
    left_out = (
        Unit.objects.filter(enhancement_points__gt=0)
        .exclude(pk__in=bought.values("unit_id"))
        .select_related("force")
    )
    for unit in left_out:
        before = unit.points
        unit.points += unit.enhancement_points
        unit.save(update_fields=["points"])
        HistoryEntry.objects.create(
            action="unit_corrected",
            summary=f"{unit.name}: its points now include its Enhancement",
            reason="A unit's points value includes its Enhancement.",
            changes={"points": [before, unit.points]},
            campaign_id=unit.force.campaign_id,
            force_id=unit.force_id,
            unit=unit,
        )
        force = unit.force
        if unit.status == "active" and unit.counts_towards_supply:
            force.supply_used += unit.enhancement_points
            force.save(update_fields=["supply_used"])


def accepted_and_recorded_sides(apps, schema_editor):
    """Battles started before invitations existed: every side was committed from the
    start, so each is accepted; a side with a result recorded it (claimed that result),
    when the battle completed, by whoever recorded the battle."""
    Participant = apps.get_model("campaign", "BattleParticipant")
    HistoryEntry = apps.get_model("campaign", "HistoryEntry")
    Participant.objects.update(invitation="accepted")
    recorders = {
        (entry.battle_id, entry.force_id): entry.actor_id
        for entry in HistoryEntry.objects.filter(action="battle_recorded").order_by("pk")
    }
    for side in Participant.objects.exclude(result="").select_related("battle"):
        battle = side.battle
        side.claimed_result = side.result
        side.recorded_at = battle.completed_at or battle.created_at
        side.recorded_by_id = recorders.get((battle.pk, side.force_id), battle.created_by_id)
        side.save(update_fields=["claimed_result", "recorded_at", "recorded_by"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0002_group_play"),
    ]

    operations = [
        migrations.RunPython(settled_by_and_action_names, settled_with_text_and_old_action_names),
        migrations.RunPython(store_totals, migrations.RunPython.noop),
        migrations.RunPython(keywords_and_enhancement_points, migrations.RunPython.noop),
        migrations.RunPython(accepted_and_recorded_sides, migrations.RunPython.noop),
    ]
