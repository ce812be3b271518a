from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from campaign.views import (
    accounts,
    alliances,
    battles,
    campaigns,
    card_image,
    chronicle,
    counters,
    forces,
    imports,
    out_of_action,
    packs,
    pages,
    players,
    printing,
    promotions,
    units,
)

REQUISITION = "requisitions/<str:requisition>/"
PACK_REQUISITION = "pack-requisitions/<int:item>/"

force_urls = [
    path("", forces.force_detail, name="force_detail"),
    path("edit/", forces.force_edit, name="force_edit"),
    path("campaign/", forces.force_campaign, name="force_campaign"),
    path("banner/", forces.force_banner, name="force_banner"),
    path("alliance/", alliances.force_alliance, name="force_alliance"),
    path("history/", forces.force_history, name="force_history"),
    path("print/", printing.force_print, name="force_print"),
    path("units/new/", units.unit_create, name="unit_create"),
    path("units/supply/", units.unit_supply_check, name="unit_supply_check"),
    path("import/", imports.force_import_units, name="force_import_units"),
    path("import/check/", imports.force_import_units_check, name="force_import_units_check"),
    path("export/", imports.force_export, name="force_export"),
    path("export/text/", imports.force_export_text, name="force_export_text"),
    path(REQUISITION, forces.force_requisition, name="force_requisition"),
    path(PACK_REQUISITION, counters.force_pack_requisition, name="force_pack_requisition"),
]

unit_urls = [
    path("", units.unit_detail, name="unit_detail"),
    path("card.png", card_image.unit_card_image, name="unit_card_image"),
    path("edit/", units.unit_edit, name="unit_edit"),
    path("picture/", units.unit_picture, name="unit_picture"),
    path("remove/", units.unit_remove, name="unit_remove"),
    path(REQUISITION, units.unit_requisition, name="unit_requisition"),
    path(PACK_REQUISITION, counters.unit_pack_requisition, name="unit_pack_requisition"),
    path("reward/", promotions.unit_reward, name="unit_reward"),
]

urlpatterns = [
    path("", pages.home, name="home"),
    path("dashboard/", pages.dashboard, name="dashboard"),
    path("dashboard/live/", pages.dashboard_live, name="dashboard_live"),
    path("dashboard/seen/", pages.dashboard_seen, name="dashboard_seen"),
    # Accounts and joining campaigns
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password_change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path("accounts/emails/", players.email_settings, name="email_settings"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("emails/stop/<str:token>/", players.email_stop, name="email_stop"),
    path("join/", accounts.join_with_code, name="join_with_code"),
    path("join/<str:code>/", accounts.join_campaign, name="join_campaign"),
    # Campaigns
    path("campaigns/new/", campaigns.campaign_create, name="campaign_create"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/packs/", packs.campaign_packs, name="campaign_packs"),
    # The campaign's log
    path("campaigns/<int:pk>/log/", chronicle.campaign_log, name="campaign_log"),
    path("campaigns/<int:pk>/log/new/", chronicle.log_entry_create, name="log_entry_create"),
    path("log/<int:pk>/", chronicle.log_entry, name="log_entry"),
    path("log/<int:pk>/edit/", chronicle.log_entry_edit, name="log_entry_edit"),
    path(
        "campaigns/<int:pk>/phase/advance/",
        campaigns.campaign_phase_advance,
        name="campaign_phase_advance",
    ),
    path(
        "invitations/<int:pk>/accept/",
        campaigns.campaign_invitation_accept,
        name="campaign_invitation_accept",
    ),
    path(
        "invitations/<int:pk>/decline/",
        campaigns.campaign_invitation_decline,
        name="campaign_invitation_decline",
    ),
    # Forces (Order of Battle) and Crusade cards
    path("forces/new/", forces.force_create, name="force_create"),
    path("forces/import/", imports.force_import, name="force_import"),
    path("forces/import/check/", imports.force_import_check, name="force_import_check"),
    path("forces/restore/", imports.force_restore, name="force_restore"),
    path("forces/<int:pk>/", include(force_urls)),
    path("units/<int:pk>/", include(unit_urls)),
    # Battles
    path("battles/new/", battles.battle_create, name="battle_create"),
    path("battles/<int:pk>/", battles.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/live/", battles.battle_live, name="battle_live"),
    path("battles/<int:pk>/cancel/", battles.battle_cancel, name="battle_cancel"),
    path("armies/<int:pk>/accept/", battles.army_accept, name="army_accept"),
    path("armies/<int:pk>/decline/", battles.army_decline, name="army_decline"),
    path("armies/<int:pk>/withdraw/", battles.army_withdraw, name="army_withdraw"),
    path("armies/<int:pk>/muster/", battles.army_muster, name="army_muster"),
    path("armies/<int:pk>/muster/check/", battles.army_muster_check, name="army_muster_check"),
    path("armies/<int:pk>/record/", battles.army_record, name="army_record"),
    path("armies/<int:pk>/blessings/", battles.army_blessings, name="army_blessings"),
    path("out-of-action/<int:pk>/", out_of_action.out_of_action, name="out_of_action"),
    path("promotions/<int:pk>/", promotions.promotion_settle, name="promotion_settle"),
    path("admin/", admin.site.urls),
]

# Uploaded pictures in local development; in production the web server serves MEDIA_ROOT.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
