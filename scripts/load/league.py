"""The league a load run serves: found (or seeded once), then copied, never written to.

The benchmark keeps its seeded league (`manage.py bench --keep`) in the temp directory;
a complete one is used as it is. Otherwise the load run seeds its own the same way
(`campaign.benchmark.seed`, about 9 minutes at league scale) and keeps it for the next
run. Whichever it is, the run serves a copy: a SQLite file of its own, migrated, or a
PostgreSQL database of its own with the same rows.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from campaign.benchmark.database import database_name

LOAD_LABEL = "load-{scale}"


def complete(path: Path, campaign: str, battles: int) -> bool:
    """Whether the SQLite file holds the whole league (read only: never written to)."""
    if not path.exists():
        return False
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute(
                "SELECT id FROM campaign_campaign WHERE name = ?", [campaign]
            ).fetchone()
            if row is None:
                return False
            (done,) = db.execute(
                "SELECT count(*) FROM campaign_battle WHERE campaign_id = ? AND status = ?",
                [row[0], "completed"],
            ).fetchone()
            return done >= battles
        finally:
            db.close()
    except sqlite3.Error:
        return False  # being created, or not this app's


def find_or_seed(scale, say) -> Path:
    """A complete league of `scale`: the benchmark's kept one, this command's kept one,
    or one seeded now (into this command's file, never the benchmark's)."""
    candidates = [
        Path(database_name("sqlite", scale.name, keep=True)),
        Path(database_name("sqlite", LOAD_LABEL.format(scale=scale.name), keep=True)),
    ]
    for path in candidates:
        if complete(path, scale.campaign, scale.battles):
            say(f"league: {path} (kept by an earlier run)")
            return path
    from campaign.benchmark import seed
    from campaign.benchmark.database import own_database

    label = LOAD_LABEL.format(scale=scale.name)
    say(f"league: none kept; seeding {scale.campaign} into {candidates[1]} (kept for next time)")
    with own_database(label, keep=True, reuse=False) as database, database.active():
        report = seed.seed(scale, progress=say)
    say(f"league: seeded in {report.seconds:,.0f} s")
    return candidates[1]


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy through SQLite's backup API (the source opened read only)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def create_postgresql(cluster_url: str, name: str) -> str:
    import psycopg
    from psycopg import sql

    with psycopg.connect(cluster_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return cluster_url.rsplit("/", 1)[0] + f"/{name}"


def drop_postgresql(cluster_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(cluster_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def copy_to_postgresql(source: Path, url: str) -> int:
    """Every row of the migrated SQLite copy into the migrated PostgreSQL database, with
    COPY (a few seconds where dumpdata/loaddata takes minutes); the sequences follow."""
    import psycopg

    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    rows = 0
    with psycopg.connect(url) as pg:
        pg.execute("SET TIME ZONE 'UTC'")
        # Foreign keys are checked by neither trigger nor order while loading: the rows
        # come from a database that already held to them.
        pg.execute("SET session_replication_role = replica")
        theirs = {
            r[0] for r in pg.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
        tables = [
            name
            for (name,) in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if name in theirs and name != "django_migrations"
        ]
        pg.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")
        for table in tables:
            cursor = src.execute(f'SELECT * FROM "{table}"')
            columns = ", ".join(f'"{d[0]}"' for d in cursor.description)
            with pg.cursor().copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
                for row in cursor:
                    copy.write_row(row)
                    rows += 1
            # A numbered id has a sequence to move on; the tasks' results are keyed by uuid.
            has_id = pg.execute(
                "SELECT 1 FROM information_schema.columns"
                " WHERE table_name = %s AND column_name = 'id'"
                " AND data_type IN ('integer', 'bigint', 'smallint')",
                [table],
            ).fetchone()
            if has_id:
                pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                    f'coalesce(max(id), 1), max(id) IS NOT NULL) FROM "{table}"'
                )
        pg.execute("SET session_replication_role = DEFAULT")
    src.close()
    with psycopg.connect(url, autocommit=True) as pg:
        pg.execute("VACUUM ANALYZE")
    return rows
