"""A hostile map file is refused fast, in bounded memory, with one message, and nothing
is saved from it."""

import json
import time
import tracemalloc

import pytest
from django.core.exceptions import ValidationError

from campaign import maps, services
from campaign.models import Territory
from tests.maps.helpers import encode, small, war

MAX = maps.MAX_BYTES
HOSTILE = [
    ("2 MB file", b" " * (2 * 1024 * 1024), f"(file): larger than {MAX} bytes"),
    ("depth 10,000 of lists", b"[" * 10_000 + b"]" * 10_000, "(file): nested deeper than 5 levels"),
    (
        "depth 10,000 of objects",
        b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        "(file): nested deeper than 5 levels",
    ),
    ("unclosed depth", b"[" * 10_000, "(file): nested deeper than 5 levels"),
    ("10**400", b'{"version": 1' + b"0" * 400 + b"}", "(file): a number of 401 digits is too long"),
    ("NaN", b'{"version": NaN}', "(file): NaN is not a number a map can hold"),
    ("huge float", b'{"version": 1e400}', "(file): 1e400 is not a number a map can hold"),
    (
        "duplicate keys",
        b'{"format": "a", "format": "b"}',
        '(file): the key "format" appears twice in one object',
    ),
    ("not JSON", b'{"format": ', "(file): not JSON (line 1)"),
    ("not UTF-8", b'{"format": "\xff"}', "(file): not UTF-8 text"),
    ("empty file", b"", "(file): not JSON (line 1)"),
    ("NUL byte", b'{"format": \x00}', "(file): not JSON (line 1)"),
    ("a list, not an object", b"[1, 2]", "(file): must be a JSON object"),
    ("a megabyte of quotes", b'"' * 999_999, "(file): not JSON (line 1)"),
    ("wide and shallow", b'["a",' * 160_000, "(file): nested deeper than 5 levels"),
]


def refusal(data: bytes) -> list[str]:
    with pytest.raises(maps.MapError) as refused:
        maps.load_map(data)
    return refused.value.problems


@pytest.mark.parametrize(("data", "message"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_it_refuses_a_hostile_file_fast_with_one_message(data, message):
    started = time.perf_counter()
    assert refusal(data) == [message]
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    try:
        refusal(data)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 20 * MAX


def ten_thousand() -> bytes:
    data = small()
    data["territories"] = [
        {"id": f"t{i}", "name": "T", "description": "", "column": 0, "row": 0}
        for i in range(10_000)
    ]
    return encode(data)


def test_it_refuses_ten_thousand_territories_in_one_line():
    assert refusal(ten_thousand()) == ["territories: must hold at most 200 items"]


def test_it_refuses_a_name_with_a_nul_or_a_lone_surrogate():
    text = (
        encode(small())
        .replace(b'"Hive Vell"', b'"Hive\\u0000"')
        .replace(b'"Ash Wastes"', b'"Ash \\ud800"')
    )
    assert refusal(text) == [
        "territories[0].name: must not hold control characters",
        "territories[1].name: must not hold control characters",
    ]


def test_it_does_not_count_brackets_inside_text_as_nesting():
    data = small()
    data["map"]["description"] = "[" * 900
    assert maps.load_map(encode(data)).map.description == "[" * 900


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [h[1] for h in HOSTILE[:6]] + [b"", b"null", json.dumps({"format": 1}).encode()],
)
def test_nothing_is_saved_from_a_bad_file(data):
    w = war(with_map=False)
    with pytest.raises(ValidationError) as refused:
        services.import_map(actor=w.organiser, campaign=w.campaign, data=data)
    assert "file" in refused.value.message_dict
    assert not Territory.objects.exists()


@pytest.mark.django_db
def test_nothing_is_saved_from_ten_thousand_territories():
    w = war(with_map=False)
    with pytest.raises(ValidationError):
        services.import_map(actor=w.organiser, campaign=w.campaign, data=ten_thousand())
    assert not Territory.objects.exists()
