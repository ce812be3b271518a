"""An organiser, their campaign, and a rival campaign run by someone else."""

import pytest

from tests.factories import make_campaign, make_user


@pytest.fixture
def organiser(db):
    return make_user("warmaster", is_staff=True)


@pytest.fixture
def campaign(organiser):
    return make_campaign(organiser=organiser, name="Pariah Nexus")


@pytest.fixture
def rival_campaign(db):
    return make_campaign(organiser=make_user("rival", is_staff=True), name="Octarius")


@pytest.fixture
def organiser_client(client, organiser, campaign):
    client.force_login(organiser)
    return client
