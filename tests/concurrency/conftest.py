"""The live-server fixtures (see fixtures.py)."""

from tests.concurrency.fixtures import (  # noqa: F401
    app_env,
    migrated_postgresql,
    migrated_sqlite,
    server,
    server_database,
    static_root,
    workdir,
)
