"""The world the fuzz posts into: one owner with something on every page, other players
whose ids the fuzz borrows, and the paths of every page.

Built once per test module (see conftest.py) through the services, as players would.
Every URL that takes an object points at one of the owner's, in a state where the owner
may act on it; only the owner (the battle's starter, for withdrawing an invitation) may
change anything through those URLs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from campaign import email_links, rules, services
from campaign.models import CustomContent, OutOfActionTest
from tests.blessings import blessing_pack, give_honours
from tests.counter_packs import item, with_sample_pack, with_veteran_pack
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user
from tests.services import earned
from tests.url_names import SIDE_URLS
from tests.views.helpers import fight_alone, muster

from .state import fingerprint

ROLES = ("owner", "member", "outsider", "anonymous")
"""Who the fuzz signs in as: the owner of everything below, another player in the
owner's campaign (also the owner's opponent), a player of another campaign, nobody."""

ABSURD_IDS = (0, -1, 2**31, 2**63 - 1, 2**63, 10**30, -(10**30))
"""Primary keys no row has: past every integer column, negative, zero."""


@dataclass
class World:
    users: dict[str, object]
    pages: dict[str, list[str]]
    """Each URL name's paths, the first the one whose forms the fuzz posts; several for
    the URLs whose page differs by state (a battle invited, mustered, to record)."""
    foreign_ids: list[int]
    """Primary keys of other players' rows (forces, units, battles, sides, campaigns)."""
    own_ids: list[int]
    """Primary keys of the owner's rows, for ids that are valid somewhere else."""
    baseline: tuple = ()
    """The fingerprint of the world as built (`tests.fuzz.state`)."""

    @property
    def owner_paths(self) -> set[str]:
        """The paths of the owner's objects: nobody else may change anything through them."""
        return {path for name, paths in self.pages.items() if name in OBJECT_URLS for path in paths}

    @property
    def ids(self) -> tuple[int, ...]:
        """Every id the fuzz types: other players', the owner's and absurd ones."""
        return tuple(sorted({*self.foreign_ids, *self.own_ids, *ABSURD_IDS}))


PLAIN_PAGES = (
    "home",
    "dashboard",
    "dashboard_live",
    "dashboard_seen",
    "email_settings",
    "signup",
    "login",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
    "join_with_code",
    "force_create",
    "force_import",
    "force_import_check",
    "force_restore",
    "battle_create",
    "campaign_create",
)
"""The URLs without an argument; Django's own account pages (ours for password_reset)
are cheap, so fuzzed too."""
FORCE_PAGES = (
    "force_detail",
    "force_edit",
    "force_banner",
    "force_alliance",
    "force_history",
    "unit_create",
    "unit_supply_check",
    "force_import_units",
    "force_import_units_check",
    "force_export",
    "force_export_text",
    "force_print",
)
"""The URLs of the owner's first force."""

OBJECT_URLS = {
    *FORCE_PAGES,
    "force_requisition",
    "force_campaign",
    "unit_detail",
    "unit_card_image",
    "unit_edit",
    "unit_picture",
    "unit_remove",
    "unit_requisition",
    "force_pack_requisition",
    "unit_pack_requisition",
    "unit_reward",
    "battle_detail",
    "battle_live",
    "battle_cancel",
    *SIDE_URLS,
    "out_of_action",
    "promotion_settle",
    "campaign_invitation_accept",
    "campaign_invitation_decline",
    "log_entry",
    "log_entry_edit",
}
"""The URLs of one of the owner's objects (a campaign's page is everyone's in it)."""


def _main_force(owner, campaign):
    """The owner's first force: honours, a scar, a promotion to settle and two Out of
    Action tests (one to roll, one failed and waiting for a choice)."""
    force = make_force(player=owner, campaign=campaign, name="Iron Wolves")
    captain = make_character(force, name="Captain Vorn")
    squad = make_unit(force, name="Squad Helix")
    veterans = make_unit(force, name="Veteran Squad")
    recruits = make_unit(force, name="Recruits", model_count=5)
    earned.grant_trait(captain, "Natural Leader")
    earned.grant_trait(veterans, "Obdurate Obedience")
    earned.old_scars(captain, "Fatigued")
    fight_alone(force, [captain, squad, veterans], destroyed=[squad, veterans])
    failed = OutOfActionTest.objects.get(unit=veterans)
    services.take_out_of_action_test(actor=owner, test=failed, roll=1)
    promotion = earned.pending_promotion(captain)
    earned.set_rp(force, 8)
    return {
        "unattached": make_force(player=owner, name="Wanderers"),
        "force": force,
        "captain": captain,
        "squad": squad,
        "recruits": recruits,
        "tests": [OutOfActionTest.objects.get(unit=squad), failed],
        "promotion": promotion,
    }


def _requisition_pages(main: dict) -> list[str]:
    """One page per unit requisition, each with its own form: Fresh Recruits for a unit
    with models to add, the others for the captain (honours, a scar)."""
    pages = []
    for req in rules.Requisition:
        if req != rules.Requisition.INCREASE_SUPPLY_LIMIT:
            unit = main["recruits" if req == rules.Requisition.FRESH_RECRUITS else "captain"]
            pages.append(reverse("unit_requisition", args=[unit.pk, req.value]))
    return pages


def _pack_requisition_pages(main: dict) -> dict[str, list[str]]:
    """A pack Requisition for the whole force and one for a unit (the campaign has the
    sample pack and a pack with unit counters and an upgrade)."""
    party, deeds = item("scavenging-party"), item("sing-deeds")
    return {
        "force_pack_requisition": [
            reverse("force_pack_requisition", args=[main["force"].pk, party.pk])
        ],
        "unit_pack_requisition": [
            reverse("unit_pack_requisition", args=[main["captain"].pk, deeds.pk])
        ],
    }


def _battles(owner, member, campaign) -> dict:
    """A battle in every state a side's page can be in, each for one of the owner's forces
    (a force fights one battle at a time): invited, to muster, to record."""
    rival = make_force(player=member, campaign=campaign, name="Red Talons")
    rival_units = [make_character(rival, name="Captain Rhal"), make_unit(rival, name="Squad Kade")]
    # The member started a battle the owner's reserve is invited to.
    reserve = make_force(player=owner, campaign=campaign, name="Owner's Reserve")
    invited = services.start_battle(
        actor=member, force=rival, opponents=[reserve], battle_size="Incursion", campaign=campaign
    )
    # The owner started one inviting the member: its army to muster, with two Leaders and
    # a transport (every kind of muster select).
    strike = make_force(player=owner, campaign=campaign, name="Strike Force")
    for name in ("Captain Ash", "Lieutenant Bray"):
        make_character(strike, name=name)
    make_unit(strike, name="Squad Cato")
    make_unit(strike, name="Rhino", is_dedicated_transport=True, is_vehicle=True, points=75)
    started = services.start_battle(
        actor=owner, force=strike, opponents=[rival], battle_size="Incursion", campaign=campaign
    )
    # The owner's patrol fights alone, mustered, its side to record.
    patrol = make_force(player=owner, campaign=campaign, name="Patrol")
    patrol_units = [make_character(patrol, name="Captain Dax"), make_unit(patrol, name="Squad Eld")]
    solo = services.start_battle(
        actor=owner, force=patrol, battle_size="Incursion", campaign=campaign
    )
    # With the sample pack's Agendas picked (build_world enables it), so its record form
    # has Agenda boxes too.
    services.muster_army(
        actor=owner,
        participant=solo.participants.get(),
        units=patrol_units,
        warlord=patrol_units[0],
        faction="Adeptus Astartes",
        detachment="Gladius",
        agendas=list(CustomContent.objects.filter(kind="agenda").enabled_in(campaign.pk)[:2]),
    )
    blessed = _underdog_battle(owner, member, campaign)
    return {
        "invited": invited,
        "started": started,
        "solo": solo,
        "blessed": blessed,
        "underdog": blessed.participants.get(force__player=owner),
        "answer": invited.participants.get(force=reserve),
        "muster": started.participants.get(force=strike),
        "withdraw": started.participants.get(force=rival),
        "record": solo.participants.get(),
        "rival": [
            rival,
            *rival_units,
            invited.participants.get(force=rival),
            blessed.participants.get(force__player=member),
        ],
        "own": [strike, patrol, reserve, blessed.participants.get(force__player=owner).force],
    }


def _underdog_battle(owner, member, campaign):
    """A battle the owner's Underdogs fight, both armies mustered, against the member's
    Veterans, whose captain holds 2 honours: the owner's side is the underdog (R11.3) and
    picks Blessings from a pack the campaign enables."""
    blessing_pack(campaign.memberships.get(role="organiser").user, campaign)
    underdogs = make_force(player=owner, campaign=campaign, name="Underdogs")
    veterans = make_force(player=member, campaign=campaign, name="Veterans")
    mine = [make_character(underdogs, name="Captain Fen"), make_unit(underdogs, name="Squad Gil")]
    theirs = [make_character(veterans, name="Captain Hal"), make_unit(veterans, name="Squad Ivo")]
    give_honours(theirs[0], 2)
    battle = services.start_battle(
        actor=owner,
        force=underdogs,
        opponents=[veterans],
        battle_size="Incursion",
        campaign=campaign,
    )
    services.accept_invitation(actor=member, participant=battle.participants.get(force=veterans))
    muster(battle.participants.get(force=underdogs), mine)
    muster(battle.participants.get(force=veterans), theirs)
    return battle


def _log(owner, member, campaign, battles: dict) -> dict:
    """The campaign's log: the owner's entry on a battle, and the member's own."""
    mine = services.write_log_entry(
        actor=owner,
        campaign=campaign,
        title="The patrol's last stand",
        text="**Dawn.** The guns spoke.\n\n- one\n- two\n\n> Hold the line",
        battle=battles["solo"],
    )
    theirs = services.write_log_entry(
        actor=member, campaign=campaign, title="Red Talons rise", text="*They came.*"
    )
    return {"mine": mine, "theirs": theirs}


def _pages(
    owner, campaign, main: dict, battles: dict, invitation, log: dict
) -> dict[str, list[str]]:
    """Each URL name's pages: the owner's objects, in the states above."""
    force, captain, squad = main["force"], main["captain"], main["squad"]

    def paths(name: str, *objects) -> list[str]:
        return [reverse(name, args=[obj.pk]) for obj in objects]

    return {
        **{name: [reverse(name)] for name in PLAIN_PAGES},
        "password_reset_confirm": [reverse("password_reset_confirm", args=["MQ", "set-password"])],
        "join_campaign": [reverse("join_campaign", args=[campaign.invite_code])],
        # The link in the owner's emails: anyone holding it may stop that kind of email.
        "email_stop": [reverse("email_stop", args=[email_links.token(owner.pk, "dispute")])],
        "campaign_detail": paths("campaign_detail", campaign),
        "campaign_packs": paths("campaign_packs", campaign),
        # Only an organiser starts the next phase: every visitor here is refused.
        "campaign_phase_advance": paths("campaign_phase_advance", campaign),
        "campaign_log": paths("campaign_log", campaign),
        "log_entry_create": paths("log_entry_create", campaign),
        "log_entry": paths("log_entry", log["mine"]),
        "log_entry_edit": paths("log_entry_edit", log["mine"]),
        **{name: paths(name, force) for name in FORCE_PAGES},
        "force_requisition": [
            reverse("force_requisition", args=[force.pk, rules.Requisition.INCREASE_SUPPLY_LIMIT])
        ],
        "force_campaign": paths("force_campaign", main["unattached"]),
        "unit_detail": paths("unit_detail", captain, squad),
        "unit_card_image": paths("unit_card_image", captain),
        **{name: paths(name, squad) for name in ("unit_edit", "unit_picture", "unit_remove")},
        "unit_requisition": _requisition_pages(main),
        **_pack_requisition_pages(main),
        "unit_reward": paths("unit_reward", captain),
        **{
            name: paths(name, *(battles[b] for b in ("started", "invited", "solo", "blessed")))
            for name in ("battle_detail", "battle_live")
        },
        "battle_cancel": paths("battle_cancel", battles["started"]),
        "army_muster": paths("army_muster", battles["muster"]),
        "army_muster_check": paths("army_muster_check", battles["muster"]),
        "army_record": paths("army_record", battles["record"]),
        "army_blessings": paths("army_blessings", battles["underdog"]),
        "army_accept": paths("army_accept", battles["answer"]),
        "army_decline": paths("army_decline", battles["answer"]),
        "army_withdraw": paths("army_withdraw", battles["withdraw"]),
        "out_of_action": paths("out_of_action", *main["tests"]),
        "promotion_settle": paths("promotion_settle", main["promotion"]),
        "campaign_invitation_accept": paths("campaign_invitation_accept", invitation),
        "campaign_invitation_decline": paths("campaign_invitation_decline", invitation),
    }


def _map(campaign) -> None:
    """Two territories, so Start a battle offers a territory and the campaign page draws
    its map."""
    organiser = campaign.memberships.get(role="organiser").user
    first = services.define_territory(
        actor=organiser, campaign=campaign, key="hive", name="Hive", column=0, row=0
    )
    services.define_territory(
        actor=organiser,
        campaign=campaign,
        key="wastes",
        name="Wastes",
        column=1,
        row=0,
        neighbours=[first],
    )


def build_world() -> World:
    """The owner's forces in every state a page can be in, in one campaign; a member of it
    (the owner's opponent), and an outsider with a force in a campaign of their own."""
    organiser = make_user("fuzz-organiser", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Fuzz")
    with_veteran_pack(with_sample_pack(campaign))
    # A narrative campaign: its first phase is being played, at a size of its own.
    services.define_phase(
        actor=organiser, campaign=campaign, name="Landfall", battle_size="Incursion"
    )
    services.define_phase(actor=organiser, campaign=campaign, name="The Push", points_limit=1500)
    services.advance_phase(actor=organiser, campaign=campaign)
    _map(campaign)
    owner, member, outsider = (make_user(f"fuzz-{who}") for who in ("owner", "member", "outsider"))
    main = _main_force(owner, campaign)
    battles = _battles(owner, member, campaign)
    log = _log(owner, member, campaign, battles)
    elsewhere_organiser = make_user("fuzz-elsewhere")
    elsewhere = make_campaign(organiser=elsewhere_organiser, name="Elsewhere")
    stranger = make_force(player=outsider, campaign=elsewhere, name="Lost Legion")
    # The owner and the member are each invited to Elsewhere, their dashboards answering.
    invitation, theirs = (
        services.invite_to_campaign(actor=elsewhere_organiser, user=user, campaign=elsewhere)
        for user in (owner, member)
    )
    foreign = [*battles["rival"], battles["withdraw"], battles["invited"], stranger, elsewhere]
    foreign.append(theirs)
    foreign.append(make_unit(stranger))
    foreign.append(log["theirs"])
    foreign.append(
        services.write_log_entry(actor=outsider, campaign=elsewhere, title="Lost", text="Far.")
    )
    own = [
        main["force"],
        main["unattached"],
        main["captain"],
        main["recruits"],
        *battles["own"],
        battles["solo"],
        battles["blessed"],
        log["mine"],
    ]
    world = World(
        users={"owner": owner, "member": member, "outsider": outsider, "anonymous": None},
        pages=_pages(owner, campaign, main, battles, invitation, log),
        foreign_ids=[obj.pk for obj in foreign],
        own_ids=[obj.pk for obj in own],
    )
    world.baseline = fingerprint()
    return world
