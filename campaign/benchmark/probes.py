"""The pages players open, warm and at the first look after a real write.

A warm probe fetches the page as most looks find it: nothing changed since the look
before, which it makes untimed. A first-look probe makes, untimed, a small real change
through a service (the force's goals edited, a card's notes) to the force or campaign the
page shows, so the page's cached parts are out of date, and times the next request: what
the first player to look after a change waits for.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import Battle, BattleParticipant, CrusadeForce

from .database import BenchDatabase
from .steps import STEP_SIZES, battle_armies, open_to_muster, play_battle, step_probes
from .stopwatch import Clients, Probe
from .subjects import Subjects

ROSTERS = Path(__file__).resolve().parents[2] / "tests" / "rosters" / "samples"
APP_TEXT_LIST = ROSTERS / "app-text" / "space-wolves-boop.txt"
"""A 1,985-point list as the official app copies it (about 3 KB)."""
ROSTER_FILE = ROSTERS / "battlescribe-ros" / "chaos-daemons-1975.ros"
"""A 1,975-point BattleScribe roster (about 130 KB)."""

ADMIN_CHANGELISTS = (
    ("admin_units", "unit"),
    ("admin_battles", "battle"),
    ("admin_history", "historyentry"),
    ("admin_forces", "crusadeforce"),
)

_edits = itertools.count(1)


def touch_force(force: CrusadeForce) -> None:
    """A small real change to a force: its player edits its goals (a history row, so
    every cached part of its pages and its campaign's is out of date)."""
    services.update_force_details(
        actor=force.player, force=force, goals=f"Hold the line, edit {next(_edits)}"
    )


def touch_unit(unit) -> None:
    """A small real change to a card: its player edits its notes."""
    services.update_unit_details(
        actor=unit.force.player, unit=unit, notes=f"Veteran of the league, edit {next(_edits)}"
    )


def page_probe(key: str, database: BenchDatabase, client: Client, url: str) -> Probe:
    """The page warm: fetched once untimed, so the timed look finds it as the last look
    left it, whatever the probes before it in the round (a first look's write, a battle
    step) changed."""

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        client.get(url)
        return url, lambda: client.get(url)

    return Probe(key, database, prepare)


def warm_and_first(
    key: str, database: BenchDatabase, client: Client, url: str, write: Callable[[], None]
) -> list[Probe]:
    """The page warm, and at the first look after `write`."""

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        write()
        return url, lambda: client.get(url)

    return [page_probe(key, database, client, url), Probe(f"{key}_first", database, prepare)]


def _first_side(battle: Battle) -> BattleParticipant:
    return battle.participants.select_related("force__player").order_by("pk").first()


def baseline_probes(subjects: Subjects, database: BenchDatabase) -> list[Probe]:
    """The pages whose subject is the same in the 20-battle league, for comparison."""
    clients = Clients()
    with database.active():
        battle_side = _first_side(subjects.battle)
        record_side = _first_side(subjects.in_progress)
        return [
            page_probe(f"{key}_baseline", database, clients.of(user), reverse(name, args=[pk]))
            for key, name, user, pk in (
                ("battle_detail", "battle_detail", battle_side.force.player, subjects.battle.pk),
                ("record_form", "army_record", record_side.force.player, record_side.pk),
                ("force_history", "force_history", subjects.force.player, subjects.force.pk),
            )
        ]


def player_pages(subjects: Subjects) -> list[tuple[str, object, str, CrusadeForce | None]]:
    """The pages every player opens: key, who looks, the URL, and the force whose change
    makes the page's first look (None: the veteran's card, changed by its notes). Reads
    the database: call it inside the league's `database.active()`."""
    force = subjects.force
    fifty, two_hundred = subjects.order_of_battle[50], subjects.order_of_battle[200]
    battle_side = _first_side(subjects.battle)
    record_side = _first_side(subjects.in_progress)
    return [
        ("dashboard", force.player, reverse("dashboard"), force),
        (
            "campaign_page",
            force.player,
            reverse("campaign_detail", args=[subjects.campaign.pk]),
            force,
        ),
        ("order_of_battle_50", fifty.player, reverse("force_detail", args=[fifty.pk]), fifty),
        (
            "order_of_battle_200",
            two_hundred.player,
            reverse("force_detail", args=[two_hundred.pk]),
            two_hundred,
        ),
        (
            "crusade_card",
            subjects.veteran.force.player,
            reverse("unit_detail", args=[subjects.veteran.pk]),
            None,
        ),
        (
            "battle_detail",
            battle_side.force.player,
            reverse("battle_detail", args=[subjects.battle.pk]),
            battle_side.force,
        ),
        (
            "record_form",
            record_side.force.player,
            reverse("army_record", args=[record_side.pk]),
            record_side.force,
        ),
        ("start_battle", force.player, f"{reverse('battle_create')}?force={force.pk}", force),
        ("force_history", force.player, reverse("force_history", args=[force.pk]), force),
    ]


def league_probes(subjects: Subjects, database: BenchDatabase) -> list[Probe]:
    """Every probe of the league, the reference (the admin login page) first."""
    clients = Clients()
    fifty, two_hundred = subjects.order_of_battle[50], subjects.order_of_battle[200]
    veteran = subjects.veteran
    with database.active():
        probes = [page_probe("admin_login", database, clients.of(None), reverse("admin:login"))]
        for key, user, url, touched in player_pages(subjects):
            write = (lambda f=touched: touch_force(f)) if touched else (lambda: touch_unit(veteran))
            probes += warm_and_first(key, database, clients.of(user), url, write)
        probes.append(after_battle_probe(subjects, database, clients))
        probes += muster_form_probes(subjects, database, clients)
        for size, f in ((50, fifty), (200, two_hundred)):
            url = reverse("force_print", args=[f.pk])
            probes.append(page_probe(f"print_{size}", database, clients.of(f.player), url))
        probes.append(
            page_probe(
                "export_json",
                database,
                clients.of(veteran.force.player),
                reverse("force_export", args=[veteran.force.pk]),
            )
        )
        probes += import_probes(database, clients.of(subjects.force.player))
        probes += step_probes(subjects, database, clients)
        organiser = clients.of(subjects.organiser)
        for key, model in ADMIN_CHANGELISTS:
            url = reverse(f"admin:campaign_{model}_changelist")
            probes.append(page_probe(key, database, organiser, url))
    return probes


def after_battle_probe(subjects: Subjects, database: BenchDatabase, clients: Clients) -> Probe:
    """The campaign page at the first look after a battle ends in the campaign (untimed,
    through the services): the change a league makes most, which moves its standings,
    its list of battles and its results at once, where a force's goals move none of them.
    Reads the database: call it inside the league's `database.active()`."""
    size = STEP_SIZES[0]
    armies = battle_armies(subjects, size)
    client = clients.of(subjects.force.player)
    url = reverse("campaign_detail", args=[subjects.campaign.pk])

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        play_battle(subjects, armies, size)
        return url, lambda: client.get(url)

    return Probe("campaign_page_battle_first", database, prepare)


def muster_form_probes(subjects: Subjects, database: BenchDatabase, clients: Clients):
    """The muster form of a force of 50 units (warm and first look) and of 200 (warm),
    each on a battle its force opened (untimed; it stays open between runs)."""
    probes = []
    for size, key in ((50, "muster_form_50"), (200, "muster_form_200")):
        force = subjects.order_of_battle[size]
        client = clients.of(force.player)

        def prepare(force=force, client=client, first=False):
            side = open_to_muster(subjects.campaign, force)
            url = reverse("army_muster", args=[side.pk])
            if first:
                touch_force(force)
            else:
                client.get(url)  # warm: as the last look left it
            return url, lambda: client.get(url)

        probes.append(Probe(key, database, prepare))
        if size == 50:
            probes.append(Probe(f"{key}_first", database, lambda p=prepare: p(first=True)))
    return probes


def import_probes(database: BenchDatabase, client: Client) -> list[Probe]:
    """The preview of a new force from an army list: pasted app text, and a .ros file."""
    url = reverse("force_import")
    text = APP_TEXT_LIST.read_text()
    roster = ROSTER_FILE.read_bytes()

    def pasted() -> tuple[str, Callable[[], HttpResponse]]:
        return url, lambda: client.post(url, {"text": text})

    def uploaded() -> tuple[str, Callable[[], HttpResponse]]:
        upload = SimpleUploadedFile(ROSTER_FILE.name, roster, "application/xml")
        return url, lambda: client.post(url, {"file": upload})

    return [
        Probe("import_text", database, pasted),
        Probe("import_ros", database, uploaded),
    ]


def side_by_side(league: list[Probe], baseline: list[Probe]) -> list[Probe]:
    """The league's probes, each 20-battle probe right after its league twin, so that the
    two are timed a moment apart in every round."""
    twins = {probe.key.removesuffix("_baseline"): probe for probe in baseline}
    ordered = []
    for probe in league:
        ordered.append(probe)
        if probe.key in twins:
            ordered.append(twins.pop(probe.key))
    return ordered + list(twins.values())
