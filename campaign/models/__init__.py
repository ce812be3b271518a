"""The Crusade data model, one module per subject.

Rules about one row are properties that ask `campaign.rules`; changes that touch
several rows live in `campaign.services`. Nothing here writes domain state. Everything
is imported from here (``from campaign.models import Unit``), as before the split.
"""

from ._common import (
    D6,
    EFFECT_LENGTH,
    HOUSE,
    LEAST_MODELS,
    LEAST_RP_CAP,
    MOST_ENHANCEMENT_POINTS,
    MOST_MODELS,
    MOST_POINTS,
    MOST_RP,
    MOST_SUPPLY,
    MOST_TALLY,
    NOTE_LENGTH,
    house_rule,
    new_invite_code,
    rules_choices,
)
from .agendas import AgendaAchievement, AgendaPick
from .battles import (
    Battle,
    BattleParticipant,
    BattleUnit,
    OutOfActionQuerySet,
    OutOfActionTest,
    battle_size_choices,
)
from .blessings import BlessingPick
from .campaigns import Campaign, CampaignInvitation, Membership, Named
from .chronicle import STORY_LENGTH, LogEntry
from .counters import CounterValue, PackRequisitionPurchase, UnitUpgrade
from .forces import (
    CARD_FIELDS,
    KEYWORD_FIELDS,
    BattleHonour,
    BattleScar,
    CardFields,
    CrusadeForce,
    Promotion,
    Unit,
    UnitQuerySet,
    card_prefetches,
    fact_prefetches,
)
from .history import (
    HistoryAction,
    HistoryEntry,
    Provenance,
    RequisitionPurchase,
    UsedFormToken,
    history_action_choices,
)
from .packs import (
    ANY_UNIT_TABLE,
    CORE_TRAIT_TABLES,
    HOUSE_SLUG,
    ITEM_SPECS,
    RELIC_NEEDS_CATEGORY,
    SECTION_KINDS,
    ContentPack,
    CustomContent,
    CustomContentQuerySet,
    EnabledPack,
)
from .phases import COLOUR, MOST_PHASES, Alliance, AllianceTotal, Phase
from .players import EmailKind, PlayerSettings
from .sessions import SignedInSession
from .territories import MAP_COLUMNS, MAP_ROWS, MOST_TERRITORIES, Territory, TerritoryChange
from .webhooks import Webhook, WebhookDelivery

__all__ = [
    "Alliance",
    "AllianceTotal",
    "COLOUR",
    "LogEntry",
    "MAP_COLUMNS",
    "MAP_ROWS",
    "MOST_PHASES",
    "MOST_TERRITORIES",
    "Phase",
    "STORY_LENGTH",
    "Territory",
    "TerritoryChange",
    "AgendaAchievement",
    "AgendaPick",
    "ANY_UNIT_TABLE",
    "CORE_TRAIT_TABLES",
    "SECTION_KINDS",
    "Battle",
    "BattleHonour",
    "BattleParticipant",
    "BattleScar",
    "BattleUnit",
    "BlessingPick",
    "CARD_FIELDS",
    "Campaign",
    "CampaignInvitation",
    "CardFields",
    "ContentPack",
    "CounterValue",
    "CrusadeForce",
    "CustomContent",
    "CustomContentQuerySet",
    "D6",
    "EFFECT_LENGTH",
    "EmailKind",
    "EnabledPack",
    "HOUSE",
    "HOUSE_SLUG",
    "HistoryAction",
    "HistoryEntry",
    "ITEM_SPECS",
    "KEYWORD_FIELDS",
    "LEAST_MODELS",
    "LEAST_RP_CAP",
    "MOST_ENHANCEMENT_POINTS",
    "MOST_MODELS",
    "MOST_POINTS",
    "MOST_RP",
    "MOST_SUPPLY",
    "MOST_TALLY",
    "Membership",
    "NOTE_LENGTH",
    "Named",
    "OutOfActionQuerySet",
    "OutOfActionTest",
    "PackRequisitionPurchase",
    "PlayerSettings",
    "SignedInSession",
    "Promotion",
    "Provenance",
    "RELIC_NEEDS_CATEGORY",
    "RequisitionPurchase",
    "Unit",
    "UnitQuerySet",
    "UnitUpgrade",
    "UsedFormToken",
    "Webhook",
    "WebhookDelivery",
    "battle_size_choices",
    "card_prefetches",
    "fact_prefetches",
    "history_action_choices",
    "house_rule",
    "new_invite_code",
    "rules_choices",
]
