"""`manage.py campaign_map validate|import|export`: exit 0 on a good map, 2 on a bad one;
export then import gives back the same file."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign.models import Territory
from tests.maps.helpers import SMALL, encode, small, war


def run(*args) -> str:
    out = io.StringIO()
    call_command("campaign_map", *args, stdout=out)
    return out.getvalue()


def test_it_says_a_good_map_is_good(tmp_path):
    path = tmp_path / "map.json"
    path.write_bytes(encode(SMALL))
    assert run("validate", str(path)) == (
        f"{path}: a good campaign map: The Vell Reach (3 territories)\n"
    )


def test_it_lists_each_problem_with_the_path_and_exits_2(tmp_path):
    data = small()
    data["territories"][0]["column"] = 99
    path = tmp_path / "bad.json"
    path.write_bytes(encode(data))
    with pytest.raises(CommandError) as refused:
        run("validate", str(path))
    assert refused.value.returncode == 2
    assert str(refused.value) == f"{path}: territories[0].column: must be between 0 and 29"


def test_it_says_when_it_cannot_read_the_file(tmp_path):
    with pytest.raises(CommandError) as refused:
        run("validate", str(tmp_path / "missing.json"))
    assert refused.value.returncode == 2 and "can't read it" in str(refused.value)


@pytest.mark.django_db
def test_export_then_import_gives_back_the_same_file(tmp_path):
    w = war()
    text = run("export", "--campaign", str(w.campaign.pk))
    path = tmp_path / "exported.json"
    path.write_text(text)
    other = war(with_map=False)
    said = run("import", str(path), "--campaign", str(other.campaign.pk))
    assert said == (
        f"{path}: imported the map The Vell Reach into {other.campaign.name} (3 territories)\n"
    )
    assert run("export", "--campaign", str(other.campaign.pk)) == text
    assert '"neighbours": [\n        "hive-vell",\n        "moon"\n      ]' in text


@pytest.mark.django_db
def test_import_refuses_a_campaign_with_a_map_and_saves_nothing(tmp_path):
    w = war()
    path = tmp_path / "map.json"
    path.write_bytes(encode(SMALL))
    with pytest.raises(CommandError) as refused:
        run("import", str(path), "--campaign", str(w.campaign.pk))
    assert refused.value.returncode == 2 and "already has a map" in str(refused.value)
    assert Territory.objects.filter(campaign=w.campaign).count() == 3


@pytest.mark.django_db
def test_import_names_the_holders_it_does_not_know(tmp_path):
    w = war(with_map=False)
    data = small()
    data["territories"][0]["held_by"] = "Orks"
    path = tmp_path / "map.json"
    path.write_bytes(encode(data))
    with pytest.raises(CommandError) as refused:
        run("import", str(path), "--campaign", str(w.campaign.pk))
    assert str(refused.value) == (
        f'{path}: territories[0].held_by: "Orks" is no alliance of this campaign'
    )
    assert not Territory.objects.exists()


@pytest.mark.django_db
def test_it_refuses_an_unknown_campaign():
    with pytest.raises(CommandError) as refused:
        run("export", "--campaign", "999")
    assert refused.value.returncode == 2
