"""`manage.py load`: the league under load, over HTTP, as players use it.

gunicorn serves a copy of the seeded league with the production settings; locust plays
its players through the real pages and forms (`locustfile`); afterwards every force's
and unit's numbers are checked against the battles and purchases the run made
(`players.check`). `throughput` measures requests per second per page with wrk.
"""
