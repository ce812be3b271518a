"""One world per test module, built once and rolled back at the end; each example of the
fuzz runs in a savepoint of its own, rolled back too (see `Visitor.example`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from .catalogue import Catalogue
from .visits import Visitor, rolled_back
from .world import ROLES, World, build_world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world, in a transaction left open for the module's tests and rolled back after."""
    with django_db_blocker.unblock(), rolled_back():
        yield build_world()


@pytest.fixture(scope="module")
def visitors(world: World, django_db_blocker) -> dict[str, Visitor]:
    """Each person signed in once, before any test opens its own transaction."""
    with django_db_blocker.unblock():
        return {role: Visitor(world, role) for role in ROLES}


@pytest.fixture(scope="module")
def catalogue(world: World, visitors: dict[str, Visitor], django_db_blocker) -> Catalogue:
    with django_db_blocker.unblock():
        return Catalogue(world, visitors)


@pytest.fixture(scope="module", autouse=True)
def quiet_refusals() -> Iterator[None]:
    """Thousands of 403s, 404s and 405s would each log a warning (a 403 with its
    traceback); only a server error is worth a line, and the tests fail on it anyway."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)
