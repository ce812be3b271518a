"""Read-side queries: each page's data as a dataclass, in a constant number of queries.

One module per area; views call these and never query the ORM themselves. Nothing
here writes.
"""

from .battles import (
    BattlePage,
    MusterPage,
    MusterSummary,
    PendingLink,
    RecordPage,
    battle_page,
    muster_page,
    pending_links,
    record_page,
    side_form_key,
    versioned_sides,
)
from .campaigns import (
    CampaignOverview,
    Invitation,
    Standing,
    campaign_overview,
    campaign_page_campaigns,
    invitation,
    my_forces_read,
)
from .card_image import card_image_facts, card_png
from .dashboard import Dashboard, dashboard, dashboard_reads
from .exports import force_document, force_text
from .forces import (
    ORDER_OF_BATTLE_FORCE,
    ForceHistory,
    HistoryRow,
    OrderOfBattle,
    SupplyStatus,
    change_rows,
    force_history,
    forces_outside_campaigns,
    order_of_battle,
    order_of_battle_forces,
    supply_status,
)
from .labels import LABELS, Labels, keyword_labels
from .oob_cards import CardRow
from .out_of_action import OutOfActionPage, out_of_action_page
from .paging import paginate
from .printing import CardsToPrint, PaperCard, cards_to_print
from .promotions import PromotionPage, RewardPage, promotion_page, reward_page
from .units import CardPage, HonourRow, card_page, requisition_option

__all__ = [
    "LABELS",
    "BattlePage",
    "CampaignOverview",
    "CardsToPrint",
    "CardPage",
    "Dashboard",
    "ForceHistory",
    "HistoryRow",
    "HonourRow",
    "Invitation",
    "Labels",
    "MusterPage",
    "MusterSummary",
    "OrderOfBattle",
    "OutOfActionPage",
    "PaperCard",
    "PendingLink",
    "PromotionPage",
    "RewardPage",
    "RecordPage",
    "Standing",
    "SupplyStatus",
    "CardRow",
    "battle_page",
    "campaign_overview",
    "campaign_page_campaigns",
    "card_image_facts",
    "card_page",
    "cards_to_print",
    "card_png",
    "change_rows",
    "dashboard",
    "dashboard_reads",
    "force_document",
    "force_history",
    "force_text",
    "forces_outside_campaigns",
    "invitation",
    "keyword_labels",
    "muster_page",
    "my_forces_read",
    "order_of_battle",
    "ORDER_OF_BATTLE_FORCE",
    "order_of_battle_forces",
    "out_of_action_page",
    "paginate",
    "pending_links",
    "promotion_page",
    "reward_page",
    "record_page",
    "side_form_key",
    "versioned_sides",
    "requisition_option",
    "supply_status",
]
