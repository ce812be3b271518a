"""What players do at the table, over HTTP, as their browsers would do it without JavaScript:
GET the page, fill in its form, POST it, and check the app's answer.

Each move returns the app's answer or raises `Unexpected` with what came back instead.
"""

from __future__ import annotations

import re

from tests.concurrency.live import PageReader, Player, Response, fill, page_text

FACTION = "Astra Militarum"
RECORDED = "Battle recorded: every side agrees."
SIDE_RECORDED = "Your side is recorded."
# R6.1, R1.5 and R6: the reasons the rules give for refusing a Requisition.
REQUISITION_REFUSAL = re.compile(
    r"That needs \d+RP; you have \d+RP\."
    r"|Requisitions can't be bought while a battle is being fought\."
)


class Unexpected(AssertionError):
    """The app answered something a player doing this should never see."""

    def __init__(self, move: str, response: Response) -> None:
        super().__init__(f"{move}: {response}")
        self.response = response


def expect(move: str, response: Response, status: int) -> Response:
    if response.status != status:
        raise Unexpected(move, response)
    return response


def start_battle(player: Player, *, force: int, opponent: int) -> int:
    """Battle > Start (R8): my force against one opponent, invited; the new battle's pk."""
    page = expect("open the new battle form", player.get("/battles/new/"), 200)
    fields = PageReader(page.text).post_form(having="battle_size")
    fields = fill(fields, force=force, opponents=opponent, battle_size="Incursion")
    started = expect("start a battle", player.post("/battles/new/", fields), 302)
    return int(re.fullmatch(r"/battles/(\d+)/", started.location)[1])


def accept(player: Player, battle: int) -> None:
    """Accept the invitation to the battle, from its page."""
    page = expect("open the battle", player.get(f"/battles/{battle}/"), 200)
    reader = PageReader(page.text)
    actions = [
        f["action"] for f in reader.forms if re.fullmatch(r"/armies/\d+/accept/", f["action"])
    ]
    assert len(actions) == 1, f"accept buttons on battle {battle}: {actions}"
    expect("accept the battle", player.post(actions[0], reader.post_form(actions[0])), 302)


def my_army(player: Player, battle: int) -> int:
    """My side of the battle: the participant whose muster link the battle page shows me."""
    page = expect("open the battle", player.get(f"/battles/{battle}/"), 200)
    links = {
        href for href in PageReader(page.text).links if re.fullmatch(r"/armies/\d+/muster/", href)
    }
    assert len(links) == 1, f"muster links on battle {battle}: {links}"
    return int(re.findall(r"\d+", links.pop())[0])


def muster(player: Player, battle: int, side: dict) -> int:
    """Muster my army (R8): every unit of the side, its first unit as Warlord; my army's pk."""
    army = my_army(player, battle)
    path = f"/armies/{army}/muster/"
    form = expect("open the muster form", player.get(path), 200)
    fields = fill(
        PageReader(form.text).post_form(path),
        faction=FACTION,
        detachment="Combined Regiment",
        units=side["units"],
        warlord=side["warlord"],
    )
    expect("muster an army", player.post(path, fields), 302)
    return army


def preview_record(player: Player, army: int, result: str) -> list[tuple[str, str]]:
    """Fill in my side of the battle's end (R9): my result, and preview it; the preview
    page's form, ready to confirm."""
    path = f"/armies/{army}/record/"
    page = expect("open the record form", player.get(path), 200)
    fields = fill(PageReader(page.text).post_form(path, having="result"), result=result)
    preview = expect("preview the record", player.post(path, fill(fields, preview=1)), 200)
    return fill(PageReader(preview.text).post_form(path, having="confirm"), confirm=1)


def confirm_record(player: Player, army: int, confirmation: list[tuple[str, str]]) -> str:
    """Press "Confirm and record" for my side; the page the player ends up on, as text."""
    response = player.post(f"/armies/{army}/record/", confirmation)
    if response.status in (301, 302, 303):
        response = player.follow(response)
    return page_text(expect("confirm the record", response, 200))


def buy_supply(player: Player, force: int) -> bool:
    """Increase Supply Limit from the Order of Battle (htmx): True if bought, False if refused
    by a rule (R6.1, R6); anything else is unexpected."""
    response = player.post(f"/forces/{force}/requisitions/increase_supply_limit/", htmx=True)
    if response.status == 200 and "Bought Increase Supply Limit" in page_text(response):
        return True
    if response.status == 400 and REQUISITION_REFUSAL.search(page_text(response)):
        return False
    raise Unexpected("buy Increase Supply Limit", response)


def play_battle(players: list[Player], sides: list[dict], *, first_wins: bool) -> int:
    """A whole battle over HTTP (R8, R9): the first player starts it against the second's
    force, the second accepts, both muster every unit, then each records their own side,
    the loser first. Returns the battle's pk; fails unless the battle is recorded."""
    (first, second), (mine, theirs) = players, sides
    battle = start_battle(first, force=mine["force"], opponent=theirs["force"])
    accept(second, battle)
    armies = [muster(player, battle, side) for player, side in zip(players, sides, strict=True)]
    results = ("win", "loss") if first_wins else ("loss", "win")
    turns = list(zip(players, armies, results, strict=True))
    if first_wins:
        turns.reverse()
    for player, army, result in turns:
        page = confirm_record(player, army, preview_record(player, army, result))
    assert RECORDED in page, f"battle {battle} was not recorded: {page[:300]}"
    return battle
