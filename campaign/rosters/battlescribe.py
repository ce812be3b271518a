"""BattleScribe's roster schema: ``.ros`` (XML), ``.rosz`` (a zip of one ``.ros``) and
New Recruit's JSON export (the same schema written as JSON).

Structure read::

    roster (name) -> costs (pts) -> forces -> force (catalogueName) -> selections
    selection (name, customName, type unit|model|upgrade, number, group)
        -> costs (its own cost only), categories (keywords), selections (children)

A force's top-level selections are units (``unit`` or ``model``, or an upgrade with
models under it), selections that only group units (opened up), or configuration
(``Battle Size``, ``Detachment Choice``/``Detachment`` with the choice as a child).
Nested forces are read too; the first force's catalogue gives the faction.
A unit's points are the ``pts`` costs of it and everything under it. Its models are
the ``model`` selections under it (or itself, for a single-model unit). An Enhancement
is an upgrade in an Enhancements group or, when the file names no group, a costed
upgrade on a CHARACTER. A child upgrade named Warlord marks the Warlord.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, ParseError
from xml.etree.ElementTree import fromstring as standard_fromstring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from ._build import RosterDraft, UnitDraft
from ._text import battle_size, clean_faction, number_value
from .errors import RosterError, not_a_roster
from .model import BATTLESCRIBE_ROS, BATTLESCRIBE_ROSZ, NEWRECRUIT_JSON

MAX_DEPTH = 40
"""Selections nest a handful of levels; anything deeper is not a real roster."""

MAX_MEMBERS = 8
"""A .rosz holds one .ros; a few extra members are tolerated, not thousands."""

MAX_UNZIPPED_BYTES = 4_000_000
"""The largest .ros a .rosz may unpack to."""

MAX_RATIO = 50
"""Roster XML compresses about 10:1; far better than this is a zip bomb."""

NOT_KEYWORDS = {"configuration", "uncategorised", "warlord", "reference"}
"""Categories BattleScribe uses for bookkeeping rather than as unit keywords."""


@dataclass
class Selection:
    """One ``<selection>`` (or JSON selection), format-neutral."""

    name: str
    type: str = "upgrade"
    number: int = 1
    custom_name: str = ""
    group: str = ""
    points: int = 0
    categories: list[str] = field(default_factory=list)
    children: list[Selection] = field(default_factory=list)

    def walk(self) -> Iterator[Selection]:
        """Every selection below this one, depth first, in file order."""
        for child in self.children:
            yield child
            yield from child.walk()

    @property
    def is_model(self) -> bool:
        return self.type == "model"


@dataclass
class Force:
    catalogue: str = ""
    selections: list[Selection] = field(default_factory=list)


@dataclass
class Tree:
    """A whole roster file, format-neutral."""

    name: str = ""
    game_system: str = ""
    points: int | None = None
    forces: list[Force] = field(default_factory=list)


# --- reading XML -------------------------------------------------------------------


def parse_ros(data: bytes, subject: str = "The file", *, zipped: bool = False) -> RosterDraft:
    """Read ``.ros`` XML (entities and DTDs refused) into a draft."""
    try:
        root = _read_xml(data)
    except DefusedXmlException as error:
        if b"<!ENTITY" not in data.upper() and b"battlescribe" not in data[:2000].lower():
            raise not_a_roster(subject) from error
        raise RosterError(
            f"{subject} declares XML entities or a DTD, which rosters never do; refused for safety."
        ) from error
    except (ParseError, ValueError, LookupError, UnicodeError) as error:
        if b"battlescribe" in data[:2000].lower():
            raise RosterError(f"{subject} is damaged: it isn't well-formed XML.") from error
        raise not_a_roster(subject) from error
    kind = _local(root.tag)
    if kind in ("catalogue", "gameSystem"):
        raise RosterError(f"{subject} is a BattleScribe {kind}, not a roster: export the roster.")
    if kind != "roster":
        raise not_a_roster(subject)
    tree = Tree(
        name=root.get("name", ""),
        game_system=root.get("gameSystemName", ""),
        points=_xml_points(root),
        forces=list(_xml_forces(root, 0)),
    )
    return build(tree, BATTLESCRIBE_ROSZ if zipped else BATTLESCRIBE_ROS)


def _read_xml(data: bytes) -> Element:
    """The XML's tree. Entities can only be declared, and a DTD fetched, in a document
    type declaration, so a document without one (what every roster is) is read by the
    standard library's own parser, written in C and several times faster than
    `defusedxml`'s; anything else goes to `defusedxml`, which refuses it. A document
    whose bytes hold a NUL is in an encoding (UTF-16, UTF-32) where the declaration
    would not be found by its bytes: `defusedxml` reads it too."""
    lowered = data.lower()
    if b"\x00" in data or b"<!doctype" in lowered or b"<!entity" in lowered:
        return fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    if not _UTF8.match(lowered):  # another encoding: its bytes for the tags may differ
        return standard_fromstring(data)
    try:
        return standard_fromstring(_without_unread(data))
    except ParseError:
        # Cut in a comment or a CDATA section that names one of those tags: the file as
        # it is gives the tree, or the error it really has.
        return standard_fromstring(data)


_UTF8 = re.compile(
    rb"(\xef\xbb\xbf)?\s*"
    rb"""(<\?xml(?![^>]*encoding)|<\?xml[^>]*encoding=["']utf-?8["']|<[^?!])"""
)
"""A document in UTF-8 (what BattleScribe writes): said so, or saying no encoding."""

_UNREAD = re.compile(rb"<(profiles|rules)>")
"""What a roster holds that the import never reads: each selection's datasheet profiles
and rules text, three quarters of a file's bytes and of the time its tree takes to build
(0.9 of 1.3 ms for a 2,000-point list)."""


def _without_unread(data: bytes) -> bytes:
    """The roster without its ``<profiles>`` and ``<rules>`` blocks (neither holds the
    other's kind nor its own). A cut that starts inside a comment or a CDATA section
    leaves it unclosed, so the parse fails and the whole file is read instead."""
    kept = []
    at = 0
    while (opening := _UNREAD.search(data, at)) is not None:
        closing = data.find(b"</" + opening.group(1) + b">", opening.end())
        if closing < 0:
            break
        kept.append(data[at : opening.start()])
        at = closing + len(opening.group(1)) + 3
    kept.append(data[at:])
    return b"".join(kept)


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: Element, wrapper: str, tag: str) -> Iterator[Element]:
    for group in element:
        if _local(group.tag) == wrapper:
            for child in group:
                if _local(child.tag) == tag:
                    yield child


def _xml_points(element: Element) -> int | None:
    costs = [
        (cost.get("name", ""), cost.get("value")) for cost in _children(element, "costs", "cost")
    ]
    return _points(costs)


def _xml_forces(element: Element, depth: int) -> Iterator[Force]:
    _check_depth(depth)
    for force in _children(element, "forces", "force"):
        yield Force(
            catalogue=force.get("catalogueName", ""),
            selections=[
                _xml_selection(child, depth + 1)
                for child in _children(force, "selections", "selection")
            ],
        )
        yield from _xml_forces(force, depth + 1)


def _xml_selection(element: Element, depth: int) -> Selection:
    _check_depth(depth)
    return Selection(
        name=element.get("name", ""),
        type=element.get("type", "upgrade"),
        number=_number(element.get("number")),
        custom_name=element.get("customName", ""),
        group=element.get("group", ""),
        points=_xml_points(element) or 0,
        categories=[cat.get("name", "") for cat in _children(element, "categories", "category")],
        children=[
            _xml_selection(child, depth + 1)
            for child in _children(element, "selections", "selection")
        ],
    )


# --- reading JSON ------------------------------------------------------------------


def parse_json(text: str, subject: str = "The file") -> RosterDraft:
    """Read New Recruit's JSON export (``{"roster": {...}}``) into a draft."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RosterError(f"{subject} starts like JSON but isn't valid JSON.") from error
    roster = document.get("roster", document) if isinstance(document, dict) else None
    if not isinstance(roster, dict) or not isinstance(roster.get("forces"), list):
        raise not_a_roster(subject)
    tree = Tree(
        name=_text(roster.get("name")),
        game_system=_text(roster.get("gameSystemName")),
        points=_json_points(roster),
        forces=list(_json_forces(roster, 0)),
    )
    return build(tree, NEWRECRUIT_JSON)


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _dicts(value: object, key: str) -> list[dict]:
    items = value.get(key) if isinstance(value, dict) else None
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _json_points(value: dict) -> int | None:
    return _points(
        [(_text(cost.get("name")), cost.get("value")) for cost in _dicts(value, "costs")]
    )


def _json_forces(value: dict, depth: int) -> Iterator[Force]:
    _check_depth(depth)
    for force in _dicts(value, "forces"):
        yield Force(
            catalogue=_text(force.get("catalogueName")),
            selections=[_json_selection(child, depth + 1) for child in _dicts(force, "selections")],
        )
        yield from _json_forces(force, depth + 1)


def _json_selection(value: dict, depth: int) -> Selection:
    _check_depth(depth)
    return Selection(
        name=_text(value.get("name")),
        type=_text(value.get("type")) or "upgrade",
        number=_number(value.get("number")),
        custom_name=_text(value.get("customName")),
        group=_text(value.get("group")),
        points=_json_points(value) or 0,
        categories=[_text(cat.get("name")) for cat in _dicts(value, "categories")],
        children=[_json_selection(child, depth + 1) for child in _dicts(value, "selections")],
    )


# --- reading .rosz -----------------------------------------------------------------


def unzip_rosz(data: bytes, subject: str = "The file") -> bytes:
    """The ``.ros`` inside a ``.rosz``, refusing zip bombs and crowded archives."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) > MAX_MEMBERS:
                raise RosterError(
                    f"{subject} is a zip of {len(members)} files; a .rosz holds one roster."
                )
            rosters = [info for info in members if info.filename.lower().endswith(".ros")]
            if len(rosters) > 1:
                raise RosterError(f"{subject} holds {len(rosters)} rosters; a .rosz holds one.")
            chosen = rosters if rosters else members
            if len(chosen) != 1:
                raise not_a_roster(subject)
            info = chosen[0]
            if info.file_size > MAX_UNZIPPED_BYTES:
                raise RosterError(f"{subject} unpacks to more than 4 MB; refused.")
            with archive.open(info) as member:
                unpacked = member.read(MAX_UNZIPPED_BYTES + 1)
    except RosterError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError) as error:
        raise RosterError(f"{subject} is damaged: it isn't a readable zip.") from error
    except (NotImplementedError, RuntimeError, ValueError, OSError, UnicodeError) as error:
        raise RosterError(f"{subject} is compressed or locked in a way it can't read.") from error
    if len(unpacked) > MAX_UNZIPPED_BYTES:
        raise RosterError(f"{subject} unpacks to more than 4 MB; refused.")
    if len(unpacked) > 10_000 and len(unpacked) > MAX_RATIO * max(1, info.compress_size):
        raise RosterError(f"{subject} is compressed suspiciously well (a zip bomb?); refused.")
    return unpacked


# --- from the tree to a roster -----------------------------------------------------


def build(tree: Tree, format: str) -> RosterDraft:
    """Turn a parsed roster tree into a draft, whichever file it came from."""
    draft = RosterDraft(format=format, name=tree.name, stated_total=tree.points)
    system = tree.game_system.lower()
    if system and "40,000" not in system and "40k" not in system:
        draft.warnings.append(f"This roster is for {tree.game_system[:60]}, not Warhammer 40,000.")
    detachments: list[str] = []
    nameless = 0
    for force in tree.forces:
        if not draft.faction and force.catalogue:
            draft.faction = clean_faction(force.catalogue)
        for selection in _unit_candidates(force.selections):
            if selection.type in ("unit", "model") or any(s.is_model for s in selection.walk()):
                if selection.name or selection.custom_name:
                    draft.add_unit(_unit(selection))
                else:
                    nameless += 1
                continue
            choice = ", ".join(child.name for child in selection.children if child.name)
            label = selection.name.lower()
            if label == "battle size" and not draft.battle_size:
                draft.battle_size = battle_size(choice or selection.name)
            elif label.startswith("detachment") and choice:
                detachments.append(choice)
    draft.detachment = ", ".join(dict.fromkeys(detachments))
    if nameless:
        draft.warnings.append(f"{nameless} unit(s) without a name were left out.")
    return draft


def _unit_candidates(selections: list[Selection]) -> Iterator[Selection]:
    """A force's top-level selections, with any that only group units opened up."""
    for selection in selections:
        if selection.type not in ("unit", "model") and any(
            s.type == "unit" for s in selection.walk()
        ):
            yield from _unit_candidates(selection.children)
        else:
            yield selection


def _unit(selection: Selection) -> UnitDraft:
    keywords = _keywords(selection.categories)
    descendants = list(selection.walk())
    points = selection.points + sum(child.points for child in descendants)
    if points < 0:
        raise RosterError(f"The roster gives {selection.name[:60]} negative points.")
    unit = UnitDraft(
        name=selection.custom_name or selection.name,
        datasheet=selection.name,
        points=points,
        keywords=keywords,
    )
    if keywords:
        unit.set_flag("epic_hero", "EPIC HERO" in keywords)
        unit.set_flag("character", "CHARACTER" in keywords or "EPIC HERO" in keywords)
        unit.set_flag("battleline", "BATTLELINE" in keywords)
        unit.set_flag("dedicated_transport", "DEDICATED TRANSPORT" in keywords)
    unit.warlord = any(category.lower() == "warlord" for category in selection.categories)
    models: dict[str, int] = {}
    wargear: dict[str, int] = {}
    for child in descendants:
        if child.is_model:
            models[child.name] = models.get(child.name, 0) + child.number
        elif child.name.lower() == "warlord":
            unit.warlord = True
        elif _is_enhancement(child, unit):
            unit.add_enhancement(child.name, child.points)
        elif not child.children:
            wargear[child.name] = wargear.get(child.name, 0) + child.number
    if selection.is_model:
        models = {selection.name: selection.number, **models}
    unit.models = [(count, name) for name, count in models.items() if count > 0]
    unit.model_count = sum(count for count, _ in unit.models) or None
    unit.wargear = [f"{count}x {name}" if count > 1 else name for name, count in wargear.items()]
    return unit


def _is_enhancement(child: Selection, unit: UnitDraft) -> bool:
    if "enhancement" in child.group.lower():
        return True
    if child.group or child.is_model or any(s.is_model for s in child.walk()):
        return False
    return child.points > 0 and unit.flags.get("character") is not False


def _keywords(categories: list[str]) -> set[str]:
    keywords = set()
    for category in categories:
        name = category.strip()
        if name.lower().startswith("faction:"):
            name = name.split(":", 1)[1].strip()
        if name and name.lower() not in NOT_KEYWORDS:
            keywords.add(name.upper())
    return keywords


def _points(costs: list[tuple[str, object]]) -> int | None:
    for name, value in costs:
        if name.strip().lower() in ("pts", "points"):
            return number_value(value)
    return None


def _number(value: object) -> int:
    number = number_value(value)
    return number if number is not None and number >= 0 else 1


def _check_depth(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise RosterError("The roster nests selections too deeply to be a real army list.")
