"""The upgrade that makes staff status follow roles (issue 18, item 3): rows written before
it kept staff after a demotion; after it a user is staff exactly while they organise a
campaign, or are a superuser."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import make_user

BEFORE = ("campaign", "0007_consent_invitations")
AFTER = ("campaign", "0008_consent_staff_follows_roles")


@pytest.mark.django_db(transaction=True)
def test_it_brings_every_users_staff_status_in_step_with_their_roles():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    User = old.get_model("auth", "User")
    Campaign = old.get_model("campaign", "Campaign")
    Membership = old.get_model("campaign", "Membership")
    users = {
        name: User.objects.create(username=name, is_staff=staff, is_superuser=superuser)
        for name, staff, superuser in (
            ("demoted", True, False),
            ("clerk", True, False),
            ("organiser", True, False),
            ("unopened", False, False),
            ("root", True, True),
            ("player", False, False),
        )
    }
    vraks = Campaign.objects.create(name="Vraks", invite_code="vraks-code")
    for name, role in (
        ("demoted", "player"),
        ("organiser", "organiser"),
        ("unopened", "organiser"),
        ("player", "player"),
    ):
        Membership.objects.create(campaign=vraks, user=users[name], role=role)

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    staff = dict(new.get_model("auth", "User").objects.values_list("username", "is_staff"))
    rows = new.get_model("campaign", "HistoryEntry").objects.values_list("summary", "changes")

    assert staff == {
        "demoted": False,
        "clerk": False,
        "organiser": True,
        "unopened": True,
        "root": True,
        "player": False,
    }
    changed = {summary.split()[0]: changes for summary, changes in rows}
    assert changed == {
        "demoted": {"is_staff": [True, False]},
        "clerk": {"is_staff": [True, False]},
        "unopened": {"is_staff": [False, True]},
    }

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    make_user("after-the-migration")  # the latest schema is back for the next test
