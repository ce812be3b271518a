"""`manage.py load_demo` gives working demo logins, however often it runs."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

pytestmark = pytest.mark.django_db


def test_it_creates_logins_that_work_and_can_run_twice(capsys):
    call_command("load_demo")
    call_command("load_demo")

    request = RequestFactory().post("/accounts/login/")
    for username in ("organiser", "alice", "bruno", "chen"):
        assert authenticate(request, username=username, password="crusade-demo") is not None
    assert authenticate(request, username="admin", password="crusade-admin").is_superuser
    assert "Demo logins:" in capsys.readouterr().out


def test_it_makes_the_organiser_staff_but_not_a_superuser():
    from campaign.management.commands.load_demo import ensure_demo_users

    organiser = ensure_demo_users()["organiser"]

    assert organiser.is_staff
    assert not organiser.is_superuser


def test_it_builds_the_demo_campaign_once_with_everything_a_newcomer_should_see():
    from campaign import rules
    from campaign.models import Battle, BattleHonour, Campaign, CrusadeForce, HistoryEntry, Unit

    call_command("load_demo")
    history_rows = HistoryEntry.objects.count()
    call_command("load_demo")

    assert Campaign.objects.count() == 1
    assert HistoryEntry.objects.count() == history_rows, "a second run must change nothing"
    assert CrusadeForce.objects.values("faction").distinct().count() == 3
    active = Unit.objects.active()
    assert {u.rank for u in active} == set(rules.Rank), "units at every rank"
    categories = set(
        BattleHonour.objects.filter(status="active").values_list("category", flat=True)
    )
    assert {"battle_trait", "weapon_modification", "crusade_relic"} <= categories
    assert Unit.objects.filter(scars__status="active", status="active").exists()
    removed = Unit.objects.get(status="removed")
    assert removed.out_of_action_tests.filter(outcome="removed").exists()
    assert Battle.objects.filter(status="completed").count() >= 3
    assert Battle.objects.filter(status="in_progress").count() == 1


def test_it_enables_the_sample_pack_with_agendas_achieved_and_an_underdogs_blessing():
    """Issue 19's demo: Agendas achieved on cards (R11.1) and a Blessing the underdog
    picked (R11.3), so a newcomer sees both at once."""
    from campaign.models import AgendaAchievement, BlessingPick, ContentPack, Unit

    call_command("load_demo")

    assert ContentPack.objects.filter(slug="sample-house-rules", enabled_in__isnull=False).exists()
    achieved = AgendaAchievement.objects.filter(
        battle_unit__participant__battle__status="completed"
    )
    assert achieved.count() >= 3
    assert any(unit.agenda_tallies for unit in Unit.objects.all())
    pick = BlessingPick.objects.select_related("participant__battle").get()
    assert pick.participant.battle.status == "in_progress"
    assert pick.gap >= 3


def test_it_invites_a_newcomer_who_is_not_a_member_until_she_answers():
    from campaign.models import CampaignInvitation, Membership

    call_command("load_demo")

    invitation = CampaignInvitation.objects.get(user__username="dana")
    assert invitation.status == CampaignInvitation.Status.PENDING
    assert invitation.role == Membership.Role.PLAYER
    assert not Membership.objects.filter(user__username="dana").exists()
