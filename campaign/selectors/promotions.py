"""The promotion page: the unit as it stands and every reward it may take."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import prefetch_related_objects

from campaign import rules, services
from campaign.models import (
    BattleHonour,
    BattleScar,
    CustomContent,
    Promotion,
    Unit,
    card_prefetches,
)


@dataclass(frozen=True)
class HonourChoices:
    """A unit as it stands, and every Battle Honour it may take now."""

    unit: Unit
    can_write: bool
    facts: rules.UnitFacts
    honours: list[BattleHonour]
    scars: list[BattleScar]
    custom_traits: list[CustomContent]
    trait_choices: dict[str, list[tuple[str, str]]]
    """Traits the unit may still take, by table (the campaign's own included)."""
    custom_relics: list[CustomContent]
    relic_choices: list[tuple[str, str]]
    """Relics the unit may take now, as (choice key, label)."""

    @property
    def trait_table(self) -> str:
        """The table the trait form starts on: the first that fits the unit."""
        tables = rules.fitting_trait_tables(self.unit.keywords)
        return tables[0] if tables else ""


def _honour_choices(unit: Unit, *, can_write: bool, rank: rules.Rank | None) -> dict:
    """The fields of `HonourChoices` for ``unit``; a relic's gate is ``rank`` when given."""
    prefetch_related_objects([unit], *card_prefetches())
    traits = services.campaign_content(unit, CustomContent.Kind.BATTLE_TRAIT)
    relics = services.campaign_content(unit, CustomContent.Kind.CRUSADE_RELIC)
    return {
        "unit": unit,
        "can_write": can_write,
        "facts": unit.facts(pending_promotions=0),
        "honours": unit.active_honours(),
        "scars": unit.active_scars(),
        "custom_traits": traits,
        "trait_choices": services.battle_trait_choices(unit, traits),
        "custom_relics": relics,
        "relic_choices": services.crusade_relic_choices(unit, relics, rank=rank),
    }


@dataclass(frozen=True)
class PromotionPage(HonourChoices):
    promotion: Promotion | None = None
    renowned_heroes: services.RequisitionOption | None = None

    @property
    def pending(self) -> bool:
        return self.promotion.status == Promotion.Status.PENDING


def promotion_page(promotion: Promotion, *, can_write: bool = False) -> PromotionPage:
    """``promotion`` comes from the access helper, with its unit and force loaded."""
    unit = promotion.unit
    choices = _honour_choices(unit, can_write=can_write, rank=rules.Rank(promotion.rank))
    options = services.requisition_options(unit.force, unit=unit)
    heroes = next(o for o in options if o.requisition is rules.Requisition.RENOWNED_HEROES)
    return PromotionPage(**choices, promotion=promotion, renowned_heroes=heroes)


@dataclass(frozen=True)
class RewardPage(HonourChoices):
    """A mission's or Agenda's reward outside a promotion: the honours the unit may take
    (as on the promotion page) and the scars that may be inflicted on it."""

    custom_scars: list[CustomContent] = ()

    @property
    def scar_room(self) -> bool:
        """Whether the unit can bear another Battle Scar."""
        return len(self.scars) < rules.MAX_BATTLE_SCARS


def reward_page(unit: Unit, *, can_write: bool = False) -> RewardPage:
    """``unit`` comes from the access helper, with its force loaded."""
    scars = services.campaign_content(unit, CustomContent.Kind.BATTLE_SCAR)
    return RewardPage(**_honour_choices(unit, can_write=can_write, rank=None), custom_scars=scars)
