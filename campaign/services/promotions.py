"""Battle Honours: settling a promotion with one, or a mission's or Agenda's reward.

The Enhancement a promotion may give instead is a requisition (`renowned_heroes`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import BattleHonour, CustomContent, HistoryAction, Promotion, Unit

from . import _common as common

Category = BattleHonour.Category


AWARD_REASON = "Say which mission or Agenda awarded it; the reason is kept in the history."


def _start(
    promotion: Promotion | None, unit: Unit | None, reason: str
) -> tuple[Promotion | None, Unit]:
    """Lock the force and re-read the promotion and unit. Without a promotion the honour
    is a mission's or Agenda's reward, which needs its reason."""
    if promotion is None:
        if unit is None:
            raise ValueError("a promotion to settle, or a unit to reward")
        common.require_reason(reason, AWARD_REASON)
    unit = Unit.objects.get(pk=promotion.unit_id if promotion is not None else unit.pk)
    common.lock_force(unit.force_id)
    if promotion is not None:
        promotion = Promotion.objects.select_for_update().get(pk=promotion.pk)
        if promotion.status != Promotion.Status.PENDING:
            common.refuse("This promotion has already been settled.")
    unit = common.fresh_unit(unit)
    common.require_active(unit)
    return promotion, unit


def _check(
    unit: Unit,
    *,
    category: str,
    replace: BattleHonour | None,
    relic_category: rules.RelicCategory | None = None,
    promotion: Promotion | None = None,
) -> BattleHonour | None:
    """Asks the rules whether the unit may gain the honour; returns the honour to replace."""
    honours = {h.pk: h for h in unit.active_honours()}
    if replace is not None and replace.pk not in honours:
        common.refuse("Pick one of the unit's own Battle Honours to replace.", field="replace")
    facts = unit.facts(pending_promotions=0)
    refusal = rules.honour_refusal(
        unit=facts,
        category=category,
        replacing=replace is not None and facts.at_honour_cap,
        relic_category=relic_category,
        rank=rules.Rank(promotion.rank) if promotion is not None else None,
    )
    if refusal:
        common.refuse(refusal, field="replace" if facts.at_honour_cap else None)
    if replace is not None and not facts.at_honour_cap:
        common.refuse("Honours are only replaced when the unit is at its limit.", field="replace")
    return honours[replace.pk] if replace is not None else None


def _grant(
    *,
    actor,
    promotion: Promotion | None,
    unit: Unit,
    replace: BattleHonour | None,
    reason: str = "",
    **values,
):
    now = timezone.now()
    points_before = unit.crusade_points
    if replace is not None:
        replace.status, replace.lost_at = BattleHonour.Status.LOST, now
        replace.lost_reason = f"Replaced by {values['name']}"
        replace.save(update_fields=["status", "lost_at", "lost_reason"])
    honour = BattleHonour.objects.create(
        unit=unit, promotion=promotion, replaces=replace, gained_at=now, **values
    )
    if promotion is not None:
        promotion.status, promotion.settled_at = Promotion.Status.SETTLED, now
        promotion.settled_by = rules.PromotionReward.BATTLE_HONOUR
        promotion.settled_with = honour.name
        promotion.save(update_fields=["status", "settled_at", "settled_by", "settled_with"])
    unit = common.fresh_unit(unit)
    common.refresh_totals(unit.force)
    why = promotion.rank_label if promotion is not None else "mission reward"
    common.record(
        actor,
        HistoryAction.HONOUR_GAINED,
        f"{unit.name} ({why}) gains {honour.get_category_display()}: "
        f"{honour.name}" + (f", replacing {replace.name}" if replace else ""),
        unit=unit,
        battle=promotion.battle if promotion is not None else None,
        reason=reason.strip(),
        changed={
            "crusade_points": [points_before, unit.crusade_points],
            "battle_honours": [replace.name if replace else None, honour.name],
        },
    )
    return honour


def campaign_content(unit: Unit, kind: str) -> list[CustomContent]:
    """The content of ``kind`` the campaign's enabled packs still offer the unit's player."""
    if not unit.force.campaign_id:
        return []
    return list(
        CustomContent.objects.available()
        .enabled_in(unit.force.campaign_id)
        .filter(kind=kind)
        .select_related("pack")
        .order_by("pack__name", "pack_id", "position", "pk")
    )


def battle_trait_choices(
    unit: Unit, custom: list[CustomContent] | None = None
) -> dict[str, list[tuple[str, str]]]:
    """Traits a unit may still take, by table: core tables plus the campaign's own."""
    held = {h.name for h in unit.active_honours()}
    fitting = rules.fitting_trait_tables(unit.keywords)
    choices = {
        table: [(name, effect) for name, effect in rules.BATTLE_TRAIT_TABLES[table].values()]
        for table in fitting
    }
    if custom is None:
        custom = campaign_content(unit, CustomContent.Kind.BATTLE_TRAIT)
    for item in custom:
        core = item.core_trait_table
        if core is None and fitting:
            choices.setdefault(item.trait_table_label or "Campaign", []).append(
                (item.name, item.effect)
            )
        elif core in fitting:
            choices[core].append((item.name, item.effect))
    return {
        table: [(name, effect) for name, effect in entries if name not in held]
        for table, entries in choices.items()
    }


def crusade_relic_choices(
    unit: Unit, custom: list[CustomContent] | None = None, *, rank: rules.Rank | None = None
) -> list[tuple[str, str]]:
    """Relics the unit may take now, as (choice key, label): the rules decide which."""
    if custom is None:
        custom = campaign_content(unit, CustomContent.Kind.CRUSADE_RELIC)
    facts = unit.facts(pending_promotions=0)
    core = {name: category for name, (category, _effect) in rules.CRUSADE_RELICS.items()}
    own = {c.name: rules.RelicCategory(c.relic_category) for c in custom}
    allowed = set(
        rules.available_relics(facts, core | own, relics_in_force=relics_in_force(unit), rank=rank)
    )
    choices = []
    for name, (category, effect) in rules.CRUSADE_RELICS.items():
        if name in allowed:
            choices.append((name, f"{name} ({category.label})" + (f": {effect}" if effect else "")))
    for item in custom:
        if item.name in allowed:
            label = rules.RelicCategory(item.relic_category).label
            choices.append((item.choice_key, f"{item.name} ({label})"))
    return choices


@transaction.atomic
def settle_with_battle_trait(
    *,
    actor,
    promotion: Promotion | None = None,
    unit: Unit | None = None,
    reason: str = "",
    table: str = "",
    trait: str | None = None,
    custom: CustomContent | None = None,
    replace: BattleHonour | None = None,
    rng=None,
) -> BattleHonour:
    """Roll (re-rolling duplicates) or choose a Battle Trait from a table that fits the
    unit, core or the campaign's: for a promotion, or as a mission's reward (``unit``
    and ``reason`` instead of ``promotion``)."""
    promotion, unit = _start(promotion, unit, reason)
    replace = _check(unit, category=Category.BATTLE_TRAIT, replace=replace)
    held = {h.name for h in unit.active_honours() if h != replace}
    if custom is not None:
        common.require_campaign_content(
            custom, unit, CustomContent.Kind.BATTLE_TRAIT, field="trait"
        )
        name, effect, table = custom.name, custom.effect, custom.trait_table_label
        core, fits = custom.core_trait_table, rules.fitting_trait_tables(unit.keywords)
        if (core is not None and core not in fits) or not fits:
            common.refuse(
                rules.trait_table_refusal(unit.facts(), table or "campaign"), field="trait"
            )
    else:
        if table not in rules.BATTLE_TRAIT_TABLES:
            common.refuse("Pick a Battle Traits table.", field="table")
        refusal = rules.trait_table_refusal(unit.facts(), table)
        if refusal:
            common.refuse(refusal, field="table")
        entries = dict(rules.BATTLE_TRAIT_TABLES[table].values())
        if trait is None:
            with common.rule_refusals("trait"):
                name, effect = rules.roll_battle_trait(table, held, rng=rng)
        elif trait not in entries:
            common.refuse(f"{trait} is not on the {table} table.", field="trait")
        else:
            name, effect = trait, entries[trait]
    if name in held:
        common.refuse(f"{unit.name} already has {name}; pick another trait.", field="trait")
    return _grant(
        actor=actor,
        promotion=promotion,
        unit=unit,
        replace=replace,
        reason=reason,
        category=Category.BATTLE_TRAIT if custom is None else Category.CUSTOM,
        name=name,
        effect=effect,
        trait_table=table,
        custom_content=custom,
    )


@transaction.atomic
def settle_with_weapon_modification(
    *,
    actor,
    promotion: Promotion | None = None,
    unit: Unit | None = None,
    reason: str = "",
    model_name: str,
    weapon: str,
    modifications: tuple[str, str] | None = None,
    replace: BattleHonour | None = None,
    rng=None,
) -> BattleHonour:
    """Two different modifications on one weapon that is not already modified, a relic or
    the Enhancement's (for a promotion, or a mission's reward)."""
    promotion, unit = _start(promotion, unit, reason)
    replace = _check(unit, category=Category.WEAPON_MODIFICATION, replace=replace)
    weapon, model_name = weapon.strip(), model_name.strip()
    if not weapon:
        common.refuse("Name the weapon to modify.", field="weapon")
    if not model_name:
        common.refuse("Name the model that carries the weapon.", field="model_name")
    refusal = rules.weapon_modification_refusal(
        weapon,
        honoured_weapons=[h.weapon for h in unit.active_honours() if h != replace and h.weapon],
        enhancement_weapon=unit.enhancement_weapon,
    )
    if refusal:
        common.refuse(refusal, field="weapon")
    if modifications is None:
        modifications = rules.roll_weapon_modifications(rng)
    first, second = modifications
    known = set(rules.WEAPON_MODIFICATIONS.values())
    if first not in known or second not in known:
        common.refuse("Pick modifications from the table.", field="modifications")
    if first == second:
        common.refuse("The two modifications must be different.", field="modifications")
    effects = rules.WEAPON_MODIFICATION_EFFECTS
    return _grant(
        actor=actor,
        promotion=promotion,
        unit=unit,
        replace=replace,
        reason=reason,
        category=Category.WEAPON_MODIFICATION,
        name=f"{weapon}: {first} and {second}",
        effect=f"{first}: {effects[first]} {second}: {effects[second]}",
        model_name=model_name,
        weapon=weapon,
        modifications=[first, second],
    )


def relics_in_force(unit: Unit) -> set[str]:
    """Relic names already carried by active units of the same Order of Battle."""
    return set(
        BattleHonour.objects.filter(
            unit__force_id=unit.force_id,
            unit__status=Unit.Status.ACTIVE,
            status=BattleHonour.Status.ACTIVE,
            category=Category.CRUSADE_RELIC,
        ).values_list("name", flat=True)
    )


@transaction.atomic
def settle_with_crusade_relic(
    *,
    actor,
    promotion: Promotion | None = None,
    unit: Unit | None = None,
    reason: str = "",
    relic: str = "",
    custom: CustomContent | None = None,
    weapon: str = "",
    replace: BattleHonour | None = None,
) -> BattleHonour:
    """A relic for a CHARACTER at the rank its category needs, once per force. For a
    promotion, the rank that promotion reached decides (for a mission's reward, the rank
    the unit holds)."""
    promotion, unit = _start(promotion, unit, reason)
    if custom is not None:
        common.require_campaign_content(
            custom, unit, CustomContent.Kind.CRUSADE_RELIC, field="relic"
        )
        relic, category, effect = (
            custom.name,
            rules.RelicCategory(custom.relic_category),
            custom.effect,
        )
    elif relic in rules.CRUSADE_RELICS:
        category, effect = rules.CRUSADE_RELICS[relic]
    else:
        common.refuse("Pick a Crusade Relic.", field="relic")
    replace = _check(
        unit,
        category=Category.CRUSADE_RELIC,
        replace=replace,
        relic_category=category,
        promotion=promotion,
    )
    taken = relics_in_force(unit) - ({replace.name} if replace is not None else set())
    refusal = rules.relic_taken_refusal(relic, relics_in_force=taken)
    if refusal:
        common.refuse(refusal, field="relic")
    return _grant(
        actor=actor,
        promotion=promotion,
        unit=unit,
        replace=replace,
        reason=reason,
        category=Category.CRUSADE_RELIC,
        name=relic,
        effect=effect,
        relic_category=category.value,
        weapon=weapon.strip(),
        custom_content=custom,
    )
