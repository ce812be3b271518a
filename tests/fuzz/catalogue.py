"""Every POST form of every page, found the way a player finds them, by URL they post to.

Each person's pages are read once per module: the owner's show nearly every form, the
others' the few that are theirs (an opponent's answer to an invitation). Two forms only
appear after a first POST, so the owner also posts once to reach them: an import's
preview (from a pasted list) and the preview of a side's record.
"""

from __future__ import annotations

import dataclasses

from django.core.files.uploadedfile import SimpleUploadedFile

from .pages import PostForm
from .values import PNG
from .visits import Visitor, url_name
from .world import ROLES, World

ARMY_LIST = """Fuzz (225 Points)

Space Marines
Space Wolves
Stormlance Task Force
Incursion (1000 Points)

CHARACTERS

Wolf Lord on Thunderwolf (125 Points)
  \u2022 1x Crushing teeth and claws
  \u2022 1x Twin lightning claws
  \u2022 Enhancements: Fury of the Storm

OTHER DATASHEETS

Infiltrator Squad (100 Points)
  \u2022 1x Infiltrator Sergeant
     \u25e6 1x Bolt pistol
  \u2022 4x Infiltrator
     \u25e6 4x Bolt pistol

Exported with App Version: v1.29.0 (2), Data Version: v579
"""
"""Two units in the official app's text, one with an Enhancement whose points it omits:
every kind of control of the preview, and a preview quick to render."""

FIRST_POSTS = {
    "army_record": {"result": ["win"]},
    "force_import": {"text": [ARMY_LIST]},
    "force_import_units": {"text": [ARMY_LIST]},
}
"""What the owner posts to reach the forms behind a first step (over the shown values)."""

COMMON_NAMES = ("csrfmiddlewaretoken", "confirm", "reason", "units", "opponents", "roll", "choice")
"""The names the app's forms use most: what is posted where no page shows a form."""


def any_post(action: str) -> PostForm:
    """A form no page shows (every URL that takes POST has one now: GET-only ones get
    this, to show they answer a POST with a 405)."""
    form = PostForm(action, shown_on_a_page=False)
    for name in COMMON_NAMES:
        form.control(name, "text").shown = [""]
    return form


class Catalogue:
    """The forms posting to each URL name, as each person sees them."""

    def __init__(self, world: World, visitors: dict[str, Visitor]) -> None:
        self.world = world
        self.visitors = visitors
        self._found = {role: self._read(role) for role in ROLES if role != "anonymous"}
        self._targets: dict[tuple[str, str], list[PostForm]] = {}
        export = visitors["owner"].client.get(world.pages["force_export"][0]).content
        self._files = {
            "force_restore": ("force-crusade.json", export),
            "force_import": ("list.txt", ARMY_LIST.encode()),
            "force_import_units": ("list.txt", ARMY_LIST.encode()),
            "force_banner": ("banner.png", PNG),
            "unit_picture": ("picture.png", PNG),
            "log_entry_create": ("picture.png", PNG),
            "log_entry_edit": ("picture.png", PNG),
        }
        """A file each upload form takes, so that its other controls are what is refused."""

    def _read(self, role: str) -> dict[str, list[PostForm]]:
        visitor = self.visitors[role]
        found: dict[str, dict[tuple, PostForm]] = {}
        for name, paths in self.world.pages.items():
            for path in paths:
                forms = visitor.forms(path)
                if role == "owner" and name in FIRST_POSTS:
                    forms += self._behind(visitor, path, forms, FIRST_POSTS[name])
                for form in forms:
                    for target in _targets(form):
                        found.setdefault(url_name(target.action), {})[target.signature] = target
        return {name: list(forms.values()) for name, forms in found.items() if name}

    @staticmethod
    def _behind(visitor: Visitor, path: str, forms: list[PostForm], extra: dict) -> list:
        first = next(form for form in forms if form.action == path)
        return visitor.forms(path, {**first.filled, **extra})

    def targets(self, name: str, role: str) -> list[PostForm]:
        """The forms posting to ``name`` (the owner's and this person's), or a generic one
        at its first page when no page shows any. The same objects every time: the fuzz
        caches its strategies by form."""
        if (name, role) not in self._targets:
            seen = {"owner", role} - {"anonymous"}
            forms = {f.signature: f for r in seen for f in self._found[r].get(name, [])}
            found = list(forms.values()) or [any_post(self.world.pages[name][0])]
            self._targets[name, role] = found
        return self._targets[name, role]

    def good_files(self, form: PostForm) -> dict[str, SimpleUploadedFile]:
        """The file a form's upload takes (an export, an army list, a picture), new for
        each POST: a file is read once."""
        good = self._files.get(url_name(form.action))
        files = [name for name, control in form.controls.items() if control.is_file]
        return {name: SimpleUploadedFile(*good) for name in files} if good else {}


def _targets(form: PostForm) -> list[PostForm]:
    """A form posts to its action, and (htmx) to its live check on every change."""
    if form.check in ("", form.action):
        return [dataclasses.replace(form, check="")]
    return [dataclasses.replace(form, check=""), dataclasses.replace(form, action=form.check)]
