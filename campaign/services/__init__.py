"""The only code that changes Crusade state: keyword-only, atomic, locked, recorded.

Each service asks `campaign.rules`, raises `ValidationError` with a message a
player understands, and writes a `HistoryEntry` for every change.
"""

from .alliances import (
    change_force_alliance,
    choose_alliance,
    define_alliance,
    retire_alliance,
)
from .approval import (
    approve_restored_force,
    play_refusal,
    refuse_restored_force,
    require_approved,
)
from .battle_gains import ForceGain, UnitOutcome
from .battles import (
    disagreement,
    preview_side,
    record_battle_end,
    record_side,
    settle_battle,
    start_battle,
    units_with_pending_choices,
)
from .blessings import pick_blessings
from .campaign_points import set_scoring
from .campaigns import (
    change_member_role,
    create_campaign,
    join_campaign,
    set_house_rules,
    start_campaign,
    update_campaign_details,
)
from .chronicle import edit_log_entry, hide_log_entry, show_log_entry, write_log_entry
from .corrections import correct_force, correct_unit
from .counters import buy_pack_requisition, correct_counter
from .forces import (
    NewUnit,
    add_unit,
    bring_force_into_campaign,
    create_force,
    remove_unit,
    set_force_banner,
    set_unit_picture,
    update_force_details,
    update_unit_details,
)
from .imports import (
    ImportPlan,
    import_roster,
    plan_import,
    roster_card,
    split_unit_key,
    unique_names,
)
from .invitations import (
    accept_invitation,
    cancel_battle,
    decline_invitation,
    withdraw_invitation,
)
from .members import (
    accept_campaign_invitation,
    decline_campaign_invitation,
    invite_to_campaign,
    withdraw_campaign_invitation,
)
from .muster import check_army, muster_army, muster_refusal
from .out_of_action import (
    inflict_battle_scar,
    out_of_action_choices,
    resolve_out_of_action,
    take_out_of_action_test,
)
from .packs import (
    add_custom_content,
    disable_pack,
    enable_pack,
    import_pack,
    read_pack_file,
    retire_custom_content,
    update_custom_content,
)
from .phases import advance_phase, define_phase
from .promotions import (
    battle_trait_choices,
    campaign_content,
    crusade_relic_choices,
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
    other_enhancements_read,
    rearm_and_resupply,
    renowned_heroes,
    repair_and_recuperate,
    requisition_options,
)
from .restore import restore_force
from .restore_document import read_document
from .territories import (
    apply_pack_map,
    define_territory,
    import_map,
    read_map_file,
    set_map_rules,
    set_territory_holder,
)
from .void import void_battle
from .webhooks import add_webhook, change_webhook, pause_webhook, resume_webhook

__all__ = [
    "add_webhook",
    "change_webhook",
    "pause_webhook",
    "resume_webhook",
    "advance_phase",
    "define_phase",
    "set_scoring",
    "change_force_alliance",
    "choose_alliance",
    "define_alliance",
    "retire_alliance",
    "pick_blessings",
    "withdraw_campaign_invitation",
    "invite_to_campaign",
    "decline_campaign_invitation",
    "accept_campaign_invitation",
    "approve_restored_force",
    "play_refusal",
    "refuse_restored_force",
    "require_approved",
    "ForceGain",
    "ImportPlan",
    "NewUnit",
    "RequisitionOption",
    "UnitOutcome",
    "accept_invitation",
    "add_custom_content",
    "disable_pack",
    "enable_pack",
    "import_pack",
    "read_pack_file",
    "add_unit",
    "battle_trait_choices",
    "bring_force_into_campaign",
    "campaign_content",
    "cancel_battle",
    "change_member_role",
    "check_army",
    "correct_force",
    "correct_unit",
    "create_campaign",
    "create_force",
    "crusade_relic_choices",
    "decline_invitation",
    "disagreement",
    "fresh_recruits",
    "import_roster",
    "increase_supply_limit",
    "inflict_battle_scar",
    "join_campaign",
    "legendary_veterans",
    "muster_army",
    "muster_refusal",
    "out_of_action_choices",
    "plan_import",
    "preview_side",
    "read_document",
    "rearm_and_resupply",
    "record_battle_end",
    "record_side",
    "relics_in_force",
    "remove_unit",
    "renowned_heroes",
    "repair_and_recuperate",
    "requisition_options",
    "other_enhancements_read",
    "buy_pack_requisition",
    "correct_counter",
    "resolve_out_of_action",
    "restore_force",
    "retire_custom_content",
    "roster_card",
    "set_force_banner",
    "set_house_rules",
    "set_unit_picture",
    "write_log_entry",
    "edit_log_entry",
    "hide_log_entry",
    "show_log_entry",
    "settle_battle",
    "settle_with_battle_trait",
    "settle_with_crusade_relic",
    "settle_with_weapon_modification",
    "split_unit_key",
    "start_battle",
    "start_campaign",
    "take_out_of_action_test",
    "unique_names",
    "units_with_pending_choices",
    "update_campaign_details",
    "update_custom_content",
    "update_force_details",
    "update_unit_details",
    "void_battle",
    "withdraw_invitation",
    "apply_pack_map",
    "define_territory",
    "import_map",
    "read_map_file",
    "set_map_rules",
    "set_territory_holder",
]
