"""Who may see what in the admin: an organiser sees only the campaigns they organise."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import ORDER_VAR, ChangeList
from django.contrib.auth import get_user_model
from django.core.cache import cache as shared_cache
from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.bounds import fits_column
from campaign.forms.widgets import PlainHiddenInput, PlainSelect, escape
from campaign.models import (
    Alliance,
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    Campaign,
    CampaignInvitation,
    CounterValue,
    CrusadeForce,
    CustomContent,
    EnabledPack,
    HistoryEntry,
    LogEntry,
    Membership,
    PackRequisitionPurchase,
    Phase,
    Territory,
    TerritoryChange,
    Unit,
    Webhook,
    WebhookDelivery,
)
from campaign.prepared import Prepared, fetch_shaped
from campaign.selectors.versions import FRAGMENT_SECONDS, campaigns_with_versions

ORGANISER = Membership.Role.ORGANISER


def organised_by(user: int) -> QuerySet[Campaign]:
    """The campaigns a user organises, as one query (what `organised_campaign_ids` lists)."""
    return Campaign.objects.filter(memberships__user_id=user, memberships__role=ORGANISER)


# What every organiser's page of the admin asks first, compiled once (`campaign.prepared`):
# the campaigns' names come with their ids, for the campaign filter of a changelist, and
# with their versions (`selectors.versions`), which the counts of the lists are kept under.
_ORGANISED = Prepared(
    lambda user: (
        campaigns_with_versions(organised_by(user))
        .order_by("name", "pk")
        .values_list("pk", "name", "revision", "forces_revision")
    ),
    user=int,
)


def _organised(request: HttpRequest) -> list[tuple[int, str, int, int]]:
    """The campaigns the user organises with their names and versions: one query, cached
    on the request."""
    cached = getattr(request, "_organised", None)
    if cached is None:
        user = request.user
        if user.is_active and user.is_staff:
            cached = [tuple(row) for row in _ORGANISED.fetch(user=user.pk)]
        else:
            cached = []
        request._organised = cached
    return cached


def organised_campaigns(request: HttpRequest) -> list[tuple[int, str]]:
    """The campaigns the user organises, as (id, name) by name."""
    return [(pk, name) for pk, name, _, _ in _organised(request)]


def organised_version(request: HttpRequest) -> str:
    """The state of every campaign the user organises: each one's revision and the sum of
    its forces', which every history row moves on (`selectors.versions`). Read with the
    campaigns themselves, before any count, so a count kept under it holds at least
    that state."""
    return ";".join(
        f"{pk}-{revision}-{forces}" for pk, _, revision, forces in sorted(_organised(request))
    )


UNCOUNTED = {"p", "o"}
"""A list's page and its order: what changes no count."""


def list_version(request: HttpRequest, model: type[Model]) -> str:
    """What the count of an organiser's list of ``model`` depends on: the list's filters
    and search, and the state of the campaigns it shows."""
    asked = sorted((k, v) for k, v in request.GET.lists() if k not in UNCOUNTED)
    digest = hashlib.sha256(repr(asked).encode()).hexdigest()
    return f"{model._meta.label_lower}:{organised_version(request)}:{digest}"


class VersionedCountPaginator(Paginator):
    """A paginator whose count is kept under `version`: counting a league's history (some
    80,000 rows) or its cards was a sixth of the list's time, on every look."""

    def __init__(self, *args: Any, version: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = version

    @cached_property
    def count(self) -> int:
        key = f"admin-count:{self.version}"
        found = shared_cache.get(key)
        if found is None:
            found = super().count
            shared_cache.set(key, found, FRAGMENT_SECONDS)
        return found


class KeptValuesFilter(admin.AllValuesFieldListFilter):
    """Django's filter by a field's values (a league's factions), the values kept under
    the state of the campaigns the organiser sees (`organised_version`): a force's
    faction changes with a history row naming it. Read each look for a superuser, who
    sees rows of no campaign too."""

    def __init__(self, field, request, params, model, model_admin, field_path) -> None:
        super().__init__(field, request, params, model, model_admin, field_path)
        if is_superuser(request):
            return
        label = model._meta.label_lower
        key = f"admin-values:{label}:{field_path}:{organised_version(request)}"
        found = shared_cache.get(key)
        if found is None:
            found = list(self.lookup_choices)
            shared_cache.set(key, found, FRAGMENT_SECONDS)
        self.lookup_choices = found


def organised_campaign_ids(request: HttpRequest) -> frozenset[int]:
    """The campaigns the user organises (cached on the request)."""
    cached = getattr(request, "_organised_campaign_ids", None)
    if cached is None:
        cached = frozenset(pk for pk, _ in organised_campaigns(request))
        request._organised_campaign_ids = cached
    return cached


def forget_organised_campaigns(request: HttpRequest) -> None:
    request.__dict__.pop("_organised_campaign_ids", None)
    request.__dict__.pop("_organised", None)


def is_superuser(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_superuser


def can_organise(request: HttpRequest) -> bool:
    return is_superuser(request) or bool(organised_campaign_ids(request))


CAMPAIGN_PATHS: dict[type[Model], str] = {
    Campaign: "pk",
    Membership: "campaign",
    CampaignInvitation: "campaign",
    CustomContent: "pack__campaign",
    EnabledPack: "campaign",
    CrusadeForce: "campaign",
    Unit: "force__campaign",
    BattleHonour: "unit__force__campaign",
    BattleScar: "unit__force__campaign",
    Battle: "campaign",
    BattleParticipant: "battle__campaign",
    HistoryEntry: "campaign",
    LogEntry: "campaign",
    CounterValue: "force__campaign",
    PackRequisitionPurchase: "force__campaign",
    Phase: "campaign",
    Alliance: "campaign",
    Territory: "campaign",
    TerritoryChange: "campaign",
    Webhook: "campaign",
    WebhookDelivery: "webhook__campaign",
}
"""How each kind of row reaches the campaign it belongs to."""


def scoped(queryset: QuerySet, request: HttpRequest) -> QuerySet:
    """Only the rows of campaigns the user organises (every row for a superuser)."""
    if is_superuser(request):
        return queryset
    campaign_path = CAMPAIGN_PATHS[queryset.model]
    return queryset.filter(**{f"{campaign_path}__in": organised_campaign_ids(request)})


def campaign_id_of(obj: Model) -> int | None:
    *hops, last = CAMPAIGN_PATHS[type(obj)].split("__")
    for hop in hops:
        obj = getattr(obj, hop)
    return obj.pk if last == "pk" else getattr(obj, f"{last}_id")


def scoped_choices(db_field, request: HttpRequest) -> QuerySet | None:
    """Foreign-key choices limited to the organiser's campaigns."""
    model = db_field.related_model
    if model is CrusadeForce:
        return scoped(CrusadeForce.objects.select_related("player", "campaign"), request)
    if model in CAMPAIGN_PATHS:
        return scoped(model._default_manager.all(), request)
    if model is get_user_model() and not is_superuser(request):
        members = get_user_model().objects.filter(
            memberships__campaign__in=organised_campaign_ids(request)
        )
        return members.distinct().order_by("username")
    return None


def force_label(force: CrusadeForce) -> str:
    """Forces in a choice list: with 30 players, the name alone is ambiguous."""
    where = force.campaign.name if force.campaign_id else "no campaign"
    return f"{force.name} ({force.player.username}, {where})"


@cache
def _labels(model: type[Model], name: str) -> dict:
    return dict(model._meta.get_field(name).flatchoices)


def choice_column(model: type[Model], name: str):
    """A changelist column for a field whose choices come from a function (the rules):
    Django works the choices out again for every cell, a fiftieth of a history page's
    time each; the labels don't change while the process runs, so they are read once."""
    field = model._meta.get_field(name)

    @admin.display(description=field.verbose_name, ordering=name)
    def column(obj: Model) -> str:
        value = getattr(obj, name)
        return _labels(model, name).get(value, "-")

    column.__name__ = f"{name}_label"
    return column


SOME_PK = 987654321
"""A number no row reaches: a changelist's row links are this one's address, renumbered."""


class OrganiserChangeList(ChangeList):
    """A changelist whose row links are reversed once a page rather than once a row (each
    `reverse` was a fifth of a row's time)."""

    def url_for_result(self, result: Model) -> str:
        pk = getattr(result, self.pk_attname)
        if not isinstance(pk, int):
            return super().url_for_result(result)
        address = self.__dict__.get("_change_address")
        if address is None:
            some = type("Some", (), {self.pk_attname: SOME_PK})()
            address = self._change_address = super().url_for_result(some)
        return address.replace(str(SOME_PK), str(pk))

    def get_results(self, request: HttpRequest) -> None:
        """The page's rows read as the admin's `page_rows` says (only the columns shown),
        while the list's queryset, which actions run on, stays whole."""
        whole = self.queryset
        self.queryset = self.model_admin.page_rows(whole)
        try:
            super().get_results(request)
        finally:
            self.queryset = whole
        if not self.list_editable:  # an editable list's forms want the queryset
            rows = self._rows(request)
            self.model_admin.page_extras(rows)
            self.result_list = rows

    def _rows(self, request: HttpRequest) -> list:
        """The page's rows. A list as it opens (no filter, no search: only its page and
        order asked) is read by SQL compiled once per connection for its organiser's
        campaigns, order and slice (`prepared.fetch_shaped`): compiling it took as long as
        every other step of reading the page together."""
        shown = self.result_list
        if not isinstance(shown, QuerySet) or not set(request.GET) <= UNCOUNTED:
            return list(shown)
        scope = "all" if is_superuser(request) else tuple(sorted(organised_campaign_ids(request)))
        # The slice is the paginator's: its end is the count's on the last page.
        key = (
            type(self.model_admin),
            scope,
            request.GET.get(ORDER_VAR),
            shown.query.low_mark,
            shown.query.high_mark,
        )
        return fetch_shaped(key, shown)


class ActionForm(helpers.ActionForm):
    """Django's action form, its choice of action written without a template per option
    (`widgets.PlainSelect`, the same markup): through the widget's templates it was a
    twentieth of a changelist's time. Its hidden input the same way."""

    action = forms.ChoiceField(label=gettext_lazy("Action:"), widget=PlainSelect)
    select_across = forms.BooleanField(
        label="",
        required=False,
        initial=0,
        widget=PlainHiddenInput({"class": "select-across"}),
    )


class OrganiserScope:
    """Permissions and querysets of an admin whose rows belong to a campaign."""

    action_form = ActionForm

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return OrganiserChangeList

    view_on_site = False
    show_full_result_count = False
    """A filtered list says how many rows it found, not also how many there are in all:
    a second count over a league's thousands of rows for every look."""
    list_per_page = 25
    """25 rows a page (Django's default is a hundred): a league's lists run to thousands
    of rows, which search and filters find; a page of 25 loads in a quarter of the time
    and is easier to scan on a phone."""

    counted_by_version = False
    """Whether the list's count is kept under its campaigns' state (`list_version`): for a
    list whose rows only come and go, or change what filters see, with a history row
    naming their force or campaign."""

    def get_paginator(
        self,
        request: HttpRequest,
        queryset: QuerySet,
        per_page: int,
        orphans: int = 0,
        allow_empty_first_page: bool = True,
    ) -> Paginator:
        """An organiser's count kept under their campaigns' version, where the list says
        so. Counted each look: a superuser's (they see rows of no campaign too, which no
        revision follows) and a search's (it may match a player's name, which is no
        campaign's)."""
        if not self.counted_by_version or is_superuser(request) or request.GET.get("q"):
            return super().get_paginator(
                request, queryset, per_page, orphans, allow_empty_first_page
            )
        return VersionedCountPaginator(
            queryset,
            per_page,
            orphans,
            allow_empty_first_page,
            version=list_version(request, queryset.model),
        )

    def page_rows(self, queryset: QuerySet) -> QuerySet:
        """The rows of a changelist's page: by default, the list's own queryset."""
        return queryset

    def page_extras(self, rows: list[Model]) -> None:
        """What a page's rows show beside their columns, read once for the page's rows
        (by default nothing)."""

    def row_label(self, obj: Model) -> str:
        """What a row's checkbox says it selects."""
        return str(obj)

    def action_checkbox(self, obj: Model) -> str:
        """Django's checkbox of a row, written out here: through the widget's templates it
        was a third of a changelist's time, one per row (and `format_html`, escaping
        through the wrappers for lazy text, a tenth of what was left)."""
        label = _("Select this object for an action - {}").format(escape(self.row_label(obj)))
        return SafeString(
            f'<input type="checkbox" name="{escape(helpers.ACTION_CHECKBOX_NAME)}" '
            f'value="{escape(obj.pk)}" class="action-select" aria-label="{label}">'
        )

    def in_scope(self, request: HttpRequest, obj: Model | None) -> bool:
        """For an admin, obj is its row; for an inline, the parent row."""
        if obj is None or is_superuser(request):
            return True
        return campaign_id_of(obj) in organised_campaign_ids(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return scoped(super().get_queryset(request), request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def response_action(self, request: HttpRequest, queryset: QuerySet):
        """An action on the rows ticked, each an id a row could have: the ids come from the
        form, and 10**30 or text reached the database (a 500)."""
        ticked = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not all(fits_column(self.model._meta.pk, pk, queryset.db) for pk in ticked):
            self.message_user(
                request, "A row ticked is not one of this list: reload the page.", messages.ERROR
            )
            return None
        return super().response_action(request, queryset)

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs: Any):
        choices = scoped_choices(db_field, request)
        if choices is not None:
            kwargs["queryset"] = choices
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and db_field.related_model is CrusadeForce:
            field.label_from_instance = force_label
        return field


class ScopedInline(OrganiserScope):
    """An inline: its rows are scoped like its model's admin, its permissions by the parent."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)


class ReadOnlyInline(ScopedInline, admin.TabularInline):
    extra = 0
    max_num = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class CampaignFilter(admin.SimpleListFilter):
    """The organiser's campaigns only (the built-in filter would list every campaign)."""

    title = "campaign"
    parameter_name = "campaign"
    campaign_path = "campaign"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[int, str]]:
        """The campaigns `scoped` lets through, by name."""
        if is_superuser(request):
            return list(Campaign.objects.order_by("name", "pk").values_list("pk", "name"))
        return organised_campaigns(request)

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        """Only a campaign the filter offers: the value comes from the address, and a
        number no id can be (10**30) or text reached the database (a 500)."""
        if not self.value():
            return queryset
        offered = {str(pk): pk for pk, _ in self.lookup_choices}
        if self.value() not in offered:
            return queryset.none()
        return queryset.filter(**{self.campaign_path: offered[self.value()]})


def campaign_filter(model: type[Model]) -> type[CampaignFilter]:
    return type("CampaignFilter", (CampaignFilter,), {"campaign_path": CAMPAIGN_PATHS[model]})
