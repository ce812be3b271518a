"""Hostile input: any bytes give a Roster or a RosterError, never another exception."""

import encodings
import io
import pkgutil
import zipfile
from xml.etree import ElementTree

import pytest
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as defused_fromstring
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.rosters import (
    MAX_BYTES,
    MAX_MEMBERS,
    MAX_UNZIPPED_BYTES,
    Roster,
    RosterError,
    app_text,
    battlescribe,
    newrecruit_text,
    parse_roster,
)
from tests.rosters.expected import SAMPLES, sample_files

FUZZ = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SAMPLE_BYTES = {path.name: path.read_bytes() for path in sample_files()}
TEXT_SAMPLES = {name: data for name, data in SAMPLE_BYTES.items() if name.endswith(".txt")}

FRAGMENTS = [
    "\n",
    "\n",
    "\r\n",
    " ",
    "  ",
    "\u00a0",
    "\t",
    "\u2022 ",
    "\u25e6 ",
    "- ",
    "1x ",
    "10x ",
    "Boyz",
    "Warboss",
    "(",
    ")",
    "[",
    "]",
    "85",
    "1 000",
    "1,000",
    " Points",
    " points",
    " pts",
    "pts",
    ": ",
    ", ",
    "+",
    "&",
    "#",
    "## ",
    "# ++ Army Roster ++ ",
    "Char1: ",
    "+ FACTION KEYWORD: ",
    "+ TOTAL ARMY POINTS: ",
    "+ WARLORD: ",
    "+ NUMBER OF UNITS: ",
    "CHARACTERS",
    "BATTLELINE",
    "OTHER DATASHEETS",
    "Warlord",
    "Enhancement: ",
    "Enhancements: ",
    "(+15 pts)",
    "[15 pts]",
    " upgrade",
    "Attached as: Leader (Character)",
    "Keyword: Character",
    "Battle Size: ",
    "Detachment: ",
    "## Configuration",
    " - ",
    "[[note]]",
    "Exported with App Version",
    "Created with newrecruit",
    "1 with ",
    "(3 Detachment Points)",
    "Leading ",
    "\ufeff",
    "\x00",
    "\ufffd",
    "9" * 12,
    "\u00b9",
    "\u0663",
    "\uff15",
    "\u00bd",
]
grammar_text = st.lists(st.sampled_from(FRAGMENTS), max_size=400).map("".join)


def assert_reads_or_refuses(data: bytes | str) -> None:
    """The contract: a well-formed Roster, or a one-line RosterError."""
    try:
        roster = parse_roster(data)
    except RosterError as error:
        assert error.message
        assert "\n" not in error.message and "\r" not in error.message
        return
    assert isinstance(roster, Roster)
    assert roster.units
    assert isinstance(roster.total_points, int)
    for unit in roster.units:
        assert unit.name
        assert isinstance(unit.points, int) and unit.points >= 0
        assert isinstance(unit.models, int) and unit.models >= 1
        assert unit.enhancement_points is None or unit.enhancement
    assert all("\n" not in warning for warning in roster.warnings)


@given(st.binary(max_size=3000))
@FUZZ
def test_it_reads_or_refuses_any_bytes(data):
    assert_reads_or_refuses(data)


@given(st.text(max_size=3000))
@FUZZ
def test_it_reads_or_refuses_any_text(text):
    assert_reads_or_refuses(text)


@given(grammar_text)
@FUZZ
def test_it_reads_or_refuses_text_made_of_roster_fragments(text):
    assert_reads_or_refuses(text)


@given(st.sampled_from(sorted(SAMPLE_BYTES)), st.data())
@FUZZ
def test_it_reads_or_refuses_truncated_samples(name, data):
    sample = SAMPLE_BYTES[name]
    cut = data.draw(st.integers(min_value=0, max_value=len(sample)), label="cut")
    assert_reads_or_refuses(sample[:cut])


@given(st.sampled_from(sorted(SAMPLE_BYTES)), st.data())
@FUZZ
def test_it_reads_or_refuses_samples_with_random_bytes_changed(name, data):
    sample = bytearray(SAMPLE_BYTES[name])
    flips = data.draw(
        st.lists(
            st.tuples(st.integers(0, len(sample) - 1), st.integers(0, 255)), min_size=1, max_size=30
        ),
        label="flips",
    )
    for position, value in flips:
        sample[position] = value
    assert_reads_or_refuses(bytes(sample))


@given(st.sampled_from(sorted(SAMPLE_BYTES)), st.data())
@FUZZ
def test_it_reads_or_refuses_samples_with_lines_inserted(name, data):
    lines = SAMPLE_BYTES[name].split(b"\n")
    inserts = data.draw(
        st.lists(st.tuples(st.integers(0, len(lines)), grammar_text.map(str.encode)), max_size=5),
        label="inserts",
    )
    for position, line in inserts:
        lines.insert(position, line)
    assert_reads_or_refuses(b"\n".join(lines))


PARSERS = {
    "app-text": lambda text: app_text.parse(text).build(),
    "newrecruit-full": lambda text: newrecruit_text.parse_full(text).build(),
    "newrecruit-round": lambda text: newrecruit_text.parse_round(text).build(),
    "json": lambda text: battlescribe.parse_json(text).build(),
    "ros": lambda text: battlescribe.parse_ros(text.encode("utf-8", "replace")).build(),
    "rosz": lambda text: battlescribe.unzip_rosz(text.encode("utf-8", "replace")),
}


@pytest.mark.parametrize("parser", PARSERS.values(), ids=PARSERS.keys())
@given(
    text=st.one_of(
        grammar_text,
        st.sampled_from(sorted(TEXT_SAMPLES)).map(lambda name: TEXT_SAMPLES[name].decode("utf-8")),
    )
)
@settings(FUZZ, max_examples=60)
def test_it_lets_each_grammar_read_or_refuse_any_text_even_of_another_format(parser, text):
    """Detection aside, every parser copes with whatever text it is handed."""
    try:
        parser(text)
    except RosterError as error:
        assert "\n" not in error.message


# --- size -----------------------------------------------------------------------------


def test_it_refuses_input_over_one_megabyte():
    data = (SAMPLES / "app-text" / "space-wolves-boop.txt").read_bytes()
    with pytest.raises(RosterError, match="over 1 MB"):
        parse_roster(data + b"\n" * (MAX_BYTES + 1 - len(data)))
    with pytest.raises(RosterError, match="over 1 MB"):
        parse_roster("\u2022" * (MAX_BYTES // 3 + 1))
    assert MAX_BYTES == 1_000_000


def test_it_reads_a_list_padded_to_exactly_the_limit():
    data = (SAMPLES / "app-text" / "space-wolves-boop.txt").read_bytes()
    assert len(parse_roster(data + b"\n" * (MAX_BYTES - len(data))).units) == 14


@pytest.mark.parametrize("data", [b"", b"   \n\r\n\t ", ""])
def test_it_refuses_an_empty_file(data):
    with pytest.raises(RosterError, match="empty"):
        parse_roster(data)


# --- XML ------------------------------------------------------------------------------

ROSTER = (
    '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="{name}">'
    '<forces><force catalogueName="Xenos - Orks"><selections>'
    '<selection name="Boyz" type="unit"><costs><cost name="pts" value="85"/></costs></selection>'
    "</selections></force></forces></roster>"
)

BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10 if n > 1 else "&lol;" * 10}">\n'
        for n in range(1, 10)
    )
    + "]>\n"
    + ROSTER.format(name="&lol9;")
)
EXTERNAL_ENTITY = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
    + ROSTER.format(name="&xxe;")
)
EXTERNAL_DTD = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster SYSTEM "http://example.invalid/roster.dtd">\n'
    + ROSTER.format(name="Boyz")
)
PARAMETER_ENTITY = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY % remote SYSTEM '
    '"http://example.invalid/evil.dtd"> %remote;]>\n' + ROSTER.format(name="Boyz")
)


def test_it_reads_the_plain_roster_the_attacks_below_are_built_on():
    roster = parse_roster(ROSTER.format(name="Ladz"))
    assert (roster.name, roster.faction, roster.units[0].name) == ("Ladz", "Orks", "Boyz")


@pytest.mark.parametrize(
    "document",
    [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD, PARAMETER_ENTITY],
    ids=["billion-laughs", "external-entity", "external-dtd", "parameter-entity"],
)
def test_it_refuses_xml_entities_and_dtds(document):
    with pytest.raises(RosterError, match="refused for safety") as refusal:
        parse_roster(document)
    assert "root:" not in refusal.value.message


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("document", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD])
def test_it_refuses_entities_and_dtds_in_an_encoding_whose_bytes_hide_them(document, encoding):
    """Declarations are looked for by their bytes before the fast parser is used; in
    UTF-16 or UTF-32 they can't be, so such a document always goes to `defusedxml`."""
    with pytest.raises(RosterError):
        parse_roster(document.replace('<?xml version="1.0"?>\n', "").encode(encoding))


def test_it_never_expands_an_entity_whatever_encoding_a_file_names():
    """Declarations are found by their bytes. A file may name any encoding Python knows
    (EBCDIC, say, where ``<!DOCTYPE`` has other bytes): none of them gets an entity read."""
    body = '<!DOCTYPE roster [<!ENTITY boom "BOOM">]><roster>&boom;</roster>'
    tried = 0
    for codec in sorted(m.name for m in pkgutil.iter_modules(encodings.__path__)):
        try:
            encoded = body.encode(codec)
        except (LookupError, UnicodeError, TypeError, ValueError):
            continue
        if not isinstance(encoded, bytes):
            continue
        tried += 1
        data = f'<?xml version="1.0" encoding="{codec}"?>'.encode() + encoded
        try:
            root = battlescribe._read_xml(data)
        except (DefusedXmlException, ElementTree.ParseError, ValueError, LookupError):
            continue
        assert "BOOM" not in (root.text or ""), codec
    assert tried > 50


UNREAD = ("profiles", "rules")
"""The blocks of a roster the import never reads, left out before its tree is built."""


def _shape(element: ElementTree.Element, *, leave_out: tuple[str, ...] = ()) -> tuple:
    """An element's tag, attributes, text and children (those named ``leave_out`` left
    out), whitespace between elements aside."""
    children = [
        _shape(child, leave_out=leave_out)
        for child in element
        if child.tag.rsplit("}", 1)[-1] not in leave_out
    ]
    return (element.tag, element.attrib, (element.text or "").strip(), children)


def test_it_reads_every_sample_roster_file_as_defusedxml_reads_it():
    """The standard library's parser, used for a document that declares nothing, gives
    the tree `defusedxml` gives, but for the profiles and rules nothing reads."""
    for name, data in SAMPLE_BYTES.items():
        if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            continue
        fast = battlescribe._read_xml(data)
        safe = defused_fromstring(data, forbid_dtd=True, forbid_entities=True)
        assert _shape(fast, leave_out=UNREAD) == _shape(safe, leave_out=UNREAD), name
        left = [e for e in fast.iter() if e.tag.rsplit("}", 1)[-1] in UNREAD]
        assert all(len(e) == 0 for e in left), name  # only empty ones (<rules/>) stay


def test_it_reads_every_sample_as_it_would_with_the_profiles_and_rules(monkeypatch):
    unread = {name: parse_roster(data, filename=name) for name, data in SAMPLE_BYTES.items()}
    monkeypatch.setattr(battlescribe, "_without_unread", lambda data: data)

    assert {name: parse_roster(data, filename=name) for name, data in SAMPLE_BYTES.items()} == (
        unread
    )


def test_it_reads_a_roster_whose_comment_names_a_rules_tag_whole():
    """Cutting from a comment's ``<rules>`` to a real block's end leaves the comment open:
    the file is then read as it is, every unit in it."""
    commented = ROSTER.replace("<forces>", "<!-- a <rules> block follows --><forces>").replace(
        '<selection name="Boyz" type="unit">',
        '<selection name="Nobz" type="unit"><costs><cost name="pts" value="105"/></costs>'
        '</selection><selection name="Boyz" type="unit"><rules><rule name="Waaagh!"/></rules>',
    )

    roster = parse_roster(commented.format(name="Ladz"))

    assert [unit.name for unit in roster.units] == ["Nobz", "Boyz"]


def test_it_reads_a_roster_in_another_encoding_without_cutting_it():
    latin = ROSTER.replace('name="Boyz"', 'name="Gr\u00f6tz"').format(name="Ladz")
    data = ('<?xml version="1.0" encoding="iso-8859-1"?>' + latin).encode("iso-8859-1")

    assert [unit.name for unit in parse_roster(data).units] == ["Gr\u00f6tz"]


def test_it_refuses_an_html_page_as_not_a_roster():
    with pytest.raises(RosterError, match="isn't an army list it can read"):
        parse_roster("<!DOCTYPE html>\n<html><body><p>My army</p></body></html>")


def test_it_refuses_a_battlescribe_catalogue():
    with pytest.raises(RosterError, match="catalogue, not a roster"):
        parse_roster('<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>')


def test_it_refuses_selections_nested_deeper_than_any_roster():
    nested = '<selection name="x" type="upgrade"><selections>' * 60
    closing = "</selections></selection>" * 60
    document = ROSTER.replace("<selections>", "<selections>" + nested + closing, 1)
    with pytest.raises(RosterError, match="nests selections too deeply"):
        parse_roster(document)


# --- .rosz ----------------------------------------------------------------------------


def rosz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_it_reads_a_rosz_built_from_a_ros():
    data = (SAMPLES / "battlescribe-ros" / "necrons-10e-1205.ros").read_bytes()
    roster = parse_roster(rosz({"Necrons 10e.ros": data}))
    assert roster.format == "battlescribe-rosz"
    assert roster.units == parse_roster(data).units


def test_it_refuses_a_zip_bomb_by_its_size():
    bomb = rosz({"bomb.ros": b"\0" * (MAX_UNZIPPED_BYTES * 5)})
    assert len(bomb) < 100_000
    with pytest.raises(RosterError, match="unpacks to more than 4 MB"):
        parse_roster(bomb)


def test_it_refuses_a_zip_bomb_by_its_compression_ratio():
    """Under the size limit, but compressed a thousandfold: no roster compresses like that."""
    bomb = rosz({"bomb.ros": b"<roster>" + b" " * (MAX_UNZIPPED_BYTES // 2) + b"</roster>"})
    with pytest.raises(RosterError, match="compressed suspiciously well"):
        parse_roster(bomb)


def test_it_refuses_a_zip_with_many_members():
    crowded = rosz({f"part{n}.ros": b"<roster/>" for n in range(MAX_MEMBERS * 50)})
    with pytest.raises(RosterError, match="a .rosz holds one roster"):
        parse_roster(crowded)


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"a.ros": b"<roster/>", "b.ros": b"<roster/>"}, "holds 2 rosters"),
        ({"word/document.xml": b"<w/>", "[Content_Types].xml": b"<t/>"}, "isn't an army list"),
        ({"notes.txt": b"nothing to see"}, "isn't an army list"),
    ],
    ids=["two-rosters", "office-document", "one-text-file"],
)
def test_it_refuses_a_zip_that_is_not_one_roster(members, message):
    with pytest.raises(RosterError, match=message):
        parse_roster(rosz(members))


def test_it_refuses_a_damaged_zip():
    data = (SAMPLES / "battlescribe-ros" / "ultramarines-10e-810.rosz").read_bytes()
    with pytest.raises(RosterError, match="damaged"):
        parse_roster(data[: len(data) // 2])
