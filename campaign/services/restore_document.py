"""Reading a Crusade export for a restore: every check a document passes before any row
of it is written (`services.restore_force`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaign import documents as doc
from campaign import rules
from campaign.models import (
    Alliance,
    BattleHonour,
    BattleScar,
    CrusadeForce,
    CustomContent,
    HistoryEntry,
    Promotion,
    Provenance,
    RequisitionPurchase,
    Unit,
)

from . import agendas as agenda_service
from .pack_state import PackState, read_pack_state

Kind = CustomContent.Kind
ALLIANCE_NAME = Alliance._meta.get_field("name").max_length


@dataclass
class _Card:
    """One unit of the document, checked: its values and its rows, with their links."""

    values: dict[str, Any]
    place: str = ""
    """Where the card is in the document, for a player: "Unit 3 'Brother Tharos'"."""
    honours: list[tuple[dict, dict]] = field(default_factory=list)
    """(values, links): links hold ``promotion``, ``replaces`` and ``custom_content``."""
    scars: list[tuple[dict, str | None]] = field(default_factory=list)
    promotions: list[dict] = field(default_factory=list)


@dataclass
class Restorable:
    """A document that passed every check, ready to be written."""

    force: dict[str, Any]
    cards: list[_Card]
    requisitions: list[tuple[dict, int | None]]
    history: list[tuple[dict, int | None, str]]
    """(values, unit index, who the file says made the change)."""
    exported_at: str
    verified: bool = False
    """An untouched export signed by this server (`documents.verified`)."""
    exported_from: dict[str, Any] = field(default_factory=dict)
    """What the file says about the force it was taken from: ``player``, ``player_id``,
    ``force``, ``campaign`` (to be believed only when ``verified``)."""

    @property
    def exported_when(self):
        """When the file says it was made (None if it doesn't say, or not as a date)."""
        try:
            when = parse_datetime(self.exported_at)
        except ValueError:
            return None
        if when is not None and timezone.is_naive(when):
            when = timezone.make_aware(when, datetime.UTC)
        return when

    packs: PackState = field(default_factory=PackState)
    """The force's pack counters and its units' counters and upgrades (`pack_state`)."""

    alliance: str = ""
    """The name of the alliance the force fought for ("" for none)."""

    waiting: bool = False
    """A verified export of a force that needed an organiser's approval: its copy needs
    one too."""

    def own_force_of(self, player) -> bool:
        """Whether this is a verified export of a force of ``player`` that plays freely."""
        return (
            self.verified and not self.waiting and self.exported_from.get("player_id") == player.pk
        )


def _text(value: Any, most: int) -> str:
    return value[:most] if isinstance(value, str) else ""


def _exported_from(document: dict) -> dict[str, Any]:
    """The export's own account of where it came from, as plain bounded values."""
    found = document.get("exported_from")
    found = found if isinstance(found, dict) else {}
    player_id = found.get("player_id")
    force = document.get("force") if isinstance(document.get("force"), dict) else {}
    return {
        "player": _text(found.get("player"), 150),
        "player_id": player_id if type(player_id) is int else None,
        "force": _text(found.get("force"), 120) or _text(force.get("name"), 120),
        "campaign": _text(found.get("campaign"), 120),
    }


def read_document(document: Any, *, house: rules.HouseRules) -> Restorable:
    """Check a parsed Crusade export from top to bottom; ValidationError naming the first
    thing wrong (its place in the document, and why). Writes nothing."""
    if not doc.is_document(document):
        raise ValidationError(f'This isn\'t a Crusade export (its "format" isn\'t "{doc.FORMAT}").')
    version = document.get("version")
    if version not in doc.READS or type(version) is not int:
        readable = " and ".join(str(v) for v in doc.READS)
        raise ValidationError(
            f"This export is version {version!r}; this server reads versions {readable}."
        )
    force_data = document.get("force")
    if not isinstance(force_data, dict):
        raise ValidationError('The export has no "force" object.')
    force = doc.decode(CrusadeForce, doc.FORCE_FIELDS, force_data, "force")
    alliance = force_data.get("alliance", "")
    if not isinstance(alliance, str) or len(alliance) > ALLIANCE_NAME:
        raise ValidationError("force.alliance must be the name of an alliance, or empty.")
    unit_rows = doc.check_rows(document, "units", "")
    cards = [_card(data, f"units[{index}]", index) for index, data in enumerate(unit_rows)]
    packs = read_pack_state(document, unit_rows, [card.place for card in cards])
    requisitions = [
        (
            doc.decode(RequisitionPurchase, doc.REQUISITION_FIELDS, data, where),
            doc.check_link(data.get("unit"), len(cards), f"{where}.unit"),
        )
        for index, data in enumerate(doc.check_rows(document, "requisitions", ""))
        for where in [f"requisitions[{index}]"]
    ]
    history = [
        (
            doc.decode(HistoryEntry, doc.HISTORY_FIELDS, data, where),
            doc.check_link(data.get("unit"), len(cards), f"{where}.unit"),
            _text(data.get("by"), 150),
        )
        for index, data in enumerate(doc.check_rows(document, "history", ""))
        for where in [f"history[{index}]"]
    ]
    for values, _ in requisitions:
        requisition = rules.Requisition(values["requisition"])
        if values["cost"] > requisition.max_cost:
            raise ValidationError(
                f"A {requisition.label} costs at most {requisition.max_cost}RP, "
                f"not {values['cost']}RP."
            )
    _check_force(force, cards, house)
    verified = doc.verified(document)
    if not verified:
        _check_earned(force, cards, requisitions, house)
    restored_from = document.get("restored_from")
    # A verified export of a force that was itself restored from a file an organiser had
    # to look at (waiting, refused, or approved for its own campaign) vouches for no more
    # than that force did: its copy waits for the organiser of wherever it goes.
    waiting = (
        verified
        and isinstance(restored_from, dict)
        and restored_from.get("approval") != Provenance.Approval.NOT_NEEDED
    )
    exported_at = document.get("exported_at")
    exported_at = exported_at[:40] if isinstance(exported_at, str) else ""
    return Restorable(
        force,
        cards,
        requisitions,
        history,
        exported_at,
        verified=verified,
        exported_from=_exported_from(document),
        waiting=waiting,
        packs=packs,
        alliance=alliance.strip(),
    )


def _card(data: dict, where: str, index: int) -> _Card:
    values = doc.decode(Unit, doc.UNIT_FIELDS, data, where)
    place = f"Unit {index + 1} '{values['name']}'"
    where = f'{where} ("{values["name"]}")'
    card = _Card(values, place=place)
    card.promotions = [
        doc.decode(Promotion, doc.PROMOTION_FIELDS, row, f"{where}.promotions[{index}]")
        for index, row in enumerate(doc.check_rows(data, "promotions", f"{where}."))
    ]
    for index, row in enumerate(doc.check_rows(data, "honours", f"{where}.")):
        at = f"{where}.honours[{index}]"
        honour = doc.decode(BattleHonour, doc.HONOUR_FIELDS, row, at)
        if (
            honour["category"] == rules.HonourCategory.CRUSADE_RELIC
            and not honour["relic_category"]
        ):
            raise ValidationError(f"{at} is a Crusade Relic without its relic_category.")
        mods = honour["modifications"]
        if len(mods) > 2 or not all(isinstance(m, str) and 0 < len(m) <= 120 for m in mods):
            raise ValidationError(f"{at}.modifications must be at most two names.")
        links = {
            "promotion": doc.check_link(
                row.get("promotion"), len(card.promotions), f"{at}.promotion"
            ),
            "replaces": doc.check_link(row.get("replaces"), index, f"{at}.replaces"),
            "custom_content": _content_name(row, at),
        }
        card.honours.append((honour, links))
    card.scars = [
        (
            doc.decode(BattleScar, doc.SCAR_FIELDS, row, f"{where}.scars[{index}]"),
            _content_name(row, f"{where}.scars[{index}]"),
        )
        for index, row in enumerate(doc.check_rows(data, "scars", f"{where}."))
    ]
    _check_card(card, where)
    return card


def _content_name(row: dict, at: str) -> str | None:
    name = row.get("custom_content")
    if name is None:
        return None
    if not isinstance(name, str) or not 0 < len(name) <= 120:
        raise ValidationError(f"{at}.custom_content must be the name of campaign content.")
    return name


def _check_card(card: _Card, where: str) -> None:
    """What the database and the rules require of one card."""
    values = card.values
    removed = values["status"] == Unit.Status.REMOVED
    if removed != (values["removed_at"] is not None):
        raise ValidationError(f"{where}: a removed unit has a removal date, and only it.")
    if values["model_count"] < 1:
        raise ValidationError(f"{where}: a unit has at least one model.")
    if values["battles_survived"] > values["battles_played"]:
        raise ValidationError(f"{where}: it survived more battles than it played.")
    if error := agenda_service.restored_tallies_error(values["agenda_tallies"], where):
        raise ValidationError(error)
    refusals = rules.card_refusals(
        _facts(card), honours=_held_honours(card), scars=len(_active_scars(card))
    )
    if refusals:
        raise ValidationError(f"{card.place}: {' '.join(refusals)}")


def _active_honours(card: _Card) -> list[tuple[dict, dict]]:
    return [(h, links) for h, links in card.honours if h["status"] == BattleHonour.Status.ACTIVE]


def _active_scars(card: _Card) -> list[dict]:
    return [s for s, _ in card.scars if s["status"] == BattleScar.Status.ACTIVE]


def _facts(card: _Card) -> rules.UnitFacts:
    """The card as the rules see it (as `Unit.facts` gives a stored one)."""
    values = card.values
    return rules.UnitFacts(
        name=values["name"],
        datasheet=values["datasheet"],
        points=values["points"],
        keywords=[keyword for keyword in rules.Keyword if values[keyword.field]],
        xp=values["xp"],
        legendary_veteran=values["legendary_veteran"],
        has_enhancement=bool(values["enhancement"]),
        battle_honours=len(_active_honours(card)),
        battle_scars=tuple(scar["name"] for scar in _active_scars(card)),
    )


def _held_honours(card: _Card) -> list[rules.HeldHonour]:
    held = []
    for honour, links in _active_honours(card):
        promotion = row_at(card.promotions, links["promotion"])
        held.append(
            rules.HeldHonour(
                name=honour["name"],
                category=honour["category"],
                relic_category=honour["relic_category"] or None,
                rank=rules.Rank(promotion["rank"]) if promotion else None,
            )
        )
    return held


def _check_force(force: dict, cards: list[_Card], house: rules.HouseRules) -> None:
    """What the database and the rules require of the force and its cards together."""
    if force["victories"] > force["battle_tally"]:
        raise ValidationError("force: more victories than battles.")
    if force["rp"] > house.rp_cap:
        raise ValidationError(
            f"The export holds {force['rp']}RP, but this campaign's RP cap is {house.rp_cap}RP."
        )
    active = [card.values for card in cards if card.values["status"] == Unit.Status.ACTIVE]
    names = [values["name"].strip().lower() for values in active]
    if len(set(names)) < len(names):
        raise ValidationError("Two units on the Order of Battle have the same name.")
    used = sum(values["points"] for values in active if values["counts_towards_supply"])
    refusal = rules.supply_refusal(
        supply_used=0, supply_limit=force["supply_limit"], extra_points=used
    )
    if refusal:
        raise ValidationError(f"The units on the Order of Battle don't fit: {refusal}")
    carried: set[str] = set()
    for card in cards:
        if card.values["status"] != Unit.Status.ACTIVE:
            continue
        for honour, _ in _active_honours(card):
            if honour["category"] != rules.HonourCategory.CRUSADE_RELIC:
                continue
            relic = honour["name"].strip().casefold()
            if refusal := rules.held_relic_refusal(relic, relics_in_force=carried):
                raise ValidationError(f"{card.place}: {honour['name']}: {refusal}")
            carried.add(relic)


def _check_earned(
    force: dict, cards: list[_Card], requisitions: list, house: rules.HouseRules
) -> None:
    """What a file this server can't vouch for must also show: nothing its battles and
    requisitions couldn't have given it (bounds of `rules.cards` and `rules.force`, under
    the most generous of this campaign's and the default house rules)."""
    house = rules.most_generous(house, rules.DEFAULT_HOUSE_RULES)
    battles = force["battle_tally"]
    refusals = rules.earned_resources_refusals(
        battles=battles,
        rp_in_all=force["rp"] + sum(values["cost"] for values, _ in requisitions),
        supply_limit=force["supply_limit"],
        increases=sum(
            1
            for values, _ in requisitions
            if values["requisition"] == rules.Requisition.INCREASE_SUPPLY_LIMIT
        ),
        house=house,
    )
    if refusals:
        raise ValidationError(f"Force '{force['name']}': {' '.join(refusals)}")
    for card in cards:
        values = card.values
        refusals = rules.tally_refusals(
            _facts(card),
            battles_played=values["battles_played"],
            units_destroyed=values["units_destroyed"],
            force_battles=battles,
        ) + rules.agenda_tally_refusals(
            values["name"],
            sum(values["agenda_tallies"].values()),
            battles_played=values["battles_played"],
        )
        if refusals:
            raise ValidationError(f"{card.place}: {' '.join(refusals)}")


def row_at(rows: list, index: int | None):
    """The row a document's link points at (an index into ``rows``), or None."""
    return None if index is None else rows[index]
