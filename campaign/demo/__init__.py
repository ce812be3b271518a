"""A demo campaign built through the services, as players would have played it.

Units are taken from real army lists (shared rosters, `cards`). Dice are seeded so the
demo is the same every time. `build_demo_campaign` does nothing if it exists.
"""

from .campaign import DEMO_CAMPAIGN, build_demo_campaign, demo_summary

__all__ = ["DEMO_CAMPAIGN", "build_demo_campaign", "demo_summary"]
