"""The form that starts a battle: one of my forces, its opponents, and where it is fought.

Forms check the shape of the input; the Crusade rules are checked by the services,
whose refusals are mapped back onto these forms with `add_service_errors`.
"""

from __future__ import annotations

from html import escape

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.forms.utils import flatatt
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from campaign.bounds import fits_column
from campaign.models import CrusadeForce, Phase, Territory, battle_size_choices
from campaign.prepared import Prepared, fetch_together

from . import NOT_CHOSEN, IdsField
from .widgets import PlainSelect


def _force_label(force: CrusadeForce) -> str:
    return f"{force.name} ({force.player.get_username()}, {force.faction})"


class ForceChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: CrusadeForce) -> str:
        return _force_label(obj)


class ForcesChoiceField(IdsField):
    def label_from_instance(self, obj: CrusadeForce) -> str:
        return _force_label(obj)


def _territory_label(name: str, holder: str | None, campaign: str) -> str:
    return f"{name} (held by {holder or 'nobody'}; {campaign})"


class TerritoryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Territory) -> str:
        holder = obj.held_by.name if obj.held_by_id else None
        return _territory_label(obj.name, holder, obj.campaign.name)


def _mine(user: int) -> QuerySet[CrusadeForce]:
    return CrusadeForce.objects.filter(player_id=user).select_related(
        "player", "campaign__current_phase"
    )


def _opponents(user: int) -> QuerySet[CrusadeForce]:
    """The forces of the user's campaigns that are not theirs."""
    campaigns = CrusadeForce.objects.filter(player_id=user).exclude(campaign=None)
    return (
        CrusadeForce.objects.filter(campaign__in=campaigns.values("campaign"))
        .exclude(player_id=user)
        .select_related("player", "campaign")
        .order_by("campaign__name", "name")
    )


def _territories(user: int) -> QuerySet[Territory]:
    """The territories of the user's campaigns' maps."""
    campaigns = CrusadeForce.objects.filter(player_id=user).exclude(campaign=None)
    return (
        Territory.objects.filter(campaign__in=campaigns.values("campaign"))
        .select_related("held_by", "campaign")
        .order_by("campaign__name", "name", "pk")
    )


# What the start-a-battle form shows, compiled once (`campaign.prepared`); its fields'
# querysets (the same rows) check what is posted.
_MY_FORCES = Prepared(_mine, user=int)
_PLACES = Prepared(
    lambda user: _territories(user).values_list("pk", "name", "held_by__name", "campaign__name"),
    user=int,
)
_OPPONENT_ROWS = Prepared(
    lambda user: _opponents(user).values_list(
        "pk", "name", f"player__{get_user_model().USERNAME_FIELD}", "faction"
    ),
    user=int,
)


class BattleCreateForm(forms.Form):
    """Start a battle: one of my forces against forces of the same campaign."""

    force = ForceChoiceField(
        queryset=CrusadeForce.objects.none(),
        label="Your force",
        empty_label=None,
        widget=PlainSelect,
    )
    battle_size = forms.ChoiceField(
        choices=battle_size_choices, initial="Strike Force", widget=PlainSelect
    )
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
        force = self.fields["force"]
        if self.is_bound:
            # The querysets check what is posted; a page that only shows the form draws
            # its choices from the rows read below, and building them cost a tenth of it.
            force.queryset = _mine(user.pk)
            self.fields["opponents"].queryset = _opponents(user.pk)
            self.fields["territory"].queryset = _territories(user.pk)
        # The player's forces, read once for the select, the phase and the page's notes,
        # with the map's territories and the forces to invite: one round trip.
        self.my_forces, places, self._opponent_rows = fetch_together(
            *((query, {"user": user.pk}) for query in (_MY_FORCES, _PLACES, _OPPONENT_ROWS))
        )
        force.choices = [(f.pk, _force_label(f)) for f in self.my_forces]
        self.phase, self.phase_size = self._phase_of(self.my_forces)
        if self.phase_size:
            if not self.is_bound:
                self.initial["battle_size"] = self.phase_size
            self.fields["battle_size"].help_text = (
                f"This phase ({self.phase.name}) is played at {self.phase_size}. "
                "Another size is allowed: the battle then notes that it differs."
            )
        territory = self.fields["territory"]
        # Its choices from one query of plain values (a league's map has fifty territories).
        if not places:
            del self.fields["territory"]  # no map in any of the player's campaigns
        else:
            territory.choices = [
                (NOT_CHOSEN, territory.empty_label),
                *(
                    (pk, _territory_label(name, holder, campaign))
                    for pk, name, holder, campaign in places
                ),
            ]

    def opponent_boxes(self) -> SafeString:
        """The opponents' checkboxes with their labels, as Django's widget would write them,
        from one query of plain values: a league has a hundred forces to pick from, and a
        widget rendered per choice through the templates costs more than the page."""
        field = self["opponents"]
        attrs = flatatt(field.build_widget_attrs({}))
        chosen = {str(value) for value in field.value() or ()}
        rows = self._opponent_rows
        name, auto_id = escape(field.html_name), escape(field.auto_id)
        return mark_safe(  # noqa: S308 - every value is escaped
            "\n".join(
                f'<div class="choice"><input type="checkbox" name="{name}" value="{pk}"'
                f' id="{auto_id}_{index}"{attrs}{" checked" if str(pk) in chosen else ""}>'
                f' <label for="{auto_id}_{index}">{escape(force)} ({escape(player)},'
                f" {escape(faction)})</label></div>"
                for index, (pk, force, player, faction) in enumerate(rows)
            )
        )

    def _phase_of(self, mine: list[CrusadeForce]) -> tuple[Phase | None, str]:
        """The current phase of the chosen force's campaign (the force posted, else the
        one the page was asked for, else the first), and the size it is played at."""
        wanted = self.data.get("force") if self.is_bound else self.initial.get("force")
        forces = sorted(mine, key=lambda f: f.pk)
        if wanted not in (None, "") and fits_column(CrusadeForce._meta.pk, wanted):
            forces = [f for f in forces if str(f.pk) == str(wanted)]
        force = forces[0] if forces else None
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
