"""`manage.py content_pack validate PATH`: exit 0 on a good pack, 2 on a bad one (R11)."""

import io
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.packs.helpers import CORE, REPO_ROOT, SAMPLE, encode, sample
from tests.packs.test_hostile import HOSTILE


def validate(path) -> str:
    out = io.StringIO()
    call_command("content_pack", "validate", str(path), stdout=out)
    return out.getvalue()


def test_it_says_a_good_pack_is_good_with_its_name_and_counts():
    assert validate(SAMPLE) == (
        f"{SAMPLE}: a good content pack: Sample house rules (agendas: 3, blessings: 2, "
        "underdog thresholds: 2, requisitions: 2, counters: 1, alliances: 3)\n"
    )


def test_it_validates_the_core_pack_file():
    assert validate(CORE) == (
        f"{CORE}: a good content pack: Core rules (requisitions: 6, battle traits: 4, "
        "crusade relics: 14, battle scars: 6)\n"
    )


def test_it_lists_each_problem_with_the_path_and_exits_2(tmp_path):
    """R11: every problem names its place and rule."""
    data = sample()
    data["agendas"][0]["xp"] = 11
    data["agendas"][1]["id"] = "hold-the-beacon"
    path = tmp_path / "bad.json"
    path.write_bytes(encode(data))
    with pytest.raises(CommandError) as refused:
        validate(path)
    assert refused.value.returncode == 2
    assert str(refused.value).splitlines() == [
        f"{path}: agendas[0].xp: must be between 0 and 10",
        f'{path}: agendas[1].id: "hold-the-beacon" is used twice',
    ]


def test_it_refuses_a_file_it_cannot_read_with_exit_2(tmp_path):
    with pytest.raises(CommandError) as refused:
        validate(tmp_path / "missing.json")
    assert refused.value.returncode == 2
    assert (
        str(refused.value)
        == f"{tmp_path / 'missing.json'}: can't read it: No such file or directory"
    )


def test_it_reads_no_more_than_the_limit_from_a_huge_file(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * 3_000_000)
    with pytest.raises(CommandError) as refused:
        validate(path)
    assert str(refused.value) == f"{path}: (file): larger than 1000000 bytes"


def test_it_needs_a_subcommand():
    with pytest.raises(CommandError):
        call_command("content_pack")


def run(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "manage.py", "content_pack", *args]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)


def test_it_exits_0_and_2_from_the_command_line_without_a_traceback(tmp_path):
    good = run("validate", str(SAMPLE))
    assert (good.returncode, good.stderr) == (0, "")
    assert "a good content pack: Sample house rules" in good.stdout
    bad_path = tmp_path / "deep.json"
    bad_path.write_bytes(b"[" * 10_000 + b"]" * 10_000)
    bad = run("validate", str(bad_path))
    assert bad.returncode == 2
    assert bad.stderr == f"CommandError: {bad_path}: (file): nested deeper than 8 levels\n"
    assert "Traceback" not in bad.stderr


# --- import and export ------------------------------------------------------------------


def import_pack(path, *extra: str) -> str:
    out = io.StringIO()
    call_command("content_pack", "import", str(path), *extra, stdout=out)
    return out.getvalue()


def export(slug: str, *extra: str) -> str:
    out = io.StringIO()
    call_command("content_pack", "export", slug, *extra, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_imports_the_sample_pack_into_the_library_and_exports_it_byte_for_byte():
    from campaign.models import ContentPack, HistoryEntry

    said = import_pack(SAMPLE)

    stored = ContentPack.objects.get()
    assert stored.campaign is None
    assert said == (
        f"{SAMPLE}: imported Sample house rules (sample-house-rules) into the library "
        "(agendas: 3, blessings: 2, underdog thresholds: 2, requisitions: 2, counters: 1, "
        "alliances: 3)\n"
    )
    assert export(stored.slug) == SAMPLE.read_text()
    entry = HistoryEntry.objects.get(action="pack_imported")
    assert entry.actor is None


@pytest.mark.django_db
def test_it_imports_into_a_campaign_and_enables_the_pack_there():
    from campaign.models import EnabledPack
    from tests.factories import make_campaign

    campaign = make_campaign(name="Vraks")

    said = import_pack(SAMPLE, "--campaign", str(campaign.pk))

    enabled = EnabledPack.objects.get()
    assert (enabled.campaign, enabled.pack.campaign) == (campaign, campaign)
    assert "into campaign Vraks (enabled there)" in said
    assert export(enabled.pack.slug, "--campaign", str(campaign.pk)) == SAMPLE.read_text()


@pytest.mark.django_db
def test_it_exports_the_core_pack_as_its_file():
    assert export("core") == CORE.read_text()


@pytest.mark.django_db
def test_it_saves_nothing_from_a_bad_file_and_lists_every_problem(tmp_path):
    """R11: nothing is saved from a bad file; each problem names its place and rule."""
    from campaign.models import ContentPack, CustomContent, HistoryEntry

    data = sample()
    data["agendas"][0]["xp"] = 11
    data["counters"][0]["start"] = "many"
    path = tmp_path / "bad.json"
    path.write_bytes(encode(data))

    with pytest.raises(CommandError) as refused:
        import_pack(path)

    assert refused.value.returncode == 2
    lines = str(refused.value).splitlines()
    assert lines[0] == f"{path}: agendas[0].xp: must be between 0 and 10"
    assert len(lines) == 2 and lines[1].startswith(f"{path}: counters[0].start: ")
    assert not ContentPack.objects.exists()
    assert not CustomContent.objects.exists()
    assert not HistoryEntry.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("data", "message"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_it_refuses_a_hostile_file_on_import_with_one_line(tmp_path, data, message):
    from campaign.models import ContentPack

    path = tmp_path / "hostile.json"
    path.write_bytes(data)

    with pytest.raises(CommandError) as refused:
        import_pack(path)

    assert refused.value.returncode == 2
    assert str(refused.value) == f"{path}: {message}"
    assert not ContentPack.objects.exists()


@pytest.mark.django_db
def test_it_refuses_an_unknown_campaign_and_a_slug_already_used():
    from campaign.models import ContentPack

    with pytest.raises(CommandError) as unknown:
        import_pack(SAMPLE, "--campaign", "999999")
    import_pack(SAMPLE)
    with pytest.raises(CommandError) as taken:
        import_pack(SAMPLE)

    assert (unknown.value.returncode, taken.value.returncode) == (2, 2)
    assert str(unknown.value) == "There is no campaign with the id 999999."
    assert 'already has a pack with the slug "sample-house-rules"' in str(taken.value)
    assert ContentPack.objects.count() == 1


@pytest.mark.django_db
def test_it_asks_which_campaign_for_a_slug_several_use_and_refuses_an_unknown_one():
    from campaign.models import ContentPack
    from tests.factories import make_campaign

    first, second = make_campaign(name="Vraks"), make_campaign(name="Armageddon")
    import_pack(SAMPLE, "--campaign", str(first.pk))
    import_pack(SAMPLE, "--campaign", str(second.pk))

    with pytest.raises(CommandError) as ambiguous:
        export("sample-house-rules")
    with pytest.raises(CommandError) as unknown:
        export("no-such-pack")

    assert (ambiguous.value.returncode, unknown.value.returncode) == (2, 2)
    assert "Say which with --campaign ID" in str(ambiguous.value)
    assert f"--campaign {second.pk}" in str(ambiguous.value)
    assert str(unknown.value) == 'There is no pack with the slug "no-such-pack".'
    assert ContentPack.objects.count() == 2


def test_it_imports_a_bad_file_from_the_command_line_without_a_traceback(tmp_path):
    """The subprocess has no test database: a bad file is refused before any is needed, and
    the core pack is built in."""
    bad_path = tmp_path / "deep.json"
    bad_path.write_bytes(b"[" * 10_000 + b"]" * 10_000)
    bad = run("import", str(bad_path))
    core = run("export", "core")
    assert bad.returncode == 2
    assert bad.stderr == f"CommandError: {bad_path}: (file): nested deeper than 8 levels\n"
    assert "Traceback" not in bad.stderr
    assert (core.returncode, core.stdout) == (0, CORE.read_text())
