"""Content packs in the admin (R11): the library and each campaign's packs, importing and
exporting files, enabling packs in a campaign, and the items organisers may change."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import ContentPack, CustomContent, EnabledPack, HistoryEntry
from campaign.selectors.packs import export_pack
from tests.admin.helpers import post_change
from tests.factories import make_user, reload
from tests.packs.helpers import sample

pytestmark = pytest.mark.django_db

SAMPLE = Path("docs/sample-house-pack.json")


def pack_file(data: dict | None = None, name: str = "pack.json") -> SimpleUploadedFile:
    content = SAMPLE.read_bytes() if data is None else json.dumps(data).encode()
    return SimpleUploadedFile(name, content, content_type="application/json")


def library_pack(slug: str = "vraks-siege", name: str = "Siege of Vraks") -> ContentPack:
    data = sample()
    data["pack"].update(slug=slug, name=name)
    return services.import_pack(actor=None, data=json.dumps(data).encode())


def import_url() -> str:
    return reverse("admin:campaign_contentpack_import")


@pytest.fixture
def superuser_client(db):
    """A second browser: ``client`` is the organiser's."""
    other = Client()
    other.force_login(make_user("root", is_staff=True, is_superuser=True))
    return other


# --- The list and a pack's page ----------------------------------------------------------


def test_it_lists_the_library_and_the_organisers_packs_but_not_a_rivals(
    organiser, organiser_client, campaign, rival_campaign
):
    library = library_pack()
    ours = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)
    services.enable_pack(actor=organiser, campaign=campaign, pack=library)
    services.import_pack(
        actor=rival_campaign.memberships.get().user,
        data=SAMPLE.read_bytes(),
        campaign=rival_campaign,
    )

    response = organiser_client.get(reverse("admin:campaign_contentpack_changelist"))

    assert response.status_code == 200
    assert {p.pk for p in response.context["cl"].result_list} == {library.pk, ours.pk}
    html = response.content.decode()
    assert "3 Agendas, 2 Blessings, 2 Requisitions, 1 counter" in html
    assert "library" in html and "Pariah Nexus" in html
    assert "1 campaign" in html
    assert import_url() in html


def test_it_shows_a_packs_items_on_its_page_with_an_export_tool(
    organiser, organiser_client, campaign
):
    pack = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)

    response = organiser_client.get(reverse("admin:campaign_contentpack_change", args=[pack.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    for item in pack.items.all():
        assert item.name in html
    assert reverse("admin:campaign_contentpack_export", args=[pack.pk]) in html
    assert "Save" not in html
    assert "Delete" not in html.replace("can_delete", "")


def test_it_keeps_a_rivals_pack_and_its_file_from_an_organiser(organiser_client, rival_campaign):
    theirs = services.import_pack(
        actor=rival_campaign.memberships.get().user,
        data=SAMPLE.read_bytes(),
        campaign=rival_campaign,
    )

    page = organiser_client.get(reverse("admin:campaign_contentpack_change", args=[theirs.pk]))
    file = organiser_client.get(reverse("admin:campaign_contentpack_export", args=[theirs.pk]))

    assert page.status_code in (302, 404)
    assert file.status_code == 404


def test_it_keeps_the_pack_pages_from_a_player(client, campaign, rival_campaign):
    """A member who organises nothing is not staff: the admin sends them to its login."""
    client.force_login(make_user("player"))
    pack = library_pack()

    for url in (
        reverse("admin:campaign_contentpack_changelist"),
        import_url(),
        reverse("admin:campaign_contentpack_export", args=[pack.pk]),
    ):
        assert client.get(url).status_code == 302


def test_it_offers_no_way_to_add_or_delete_a_pack(organiser_client, campaign):
    pack = library_pack()

    added = organiser_client.get(reverse("admin:campaign_contentpack_add"))
    deleted = organiser_client.post(reverse("admin:campaign_contentpack_delete", args=[pack.pk]))

    assert added.status_code == 403
    assert deleted.status_code == 403
    assert ContentPack.objects.filter(pk=pack.pk).exists()


# --- Export ------------------------------------------------------------------------------


def test_it_downloads_the_pack_file_that_was_imported(organiser, organiser_client, campaign):
    """R11: export then import gives back the same pack exactly."""
    pack = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)

    response = organiser_client.get(reverse("admin:campaign_contentpack_export", args=[pack.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="sample-house-rules.json"'
    assert response.content == SAMPLE.read_bytes()


def test_it_refuses_to_export_by_post(organiser_client, campaign):
    pack = library_pack()

    response = organiser_client.post(reverse("admin:campaign_contentpack_export", args=[pack.pk]))

    assert response.status_code == 405


# --- Import ------------------------------------------------------------------------------


def test_it_imports_a_pack_file_into_a_campaign_the_organiser_runs(organiser_client, campaign):
    response = organiser_client.post(import_url(), {"file": pack_file(), "campaign": campaign.pk})

    pack = ContentPack.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:campaign_contentpack_change", args=[pack.pk])
    assert pack.campaign == campaign
    assert EnabledPack.objects.get().campaign == campaign
    assert HistoryEntry.objects.get(action="pack_imported").actor.username == "warmaster"


def test_it_shows_every_problem_of_a_bad_file_by_place_and_rule(organiser_client, campaign):
    """R11: each problem names its place and rule; nothing is saved."""
    data = sample()
    data["agendas"][0]["xp"] = 11
    data["agendas"][1]["id"] = "hold-the-beacon"

    response = organiser_client.post(
        import_url(), {"file": pack_file(data), "campaign": campaign.pk}
    )

    assert response.status_code == 400
    assert response.context["form"].errors["file"] == [
        "agendas[0].xp: must be between 0 and 10",
        'agendas[1].id: "hold-the-beacon" is used twice',
    ]
    assert "agendas[0].xp: must be between 0 and 10" in response.content.decode()
    assert not ContentPack.objects.exists()
    assert not CustomContent.objects.exists()


@pytest.mark.parametrize(
    "content",
    [b"[" * 10_000 + b"]" * 10_000, b" " * 1_100_000, b'{"a": 1, "a": 2}', b"\xff\xfe"],
    ids=["deep", "huge", "duplicate keys", "not UTF-8"],
)
def test_it_refuses_a_hostile_file_with_a_form_error(organiser_client, campaign, content):
    upload = SimpleUploadedFile("hostile.json", content, content_type="application/json")

    response = organiser_client.post(import_url(), {"file": upload, "campaign": campaign.pk})

    assert response.status_code == 400
    assert response.context["form"].errors["file"][0].startswith("(file): ")
    assert not ContentPack.objects.exists()


def test_it_shows_a_slug_already_used_in_the_campaign_as_a_form_error(
    organiser, organiser_client, campaign
):
    services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)

    response = organiser_client.post(import_url(), {"file": pack_file(), "campaign": campaign.pk})

    assert response.status_code == 400
    assert "already has a pack with the slug" in str(response.context["form"].errors["file"])
    assert ContentPack.objects.count() == 1


def test_it_lets_only_a_superuser_import_into_the_library(
    organiser_client, superuser_client, campaign
):
    refused = organiser_client.post(import_url(), {"file": pack_file()})
    imported = superuser_client.post(import_url(), {"file": pack_file()})

    assert refused.status_code == 400
    assert "campaign" in refused.context["form"].errors
    assert imported.status_code == 302
    assert ContentPack.objects.get().campaign is None


def test_it_refuses_an_import_into_another_organisers_campaign(organiser_client, rival_campaign):
    response = organiser_client.post(
        import_url(), {"file": pack_file(), "campaign": rival_campaign.pk}
    )

    assert response.status_code == 400
    assert "campaign" in response.context["form"].errors
    assert not ContentPack.objects.exists()


def test_it_offers_only_the_organisers_campaigns_to_import_into(
    organiser_client, campaign, rival_campaign
):
    response = organiser_client.get(import_url())

    assert response.status_code == 200
    assert list(response.context["form"].fields["campaign"].queryset) == [campaign]


# --- Enabled packs on the campaign page -----------------------------------------------


def campaign_url(campaign) -> str:
    return reverse("admin:campaign_campaign_change", args=[campaign.pk])


def test_it_enables_a_library_pack_from_the_campaign_page_with_a_history_row(
    organiser_client, campaign
):
    pack = library_pack()

    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"enabled_packs-TOTAL_FORMS": "1", "enabled_packs-0-pack": pack.pk},
    )

    assert response.status_code == 302
    assert campaign.enabled_packs.get().pack == pack
    entry = HistoryEntry.objects.get(action="pack_enabled")
    assert (entry.campaign, entry.changes) == (campaign, {"pack": [None, "vraks-siege"]})


def test_it_turns_a_pack_off_with_a_reason(organiser, organiser_client, campaign):
    services.enable_pack(actor=organiser, campaign=campaign, pack=library_pack())

    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"enabled_packs-0-turn_off": "on", "enabled_packs-0-reason": "Season over"},
    )

    assert response.status_code == 302
    assert not campaign.enabled_packs.exists()
    assert HistoryEntry.objects.get(action="pack_disabled").reason == "Season over"


def test_it_says_the_core_rules_are_always_on_and_offers_no_rivals_pack(
    organiser_client, campaign, rival_campaign
):
    library = library_pack()
    theirs = services.import_pack(
        actor=rival_campaign.memberships.get().user,
        data=SAMPLE.read_bytes(),
        campaign=rival_campaign,
    )

    response = organiser_client.get(campaign_url(campaign))

    assert "the core rules are always on" in response.content.decode()
    inline = next(
        i for i in response.context["inline_admin_formsets"] if i.formset.prefix == "enabled_packs"
    )
    offered = set(inline.formset.empty_form.fields["pack"].queryset)
    assert library in offered and theirs not in offered


def test_it_shows_enabling_a_pack_twice_as_a_form_error(organiser, organiser_client, campaign):
    pack = library_pack()
    services.enable_pack(actor=organiser, campaign=campaign, pack=pack)

    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"enabled_packs-TOTAL_FORMS": "2", "enabled_packs-1-pack": pack.pk},
    )

    assert response.status_code == 200
    assert "duplicate data for pack" in response.content.decode()
    assert campaign.enabled_packs.count() == 1


def test_it_answers_a_rivals_pack_posted_to_enable_with_a_form_error(
    organiser_client, campaign, rival_campaign
):
    theirs = services.import_pack(
        actor=rival_campaign.memberships.get().user,
        data=SAMPLE.read_bytes(),
        campaign=rival_campaign,
    )

    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"enabled_packs-TOTAL_FORMS": "1", "enabled_packs-0-pack": theirs.pk},
    )

    assert response.status_code == 200
    assert not campaign.enabled_packs.exists()


# --- Pack content ------------------------------------------------------------------------


def content_url(item) -> str:
    return reverse("admin:campaign_customcontent_change", args=[item.pk])


def test_it_offers_any_unit_the_four_core_tables_and_the_packs_own(
    organiser, organiser_client, campaign
):
    data = sample()
    data["battle_traits"] = [
        {
            "id": "hive-fleet",
            "name": "Hive fleet",
            "entries": [{"id": "swarmlord", "name": "Swarm-born", "effect": "Moves as one."}],
        }
    ]
    pack = services.import_pack(actor=organiser, data=json.dumps(data).encode(), campaign=campaign)
    trait = pack.items.get(kind="battle_trait")

    added = organiser_client.get(reverse("admin:campaign_customcontent_add"))
    changed = organiser_client.get(content_url(trait))

    core = [("", "Any unit"), ("character", "Character"), ("infantry", "Infantry")]
    core += [("mounted", "Mounted"), ("vehicle", "Vehicle")]
    assert added.context["adminform"].form.fields["trait_table"].choices == core
    assert changed.context["adminform"].form.fields["trait_table"].choices == [
        *core,
        ("hive-fleet", "Hive fleet"),
    ]


def test_it_edits_an_item_through_the_service_with_a_history_row(
    organiser, organiser_client, campaign
):
    pack = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)
    agenda = pack.items.filter(kind="agenda").first()

    response = post_change(organiser_client, content_url(agenda), effect="Hold it to the end.")

    assert response.status_code == 302
    assert reload(agenda).effect == "Hold it to the end."
    assert HistoryEntry.objects.get(action="custom_content_changed").campaign == campaign


def test_it_lets_an_organiser_read_but_not_change_a_library_packs_items(
    organiser_client, superuser_client, campaign
):
    agenda = library_pack().items.filter(kind="agenda").first()

    seen = organiser_client.get(content_url(agenda))
    refused = organiser_client.post(content_url(agenda), {"name": "Mine", "kind": "agenda"})
    retire = organiser_client.get(reverse("admin:campaign_customcontent_retire", args=[agenda.pk]))
    edited = post_change(superuser_client, content_url(agenda), name="Hold the Relay")

    assert seen.status_code == 200
    assert "Save" not in seen.content.decode()
    assert refused.status_code == 403
    assert retire.status_code == 404
    assert edited.status_code == 302
    assert reload(agenda).name == "Hold the Relay"


def test_it_keeps_a_rivals_items_from_an_organiser(organiser_client, rival_campaign):
    theirs = services.add_custom_content(
        actor=rival_campaign.memberships.get().user,
        campaign=rival_campaign,
        kind="battle_scar",
        name="Rad-burns",
    )

    page = organiser_client.get(content_url(theirs))
    listed = organiser_client.get(reverse("admin:campaign_customcontent_changelist"))

    assert page.status_code in (302, 404)
    assert theirs not in listed.context["cl"].result_list


def test_it_filters_pack_content_by_pack(organiser, organiser_client, campaign):
    pack = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)
    services.add_custom_content(actor=organiser, campaign=campaign, kind="battle_scar", name="Gas")
    url = reverse("admin:campaign_customcontent_changelist")

    by_pack = organiser_client.get(url, {"pack": pack.pk}).context["cl"].result_list
    unknown = organiser_client.get(url, {"pack": "10" * 20}).context["cl"].result_list

    assert {item.pack_id for item in by_pack} == {pack.pk}
    assert len(by_pack) == pack.items.count()
    assert list(unknown) == []


def test_it_exports_a_house_pack_that_imports_back_the_same(
    organiser, organiser_client, campaign, rival_campaign
):
    """R11: the house pack the organiser filled one item at a time is a file like any."""
    for kind, name, extra in (
        ("battle_trait", "Trench Fighter", {"trait_table": "infantry"}),
        ("battle_trait", "Siege Veteran", {}),
        ("crusade_relic", "Blade of Vraks", {"relic_category": "antiquity"}),
        ("battle_scar", "Gas Lungs", {"effect": "Coughs."}),
    ):
        services.add_custom_content(
            actor=organiser, campaign=campaign, kind=kind, name=name, **extra
        )
    house = ContentPack.objects.get(campaign=campaign)

    exported = organiser_client.get(
        reverse("admin:campaign_contentpack_export", args=[house.pk])
    ).content
    again = services.import_pack(
        actor=rival_campaign.memberships.get().user, data=exported, campaign=rival_campaign
    )

    assert export_pack(again).encode() == exported
    assert set(again.items.values_list("name", "trait_table")) == {
        ("Trench Fighter", "infantry"),
        ("Siege Veteran", ""),  # written under "any-unit", read back as naming no table
        ("Blade of Vraks", ""),
        ("Gas Lungs", ""),
    }


def test_it_says_why_a_pack_cant_be_exported_yet(
    organiser, organiser_client, campaign, monkeypatch
):
    from django.core.exceptions import ValidationError

    import campaign.admin.packs as pack_admin

    pack = services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)

    def refuse(stored):
        raise ValidationError(f"{stored.name} can't be written as a pack file yet: no effect")

    monkeypatch.setattr(pack_admin, "export_pack", refuse)
    change = reverse("admin:campaign_contentpack_change", args=[pack.pk])

    response = organiser_client.get(reverse("admin:campaign_contentpack_export", args=[pack.pk]))

    assert response.status_code == 302
    assert response["Location"] == change
    shown = organiser_client.get(change).content.decode()
    assert "can&#x27;t be written as a pack file yet" in shown
