"""Every URL pattern, walked as anonymous, outsider, member, owner, organiser and superuser.

One table states who may see what: a login redirect for anonymous users, 404 for
objects outside your campaigns, 403 for pages that change someone else's force,
and 405 for GET on URLs that only take POST. Organisers and superusers see
everything but change players' data only through the admin.
"""

from __future__ import annotations

import pytest

from campaign import email_links, services, urls
from campaign.models import (
    BattleParticipant,
    Campaign,
    CampaignInvitation,
    HistoryEntry,
    Membership,
    OutOfActionTest,
    Phase,
    Promotion,
)
from tests.blessings import blessing
from tests.factories import (
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_unit,
    make_user,
)
from tests.url_names import SIDE_URLS, our_url_names

from .helpers import fight_alone, muster

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "member", "owner", "organiser", "superuser"]
LOGIN = "login"
R, F, NF, NA = 200, 403, 404, 405

# name -> expected status per role (anonymous, outsider, member, owner, organiser, superuser)
READ = (LOGIN, NF, R, R, R, R)
WRITE = (LOGIN, NF, F, R, F, F)
SIGNED_IN = (LOGIN, R, R, R, R, R)
POST_ONLY = (NA, NA, NA, NA, NA, NA)
EXPECTED = {
    "home": (R, R, R, R, R, R),
    "dashboard": SIGNED_IN,
    # The dashboard's poll of what waits for the player (their own, whoever they are).
    "dashboard_live": SIGNED_IN,
    # Mark all as seen: the player's own news, by POST only.
    "dashboard_seen": POST_ONLY,
    # A player's own choice of emails; the link in an email needs no sign-in: its signed
    # token says whose emails it stops (tests/views/test_email_choices.py).
    "email_settings": SIGNED_IN,
    "email_stop": (R, R, R, R, R, R),
    "signup": (R, "redirect", "redirect", "redirect", "redirect", "redirect"),
    "login": (R, R, R, R, R, R),
    "join_with_code": SIGNED_IN,
    "join_campaign": SIGNED_IN,
    # Any signed-in player may start a campaign (CRUSADE_SELF_SERVICE_CAMPAIGNS, on here).
    "campaign_create": SIGNED_IN,
    "campaign_detail": READ,
    "campaign_packs": READ,
    # An organiser starts the campaign's next phase, by POST only (who may: PHASE below).
    "campaign_phase_advance": POST_ONLY,
    # The campaign's log: its members read it and write in it; only an entry's author
    # edits it.
    "campaign_log": READ,
    "log_entry": READ,
    "log_entry_create": READ,
    "log_entry_edit": WRITE,
    # Answering an invitation to a campaign takes POST only (who may: INVITED below).
    "campaign_invitation_accept": POST_ONLY,
    "campaign_invitation_decline": POST_ONLY,
    "force_create": SIGNED_IN,
    "force_detail": READ,
    "force_edit": WRITE,
    # The owner's force is in a campaign already: the page sends them back to it.
    "force_campaign": (LOGIN, NF, F, "redirect", F, F),
    "force_banner": POST_ONLY,
    # The owner picks the force's alliance with a POST (who may: the refusals below).
    "force_alliance": POST_ONLY,
    "force_history": READ,
    "force_print": READ,
    "unit_create": WRITE,
    "unit_supply_check": WRITE,
    "force_requisition": POST_ONLY,
    "force_pack_requisition": POST_ONLY,
    # Importing a list: a new force is anyone's; units go only into your own force.
    "force_import": SIGNED_IN,
    "force_import_check": POST_ONLY,
    "force_import_units": WRITE,
    "force_import_units_check": POST_ONLY,
    "force_restore": SIGNED_IN,
    # Exporting is reading: whoever sees the force may take a copy.
    "force_export": READ,
    "force_export_text": READ,
    "unit_detail": READ,
    # The card as a picture to share: whoever sees the card sees its picture.
    "unit_card_image": READ,
    "unit_edit": WRITE,
    "unit_picture": POST_ONLY,
    "unit_remove": WRITE,
    "unit_requisition": WRITE,
    "unit_pack_requisition": POST_ONLY,
    # Other members may look at what a mission could give; only the owner records it.
    "unit_reward": READ,
    "battle_create": SIGNED_IN,
    "battle_detail": READ,
    # The battle page's poll: whoever sees the battle may ask whether it changed.
    "battle_live": READ,
    # Each player records their own side only: the member (the owner's opponent here) too
    # is refused the owner's side. Answering, withdrawing and cancelling take POST only
    # (who may POST them: AT_THE_TABLE below).
    "army_record": WRITE,
    "army_accept": POST_ONLY,
    "army_decline": POST_ONLY,
    "army_withdraw": POST_ONLY,
    "battle_cancel": POST_ONLY,
    "army_muster": WRITE,
    "army_muster_check": POST_ONLY,
    # The underdog's player picks its Blessings on the battle page (POST below).
    "army_blessings": POST_ONLY,
    # Other members may look at a test or promotion; only the owner may act (POST below).
    "out_of_action": READ,
    "promotion_settle": READ,
}
# Django's own account pages and the admin are tested by Django and tests/admin.
NOT_OURS = {
    "logout",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}


def test_it_has_an_expectation_for_every_url_pattern():
    assert our_url_names() - NOT_OURS == set(EXPECTED)


@pytest.fixture
def world():
    """A campaign with an owner (in a battle, with a promotion and a test pending)."""
    organiser = make_user("org", is_staff=True)
    campaign = make_campaign(organiser=organiser)
    owner, member, outsider = make_user("owner"), make_user("member"), make_user("outsider")
    force = make_force(player=owner, campaign=campaign, name="Owner's force")
    rival = make_force(player=member, campaign=campaign, name="Member's force")
    captain = make_character(force, name="Captain")
    squad = make_unit(force, name="Squad")
    rival_captain = make_character(rival, name="Rival captain")
    # A completed battle leaves an Out of Action test; a promotion is created directly.
    fight_alone(force, [captain, squad], destroyed=[squad])  # leaves an Out of Action test
    promotion = Promotion.objects.create(unit=captain, rank=1)
    battle = make_battle(rival, force, campaign=campaign)
    lieutenant = make_character(force, name="Lieutenant")
    side = battle.participants.get(force=force)
    muster(side, [lieutenant])
    muster(battle.participants.get(force=rival), [rival_captain])
    assert not campaign.memberships.filter(user=outsider).exists()
    invitation = services.invite_to_campaign(actor=organiser, user=outsider, campaign=campaign)
    entry = services.write_log_entry(
        actor=owner, campaign=campaign, title="Dawn", text="The guns spoke.", battle=battle
    )
    assert campaign.memberships.filter(user=organiser, role=Membership.Role.ORGANISER).exists()
    return {
        "users": {
            "outsider": outsider,
            "member": member,
            "owner": owner,
            "organiser": organiser,
            "superuser": make_user("root", is_staff=True, is_superuser=True),
        },
        "kwargs": {
            "join_campaign": {"code": campaign.invite_code},
            "email_stop": {"token": email_links.token(owner.pk, "dispute")},
            "campaign_detail": {"pk": campaign.pk},
            "campaign_packs": {"pk": campaign.pk},
            "campaign_phase_advance": {"pk": campaign.pk},
            "campaign_log": {"pk": campaign.pk},
            "log_entry_create": {"pk": campaign.pk},
            "log_entry": {"pk": entry.pk},
            "log_entry_edit": {"pk": entry.pk},
            "campaign_invitation_accept": {"pk": invitation.pk},
            "campaign_invitation_decline": {"pk": invitation.pk},
            # Every page below forces/<pk>/ and units/<pk>/ takes the force's or the unit's pk.
            **{url.name: {"pk": force.pk} for url in urls.force_urls},
            "force_requisition": {"pk": force.pk, "requisition": "increase_supply_limit"},
            **{url.name: {"pk": squad.pk} for url in urls.unit_urls},
            "unit_requisition": {"pk": squad.pk, "requisition": "fresh_recruits"},
            # The campaign has no pack: whose the page is decides before the Requisition.
            "force_pack_requisition": {"pk": force.pk, "item": 1},
            "unit_pack_requisition": {"pk": squad.pk, "item": 1},
            "battle_detail": {"pk": battle.pk},
            "battle_live": {"pk": battle.pk},
            "battle_cancel": {"pk": battle.pk},
            **{name: {"pk": side.pk} for name in SIDE_URLS},
            "out_of_action": {"pk": OutOfActionTest.objects.get(unit=squad).pk},
            "promotion_settle": {"pk": promotion.pk},
        },
        "rival_captain": rival_captain,
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_it_answers_each_role_as_the_access_table_says(client, world, name):
    from django.urls import reverse

    url = reverse(name, kwargs=world["kwargs"].get(name, {}))
    for role, expected in zip(ROLES, EXPECTED[name], strict=True):
        client.logout()
        if role != "anonymous":
            client.force_login(world["users"][role])
        response = client.get(url)
        where = f"{name} as {role}"
        if expected == LOGIN:
            assert response.status_code == 302, where
            assert response["Location"].startswith("/accounts/login/"), where
        elif expected == "redirect":
            assert response.status_code == 302, where
        else:
            assert response.status_code == expected, where


@pytest.mark.parametrize(
    "name",
    [
        "force_edit",
        "force_campaign",
        "unit_edit",
        "unit_remove",
        "unit_requisition",
        "unit_reward",
        "out_of_action",
        "promotion_settle",
        "force_requisition",
        "force_pack_requisition",
        "force_alliance",
        "unit_pack_requisition",
        "army_muster",
        "force_import_units",
        "force_import_units_check",
        "army_record",
        "army_accept",
        "army_decline",
        "army_blessings",
        "log_entry_edit",
    ],
)
@pytest.mark.parametrize("role", ["member", "organiser", "superuser"])
def test_it_refuses_changes_from_anyone_who_does_not_own_the_force(client, world, name, role):
    from django.urls import reverse

    client.force_login(world["users"][role])
    history = HistoryEntry.objects.count()

    response = client.post(reverse(name, kwargs=world["kwargs"][name]), {"reason": "mine now"})

    assert response.status_code == 403
    assert HistoryEntry.objects.count() == history


# Who may start a campaign's next phase: its organisers (and superusers, who organise
# every campaign); a player of it is refused, and for an outsider it does not exist.
ADVANCED = 302
PHASE = (LOGIN, NF, F, F, ADVANCED, ADVANCED)


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_only_organisers_start_the_next_phase(client, world, role):
    from django.urls import reverse

    campaign = Campaign.objects.get(pk=world["kwargs"]["campaign_detail"]["pk"])
    first = Phase.objects.create(campaign=campaign, position=1, name="Landfall")
    expected = PHASE[ROLES.index(role)]
    if role != "anonymous":
        client.force_login(world["users"][role])
    history = HistoryEntry.objects.count()

    response = client.post(
        reverse("campaign_phase_advance", args=[campaign.pk]), {"from_phase": ""}
    )

    assert response.status_code == (302 if expected == LOGIN else expected), role
    campaign.refresh_from_db()
    if expected == ADVANCED:
        assert campaign.current_phase == first
        assert HistoryEntry.objects.count() == history + 1
    else:
        assert campaign.current_phase is None
        assert HistoryEntry.objects.count() == history
    if expected == LOGIN:
        assert response["Location"].startswith("/accounts/login/")


# Who may POST an answer to an invitation to a campaign: the invited user alone (here the
# outsider, invited to the owner's campaign); for anyone else it does not exist. As ROLES.
ANSWERED = 302
INVITED = (LOGIN, ANSWERED, NF, NF, NF, NF)


@pytest.mark.parametrize("name", ["campaign_invitation_accept", "campaign_invitation_decline"])
@pytest.mark.parametrize("role", ROLES)
def test_it_lets_only_the_invited_user_answer_an_invitation(client, world, name, role):
    from django.urls import reverse

    expected = INVITED[ROLES.index(role)]
    if role != "anonymous":
        client.force_login(world["users"][role])
    history = HistoryEntry.objects.count()

    response = client.post(reverse(name, kwargs=world["kwargs"][name]))

    assert response.status_code == (302 if expected == LOGIN else expected), role
    invitation = CampaignInvitation.objects.get()
    if expected == ANSWERED:
        assert not invitation.is_pending
        assert HistoryEntry.objects.count() > history
    else:
        assert invitation.is_pending
        assert HistoryEntry.objects.count() == history
    if expected == LOGIN:
        assert response["Location"].startswith("/accounts/login/")


# Battle pages, as each person at a two-player battle sees them: the page's state (a
# fixture), its object, and the status for (owner, opponent, member, outsider, organiser).
# The owner started the battle and the opponent was invited.
PEOPLE = ("owner", "opponent", "member", "outsider", "organiser")
AT_THE_TABLE = {
    "battle_detail": ("unmustered", lambda t: t.battle, (R, R, R, NF, R)),
    "battle_live": ("unmustered", lambda t: t.battle, (R, R, R, NF, R)),
    "army_muster": ("unmustered", lambda t: t.mine, (R, F, F, NF, F)),
    "army_record": ("table", lambda t: t.mine, (R, F, F, NF, F)),
    "out_of_action": ("fallen", lambda t: t.test, (R, R, R, NF, R)),
    "promotion_settle": ("promoted", lambda t: t.promotion, (R, R, R, NF, R)),
}


@pytest.mark.parametrize("name", sorted(AT_THE_TABLE))
def test_it_answers_the_people_at_a_battle_as_the_access_table_says(client, request, name):
    from django.urls import reverse

    state, target, expected = AT_THE_TABLE[name]
    table = request.getfixturevalue(state)
    url = reverse(name, args=[target(table).pk])
    for who, status in zip(PEOPLE, expected, strict=True):
        client.force_login(getattr(table, who))
        assert client.get(url).status_code == status, f"{name} as {who}"


DONE = 302
"""The change is made; back to the battle."""
# What each person at the table gets when they POST a change to the battle: the state (a
# fixture), the object, what is posted, and the status for each of PEOPLE. Only the side's
# own player answers its invitation, musters, records it and takes its units' Out of Action
# tests; only the battle's starter withdraws an invitation or cancels the battle.
POSTED_AT_THE_TABLE = {
    "army_accept": ("invited", lambda t: t.theirs, {}, (F, DONE, F, NF, F)),
    "army_decline": ("invited", lambda t: t.theirs, {}, (F, DONE, F, NF, F)),
    "army_withdraw": ("invited", lambda t: t.theirs, {}, (DONE, F, F, NF, F)),
    "battle_cancel": ("unmustered", lambda t: t.battle, {}, (DONE, F, F, NF, F)),
    "army_record": ("table", lambda t: t.mine, "a win", (DONE, F, F, NF, F)),
    "army_muster": ("unmustered", lambda t: t.mine, "an army", (DONE, F, F, NF, F)),
    # Only the underdog's own player picks its Blessings (R11.3).
    "army_blessings": ("underdog", lambda t: t.mine, "a blessing", (DONE, F, F, NF, F)),
    # Out of Action choices are the unit's player's alone, whoever fought against it.
    "out_of_action": (
        "fallen",
        lambda t: t.test,
        {"action": "enter_roll", "roll": 4},
        (DONE, F, F, NF, F),
    ),
}


def _posted(table, what):
    if what == "a win":
        data = {"result": "win", "marked": "", "confirm": "1"}
        for entry in table.mine.army.all():
            data |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
        return data
    if what == "an army":
        return {
            "faction": table.force.faction,
            "detachment": "Gladius",
            "units": [table.captain.pk, table.squad.pk],
            "warlord": table.captain.pk,
        }
    if what == "a blessing":
        return {"blessings": [blessing("Second Wind", table.campaign).pk]}
    return what


@pytest.mark.parametrize("who", PEOPLE)
@pytest.mark.parametrize("name", sorted(POSTED_AT_THE_TABLE))
def test_it_lets_only_the_right_person_at_the_table_post_a_change(client, request, name, who):
    from django.urls import reverse

    state, target, posted, expected = POSTED_AT_THE_TABLE[name]
    status = expected[PEOPLE.index(who)]
    table = request.getfixturevalue(state)
    sides = list(BattleParticipant.objects.order_by("pk").values())
    history = HistoryEntry.objects.count()
    client.force_login(getattr(table, who))

    response = client.post(reverse(name, args=[target(table).pk]), _posted(table, posted))

    assert response.status_code == status, f"{name} as {who}"
    if status == DONE:
        assert HistoryEntry.objects.count() > history
    else:
        assert HistoryEntry.objects.count() == history
        assert list(BattleParticipant.objects.order_by("pk").values()) == sides
