"""Forms for battles: start, muster, record a side's end, Out of Action and promotions.

Forms check the shape of the input; the Crusade rules are checked by the services,
whose refusals are mapped back onto these forms with `add_service_errors`.
"""

from __future__ import annotations

from collections import Counter

from django import forms
from django.contrib.auth import get_user_model
from django.forms.utils import flatatt
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from campaign import rules
from campaign.bounds import fits_column, number_field
from campaign.models import (
    BattleHonour,
    BattleParticipant,
    BattleUnit,
    CrusadeForce,
    CustomContent,
    OutOfActionTest,
    Phase,
    Territory,
    Unit,
    battle_size_choices,
)
from campaign.services.attached_credit import attached_credit_errors
from campaign.services.battles import UnitOutcome

from . import IdsField, agendas
from .requisitions import RenownedHeroesForm
from .widgets import PlainSelect

NOT_CHOSEN = ""


def _force_label(force: CrusadeForce) -> str:
    return f"{force.name} ({force.player.get_username()}, {force.faction})"


class ForceChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: CrusadeForce) -> str:
        return _force_label(obj)


class ForcesChoiceField(IdsField):
    def label_from_instance(self, obj: CrusadeForce) -> str:
        return _force_label(obj)


class TerritoryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Territory) -> str:
        holder = obj.held_by.name if obj.held_by_id else "nobody"
        return f"{obj.name} (held by {holder}; {obj.campaign.name})"


class BattleCreateForm(forms.Form):
    """Start a battle: one of my forces against forces of the same campaign."""

    force = ForceChoiceField(
        queryset=CrusadeForce.objects.none(),
        label="Your force",
        empty_label=None,
        widget=PlainSelect,
    )
    battle_size = forms.ChoiceField(choices=battle_size_choices, initial="Strike Force")
    mission = forms.CharField(max_length=120, required=False)
    date = forms.DateField(
        initial=timezone.localdate,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    opponents = ForcesChoiceField(
        queryset=CrusadeForce.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Opponents",
        help_text="Forces from the same campaign: each player is invited, and their force "
        "joins the battle only if they accept. Leave empty to fight an opponent who isn't "
        "tracked here.",
    )
    territory = TerritoryChoiceField(
        queryset=Territory.objects.none(),
        required=False,
        label="Fought over",
        empty_label="No territory",
        widget=PlainSelect,
        help_text="Optional: a territory of your force's campaign map. Who holds it may "
        "change with the result.",
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        mine = CrusadeForce.objects.filter(player=user).select_related("player", "campaign")
        self.fields["force"].queryset = mine
        self.phase, self.phase_size = self._phase_of(mine)
        if self.phase_size:
            if not self.is_bound:
                self.initial["battle_size"] = self.phase_size
            self.fields["battle_size"].help_text = (
                f"This phase ({self.phase.name}) is played at {self.phase_size}. "
                "Another size is allowed: the battle then notes that it differs."
            )
        self.fields["opponents"].queryset = (
            CrusadeForce.objects.filter(campaign__in=mine.exclude(campaign=None).values("campaign"))
            .exclude(player=user)
            .select_related("player", "campaign")
            .order_by("campaign__name", "name")
        )
        self.fields["territory"].queryset = (
            Territory.objects.filter(campaign__in=mine.exclude(campaign=None).values("campaign"))
            .select_related("held_by", "campaign")
            .order_by("campaign__name", "name", "pk")
        )
        if not self.fields["territory"].queryset.exists():
            del self.fields["territory"]  # no map in any of the player's campaigns

    def opponent_boxes(self) -> SafeString:
        """The opponents' checkboxes with their labels, as Django's widget would write them,
        from one query of plain values: a league has a hundred forces to pick from, and a
        widget rendered per choice through the templates costs more than the page."""
        field = self["opponents"]
        attrs = flatatt(field.build_widget_attrs({}))
        chosen = {str(value) for value in field.value() or ()}
        rows = self.fields["opponents"].queryset.values_list(
            "pk", "name", f"player__{get_user_model().USERNAME_FIELD}", "faction"
        )
        return format_html_join(
            "\n",
            '<div class="choice"><input type="checkbox" name="{}" value="{}" id="{}_{}"{}{}>'
            ' <label for="{}_{}">{} ({}, {})</label></div>',
            (
                (field.html_name, pk, field.auto_id, index, attrs)
                + (mark_safe(" checked") if str(pk) in chosen else "",)
                + (field.auto_id, index, name, player, faction)
                for index, (pk, name, player, faction) in enumerate(rows)
            ),
        )

    def _phase_of(self, mine) -> tuple[Phase | None, str]:
        """The current phase of the chosen force's campaign (the force posted, else the
        one the page was asked for, else the first), and the size it is played at."""
        wanted = self.data.get("force") if self.is_bound else self.initial.get("force")
        forces = mine.select_related("campaign__current_phase").order_by("pk")
        if wanted not in (None, "") and fits_column(CrusadeForce._meta.pk, wanted):
            forces = forces.filter(pk=wanted)
        force = forces.first()
        phase = force.campaign.current_phase if force and force.campaign else None
        return phase, phase.suggested_battle_size if phase is not None else ""

    def clean(self) -> dict:
        data = super().clean()
        force, opponents = data.get("force"), data.get("opponents") or []
        territory = data.get("territory")
        if force and territory and territory.campaign_id != force.campaign_id:
            self.add_error("territory", f"{territory.name} is not on {force.name}'s map.")
        if force is not None:
            for other in opponents:
                if other.campaign_id != force.campaign_id:
                    self.add_error(
                        "opponents",
                        f"{other.name} is not in the same campaign as {force.name}.",
                    )
        return data


class UnitsField(IdsField):
    widget = forms.CheckboxSelectMultiple


def _unit_select(label: str, nobody: str, units: list[Unit]) -> forms.TypedChoiceField:
    """An optional pick of one other unit of the army (a Bodyguard, a transport)."""
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        empty_value=None,
        required=False,
        choices=[(NOT_CHOSEN, nobody), *((u.pk, u.name) for u in units)],
    )


class MusterForm(forms.Form):
    """Choose an army. Extra selects per unit: Leader attachments and transports."""

    faction = forms.CharField(max_length=120, required=False, label="Faction keyword")
    detachment = forms.CharField(max_length=120, required=False)
    units = UnitsField(queryset=Unit.objects.none(), required=False, label="Units")
    warlord = forms.ModelChoiceField(
        queryset=Unit.objects.none(), required=False, empty_label="Pick your Warlord"
    )

    def __init__(self, *args, participant: BattleParticipant, units: list[Unit], **kwargs):
        super().__init__(*args, **kwargs)
        self.participant = participant
        self.unit_list = units
        pks = [u.pk for u in units]
        self.fields["units"].queryset = Unit.objects.filter(pk__in=pks)
        self.fields["warlord"].queryset = Unit.objects.filter(pk__in=pks, is_character=True)
        self.fields["warlord"].label_from_instance = lambda u: u.name
        transports = [u for u in units if u.is_dedicated_transport]
        leaders = [u for u in units if u.is_character]
        self.attach_fields: dict[int, str] = {}
        self.embark_fields: dict[int, str] = {}
        self.rule_fields: dict[int, str] = {}
        led_twice = self._led_twice(leaders)
        for unit in units:
            if (
                rules.asks_second_leader_rule(unit.keywords, characters=len(leaders))
                or unit.pk in led_twice
            ):
                self.rule_fields[unit.pk] = name = f"second_leader_{unit.pk}"
                self.fields[name] = forms.CharField(
                    label=f"Rule that lets {unit.name} take a second Leader",
                    max_length=255,
                    required=False,
                    help_text="Only if two Leaders join it: the datasheet rule that allows it.",
                )
            if unit.is_character:
                bodyguards = [o for o in units if o.pk != unit.pk and not o.is_character]
                self.attach_fields[unit.pk] = name = f"attach_{unit.pk}"
                self.fields[name] = _unit_select(
                    f"{unit.name} leads", "Nobody (fights on its own)", bodyguards
                )
            if transports and not unit.is_dedicated_transport:
                self.embark_fields[unit.pk] = name = f"embark_{unit.pk}"
                self.fields[name] = _unit_select(
                    f"{unit.name} starts embarked in", "No transport", transports
                )
        agendas.add_picks_field(self, participant)

    def _led_twice(self, leaders: list[Unit]) -> set[int]:
        """Units two or more Leaders join in the posted form (any unit, so a second
        Leader's rule can always be named where the muster check asks for it)."""
        chosen = Counter(self.data.get(f"attach_{leader.pk}") for leader in leaders)
        return {int(v) for v, n in chosen.items() if n > 1 and str(v or "").isdecimal()}

    def selected(self) -> set[int]:
        """The units ticked so far (for the points total before the rules have checked)."""
        if self.is_bound:
            # isdecimal, not isdigit: int() refuses a superscript "²", which isdigit allows.
            return {int(v) for v in self.data.getlist("units") if str(v).isdecimal()}
        return set(self.initial.get("units", []))

    def rows(self, page) -> list[dict]:
        """One row per unit for the template: the unit, its selects, what blocks it."""
        selected = self.selected()
        return [
            {
                "unit": unit,
                "keywords": page.keywords.get(unit.pk, []),
                "checked": unit.pk in selected,
                "pending": page.pending.get(unit.pk),
                "attach": self._bound(self.attach_fields, unit),
                "embark": self._bound(self.embark_fields, unit),
                "second_leader": self._bound(self.rule_fields, unit),
            }
            for unit in self.unit_list
        ]

    def _bound(self, names: dict[int, str], unit: Unit) -> forms.BoundField | None:
        return self[names[unit.pk]] if unit.pk in names else None

    def army(self) -> dict:
        """The service arguments from what was valid in the form (for the live check too)."""
        data = getattr(self, "cleaned_data", {})
        chosen = list(data.get("units") or [])
        chosen_pks = {u.pk for u in chosen}
        attachments = {
            leader: data[name]
            for leader, name in self.attach_fields.items()
            if leader in chosen_pks and data.get(name)
        }
        embarked = {
            unit: data[name]
            for unit, name in self.embark_fields.items()
            if unit in chosen_pks and data.get(name)
        }
        rules_named = {
            unit: data[name].strip()
            for unit, name in self.rule_fields.items()
            if unit in chosen_pks and (data.get(name) or "").strip()
        }
        return {
            "faction": data.get("faction") or "",
            "units": chosen,
            "warlord": data.get("warlord"),
            "attachments": attachments,
            "embarked": embarked,
            "second_leader_rules": rules_named,
        }

    def clean(self) -> dict:
        data = super().clean()
        chosen = {u.pk for u in data.get("units") or []}
        names = {u.pk: u.name for u in self.unit_list}
        for unit, name in self.embark_fields.items():
            transport = data.get(name)
            if unit in chosen and transport and transport not in chosen:
                self.add_error(name, f"Add {names[transport]} to the army first.")
        if not (data.get("detachment") or "").strip():
            self.add_error("detachment", "Name your Detachment rules.")
        agendas.clean_picks(self, data)
        return data


def _tally(label: str, recorded: int) -> forms.IntegerField:
    """A small count for the record form: empty means 0 (shown as a placeholder), so only
    what happened needs typing; what a side recorded before is shown when amending."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=99,
        required=False,
        initial=recorded or None,
        widget=forms.NumberInput(attrs={"placeholder": "0", "inputmode": "numeric"}),
    )


class SideRecordForm(forms.Form):
    """One side's end of the battle, filled in by its player: the result they claim and
    what each of their units did. Amending starts from what the side recorded before."""

    def __init__(self, *args, participant: BattleParticipant, army: list[BattleUnit], **kw):
        super().__init__(*args, **kw)
        self.participant = participant
        self.army = army
        name = participant.force.name
        self.fields["result"] = forms.ChoiceField(
            label=f"Result for {name}",
            choices=[(NOT_CHOSEN, "Choose…"), *rules.choices(rules.BattleResult)],
            initial=participant.claimed_result,
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
        )
        for entry in army:
            pk, unit = entry.pk, entry.unit.name
            self.fields[f"destroyed_{pk}"] = forms.BooleanField(
                label=f"{unit} was destroyed", required=False, initial=entry.destroyed
            )
            # Left empty, a number is 0: a phone at the table types only what happened.
            self.fields[f"kills_{pk}"] = _tally(
                f"Enemy units destroyed by {unit}", entry.enemy_units_destroyed
            )
            self.fields[f"bonus_{pk}"] = _tally(f"Bonus XP for {unit}", entry.bonus_xp)
            self.fields[f"reason_{pk}"] = forms.CharField(
                label=f"Why {unit} earned bonus XP",
                max_length=255,
                required=False,
                initial=entry.bonus_xp_reason,
                widget=forms.TextInput(attrs={"placeholder": "e.g. Agenda: Cull the Horde"}),
            )
        agendas.add_mark_fields(self, participant, army)

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

    def units(self) -> list[dict]:
        """For the template: each unit of the army with its bound fields."""
        return [
            {
                "entry": e,
                "name": e.unit.name,
                "destroyed": self[f"destroyed_{e.pk}"],
                "kills": self[f"kills_{e.pk}"],
                "bonus": self[f"bonus_{e.pk}"],
                "reason": self[f"reason_{e.pk}"],
            }
            for e in self.army
        ]


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
