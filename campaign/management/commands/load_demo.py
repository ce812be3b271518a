"""Load the demo: the logins below and the demo campaign built on them.

Safe to run again and again: users are created if missing and their passwords reset,
so the printed logins always work.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_PASSWORD = "crusade-demo"
ORGANISER = "organiser"
PLAYERS = ("alice", "bruno", "chen")
NEWCOMER = "dana"
"""Not in the campaign yet: the organiser has invited her, and she answers on her dashboard."""
ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "crusade-admin"


def ensure_demo_users() -> dict[str, AbstractUser]:
    """Create or refresh the demo users; return them by username.

    The organiser is staff (can reach the admin) but not a superuser; players are plain
    users; `admin` is the superuser.
    """
    User = get_user_model()
    specs = [
        (ORGANISER, DEMO_PASSWORD, True, False),
        *((player, DEMO_PASSWORD, False, False) for player in (*PLAYERS, NEWCOMER)),
        (ADMIN_USERNAME, ADMIN_PASSWORD, True, True),
    ]
    users = {}
    with transaction.atomic():
        for username, password, is_staff, is_superuser in specs:
            user, _ = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.org"}
            )
            user.is_active = True
            user.is_staff = is_staff
            user.is_superuser = is_superuser
            user.set_password(password)
            user.save()
            users[username] = user
    return users


class Command(BaseCommand):
    help = "Create the demo logins (idempotent) and print them."

    def handle(self, *args: object, **options: object) -> None:
        from campaign.demo import build_demo_campaign, demo_summary

        campaign = build_demo_campaign(ensure_demo_users())
        lines = [
            "",
            "Demo logins:",
            f"  organiser  {ORGANISER} / {DEMO_PASSWORD}  (runs the campaign in the admin)",
            *(f"  player     {player} / {DEMO_PASSWORD}" for player in PLAYERS),
            f"  invited    {NEWCOMER} / {DEMO_PASSWORD}  (answers the organiser's invitation on"
            " her dashboard)",
            f"  superuser  {ADMIN_USERNAME} / {ADMIN_PASSWORD}",
            "",
            f"Demo campaign: {campaign.name}",
            *demo_summary(campaign),
            "",
            "  App:   http://127.0.0.1:8000/",
            "  Admin: http://127.0.0.1:8000/admin/",
            "",
        ]
        self.stdout.write("\n".join(lines))
