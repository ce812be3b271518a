"""Inside the app (`manage.py shell`, the server's settings): the players of a load run,
and afterwards, whether every number the run changed adds up.

`prepare` picks the league's players whose forces are in no unfinished battle, makes
each a session (as the login form would: the server must share the SECRET_KEY), and
notes every force's and unit's numbers before the run. `check` compares them after:
what the run's completed battles and purchases say each number should be, and what it is.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db.models import Max, Sum

from campaign import models, rules
from campaign.selectors import phases
from campaign.sessions import SessionStore

UNFINISHED = [models.Battle.Status.IN_PROGRESS, models.Battle.Status.DISPUTED]
FORCE_NUMBERS = ("rp", "supply_limit", "battle_tally", "victories")
UNIT_NUMBERS = ("xp", "battles_played", "battles_survived", "units_destroyed")


def main(step: str, campaign_name: str, count: int, path: str) -> None:
    {"prepare": prepare, "check": check, "pages": pages}[step](campaign_name, count, Path(path))


def _session(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def pages(campaign_name: str, count: int, path: Path) -> None:
    """The pages a player opens (the benchmark's: `probes.player_pages`, and the muster form
    of the 50-unit force on a battle it opens), each with a session of the player who
    looks at it; the admin login page, signed out, first: requests per second against it."""
    from django.urls import reverse

    from campaign.benchmark import probes, seed, steps, subjects

    scale = next(s for s in seed.SCALES.values() if s.campaign == campaign_name)
    campaign = models.Campaign.objects.get(name=campaign_name)
    found = subjects.league_subjects(campaign, scale)
    fifty = found.order_of_battle[50]
    side = steps.open_to_muster(campaign, fifty)
    looked = [(key, user, url) for key, user, url, _ in probes.player_pages(found)]
    looked.append(("muster_form_50", fifty.player, reverse("army_muster", args=[side.pk])))
    sessions: dict[int, str] = {}
    listed = [{"page": "admin_login", "path": reverse("admin:login"), "session": None}]
    for key, user, url in looked:
        if user.pk not in sessions:
            sessions[user.pk] = _session(user)
        listed.append({"page": key, "path": url, "session": sessions[user.pk]})
    path.write_text(json.dumps(listed))
    print(json.dumps({"pages": len(listed)}))


def _last_pk(model) -> int:
    return model.objects.aggregate(last=Max("pk"))["last"] or 0


def prepare(campaign_name: str, count: int, path: Path) -> None:
    campaign = models.Campaign.objects.get(name=campaign_name)
    busy = models.BattleParticipant.objects.filter(battle__status__in=UNFINISHED).values("force")
    forces = list(
        campaign.forces.exclude(pk__in=busy).select_related("player").order_by("pk")[:count]
    )
    players = []
    for number, force in enumerate(forces):
        units = list(force.units.active().order_by("pk"))
        veteran = max(units, key=lambda u: (u.xp, -u.pk))
        partner = number + 1 if number % 2 == 0 and number + 1 < len(forces) else None
        players.append(
            {
                "username": force.player.username,
                "session": _session(force.player),
                "force": force.pk,
                "campaign": campaign.pk,
                "card": veteran.pk,
                "partner": partner,
                "units": {
                    str(u.pk): [
                        u.points,
                        u.datasheet,
                        u.is_character,
                        u.is_battleline or u.is_dedicated_transport,
                    ]
                    for u in units
                },
            }
        )
    forces_before = {
        str(f["pk"]): f
        for f in models.CrusadeForce.objects.filter(campaign=campaign).values("pk", *FORCE_NUMBERS)
    }
    units_before = {
        str(u["pk"]): u
        for u in models.Unit.objects.filter(force__campaign=campaign).values("pk", *UNIT_NUMBERS)
    }
    snapshot = {
        "battle": _last_pk(models.Battle),
        "purchase": _last_pk(models.RequisitionPurchase),
        "history": _last_pk(models.HistoryEntry),
        "forces": {pk: {n: f[n] for n in FORCE_NUMBERS} for pk, f in forces_before.items()},
        "units": {pk: {n: u[n] for n in UNIT_NUMBERS} for pk, u in units_before.items()},
    }
    path.write_text(json.dumps({"players": players, "before": snapshot}, default=str))
    print(json.dumps({"players": len(players)}))


def _alliance_totals_problems(campaign) -> list[str]:
    """Each alliance's stored totals per phase (moved by every battle that ended, many of
    them at once) against what the sides of the completed battles add up to."""
    kept, added = phases.alliance_totals_kept(campaign), phases.alliance_totals_added_up(campaign)
    problems = []
    for key in sorted(set(kept) | set(added), key=str):
        if kept.get(key) != added.get(key):
            alliance, phase = key
            problems.append(
                f"alliance {alliance} phase {phase}: {kept.get(key)}, expected {added.get(key)}"
            )
    return problems


def check(campaign_name: str, count: int, path: Path) -> None:
    """Each force: RP = before + what its new battles gave - what it spent, within 0 and the
    cap; battle tally and victories grew by its completed battles and wins; Supply Limit by
    its Increase Supply Limit purchases. Each unit: XP, battles played and survived, enemy
    units destroyed grew by what its new army entries say. Every purchase has its history
    row. Each alliance's stored totals are what the completed sides add up to."""
    data = json.loads(path.read_text())
    before = data["before"]
    campaign = models.Campaign.objects.get(name=campaign_name)
    new_battles = models.Battle.objects.filter(pk__gt=before["battle"], campaign=campaign)
    statuses = dict.fromkeys(models.Battle.Status.values, 0)
    for status in new_battles.values_list("status", flat=True):
        statuses[status] += 1
    completed = models.BattleParticipant.objects.filter(
        battle__in=new_battles, battle__status=models.Battle.Status.COMPLETED
    )
    purchases = models.RequisitionPurchase.objects.filter(pk__gt=before["purchase"])
    problems: list[str] = []
    forces = models.CrusadeForce.objects.filter(campaign=campaign).select_related("campaign")
    for force in forces:
        was = before["forces"][str(force.pk)]
        fought = [p for p in completed if p.force_id == force.pk]
        bought = [p for p in purchases if p.force_id == force.pk]
        increases = sum(
            1 for p in bought if p.requisition == rules.Requisition.INCREASE_SUPPLY_LIMIT
        )
        expected = {
            "rp": was["rp"]
            + sum(p.rp_after - p.rp_before for p in fought)
            - sum(p.cost for p in bought),
            "battle_tally": was["battle_tally"] + len(fought),
            "victories": was["victories"]
            + sum(1 for p in fought if p.result == models.BattleParticipant.Result.WIN),
            "supply_limit": was["supply_limit"] + increases * campaign.supply_limit_increase,
        }
        for number, value in expected.items():
            if getattr(force, number) != value:
                problems.append(
                    f"force {force.pk} {number}: {getattr(force, number)}, expected {value}"
                )
        if not 0 <= force.rp <= force.rp_cap:
            problems.append(f"force {force.pk} RP {force.rp} outside 0..{force.rp_cap}")
    entries = models.BattleUnit.objects.filter(participant__in=completed)
    gained: dict[int, dict[str, int]] = {}
    for entry in entries:
        g = gained.setdefault(entry.unit_id, dict.fromkeys(UNIT_NUMBERS, 0))
        g["xp"] += (entry.xp_after or 0) - (entry.xp_before or 0)
        g["battles_played"] += 1
        g["battles_survived"] += 0 if entry.destroyed else 1
        g["units_destroyed"] += entry.enemy_units_destroyed
    units = models.Unit.objects.filter(force__campaign=campaign).values("pk", *UNIT_NUMBERS)
    changed_units = 0
    for unit in units:
        was = before["units"].get(str(unit["pk"]), dict.fromkeys(UNIT_NUMBERS, 0))
        g = gained.get(unit["pk"], dict.fromkeys(UNIT_NUMBERS, 0))
        changed_units += unit["pk"] in gained
        for number in UNIT_NUMBERS:
            if unit[number] != was[number] + g[number]:
                problems.append(
                    f"unit {unit['pk']} {number}: {unit[number]}, "
                    f"expected {was[number] + g[number]}"
                )
    problems += _alliance_totals_problems(campaign)
    history = models.HistoryEntry.objects.filter(pk__gt=before["history"])
    bought_rows = history.filter(action__startswith="requisition_").count()
    if bought_rows != purchases.count():
        problems.append(f"{purchases.count()} purchases but {bought_rows} history rows")
    spent = purchases.aggregate(spent=Sum("cost"))["spent"] or 0
    result = {
        "battles": statuses,
        "sides_recorded": completed.count(),
        "units_changed": changed_units,
        "purchases": purchases.count(),
        "rp_spent": spent,
        "history_rows": history.count(),
        "forces_checked": forces.count(),
        "problems": problems[:20],
        "problem_count": len(problems),
    }
    print(json.dumps(result))
