"""The only code that changes Crusade state: keyword-only, atomic, locked, recorded.

Each service asks `campaign.rules`, raises `ValidationError` with a message a
player understands, and writes a `HistoryEntry` for every change.
"""

from .battles import (
    UnitOutcome,
    check_army,
    muster_army,
    out_of_action_choices,
    preview_battle_end,
    record_battle_end,
    resolve_out_of_action,
    start_battle,
    take_out_of_action_test,
    units_with_pending_choices,
    void_battle,
)
from .corrections import correct_force, correct_unit
from .forces import (
    NewUnit,
    add_unit,
    create_campaign,
    create_force,
    join_campaign,
    remove_unit,
    set_force_banner,
    set_house_rules,
    set_unit_picture,
    update_force_details,
    update_unit_details,
)
from .promotions import (
    battle_trait_choices,
    relics_in_force,
    settle_with_battle_trait,
    settle_with_crusade_relic,
    settle_with_weapon_modification,
)
from .requisitions import (
    RequisitionOption,
    fresh_recruits,
    increase_supply_limit,
    legendary_veterans,
    rearm_and_resupply,
    renowned_heroes,
    repair_and_recuperate,
    requisition_options,
)

__all__ = [
    "NewUnit",
    "RequisitionOption",
    "UnitOutcome",
    "add_unit",
    "battle_trait_choices",
    "check_army",
    "correct_force",
    "correct_unit",
    "create_campaign",
    "create_force",
    "fresh_recruits",
    "increase_supply_limit",
    "join_campaign",
    "legendary_veterans",
    "muster_army",
    "out_of_action_choices",
    "preview_battle_end",
    "rearm_and_resupply",
    "record_battle_end",
    "relics_in_force",
    "remove_unit",
    "renowned_heroes",
    "repair_and_recuperate",
    "requisition_options",
    "resolve_out_of_action",
    "set_force_banner",
    "set_house_rules",
    "set_unit_picture",
    "settle_with_battle_trait",
    "settle_with_crusade_relic",
    "settle_with_weapon_modification",
    "start_battle",
    "take_out_of_action_test",
    "units_with_pending_choices",
    "update_force_details",
    "update_unit_details",
    "void_battle",
]
