"""Forms for battles: record a side's end, Out of Action and promotions (a battle is
started with `forms.battle_start`).

Forms check the shape of the input; the Crusade rules are checked by the services,
whose refusals are mapped back onto these forms with `add_service_errors`.
"""

from __future__ import annotations

from django import forms

from campaign import rules
from campaign.bounds import number_field
from campaign.models import (
    BattleHonour,
    BattleParticipant,
    BattleUnit,
    CustomContent,
    OutOfActionTest,
)
from campaign.services.attached_credit import attached_credit_errors
from campaign.services.battle_gains import UnitOutcome

from . import NOT_CHOSEN, agendas
from .prototypes import TALLY, TICK, like
from .requisitions import RenownedHeroesForm
from .widgets import PlainSelect


def _tally(label: str, recorded: int) -> forms.IntegerField:
    """A small count for the record form: empty means 0 (shown as a placeholder), so only
    what happened needs typing; what a side recorded before is shown when amending."""
    return like(TALLY, label=label, initial=recorded or None)


class BonusReasonInput(forms.TextInput):
    """Why a unit earned bonus XP (a class, like `TallyInput`: one box per unit)."""

    def __init__(self, attrs=None) -> None:
        super().__init__({"placeholder": "e.g. Agenda: Cull the Horde", **(attrs or {})})


REASON = forms.CharField(max_length=255, required=False, widget=BonusReasonInput)
"""Why a unit earned bonus XP (`prototypes.like`)."""


class SideRecordForm(forms.Form):
    """One side's end of the battle, filled in by its player: the result they claim and
    what each of their units did. Amending starts from what the side recorded before."""

    def __init__(
        self,
        *args,
        participant: BattleParticipant,
        army: list[BattleUnit],
        agenda_picks: dict | None = None,
        **kw,
    ):
        super().__init__(*args, **kw)
        self.participant = participant
        self.army = army
        name = participant.force.name
        self.fields["result"] = forms.ChoiceField(
            label=f"Result for {name}",
            choices=[(NOT_CHOSEN, "Choose…"), *rules.choices(rules.BattleResult)],
            initial=participant.claimed_result,
            widget=PlainSelect,
        )
        eligible = [
            e
            for e in army
            if not rules.marked_for_greatness_refusal(e.unit.facts(pending_promotions=0))
        ]
        self.fields["marked"] = forms.TypedChoiceField(
            label="Marked for Greatness",
            help_text=f"One unit of this army gains {rules.MARKED_FOR_GREATNESS_XP}XP.",
            coerce=int,
            empty_value=None,
            required=False,
            initial=next((e.pk for e in army if e.marked_for_greatness), NOT_CHOSEN),
            choices=[(NOT_CHOSEN, "No unit")] + [(e.pk, e.unit.name) for e in eligible],
            widget=PlainSelect,
        )
        for entry in army:
            pk, unit = entry.pk, entry.unit.name
            self.fields[f"destroyed_{pk}"] = like(
                TICK, label=f"{unit} was destroyed", initial=entry.destroyed
            )
            # Left empty, a number is 0: a phone at the table types only what happened.
            self.fields[f"kills_{pk}"] = _tally(
                f"Enemy units destroyed by {unit}", entry.enemy_units_destroyed
            )
            self.fields[f"bonus_{pk}"] = _tally(f"Bonus XP for {unit}", entry.bonus_xp)
            self.fields[f"reason_{pk}"] = like(
                REASON, label=f"Why {unit} earned bonus XP", initial=entry.bonus_xp_reason
            )
        agendas.add_mark_fields(self, participant, army, agenda_picks)

    def clean(self) -> dict:
        data = super().clean()
        for entry in self.army:
            if data.get(f"bonus_{entry.pk}") and not (data.get(f"reason_{entry.pk}") or ""):
                self.add_error(f"reason_{entry.pk}", "Say why it earned bonus XP.")
        # A second unit of an Attached unit can't claim the same kills or award.
        for field, messages in attached_credit_errors(self.army, self._outcomes(data)).items():
            if field in self.fields and field in data:
                self.add_error(field, messages)
        agendas.add_mark_errors(self, self._outcomes(data))
        return data

    def _outcomes(self, data: dict) -> dict[int, UnitOutcome]:
        """What each unit did, from what was valid. A reason goes only with bonus XP (the
        page hides its box while there is none)."""
        outcomes = {}
        for entry in self.army:
            bonus = data.get(f"bonus_{entry.pk}") or 0
            outcomes[entry.pk] = UnitOutcome(
                destroyed=bool(data.get(f"destroyed_{entry.pk}")),
                enemy_units_destroyed=data.get(f"kills_{entry.pk}") or 0,
                marked_for_greatness=data.get("marked") == entry.pk,
                bonus_xp=bonus,
                bonus_xp_reason=(data.get(f"reason_{entry.pk}") or "") if bonus else "",
                agendas=agendas.marks(self, data, entry),
            )
        return outcomes

    def service_kwargs(self) -> dict:
        """The arguments of `record_side` and `preview_side` for this side."""
        data = self.cleaned_data
        return {"result": data["result"], "outcomes": self._outcomes(data)}

    def agenda_rows(self) -> list[dict]:
        return agendas.agenda_rows(self)


class RollForm(forms.Form):
    roll = number_field(
        OutOfActionTest,
        "roll",
        label="Your D6 roll",
        required=True,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def service_kwargs(self) -> dict:
        return {"roll": self.cleaned_data["roll"]}


def _custom_by_key(custom: list[CustomContent]) -> dict[int, CustomContent]:
    return {c.pk: c for c in custom}


def _custom_choice(value: str, custom: dict[int, CustomContent]) -> CustomContent | None:
    """The campaign's own item a choice key names, or None for a rulebook entry."""
    return custom.get(CustomContent.pk_from_choice_key(value))


class DevastatingBlowForm(forms.Form):
    honour = forms.ModelChoiceField(
        queryset=BattleHonour.objects.none(),
        widget=forms.RadioSelect,
        label="Battle Honour to lose",
        empty_label=None,
    )

    def __init__(self, *args, honours: list[BattleHonour], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["honour"].queryset = BattleHonour.objects.filter(pk__in=[h.pk for h in honours])
        self.fields["honour"].label_from_instance = lambda h: (
            f"{h.name} ({h.get_category_display()})"
        )

    def service_kwargs(self) -> dict:
        return {"honour": self.cleaned_data["honour"]}


ROLL = "roll"


class BattleScarForm(forms.Form):
    scar = forms.ChoiceField(widget=forms.RadioSelect, label="Battle Scar", initial=ROLL)

    def __init__(self, *args, held: set[str], custom: list[CustomContent], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [(ROLL, "Roll a scar for me (duplicates are re-rolled)")]
        choices += [
            (name, f"{name}: {rules.BATTLE_SCAR_EFFECTS[name]}")
            for name in rules.BATTLE_SCARS.values()
            if name not in held
        ]
        choices += [
            (c.choice_key, f"{c.name}: {c.effect}" if c.effect else c.name)
            for c in custom
            if c.name not in held
        ]
        self.custom = _custom_by_key(custom)
        self.fields["scar"].choices = choices

    def service_kwargs(self) -> dict:
        scar = self.cleaned_data["scar"]
        if scar == ROLL:
            return {}
        custom = _custom_choice(scar, self.custom)
        return {"custom_scar": custom} if custom is not None else {"scar_name": scar}


def out_of_action_forms(page, data=None, *, choice: str = "") -> dict[str, forms.Form]:
    """The forms of the Out of Action page; the one for ``choice`` is bound to ``data``."""
    blow = rules.OutOfAction.DEVASTATING_BLOW
    scar = rules.OutOfAction.BATTLE_SCAR
    return {
        blow: DevastatingBlowForm(data if choice == blow else None, honours=page.honours),
        scar: BattleScarForm(
            data if choice == scar else None,
            held={s.name for s in page.scars},
            custom=page.custom_scars,
        ),
    }


class HonourForm(forms.Form):
    """Base for the promotion forms: at the honour cap, an honour to replace is required."""

    replace = forms.ModelChoiceField(
        queryset=BattleHonour.objects.none(),
        label="Replace which Battle Honour",
        empty_label="Choose the honour to give up",
    )
    field_order_after: tuple[str, ...] = ()

    def __init__(self, *args, honours: list[BattleHonour], at_cap: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if at_cap:
            self.fields["replace"].queryset = BattleHonour.objects.filter(
                pk__in=[h.pk for h in honours]
            )
        else:
            del self.fields["replace"]
        self.order_fields([*self.field_order_after, "replace"])

    def service_kwargs(self) -> dict:
        return {"replace": self.cleaned_data.get("replace")}


class BattleTraitForm(HonourForm):
    table = forms.ChoiceField(label="Battle Traits table")
    trait = forms.ChoiceField(label="Trait", required=False)
    field_order_after = ("table", "trait")

    def __init__(self, *args, choices: dict[str, list[tuple[str, str]]], custom, **kwargs):
        super().__init__(*args, **kwargs)
        self.custom = _custom_by_key(custom)
        keys = {c.name: c.choice_key for c in custom}
        self.fields["table"].choices = [(t, t) for t in choices if t in rules.BATTLE_TRAIT_TABLES]
        groups = []
        for table, entries in choices.items():
            core = {name for name, _ in rules.BATTLE_TRAIT_TABLES.get(table, {}).values()}
            options = []
            for name, effect in entries:
                value = f"{table}::{name}" if name in core else keys.get(name, "")
                options.append((value, f"{name}: {effect}" if effect else name))
            groups.append((table, options))
        self.fields["trait"].choices = [(NOT_CHOSEN, "Choose a trait…"), *groups]

    def service_kwargs(self, *, roll: bool = False) -> dict:
        data = self.cleaned_data
        kwargs = super().service_kwargs()
        if roll:
            return {**kwargs, "table": data["table"], "trait": None}
        value = data.get("trait") or ""
        custom = _custom_choice(value, self.custom)
        if custom is not None:
            return {**kwargs, "custom": custom}
        table, _, name = value.partition("::")
        return {**kwargs, "table": table, "trait": name}

    def clean(self) -> dict:
        data = super().clean()
        if self.data.get("category") == TRAIT_CHOOSE and not data.get("trait"):
            self.add_error("trait", "Choose a trait, or roll one instead.")
        return data


class WeaponModificationForm(HonourForm):
    model_name = forms.CharField(
        max_length=120, label="Model", help_text="The CHARACTER or Unit Champion."
    )
    weapon = forms.CharField(max_length=120)
    first = forms.ChoiceField(label="First modification", required=False)
    second = forms.ChoiceField(label="Second modification", required=False)
    field_order_after = ("model_name", "weapon", "first", "second")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        mods = [
            (name, f"{name}: {rules.WEAPON_MODIFICATION_EFFECTS[name]}")
            for name in rules.WEAPON_MODIFICATIONS.values()
        ]
        for name in ("first", "second"):
            self.fields[name].choices = [(NOT_CHOSEN, "Roll for me"), *mods]

    def clean(self) -> dict:
        data = super().clean()
        first, second = data.get("first"), data.get("second")
        if bool(first) != bool(second):
            self.add_error("second", "Choose both modifications, or leave both to the dice.")
        elif first and first == second:
            self.add_error("second", "The two modifications must be different.")
        return data

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        mods = (data["first"], data["second"]) if data.get("first") else None
        return {
            **super().service_kwargs(),
            "model_name": data["model_name"],
            "weapon": data["weapon"],
            "modifications": mods,
        }


class CrusadeRelicForm(HonourForm):
    relic = forms.ChoiceField(label="Crusade Relic")
    weapon = forms.CharField(
        max_length=120, required=False, help_text="Only if the relic is a weapon."
    )
    field_order_after = ("relic", "weapon")

    def __init__(self, *args, relics: list[tuple[str, str]], custom, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.custom = _custom_by_key(custom)
        self.fields["relic"].choices = [(NOT_CHOSEN, "Choose a relic…"), *relics]

    @property
    def has_choices(self) -> bool:
        return len(self.fields["relic"].choices) > 1

    def service_kwargs(self) -> dict:
        relic = self.cleaned_data["relic"]
        custom = _custom_choice(relic, self.custom)
        return {
            **super().service_kwargs(),
            "relic": "" if custom is not None else relic,
            "custom": custom,
            "weapon": self.cleaned_data.get("weapon") or "",
        }


TRAIT_ROLL = "trait_roll"
TRAIT_CHOOSE = "trait_choose"
WEAPON_MODIFICATION = rules.HonourCategory.WEAPON_MODIFICATION.value
CRUSADE_RELIC = rules.HonourCategory.CRUSADE_RELIC.value
RENOWNED_HEROES = rules.PromotionReward.RENOWNED_HEROES.value


def promotion_forms(page, data=None, *, category: str = "") -> dict[str, forms.Form]:
    """The promotion page's forms by the ``category`` button that submits each; only the
    submitted one is bound to ``data``."""

    def bound(*categories: str):
        return data if category in categories else None

    honours = {"honours": page.honours, "at_cap": page.facts.at_honour_cap}
    trait = BattleTraitForm(
        bound(TRAIT_ROLL, TRAIT_CHOOSE),
        prefix="trait",
        initial={"table": page.trait_table},
        choices=page.trait_choices,
        custom=page.custom_traits,
        **honours,
    )
    return {
        TRAIT_ROLL: trait,
        TRAIT_CHOOSE: trait,
        WEAPON_MODIFICATION: WeaponModificationForm(
            bound(WEAPON_MODIFICATION), prefix="weapon", **honours
        ),
        CRUSADE_RELIC: CrusadeRelicForm(
            bound(CRUSADE_RELIC),
            prefix="relic",
            relics=page.relic_choices,
            custom=page.custom_relics,
            **honours,
        ),
        RENOWNED_HEROES: RenownedHeroesForm(bound(RENOWNED_HEROES), prefix="heroes"),
    }


BATTLE_SCAR = rules.OutOfAction.BATTLE_SCAR.value


class MissionReasonForm(forms.Form):
    """Which mission or Agenda gave the reward: history keeps it."""

    reason = forms.CharField(
        max_length=255,
        label="Mission or Agenda",
        help_text="Kept with the reward in the card's history, e.g. 'Agenda: Cull the Horde'.",
    )


def reward_forms(page, data=None, *, category: str = "") -> dict[str, forms.Form]:
    """The mission reward page's forms: the honours of a promotion, and a Battle Scar."""
    honours = promotion_forms(page, data, category=category)
    del honours[RENOWNED_HEROES]
    held = {scar.name for scar in page.scars}
    scar = BattleScarForm(
        data if category == BATTLE_SCAR else None,
        prefix="scar",
        held=held,
        custom=page.custom_scars,
    )
    return {**honours, BATTLE_SCAR: scar}
