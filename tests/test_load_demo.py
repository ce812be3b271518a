"""`manage.py load_demo` gives working demo logins, however often it runs."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_it_creates_logins_that_work_and_can_run_twice(capsys):
    call_command("load_demo")
    call_command("load_demo")

    for username in ("organiser", "alice", "bruno", "chen"):
        assert authenticate(username=username, password="crusade-demo") is not None
    assert authenticate(username="admin", password="crusade-admin").is_superuser
    assert "Demo logins:" in capsys.readouterr().out


def test_it_makes_the_organiser_staff_but_not_a_superuser():
    from campaign.management.commands.load_demo import ensure_demo_users

    organiser = ensure_demo_users()["organiser"]

    assert organiser.is_staff
    assert not organiser.is_superuser
