"""Battles from before invitations, brought in step (a migration of its own: on
PostgreSQL, rows written in the schema change's transaction would leave pending trigger
events that its deferred CREATE INDEX refuses)."""

from django.db import migrations


def forwards(apps, schema_editor):
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
        ("campaign", "0005_battle_consent"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
