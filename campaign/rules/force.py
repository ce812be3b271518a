"""The Order of Battle's resources: Supply Limit and Requisition points (R1)."""

from __future__ import annotations

from dataclasses import dataclass

from ._checks import require_non_negative, require_non_negative_fields
from .errors import RuleError


@dataclass(frozen=True)
class HouseRules:
    """Numbers a campaign organiser may change (R1.2, R1.5, R6.1)."""

    starting_supply_limit: int = 1000
    starting_rp: int = 5
    rp_cap: int = 10
    supply_limit_increase: int = 200

    def __post_init__(self) -> None:
        require_non_negative_fields(
            self, "starting_supply_limit", "starting_rp", "rp_cap", "supply_limit_increase"
        )
        if self.starting_rp > self.rp_cap:
            raise ValueError("starting_rp cannot be above rp_cap")


DEFAULT_HOUSE_RULES = HouseRules()


def resources_in_campaign(
    *, supply_limit: int, rp: int, being_raised: bool, house: HouseRules
) -> tuple[int, int]:
    """(Supply Limit, RP) of a force raised outside any campaign once it is brought into one.

    **Decision:** from then on the campaign's house rules apply. A force still being raised
    (``being_raised``: no battle fought, no RP spent) starts again from the campaign's
    starting Supply Limit and RP (R1.2), as if it had been created there; any other force
    keeps what it has earned, except RP above the campaign's cap, which is lost (R1.5).
    """
    require_non_negative(supply_limit=supply_limit, rp=rp)
    if being_raised:
        return house.starting_supply_limit, house.starting_rp
    return supply_limit, min(rp, house.rp_cap)


def add_rp(rp: int, gained: int, *, cap: int) -> int:
    """R1.5: RP after gaining ``gained``; anything above ``cap`` is lost.

    RP already above the cap (the organiser lowered it) is never taken away.
    """
    require_non_negative(rp=rp, gained=gained, cap=cap)
    return max(rp, min(rp + gained, cap))


def points_text(points: int) -> str:
    """``points`` as words: "1 point", "20 points"."""
    return f"{points} point" if points == 1 else f"{points} points"


def supply_refusal(
    *, supply_used: int, supply_limit: int, extra_points: int, needing: str = "That needs"
) -> str | None:
    """R1.3: why adding ``extra_points`` would break the Supply Limit, or None if it fits.

    A change that adds no points (``extra_points <= 0``) is never refused. ``needing``
    starts the sentence ("The units ticked need"). The message says what is free: all of
    the limit (none used yet), some of it, or none.
    """
    require_non_negative(supply_used=supply_used, supply_limit=supply_limit)
    if extra_points <= 0 or supply_used + extra_points <= supply_limit:
        return None
    if supply_used == 0:
        return (
            f"{needing} {points_text(extra_points)}, but your Supply Limit is {supply_limit} "
            "and none of it is used yet."
        )
    needs = f"{needing} {points_text(extra_points).replace(' point', ' more point')}"
    free = supply_limit - supply_used
    if free > 0:
        left = f"only {points_text(free)} {'is' if free == 1 else 'are'} left"
        return (
            f"{needs}, but {left} of your {supply_limit}-point Supply Limit ({supply_used} used)."
        )
    over = f", {free * -1} over" if free < 0 else ""
    return (
        f"{needs}, but your {supply_limit}-point Supply Limit is used up "
        f"({supply_used} used{over})."
    )


def supply_over(*, supply_used: int, supply_limit: int) -> int:
    """R1.3: how many points Supply Used is above the Supply Limit (0 within it).

    Play never takes a force past its limit, but a force can find itself there: when
    points start to count that did not (an Enhancement's, from a release that left them
    out), or from a restored file. Until it is back within the limit every change that
    adds points is refused (`supply_refusal`); removing a unit or a Supply Limit increase
    brings it back."""
    require_non_negative(supply_used=supply_used, supply_limit=supply_limit)
    return max(0, supply_used - supply_limit)


def check_supply(*, supply_used: int, supply_limit: int, extra_points: int) -> None:
    """R1.3: raise RuleError if ``extra_points`` would take Supply Used past the limit."""
    message = supply_refusal(
        supply_used=supply_used, supply_limit=supply_limit, extra_points=extra_points
    )
    if message:
        raise RuleError(message)


def rp_refusal(*, rp: int, cost: int) -> str | None:
    """R6: why ``rp`` can't pay ``cost``, or None if it can."""
    require_non_negative(rp=rp, cost=cost)
    if cost <= rp:
        return None
    return f"That needs {cost}RP; you have {rp}RP."
