"""The league-scale benchmark behind `manage.py bench`.

`rosters` holds the armies (their data is in rosters.toml), `moves` every service call
the benchmark makes, `seed` builds a league through those moves, `database` gives the
run a database of its own, and `pages` times the pages against their targets.
"""
