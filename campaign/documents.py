"""The Crusade export: a force's whole Crusade state as one versioned JSON document.

`selectors.force_document` writes it and `services.restore_force` reads it back; both
take the fields from here, and the fields come from the models, so a field added to a
card travels with it. Layout (version 2)::

    {"format": "crusade-force", "version": 2, "exported_at": ..., "exported_from": {...},
     "force": {<FORCE_FIELDS>, "alliance": <name> | ""}, "totals": {...},
     "units": [{<UNIT_FIELDS>, "honours": [...], "scars": [...], "promotions": [...]}],
     "requisitions": [{<REQUISITION_FIELDS>, "unit": <index in units> | null}],
     "counters": [...], and per unit "counters" and "upgrades"   (`services.pack_state`)
     "history": [...],                                  (optional)
     "restored_from": {...},                            (a restored force's provenance)
     "signature": "..."}                                (exports made before signing lack it)

Links inside the document are indexes: an honour's ``promotion`` is an index in its
unit's ``promotions`` and ``replaces`` an index in its unit's ``honours``; campaign
content is named (``custom_content``), since ids mean nothing on another server, and so
is the force's alliance (optional: files made before alliances have none, and read).
``exported_from`` and ``totals`` are for people reading the file; a restore derives them.

The server that writes a document signs it (`sign`): ``"signature"`` holds a signature
with this server's SECRET_KEY over the canonical JSON of everything else, so a restore
tells an untouched export of this server (`verified`) from any other file. Exports made
before signatures have none and still read, as unverified.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.dateparse import parse_datetime

from campaign.models import (
    BattleHonour,
    BattleScar,
    CrusadeForce,
    HistoryEntry,
    Promotion,
    RequisitionPurchase,
    Unit,
)

FORMAT = "crusade-force"
SIGNATURE = "signature"
SIGNING_SALT = "campaign.documents.export"
"""Signatures of exports are good for nothing else, and nothing else's for exports."""
VERSION = 2
READS = (1, 2)
"""The versions a restore reads. Version 2 added each card's Agenda tallies
(``agenda_tallies``) and pack upgrades (``upgrades``) and counters (``counters``), and
the force's counters (``counters``); a version-1 file has none of them, and restores as
a force without any."""
MAX_BYTES = 5_000_000
"""A force with a hundred units and years of history is well under this."""

MAX_TEXT = 20_000
"""Longest narrative or note a document may carry (the models' text fields have no limit)."""

MAX_INT = 2_147_483_647
"""The largest whole number every supported database stores in an integer column."""

MAX_JSON = 10_000
"""Largest ``details`` or ``changes`` value, as JSON text."""

MAX_ROWS = {
    "units": 1_000,
    "honours": 100,
    "scars": 100,
    "promotions": 100,
    "requisitions": 10_000,
    "counters": 100,
    "upgrades": 100,
    "history": 50_000,
}
"""Most rows of each kind a document may hold (honours, scars and promotions per unit)."""


def stored_fields(model: type[models.Model], *, leave_out: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A model's own values: not its id, its links to other rows or its pictures."""
    return tuple(
        f.name
        for f in model._meta.concrete_fields
        if not (f.primary_key or f.is_relation or isinstance(f, models.FileField))
        and f.name not in leave_out
    )


FORCE_FIELDS = stored_fields(
    CrusadeForce, leave_out=("rp_cap", "revision", *CrusadeForce.TOTAL_FIELDS)
)
"""The campaign sets the RP cap; the totals are derived from the cards, the revision from
the history."""
UNIT_FIELDS = stored_fields(Unit)
HONOUR_FIELDS = stored_fields(BattleHonour)
SCAR_FIELDS = stored_fields(BattleScar)
PROMOTION_FIELDS = stored_fields(Promotion)
REQUISITION_FIELDS = stored_fields(RequisitionPurchase)
HISTORY_FIELDS = stored_fields(HistoryEntry)


def canonical(document: dict[str, Any]) -> str:
    """The document as signed: sorted keys, no spaces, without its signature."""
    return _SIGNED({key: value for key, value in document.items() if key != SIGNATURE})


def sign(document: dict[str, Any], *, plain: bool = False) -> dict[str, Any]:
    """``document`` with this server's signature (of its JSON form) added. With ``plain``
    the caller says it holds JSON values only (no dates), so it is signed as it is."""
    body = document if plain else json.loads(json.dumps(document, default=_plain))
    signature = signing.Signer(salt=SIGNING_SALT).signature(canonical(body))
    return {**body, SIGNATURE: signature}


def verified(document: Any) -> bool:
    """Whether ``document`` (parsed JSON) is an untouched export signed by this server."""
    if not isinstance(document, dict) or not isinstance(document.get(SIGNATURE), str):
        return False
    try:
        text = canonical(document)
    except (TypeError, ValueError, RecursionError):
        return False
    expected = signing.Signer(salt=SIGNING_SALT).signature(text)
    return constant_time_compare(expected, document[SIGNATURE])


def _plain(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


plain_value = _plain
"""A stored value as JSON (dates as ISO text)."""


def encode(obj: models.Model, fields: tuple[str, ...], **links: Any) -> dict[str, Any]:
    """One row as JSON values, with ``links`` (indexes or names) added."""
    return {**{name: _plain(getattr(obj, name)) for name in fields}, **links}


def loads(raw: bytes) -> Any:
    """The JSON in ``raw``; ValidationError for anything that isn't plain, bounded JSON."""
    if len(raw) > MAX_BYTES:
        raise ValidationError(f"The file is over {MAX_BYTES // 1_000_000} MB; refused.")
    try:
        return json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValidationError("The file isn't a Crusade export: it isn't JSON.") from error


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


_ROW = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
"""One value on one line (the C encoder: the indenting one is pure Python, and an export
of a long history has tens of thousands of rows)."""

_SIGNED = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode
"""One value as `canonical` writes it (sorted keys, no spaces)."""


def _file(entries: list[tuple[str, str | list[str]]]) -> str:
    """The file's layout: each top-level key on its own line, each row of a list (a unit,
    a history entry) on a line of its own; ``entries`` are (key, its value's text, or the
    texts of its rows)."""
    lines = []
    for key, text in entries:
        if isinstance(text, list):
            text = "[\n    " + ",\n    ".join(text) + "\n  ]"
        lines.append(f"  {_ROW(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value)


def dumps(document: dict[str, Any]) -> str:
    """The document as a file, as it is (`_file`)."""
    return _file(
        [
            (key, [_ROW(row) for row in value] if _rows(value) else _ROW(value))
            for key, value in document.items()
        ]
    )


def signed_file(document: dict[str, Any]) -> str:
    """``document`` (JSON values only) signed by this server and written as a file
    (`_file`), encoding each row once: a row's line in the file is its text in the signed
    form, so the file and the signature share one encoding of the thousands of rows of a
    long history. The file reads back (`loads`) as `sign` would have made it."""
    entries = [
        (key, [_SIGNED(row) for row in value] if _rows(value) else _SIGNED(value))
        for key, value in document.items()
        if key != SIGNATURE
    ]
    body = ",".join(
        f"{_SIGNED(key)}:" + ("[" + ",".join(text) + "]" if isinstance(text, list) else text)
        for key, text in sorted(entries)
    )
    body = "{" + body + "}"
    signature = signing.Signer(salt=SIGNING_SALT).signature(body)
    return _file([*entries, (SIGNATURE, _ROW(signature))])


def is_document(data: Any) -> bool:
    """Whether ``data`` (parsed JSON) says it is a Crusade export, of any version."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def looks_like_document(raw: bytes) -> bool:
    """Whether a file is a Crusade export (so a player who picked it to import an army list
    can be sent to restore it instead)."""
    if not raw.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    try:
        return is_document(loads(raw))
    except ValidationError:
        return False


def check_rows(data: dict, key: str, where: str) -> list[dict]:
    """The list of objects under ``key`` (missing: empty), within its limit."""
    rows = data.get(key, [])
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ValidationError(f"{where}{key} must be a list of objects.")
    if len(rows) > MAX_ROWS[key]:
        raise ValidationError(f"{where}{key} holds {len(rows)} rows; at most {MAX_ROWS[key]}.")
    return rows


def check_link(value: Any, rows: int, where: str, *, before: int | None = None) -> int | None:
    """An index into a list of ``rows`` rows (or null); ``before``: it must point earlier."""
    if value is None:
        return None
    limit = rows if before is None else min(rows, before)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise ValidationError(f"{where} points to no row of this document.")
    return value


def decode(model: type[models.Model], fields: tuple[str, ...], data: dict, where: str) -> dict:
    """The values of ``fields`` in ``data``, checked against the model's own fields.

    Strict about types (a number is an int, never "3", 3.0 or true); bounded like the
    database column; a missing value takes the field's default when it has one.
    """
    values = {}
    for name in fields:
        field = model._meta.get_field(name)
        at = f"{where}.{name}"
        if name in data:
            values[name] = _value(field, data[name], at)
        elif field.has_default():
            values[name] = field.get_default()
        elif field.null:
            values[name] = None
        elif field.blank and isinstance(field, (models.CharField, models.TextField)):
            values[name] = ""
        else:
            raise ValidationError(f"{at} is missing.")
    return values


def _value(field: models.Field, value: Any, at: str) -> Any:
    if value is None:
        if field.null:
            return None
        raise ValidationError(f"{at} can't be null.")
    value = _typed(field, value, at)
    try:
        field.clean(value, None)
    except ValidationError as error:
        raise ValidationError(f"{at}: {' '.join(error.messages)}") from error
    return value


def _typed(field: models.Field, value: Any, at: str) -> Any:
    """``value`` if it has the JSON type the field stores (a date as ISO text)."""
    if isinstance(field, models.BooleanField):
        ok = isinstance(value, bool)
    elif isinstance(field, models.IntegerField):
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and not -MAX_INT - 1 <= value <= MAX_INT:
            raise ValidationError(f"{at} is out of range.")
    elif isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
        if parsed is None:
            raise ValidationError(f"{at} must be a date and time such as 2026-05-01T18:30:00Z.")
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)
    elif isinstance(field, models.JSONField):
        shape = type(field.get_default())  # a list or a dict, as the model starts it
        ok = isinstance(value, shape) and len(json.dumps(value)) <= MAX_JSON
    elif isinstance(field, models.TextField):
        ok = isinstance(value, str) and len(value) <= MAX_TEXT
    elif isinstance(field, models.CharField):
        ok = isinstance(value, str)
    else:
        raise ValueError(f"no JSON type for {field!r}")
    if not ok:
        raise ValidationError(f"{at} has the wrong type or is too long.")
    return value
