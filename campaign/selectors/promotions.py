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
class PromotionPage:
    promotion: Promotion
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
    renowned_heroes: services.RequisitionOption

    @property
    def unit(self) -> Unit:
        return self.promotion.unit

    @property
    def pending(self) -> bool:
        return self.promotion.status == Promotion.Status.PENDING

    @property
    def trait_table(self) -> str:
        """The table the trait form starts on: the first that fits the unit."""
        tables = rules.fitting_trait_tables(self.unit.keywords)
        return tables[0] if tables else ""


def promotion_page(promotion: Promotion, *, can_write: bool = False) -> PromotionPage:
    """``promotion`` comes from the access helper, with its unit and force loaded."""
    unit = promotion.unit
    prefetch_related_objects([unit], *card_prefetches())
    traits = services.campaign_content(unit, CustomContent.Kind.BATTLE_TRAIT)
    relics = services.campaign_content(unit, CustomContent.Kind.CRUSADE_RELIC)
    options = services.requisition_options(unit.force, unit=unit)
    return PromotionPage(
        promotion=promotion,
        can_write=can_write,
        facts=unit.facts(pending_promotions=0),
        honours=unit.active_honours(),
        scars=unit.active_scars(),
        custom_traits=traits,
        trait_choices=services.battle_trait_choices(unit, traits),
        custom_relics=relics,
        relic_choices=services.crusade_relic_choices(unit, relics, rank=rules.Rank(promotion.rank)),
        renowned_heroes=next(
            o for o in options if o.requisition is rules.Requisition.RENOWNED_HEROES
        ),
    )


@dataclass(frozen=True)
class RewardPage:
    """A mission's or Agenda's reward outside a promotion: the honours the unit may take
    (as on the promotion page) and the scars that may be inflicted on it."""

    unit: Unit
    can_write: bool
    facts: rules.UnitFacts
    honours: list[BattleHonour]
    scars: list[BattleScar]
    custom_traits: list[CustomContent]
    trait_choices: dict[str, list[tuple[str, str]]]
    custom_relics: list[CustomContent]
    relic_choices: list[tuple[str, str]]
    custom_scars: list[CustomContent]

    @property
    def trait_table(self) -> str:
        tables = rules.fitting_trait_tables(self.unit.keywords)
        return tables[0] if tables else ""

    @property
    def scar_room(self) -> bool:
        """Whether the unit can bear another Battle Scar."""
        return len(self.scars) < rules.MAX_BATTLE_SCARS


def reward_page(unit: Unit, *, can_write: bool = False) -> RewardPage:
    """``unit`` comes from the access helper, with its force loaded."""
    prefetch_related_objects([unit], *card_prefetches())
    traits = services.campaign_content(unit, CustomContent.Kind.BATTLE_TRAIT)
    relics = services.campaign_content(unit, CustomContent.Kind.CRUSADE_RELIC)
    return RewardPage(
        unit=unit,
        can_write=can_write,
        facts=unit.facts(pending_promotions=0),
        honours=unit.active_honours(),
        scars=unit.active_scars(),
        custom_traits=traits,
        trait_choices=services.battle_trait_choices(unit, traits),
        custom_relics=relics,
        relic_choices=services.crusade_relic_choices(unit, relics),
        custom_scars=services.campaign_content(unit, CustomContent.Kind.BATTLE_SCAR),
    )
