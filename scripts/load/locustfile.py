"""Players of the league, as locust users: each one a real player with their own force.

Run by `make load` (`scripts/load`) (never by hand: it needs the players file the command prepares,
named by CRUSADE_LOAD_PLAYERS). Every user is logged in by a session made beforehand
for its player, so login throttling stays as deployed. A user browses its Order of
Battle, a veteran's card, the campaign page, its dashboard and history, and buys
Increase Supply Limit through the Order of Battle's form (as htmx posts it). Players
come in pairs: the first of a pair also plays battles against the second's force,
through the real forms, answering for the second with the second's own session: start
and invite, accept, both muster, both record (preview, then confirm).

Requests are named by kind of page (`name=`); names starting "battle:" or
"requisition:" are the steps that change something.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
from collections import Counter
from pathlib import Path

from locust import HttpUser, between, task
from locust.clients import HttpSession

from tests.concurrency.live import PageReader, fill

PLAYERS = json.loads(Path(os.environ["CRUSADE_LOAD_PLAYERS"]).read_text())["players"]
_numbers = itertools.count()
BATTLE_SIZE = "Strike Force"
POINTS_LIMIT = 2000
ARMY_SIZE = 10
SAME_DATASHEET, SAME_DATASHEET_ROOMY = 3, 6
UNIT_BOX = re.compile(r'<input type="checkbox" name="units" value="(\d+)"([^>]*)>')


ALERTS = re.compile(r'role="alert"[^>]*>(.*?)</|_errors">(.*?)</ul>', re.S)
TAGS = re.compile(r"<[^>]+>")


def why(text: str) -> str:
    """What the page says went wrong (its error messages), for the failure's log."""
    found = [TAGS.sub(" ", a or b).strip() for a, b in ALERTS.findall(text)]
    return "; ".join(f for f in found if f)[:300] or text[:300]


class StepFailed(Exception):
    """The app answered a step with something a player doing it should never see."""


def pick_army(units: dict, free: list[int]) -> tuple[list[int], int]:
    """Up to ARMY_SIZE of the `free` units that make a legal army: a CHARACTER as
    Warlord, a datasheet at most three times (six if BATTLELINE or DEDICATED TRANSPORT),
    within the points of a Strike Force."""
    characters = [pk for pk in free if units[str(pk)][2]]
    if not characters:
        raise StepFailed("no CHARACTER left to lead the army")
    warlord = random.choice(characters)
    army, points = [warlord], units[str(warlord)][0]
    per_datasheet = Counter({units[str(warlord)][1]: 1})
    for pk in random.sample(free, len(free)):
        points_of, datasheet, _, roomy = units[str(pk)]
        allowed = SAME_DATASHEET_ROOMY if roomy else SAME_DATASHEET
        if len(army) >= ARMY_SIZE:
            break
        if pk == warlord or per_datasheet[datasheet] >= allowed:
            continue
        if points + points_of > POINTS_LIMIT:
            continue
        army.append(pk)
        points += points_of
        per_datasheet[datasheet] += 1
    return army, warlord


class Player(HttpUser):
    wait_time = between(1, 3)

    def on_start(self) -> None:
        number = next(_numbers)
        self.me = PLAYERS[number % len(PLAYERS)]
        # One connection a request, as through a proxy: a kept-alive connection that
        # gunicorn closes after its 2 s keep-alive, reused at that moment, is reset, and
        # a browser would just send again.
        self.client.headers["Connection"] = "close"
        self.client.cookies.set("sessionid", self.me["session"])
        partner = self.me.get("partner")
        # A player has one user playing battles: the first user of a pair's first player.
        self.plays = partner is not None and number < len(PLAYERS)
        if self.plays:
            self.partner = PLAYERS[partner]
            self.other = HttpSession(
                base_url=self.host, request_event=self.environment.events.request, user=self
            )
            self.other.headers["Connection"] = "close"
            self.other.cookies.set("sessionid", self.partner["session"])

    # Pages -------------------------------------------------------------------------

    def page(self, client, path: str, name: str) -> str:
        with client.get(path, name=name, catch_response=True, allow_redirects=False) as r:
            if r.status_code != 200:
                r.failure(f"{r.status_code} for {path}: {r.error or why(r.text)}")
                raise StepFailed(f"{name}: {r.status_code}")
            return r.text

    @task(4)
    def order_of_battle(self) -> None:
        self.page(self.client, f"/forces/{self.me['force']}/", "order of battle")

    @task(3)
    def dashboard(self) -> None:
        self.page(self.client, "/dashboard/", "dashboard")

    @task(2)
    def campaign(self) -> None:
        self.page(self.client, f"/campaigns/{self.me['campaign']}/", "campaign")

    @task(2)
    def card(self) -> None:
        self.page(self.client, f"/units/{self.me['card']}/", "card")

    @task(1)
    def history(self) -> None:
        self.page(self.client, f"/forces/{self.me['force']}/history/", "force history")

    @task(1)
    def buy_supply(self) -> None:
        """Increase Supply Limit from the Order of Battle's form: bought, or refused by a
        rule (not enough RP; the force is in a battle), both answers a player may get."""
        force = self.me["force"]
        text = self.page(self.client, f"/forces/{force}/", "order of battle")
        action = f"/forces/{force}/requisitions/increase_supply_limit/"
        fields = PageReader(text).post_form(action)
        with self.client.post(
            action,
            data=fields,
            headers={"HX-Request": "true"},
            name="requisition: buy",
            catch_response=True,
            allow_redirects=False,
        ) as r:
            bought = r.status_code == 200 and "Bought " in r.text
            refused = r.status_code == 400 and ("That needs" in r.text or "battle" in r.text)
            if bought or refused:
                r.success()
            else:
                r.failure(f"{r.status_code}: {why(r.text)}")

    # A battle ----------------------------------------------------------------------

    def post(self, client, path: str, fields, name: str, expect: int):
        with client.post(
            path, data=fields, name=name, catch_response=True, allow_redirects=False
        ) as r:
            if r.status_code != expect:
                r.failure(f"{r.status_code} for {path}: {r.error or why(r.text)}")
                raise StepFailed(f"{name}: {r.status_code}")
            return r

    @task(3)
    def battle(self) -> None:
        if not self.plays:
            return
        # A step that failed is counted as a failure by its request.
        with contextlib.suppress(StepFailed):
            self.play_battle()

    def play_battle(self) -> None:
        mine, theirs = self.me, self.partner
        form = self.page(self.client, "/battles/new/", "battle: start form")
        fields = fill(
            PageReader(form).post_form(having="battle_size"),
            force=mine["force"],
            opponents=theirs["force"],
            battle_size=BATTLE_SIZE,
            mission="Supply Run",
        )
        started = self.post(self.client, "/battles/new/", fields, "battle: start", 302)
        battle = int(re.search(r"/battles/(\d+)/", started.headers["Location"])[1])
        try:
            self.fight(battle)
        except StepFailed:
            self.cancel(battle)  # as its starter would, so both forces can fight again
            raise

    def cancel(self, battle: int) -> None:
        path = f"/battles/{battle}/cancel/"
        with contextlib.suppress(StepFailed, StopIteration):
            page = self.page(self.client, f"/battles/{battle}/", "battle detail")
            self.post(self.client, path, PageReader(page).post_form(path), "battle: cancel", 302)

    def fight(self, battle: int) -> None:
        mine, theirs = self.me, self.partner
        # The opponent accepts from the battle's page.
        page = self.page(self.other, f"/battles/{battle}/", "battle detail")
        reader = PageReader(page)
        accept = next(
            f["action"] for f in reader.forms if re.fullmatch(r"/armies/\d+/accept/", f["action"])
        )
        self.post(self.other, accept, reader.post_form(accept), "battle: accept", 302)
        armies = [
            self.muster(client, battle, side)
            for client, side in ((self.client, mine), (self.other, theirs))
        ]
        results = random.choice([("win", "loss"), ("loss", "win"), ("draw", "draw")])
        turns = list(zip((self.client, self.other), armies, results, strict=True))
        random.shuffle(turns)
        for client, army, result in turns:
            self.record(client, army, result)

    def muster(self, client, battle: int, side: dict) -> int:
        page = self.page(client, f"/battles/{battle}/", "battle detail")
        links = {h for h in PageReader(page).links if re.fullmatch(r"/armies/\d+/muster/", h)}
        if len(links) != 1:
            raise StepFailed(f"muster links on battle {battle}: {links}")
        path = links.pop()
        form = self.page(client, path, "battle: muster form")
        free = [int(pk) for pk, rest in UNIT_BOX.findall(form) if "disabled" not in rest]
        units, warlord = pick_army(side["units"], [pk for pk in free if str(pk) in side["units"]])
        fields = PageReader(form).post_form(path)
        detachment = dict(fields).get("detachment") or "Crusade detachment"
        fields = fill(fields, units=units, warlord=warlord, detachment=detachment)
        self.post(client, path, fields, "battle: muster", 302)
        return int(re.findall(r"\d+", path)[0])

    def record(self, client, army: int, result: str) -> None:
        path = f"/armies/{army}/record/"
        form = self.page(client, path, "battle: record form")
        fields = fill(PageReader(form).post_form(path, having="result"), result=result)
        preview = self.post(client, path, fill(fields, preview=1), "battle: preview", 200)
        confirm = fill(PageReader(preview.text).post_form(path, having="confirm"), confirm=1)
        self.post(client, path, confirm, "battle: confirm", 302)
