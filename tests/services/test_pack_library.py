"""A library pack's item edited or retired: every campaign that enables the pack is told
in its own history, and so its pages' versions move on (R11)."""

import pytest

from campaign import services
from campaign.models import CustomContent, HistoryEntry
from campaign.packs import SAMPLE_PACK
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def test_it_writes_a_row_in_each_campaign_using_a_library_pack_when_an_item_changes():
    root = make_user("root", is_staff=True, is_superuser=True)
    pack = services.import_pack(actor=root, data=SAMPLE_PACK.read_bytes())
    using, other = make_campaign(name="Using"), make_campaign(name="Other")
    services.enable_pack(actor=root, campaign=using, pack=pack)
    using.refresh_from_db()
    other.refresh_from_db()
    revisions = (using.revision, other.revision)
    blessing = pack.items.get(kind=CustomContent.Kind.BLESSING, key="second-wind")

    services.update_custom_content(actor=root, content=blessing, effect="A new effect.")
    services.retire_custom_content(actor=root, content=blessing, reason="Out of print")

    using.refresh_from_db()
    other.refresh_from_db()
    assert (using.revision, other.revision) == (revisions[0] + 2, revisions[1])
    told = HistoryEntry.objects.filter(campaign=using).order_by("pk")
    assert [row.action for row in told][-2:] == ["custom_content_changed", "custom_content_retired"]
