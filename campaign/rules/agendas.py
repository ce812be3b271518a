"""Agendas in play (R11.1): how many a side picks, what its units may claim, and the XP.

An Agenda's numbers come from a content pack (never from here): anything with the
attributes of `AgendaTerms` will do, e.g. ``campaign.packs.model.Agenda``.

**Decisions** (the rule text leaves them open):
- How many a side picks is the largest ``agendas_per_battle`` among the enabled packs
  that hold Agendas; with no such pack there is nothing to pick (0).
- ``limit_per_battle`` caps how often the side achieves the Agenda in one battle, all of
  its units together. A tally Agenda may be achieved several times by one unit; any other
  Agenda at most once per unit, whatever its limit (its limit then caps how many units).
- The XP is the pack's XP for each time. It is added after the battle's other XP (R3.1 to
  R3.4) and within the caps (R3.6): what the cap takes is lost, and a no-XP unit (R2.6)
  gains nothing. Only a tally Agenda adds to the unit's Agenda tally (the "Agendas
  achieved" combat tally of R2.5), and it adds every time, XP or not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ._checks import require_non_negative
from .ranks import add_xp


class AgendaTerms(Protocol):
    name: str
    xp: int
    keeps_tally: bool
    limit_per_battle: int | None


@dataclass(frozen=True)
class PackAgendas:
    """What one enabled pack says about Agendas."""

    agendas: int
    """How many Agendas the pack holds."""
    per_battle: int | None


def agendas_per_battle(packs: Iterable[PackAgendas]) -> int:
    """R11.1: how many Agendas a side may pick for a battle: the largest number among the
    enabled packs that hold Agendas (a pack with Agendas but no number allows 1); 0 when
    no enabled pack holds any."""
    return max((p.per_battle or 1 for p in packs if p.agendas), default=0)


def agenda_pick_refusal(picked: int, allowed: int) -> str | None:
    """R11.1: why a side can't pick ``picked`` Agendas, or None."""
    require_non_negative(picked=picked, allowed=allowed)
    if picked <= allowed:
        return None
    if allowed == 0:
        return "This campaign's packs hold no Agendas to pick."
    return (
        f"Pick at most {allowed} Agenda{'s' if allowed != 1 else ''} for a battle "
        f"({picked} picked)."
    )


def agenda_mark_refusals(agenda: AgendaTerms, marks: Sequence[tuple[str, int]]) -> list[str]:
    """R11.1: why these marks of one Agenda by one side's units can't all stand (empty: they
    can). ``marks`` holds (unit name, times) for each unit that achieved it."""
    refusals = []
    for unit, times in marks:
        if times < 1:
            refusals.append(f"{unit} achieved {agenda.name} at least once, or not at all.")
        elif times > 1 and not agenda.keeps_tally:
            refusals.append(
                f"{agenda.name} keeps no tally: {unit} can achieve it only once in a battle."
            )
    total = sum(max(0, times) for _, times in marks)
    limit = agenda.limit_per_battle
    if limit is not None and total > limit:
        refusals.append(
            f"{agenda.name} can be achieved at most {limit} time{'s' if limit != 1 else ''} "
            f"in a battle ({total} marked)."
        )
    return refusals


def agenda_xp(agenda: AgendaTerms, times: int) -> int:
    """R11.1: the XP an achievement gives before the caps: the pack's XP for each time."""
    require_non_negative(times=times)
    return agenda.xp * times


def agenda_tally_gained(agenda: AgendaTerms, times: int) -> int:
    """R11.1: what an achievement adds to the unit's Agenda tally."""
    require_non_negative(times=times)
    return times if agenda.keeps_tally else 0


def agenda_xp_shares(
    xp: int,
    other_gain: int,
    awards: Sequence[int],
    *,
    is_character: bool,
    legendary_veteran: bool,
    no_xp: bool = False,
) -> tuple[int, ...]:
    """R11.1/R3.6: the XP each Agenda award (raw XP, in order) really gives a unit holding
    ``xp`` that also gains ``other_gain`` from the battle, applied after it within the caps.
    Their sum plus the other XP is what `add_xp` gives for the whole battle."""
    require_non_negative(xp=xp, other_gain=other_gain)
    caps = {"is_character": is_character, "legendary_veteran": legendary_veteran, "no_xp": no_xp}
    held = add_xp(xp, other_gain, **caps)
    shares = []
    for award in awards:
        after = add_xp(held, award, **caps)
        shares.append(after - held)
        held = after
    return tuple(shares)


MOST_AGENDAS_PER_BATTLE = 10
"""The most Agendas a pack lets a side pick for a battle (the pack format's bound)."""
MOST_AGENDA_TIMES = 99
"""The most times the record form takes for one unit's achievement of one Agenda."""


def agenda_tally_bound(*, battles_played: int) -> int:
    """R2.5/R11.1: the most a card's Agenda tallies could have reached in its battles.

    **Bound (generous):** every battle, the most Agendas a side picks, each achieved as
    many times as the record form takes."""
    require_non_negative(battles_played=battles_played)
    return battles_played * MOST_AGENDAS_PER_BATTLE * MOST_AGENDA_TIMES


def agenda_tally_refusals(unit: str, tally: int, *, battles_played: int) -> list[str]:
    """R2.4/R11.1: what a card's Agenda tally says that its battles couldn't have given it
    (a restored card: it starts at 0 and only battles add to it). Empty if nothing."""
    require_non_negative(tally=tally, battles_played=battles_played)
    if tally and not battles_played:
        return [f"{unit} achieved {tally} Agendas without playing a battle (R2.4, R11.1)."]
    bound = agenda_tally_bound(battles_played=battles_played)
    if tally > bound:
        return [
            f"{unit} achieved {tally} Agendas, more than {battles_played} battles could give "
            f"(at most {bound}, R11.1)."
        ]
    return []
