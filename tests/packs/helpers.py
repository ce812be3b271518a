"""Shared test data: the sample house pack, as JSON data to mutate."""

import copy
import json
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE = REPO_ROOT / "docs" / "sample-house-pack.json"
CORE = REPO_ROOT / "docs" / "core-pack.json"
SCHEMA = REPO_ROOT / "docs" / "content-pack.schema.json"


def sample() -> dict:
    """A fresh copy of the sample house pack's data."""
    return copy.deepcopy(json.loads(SAMPLE.read_text()))


def encode(data: object) -> bytes:
    return json.dumps(data).encode()
