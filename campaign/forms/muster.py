"""The muster form: choose an army from the Order of Battle, its Warlord, who leads whom
and who starts in which transport.

An Order of Battle can hold hundreds of units, so the form asks the database nothing:
every choice is checked against the units the page already listed, and each unit's row
is written here in one pass (`unit_rows`) rather than through a widget template per field.
A Leader's Bodyguard and a unit's transport are named in a text box offered the army's
units from one list the page shows once (a ``<datalist>``), so the page grows with the
units, not with units times Leaders.
"""

from __future__ import annotations

from collections import Counter

from django import forms
from django.core.exceptions import ValidationError
from django.utils.safestring import SafeString, mark_safe

from campaign import rules
from campaign.models import BattleParticipant, CustomContent, Unit

from . import NOT_CHOSEN, IdsField
from .agendas import add_picks_field, clean_picks

BODYGUARDS = "bodyguards"
TRANSPORTS = "transports"
NOBODY = "Nobody (fights on its own)"
NO_TRANSPORT = "No transport"


def _esc(value) -> str:
    """A value escaped for HTML text or a double-quoted attribute. A single quote needs no
    escape in either (Django writes it as ``&#x27;``, five bytes more for every apostrophe
    of every name on a page of hundreds)."""
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;")


class UnitsField(IdsField):
    """The units ticked, checked against the units the page lists (no query), in name
    order as the Order of Battle lists them."""

    widget = forms.CheckboxSelectMultiple
    listed: dict[str, Unit] = {}

    def _check_values(self, value) -> list[Unit]:
        try:
            values = frozenset(str(v) for v in value)
        except TypeError:
            raise ValidationError(
                self.error_messages["invalid_list"], code="invalid_list"
            ) from None
        for v in values:
            if v not in self.listed:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": v},
                )
        return sorted((self.listed[v] for v in values), key=lambda u: u.name)


class UnitNameField(forms.CharField):
    """One other unit of the army, named as the page's list offers it (its name, any
    case) or by its key; empty (or the "nobody" wording) for none. Cleans to its key."""

    def __init__(self, *, names: dict[str, int], keys: set[int], nobody: str, **kwargs):
        super().__init__(max_length=120, required=False, **kwargs)
        self.names, self.keys, self.nobody = names, keys, nobody

    def clean(self, value) -> int | None:
        text = super().clean(value)
        if not text or text.casefold() == self.nobody.casefold():
            return None
        if text.isdecimal() and int(text) in self.keys:
            return int(text)
        pk = self.names.get(text.casefold())
        if pk is None:
            raise ValidationError(f"{text} is not one of the units offered here.")
        return pk


class MusterForm(forms.Form):
    """Choose an army. Extra fields per unit: Leader attachments and transports."""

    faction = forms.CharField(max_length=120, required=False, label="Faction keyword")
    detachment = forms.CharField(max_length=120, required=False)
    units = UnitsField(queryset=Unit.objects.none(), required=False, label="Units")
    warlord = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, label="Warlord", choices=()
    )

    def __init__(
        self,
        *args,
        participant: BattleParticipant,
        units: list[Unit],
        agendas: list[CustomContent] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.participant = participant
        self.unit_list = units
        self.by_pk = {u.pk: u for u in units}
        self.fields["units"].listed = {str(u.pk): u for u in units}
        leaders = [u for u in units if u.is_character]
        transports = [u for u in units if u.is_dedicated_transport]
        self.bodyguards = [u for u in units if not u.is_character]
        self.transports = transports
        self.fields["warlord"].choices = [
            (NOT_CHOSEN, "Pick your Warlord"),
            *((u.pk, u.name) for u in leaders),
        ]
        guard_names = {u.name.casefold(): u.pk for u in self.bodyguards}
        guard_keys = set(guard_names.values())
        ride_names = {u.name.casefold(): u.pk for u in transports}
        ride_keys = set(ride_names.values())
        self.attach_fields: dict[int, str] = {}
        self.embark_fields: dict[int, str] = {}
        self.rule_fields: dict[int, str] = {}
        led_twice = self._led_twice(leaders)
        # A field object per box only when there is something to clean: the page writes
        # each row's boxes itself (`unit_rows`), so a first look needs just their names.
        checks = self.is_bound
        for unit in units:
            keywords = unit.keywords
            if (
                rules.asks_second_leader_rule(keywords, characters=len(leaders))
                or unit.pk in led_twice
            ):
                self.rule_fields[unit.pk] = name = f"second_leader_{unit.pk}"
                if checks:
                    self.fields[name] = forms.CharField(
                        label=f"Rule that lets {unit.name} take a second Leader",
                        max_length=255,
                        required=False,
                    )
            if rules.Keyword.CHARACTER in keywords:
                self.attach_fields[unit.pk] = name = f"attach_{unit.pk}"
                if checks:
                    self.fields[name] = UnitNameField(
                        label=f"{unit.name} leads",
                        names=guard_names,
                        keys=guard_keys,
                        nobody=NOBODY,
                    )
            if transports and rules.Keyword.DEDICATED_TRANSPORT not in keywords:
                self.embark_fields[unit.pk] = name = f"embark_{unit.pk}"
                if checks:
                    self.fields[name] = UnitNameField(
                        label=f"{unit.name} starts embarked in",
                        names=ride_names,
                        keys=ride_keys,
                        nobody=NO_TRANSPORT,
                    )
        add_picks_field(self, participant, agendas)

    def _led_twice(self, leaders: list[Unit]) -> set[int]:
        """Units two or more Leaders join in the posted form (any unit, so a second
        Leader's rule can always be named where the muster check asks for it)."""
        by_name = {u.name.casefold(): u.pk for u in self.unit_list}
        chosen = Counter()
        for leader in leaders:
            value = str(self.data.get(f"attach_{leader.pk}") or "").strip()
            pk = int(value) if value.isdecimal() else by_name.get(value.casefold())
            if pk is not None:
                chosen[pk] += 1
        return {pk for pk, n in chosen.items() if n > 1}

    def selected(self) -> set[int]:
        """The units ticked so far (for the points total before the rules have checked)."""
        if self.is_bound:
            # isdecimal, not isdigit: int() refuses a superscript "²", which isdigit allows.
            return {int(v) for v in self.data.getlist("units") if str(v).isdecimal()}
        return set(self.initial.get("units", []))

    def clean_warlord(self) -> Unit | None:
        pk = self.cleaned_data.get("warlord")
        return self.by_pk[pk] if pk is not None else None

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
        for unit, name in self.embark_fields.items():
            transport = data.get(name)
            if unit in chosen and transport and transport not in chosen:
                self.add_error(name, f"Add {self.by_pk[transport].name} to the army first.")
        if not (data.get("detachment") or "").strip():
            self.add_error("detachment", "Name your Detachment rules.")
        clean_picks(self, data)
        return data

    # The page: one row per unit, and the lists of Bodyguards and transports once.

    def _value(self, name: str) -> str:
        """What a unit's box shows: as posted, or the unit chosen before, by its name."""
        value = self.data.get(name) if self.is_bound else self.initial.get(name)
        if value in (None, ""):
            return ""
        text = str(value).strip()
        if text.isdecimal() and int(text) in self.by_pk and not name.startswith("second_"):
            return self.by_pk[int(text)].name
        return text

    def _box(self, name: str, label: str, attrs: str) -> str:
        """One text box of a unit's row: its label, the value, its errors (kept short:
        a row per unit, hundreds on a big Order of Battle)."""
        errors = self.errors.get(name) if self.is_bound else None
        value = self._value(name)
        shown = f' value="{_esc(value)}"' if value else ""
        if not errors:
            return (
                f'<div class="field"><label for="{name}">{_esc(label)}</label>'
                f'<input name="{name}" id="{name}"{shown}{attrs}></div>'
            )
        said = "".join(f'<p class="field__error" role="alert">{_esc(e)}</p>' for e in errors)
        return (
            f'<div class="field field--error"><label for="{name}">{_esc(label)}</label>'
            f'<input name="{name}" id="{name}"{shown}{attrs} aria-describedby="{name}_error">'
            f'<div class="field__errors" id="{name}_error">{said}</div></div>'
        )

    def unit_rows(self, page) -> SafeString:
        """Every unit's row of the page, as HTML (see the module's note): plain string
        building with every value escaped, a few microseconds a row."""
        selected = self.selected()
        guards = f' list="{BODYGUARDS}"'
        rides = f' list="{TRANSPORTS}"'
        rule = ""
        pending_links, keywords = page.pending, page.keywords
        errors = self.errors if self.is_bound else {}
        rows = []
        for unit in self.unit_list:
            pk, raw_name = unit.pk, unit.name
            name = _esc(raw_name)
            pending = pending_links.get(pk)
            points = unit.crusade_points
            badges = "".join(f' <span class="badge">{_esc(k)}</span>' for k in keywords.get(pk, ()))
            crusade = f" · {points} Crusade point{'' if points == 1 else 's'}" if points else ""
            blocked = f' disabled aria-describedby="muster-pending-{pk}"' if pending else ""
            row = (
                f'<li class="unit-pick{" unit-pick--blocked" if pending else ""}">'
                f'<input type="checkbox" name="units" value="{pk}" id="muster-unit-{pk}"'
                f"{' checked' if pk in selected else ''}{blocked}>"
                f'<label for="muster-unit-{pk}"><span class="unit-pick__name">{name}</span>'
                f'<span class="unit-pick__meta">{_esc(unit.datasheet)} · {unit.points} pts'
                f"{crusade}{badges}</span></label>"
            )
            if pending:
                row += (
                    f'<p class="unit-pick__pending" id="muster-pending-{pk}">'
                    f"Can't fight yet: {_esc(pending.text)}."
                    f' <a href="{_esc(pending.url)}">Settle it</a></p>'
                )
            if pk in self.attach_fields:
                row += self._box(self.attach_fields[pk], f"{raw_name} leads", guards)
            if pk in self.embark_fields:
                row += self._box(self.embark_fields[pk], f"{raw_name} starts embarked in", rides)
            if pk in self.rule_fields:
                field = self.rule_fields[pk]
                opened = " open" if self._value(field) or errors.get(field) else ""
                box = self._box(field, f"Rule that lets {raw_name} take a second Leader", rule)
                row += (
                    f'<details class="unit-pick__more"{opened}>'
                    f"<summary>Two Leaders for {name}?</summary>{box}</details>"
                )
            rows.append(row + "</li>")
        return mark_safe("".join(rows))  # every value is escaped above

    def warlord_options(self) -> SafeString:
        """The Warlord select's options (its CHARACTERs), the one chosen selected."""
        value = self.data.get("warlord") if self.is_bound else self.initial.get("warlord")
        chosen = str(value or "")
        options = [
            f'<option value="{_esc(key)}"{" selected" if str(key) == chosen else ""}>'
            f"{_esc(label)}</option>"
            for key, label in self.fields["warlord"].choices
        ]
        return mark_safe("".join(options))  # every value is escaped above

    def unit_lists(self) -> SafeString:
        """The Bodyguards and transports the rows' boxes offer, each list once."""
        guards = "".join(f'<option value="{_esc(u.name)}">' for u in self.bodyguards)
        rides = "".join(f'<option value="{_esc(u.name)}">' for u in self.transports)
        return mark_safe(  # every value is escaped here
            f'<datalist id="{BODYGUARDS}">{guards}</datalist>'
            f'<datalist id="{TRANSPORTS}">{rides}</datalist>'
        )

    @property
    def asks_units(self) -> bool:
        """Whether any row has a Leader's or a passenger's box."""
        return bool(self.attach_fields or self.embark_fields)
