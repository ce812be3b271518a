"""The Order of Battle's resources: Supply Limit and Requisition points (R1)."""

from __future__ import annotations

from dataclasses import dataclass

from ._checks import require_non_negative, require_non_negative_fields
from .edition import EDITION
from .errors import RuleError
from .tables import RP_PER_BATTLE


@dataclass(frozen=True)
class HouseRules:
    """Numbers a campaign organiser may change (R1.2, R1.5, R6.1)."""

    starting_supply_limit: int = EDITION.house.starting_supply_limit
    starting_rp: int = EDITION.house.starting_rp
    rp_cap: int = EDITION.house.rp_cap
    supply_limit_increase: int = EDITION.house.supply_limit_increase

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


def most_generous(*houses: HouseRules) -> HouseRules:
    """The largest of each number of ``houses``: a bound that holds under any of them."""
    return HouseRules(
        **{
            name: max(getattr(house, name) for house in houses)
            for name in ("starting_supply_limit", "starting_rp", "rp_cap", "supply_limit_increase")
        }
    )


def rp_bound(*, battles: int, house: HouseRules) -> int:
    """R1.2/R1.5: the most RP a force that fought ``battles`` battles can have held in all
    (what it holds now plus everything it spent).

    **Bound (generous):** the starting RP, 1RP per battle, and once more the whole RP cap,
    for an organiser's correction that topped the force up. A real force stays below it
    unless an organiser gave it RP more than once.
    """
    require_non_negative(battles=battles)
    return house.starting_rp + RP_PER_BATTLE * battles + house.rp_cap


def supply_limit_bound(*, increases: int, house: HouseRules) -> int:
    """R1.2/R6.1: the highest Supply Limit a force that bought ``increases`` Increase
    Supply Limit requisitions can have: the starting limit plus one increase each."""
    require_non_negative(increases=increases)
    return house.starting_supply_limit + increases * house.supply_limit_increase


def earned_resources_refusals(
    *, battles: int, rp_in_all: int, supply_limit: int, increases: int, house: HouseRules
) -> list[str]:
    """R1.2/R1.5/R6.1: what a force's RP (``rp_in_all``: held plus spent) and Supply Limit
    say that its ``battles`` and ``increases`` (Increase Supply Limit bought) couldn't have
    given, under the bounds above. Empty if nothing."""
    reasons: list[str] = []
    most_rp = rp_bound(battles=battles, house=house)
    if rp_in_all > most_rp:
        reasons.append(
            f"it holds and spent {rp_in_all}RP in all, but a force that fought {battles} "
            f"battles can have had at most {most_rp}RP (R1.2, R1.5)."
        )
    most_supply = supply_limit_bound(increases=increases, house=house)
    if supply_limit > most_supply:
        reasons.append(
            f"its Supply Limit of {supply_limit} is more than the starting limit and its "
            f"{increases} Increase Supply Limit requisitions give (at most {most_supply}, "
            "R1.2, R6.1)."
        )
    return reasons
