"""Thin typed function views, one module per area. Each fetches through campaign.access."""
