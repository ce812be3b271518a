"""Staff status follows roles (`campaign.services.staff.should_be_staff`): from here on a
user is staff exactly while they organise a campaign, or are a superuser. Rows written
before kept staff after a demotion, and staff handed out by hand to users who organise
nothing; this brings every user in step, with a history row for each change. (A data
migration of its own, as 0003: see 0002.)

Taking staff away from a non-superuser who organises nothing closes nothing they could
use: the organisers' admin showed them no campaign's data. Organisers without staff
status (possible only by editing users by hand) get it, as every organiser has it now.
Undoing the migration leaves staff status as it is."""

from django.db import migrations

ORGANISER = "organiser"


def staff_follows_roles(apps, schema_editor):
    User = apps.get_model(*_user_model())
    Membership = apps.get_model("campaign", "Membership")
    HistoryEntry = apps.get_model("campaign", "HistoryEntry")
    organised = {}
    for user_id, campaign_id in (
        Membership.objects.filter(role=ORGANISER).order_by("campaign_id").values_list(
            "user_id", "campaign_id"
        )
    ):
        organised.setdefault(user_id, campaign_id)
    rows = []
    closed = User.objects.filter(is_staff=True, is_superuser=False).exclude(pk__in=organised)
    for user in closed.only("pk", "username"):
        rows.append(
            HistoryEntry(
                action="member_role_changed",
                summary=f"{user.username} organises no campaign: the organisers' admin is "
                "closed to them (staff status now follows the organiser role)",
                changes={"is_staff": [True, False]},
            )
        )
    opened = User.objects.filter(is_staff=False, pk__in=organised)
    for user in opened.only("pk", "username"):
        rows.append(
            HistoryEntry(
                action="member_role_changed",
                summary=f"{user.username} organises a campaign and can now use the "
                "organisers' admin (staff status now follows the organiser role)",
                changes={"is_staff": [False, True]},
                campaign_id=organised[user.pk],
            )
        )
    closed.update(is_staff=False)
    opened.update(is_staff=True)
    HistoryEntry.objects.bulk_create(rows)


def _user_model():
    from django.conf import settings

    return settings.AUTH_USER_MODEL.split(".")


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0007_consent_invitations"),
    ]

    operations = [migrations.RunPython(staff_follows_roles, migrations.RunPython.noop)]
