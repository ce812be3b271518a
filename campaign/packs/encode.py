"""A ``Pack`` back to its file: the exact inverse of reading it (``load_pack``).

Keys come in the order ``spec`` declares them; an optional field left out stays out, and
so does an empty section. ``pack_text(load_pack(text))`` is ``text`` for every file this
module wrote.
"""

from __future__ import annotations

import json
from typing import Any

from . import spec
from .model import Pack
from .spec import Obj


def _encode(obj: Obj, value: Any) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for f in obj.fields:
        item = getattr(value, f.name)
        if item is None or (f.kind == "list" and not f.required and not item):
            continue
        if f.kind == "list":
            assert f.item is not None
            result[f.name] = [_encode(f.item, entry) for entry in item]
        elif f.kind == "object":
            assert f.item is not None
            result[f.name] = _encode(f.item, item)
        else:
            result[f.name] = item
    return result


def pack_data(pack: Pack) -> dict[str, Any]:
    """The pack as JSON data, keys in the format's order."""
    return _encode(spec.PACK, pack)


def pack_text(pack: Pack) -> str:
    """The pack file's text: two-space indents, UTF-8 kept as it is, a final newline."""
    return json.dumps(pack_data(pack), indent=2, ensure_ascii=False) + "\n"
