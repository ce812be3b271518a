"""A hostile pack file is refused fast, in bounded memory and with one message (R11)."""

import time
import tracemalloc

import pytest

from campaign.packs import MAX_BYTES, PackError, load_pack
from tests.packs.helpers import sample

HOSTILE = [
    ("2 MB file", b" " * (2 * 1024 * 1024), f"(file): larger than {MAX_BYTES} bytes"),
    ("depth 10,000 of lists", b"[" * 10_000 + b"]" * 10_000, "(file): nested deeper than 8 levels"),
    (
        "depth 10,000 of objects",
        b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        "(file): nested deeper than 8 levels",
    ),
    ("unclosed depth", b"[" * 10_000, "(file): nested deeper than 8 levels"),
    ("10**400", b'{"version": 1' + b"0" * 400 + b"}", "(file): a number of 401 digits is too long"),
    ("NaN", b'{"version": NaN}', "(file): NaN is not a number a pack can hold"),
    ("Infinity", b'{"version": -Infinity}', "(file): -Infinity is not a number a pack can hold"),
    ("huge float", b'{"version": 1e400}', "(file): 1e400 is not a number a pack can hold"),
    (
        "duplicate keys",
        b'{"format": "a", "format": "b"}',
        '(file): the key "format" appears twice in one object',
    ),
    ("not JSON", b'{"format": ', "(file): not JSON (line 1)"),
    ("not UTF-8", b'{"format": "\xff"}', "(file): not UTF-8 text"),
    ("empty file", b"", "(file): not JSON (line 1)"),
    ("a megabyte of escaped quotes", b'"\\' * 499_999, "(file): not JSON (line 1)"),
    ("a megabyte of quotes", b'"' * 999_999, "(file): not JSON (line 1)"),
    ("wide and shallow", b'["a",' * 160_000, "(file): nested deeper than 8 levels"),
]


def refusal(data: bytes) -> list[str]:
    with pytest.raises(PackError) as refused:
        load_pack(data)
    return refused.value.problems


@pytest.mark.parametrize(("data", "message"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_it_refuses_a_hostile_file_fast_with_one_message(data, message):
    """Time and memory are measured in separate runs: tracing memory slows Python down
    several times, and a loaded machine should not make a fast refusal look slow."""
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
    assert peak < 20 * MAX_BYTES


def test_it_does_not_count_brackets_inside_text_as_nesting():
    data = sample()
    data["pack"]["description"] = "[" * 900
    assert load_pack(repr_json(data)).pack.description == "[" * 900


def test_it_refuses_duplicate_keys_deep_inside_a_section():
    text = repr_json(sample()).replace(b'"xp": 2', b'"xp": 2, "xp": 3')
    with pytest.raises(PackError) as refused:
        load_pack(text)
    assert refused.value.problems == ['(file): the key "xp" appears twice in one object']


def test_it_names_an_overlong_unknown_key_briefly():
    data = sample()
    data["k" * 10_000] = 1
    with pytest.raises(PackError) as refused:
        load_pack(repr_json(data))
    assert refused.value.problems == [f'(file): unknown key "{"k" * 40}"']


def test_it_refuses_a_lone_surrogate_in_a_name():
    text = repr_json(sample()).replace(b'"Hold the Beacon"', b'"Hold \\ud800"')
    with pytest.raises(PackError) as refused:
        load_pack(text)
    assert refused.value.problems == ["agendas[0].name: must not hold control characters"]


def test_it_refuses_control_characters_and_markup_free_colours_in_an_alliance():
    data = sample()
    data["alliances"][0]["name"] = "Wardens\x07"
    data["alliances"][1]["colour"] = '#000000" onload="x'
    data["alliances"][2]["colour"] = "#aabbcc\n"
    with pytest.raises(PackError) as refused:
        load_pack(repr_json(data))
    assert refused.value.problems == [
        "alliances[0].name: must not hold control characters",
        "alliances[1].colour: must be # and six hex digits, like #3366cc",
        "alliances[2].colour: must be # and six hex digits, like #3366cc",
    ]


def repr_json(data) -> bytes:
    import json

    return json.dumps(data).encode()
