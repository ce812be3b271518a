"""Pack counters and pack Requisitions (R6, R11.4): plain numbers in, refusals out.

A pack names its counters (per force or per unit) with a start value and bounds, and its
Requisitions with a cost in RP or in one of its force counters, a timing, a target and an
effect. The numbers reach these functions as data; nothing here knows any book.
"""

from __future__ import annotations

from dataclasses import dataclass

from .force import rp_refusal

RP = "rp"
"""A pack Requisition's ``cost_in`` when it costs Requisition points."""

IN_BATTLE = "Requisitions can't be bought while a battle is being fought."
"""R6 and R9's timing decision: the same refusal as the core Requisitions'."""

TIMING_LABELS = {
    "any": "any time",
    "before_battle": "before a battle",
    "after_battle": "after a battle",
}
"""How a Requisition's timing reads on the page. As for the core Requisitions with these
timings (Rearm and Resupply before a battle, Repair and Recuperate after one), "before" and
"after" a battle both mean between battles: only a battle being fought refuses them."""


@dataclass(frozen=True, kw_only=True)
class CounterSpec:
    """A counter's name and bounds, as its pack gives them."""

    name: str
    start: int
    least: int
    most: int


def bounds_refusal(counter: CounterSpec, value: int) -> str | None:
    """R11.4: why ``value`` can't be held by ``counter``, or None if it can."""
    if value < counter.least:
        return f"{counter.name} can't go below {counter.least}; that would make it {value}."
    if value > counter.most:
        return f"{counter.name} can't go above {counter.most}; that would make it {value}."
    return None


def cost_refusal(*, cost: int, cost_in: str, rp: int, counter: CounterSpec | None, held: int):
    """R6: why the force can't pay ``cost`` (in RP, or in ``counter`` of which it holds
    ``held``), or None if it can. A counter pays only down to its least value."""
    if cost_in == RP:
        return rp_refusal(rp=rp, cost=cost)
    if counter is None:
        return f"This Requisition costs {cost_in!r}, which none of the campaign's packs counts."
    if held - cost < counter.least:
        spare = max(0, held - counter.least)
        floor = f" (it can't go below {counter.least})" if counter.least else ""
        return f"It costs {cost} {counter.name}; the force has {held}{floor}, so {spare} to spend."
    return None


def pack_requisition_refusals(
    *,
    in_battle: bool,
    cost: int,
    cost_in: str,
    rp: int,
    cost_counter: CounterSpec | None = None,
    cost_held: int = 0,
    changed: CounterSpec | None = None,
    changed_held: int = 0,
    change: int = 0,
    same_counter: bool = False,
    upgrade_held: str | None = None,
) -> list[str]:
    """R6 for a pack Requisition: every reason it can't be bought now (empty: it can).

    ``changed`` is the counter its effect changes by ``change`` (held ``changed_held``);
    ``same_counter`` when it also pays in that counter (the change then starts from what
    is left after paying). ``upgrade_held`` names the unit when it already holds the
    upgrade the Requisition gives.
    """
    reasons: list[str] = []
    if in_battle:
        reasons.append(IN_BATTLE)
    if (
        short := cost_refusal(
            cost=cost, cost_in=cost_in, rp=rp, counter=cost_counter, held=cost_held
        )
    ) is not None:
        reasons.append(short)
    if changed is not None:
        start = changed_held - cost if same_counter else changed_held
        if (wrong := bounds_refusal(changed, start + change)) is not None:
            reasons.append(wrong)
    if upgrade_held is not None:
        reasons.append(f"{upgrade_held} already has this upgrade.")
    return reasons
