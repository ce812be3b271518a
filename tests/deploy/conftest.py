"""Past one machine: an S3-compatible server run locally (moto), and the live-server fixtures
(see tests/concurrency/fixtures.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.concurrency.fixtures import (  # noqa: F401
    app_env,
    migrated_postgresql,
    migrated_sqlite,
    server_database,
    static_root,
    workdir,
)
from tests.concurrency.live import PYTHON, free_port, wait_until_serving
from tests.deploy.object_store import BUCKET, ObjectStore


@pytest.fixture
def object_store(workdir: Path) -> Iterator[ObjectStore]:  # noqa: F811
    """moto's S3 server in a subprocess, on a free port, with an empty bucket."""
    port = free_port()
    log_path = workdir / "moto.log"
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            [PYTHON, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            cwd=workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/moto-api/", process, log_path.read_text)
        store = ObjectStore(f"http://127.0.0.1:{port}", BUCKET)
        store.client().create_bucket(Bucket=BUCKET)
        yield store
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
