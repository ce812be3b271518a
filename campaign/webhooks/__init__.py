"""Announcements of a campaign's news to its group's chat (a Discord channel, or any
address that takes signed JSON), sent by the background worker.

- `events`: which history rows are news, and under which of a webhook's boxes;
- `queue`: told of every change's history rows (`campaign.apps`), queues the news once the
  change commits;
- `tasks`: the worker's tasks, which write each message and try it, again if need be;
- `messages`: the messages, in our own words, from the rows as they are then;
- `sending`: one signed try over `http.client`, to an address checked just before;

Where a webhook may post is `campaign.addresses` (never into the server's own network).
The webhooks themselves are `models.Webhook` (changed through `services.webhooks`, in the
admin: `admin.webhooks`) and each message's delivery is a `models.WebhookDelivery`.
"""
