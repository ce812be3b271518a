"""A ``Pack`` back to its file: the exact inverse of reading it (``load_pack``).

Keys come in the order ``spec`` declares them; an optional field left out stays out, and
so does an empty section. ``pack_text(load_pack(text))`` is ``text`` for every file this
module wrote.
"""

from __future__ import annotations

import json
from typing import Any

from ..jsonfiles import encode_object
from . import spec
from .model import Pack


def pack_data(pack: Pack) -> dict[str, Any]:
    """The pack as JSON data, keys in the format's order."""
    return encode_object(spec.PACK, pack)


def pack_text(pack: Pack) -> str:
    """The pack file's text: two-space indents, UTF-8 kept as it is, a final newline."""
    return json.dumps(pack_data(pack), indent=2, ensure_ascii=False) + "\n"
