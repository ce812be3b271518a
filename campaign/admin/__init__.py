"""The organisers' admin: scoped to the campaigns a user organises, writing through services.

An organiser is an active staff user with an organiser membership in at least one
campaign (staff status follows that role: `campaign.services.staff`). They see and
change only their campaigns' data, and they need no Django model permissions.
Superusers see everything. Every change goes through
`campaign.services`: a service's refusal is shown on the form it came from. Removing
is a status, so nothing is ever deleted here.

One module per area: `scope` (who sees what), `base` (service forms and reason
steps), `campaigns`, `members` (members and invitations), `packs` (content packs),
`pack_content` (their items), `phases`, `alliances`, `territories` (the campaign map),
`forces`, `battles`, `chronicle` (the campaign's log: entries hidden or shown with a
reason), `counters` (pack counters corrected with a reason), `history` and `webhooks`
(announcements to the group's chat).
"""

from django.contrib import admin

from campaign.forms.accounts import AdminLoginForm

from . import (  # noqa: F401  (registers the admins)
    alliances,
    battles,
    campaigns,
    chronicle,
    counters,
    forces,
    history,
    members,
    pack_content,
    packs,
    territories,
    webhooks,
)

admin.site.site_header = "Crusade Tracker — organisers"
admin.site.site_title = "Crusade Tracker admin"
admin.site.index_title = "Campaigns you organise"
admin.site.login_form = AdminLoginForm
