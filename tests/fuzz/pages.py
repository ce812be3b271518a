"""The POST forms a page shows, read the way a browser would submit them.

Every control is kept with what the page would send as shown (its default) and what it
offers (a select's options, a group of checkboxes' values); buttons with a name are kept
apart, since a browser sends only the one pressed. Whatever hidden inputs the page has
(the CSRF token, a signed preview, a one-time token) are posted back as they are, unless
the fuzz picks them to change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

SUBMITS = {"submit", "button", "image", "reset"}
TYPED = {"text", "textarea", "number", "date", "email", "password", "search", "url", "tel"}
"""Controls a player types into (hidden ones, boxes and selects are chosen, not typed)."""
FILLERS = {"number": "1", "date": "2025-01-01", "email": "fuzz@example.org"}
ASKED_FOR = {"detachment", "warlord"}
"""Controls not marked required that the form asks for all the same (in its `clean`)."""


@dataclass(eq=False)
class Control:
    """One name in a form: what the page would send as shown, and what it offers."""

    name: str
    kind: str
    shown: list[str] = field(default_factory=list)
    offered: list[str] = field(default_factory=list)
    required: bool = False
    least: str = ""
    most: str = ""
    """A number's bounds, as the page tells the browser (``min`` and ``max``)."""

    @property
    def is_file(self) -> bool:
        return self.kind == "file"

    @property
    def filled(self) -> list[str]:
        """What a player would send: the shown value, or what they would fill in where the
        form asks for it, so that the other controls pass and one strange value reaches
        the service behind the form (every box of a group ticked: units, opponents)."""
        chosen = [value for value in self.offered if value]
        asked = self.required or self.name in ASKED_FOR
        if any(self.shown):
            return self.shown
        if self.kind in TYPED and asked:
            return [FILLERS.get(self.kind, f"Fuzz {self.name}")]
        if self.kind == "checkbox" and chosen != ["on"]:
            return chosen
        if asked and chosen:
            return chosen[:1]
        return self.shown


@dataclass(eq=False)
class PostForm:
    """A `<form method="post">`: where it posts (and where htmx posts it on a change).
    Compared (and cached) as itself: `signature` tells two alike."""

    action: str
    check: str = ""
    controls: dict[str, Control] = field(default_factory=dict)
    buttons: list[tuple[str, str]] = field(default_factory=list)
    shown_on_a_page: bool = True
    """False for the generic form posted where no page shows one."""

    def control(self, name: str, kind: str) -> Control:
        return self.controls.setdefault(name, Control(name, kind))

    @property
    def filled(self) -> dict[str, list[str]]:
        """What submitting the form filled in plausibly sends (no button pressed)."""
        return {name: c.filled for name, c in self.controls.items() if not c.is_file}

    @property
    def signature(self) -> tuple:
        return (self.action, self.check, tuple(sorted(self.controls)), tuple(self.buttons))


class FormReader(HTMLParser):
    """Every POST form of a page, with paths made absolute against the page's own."""

    def __init__(self, page: str, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = urlsplit(page).path
        self.forms: list[PostForm] = []
        self._form: PostForm | None = None
        self._select: Control | None = None
        self._option: str | None = None
        self._textarea: Control | None = None
        self.feed(markup)
        self.close()

    def _path(self, url: str) -> str:
        return urlsplit(url).path or self.page

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            post = a.get("method", "get").lower() == "post"
            self._form = PostForm(self._path(a.get("action", ""))) if post else None
            if self._form is not None:
                self._form.check = self._path(a["hx-post"]) if "hx-post" in a else ""
                self.forms.append(self._form)
        elif self._form is None or "name" not in a and tag != "option":
            return
        elif tag == "input":
            self._input(a)
        elif tag == "button" and a.get("type", "submit") == "submit":
            self._form.buttons.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select = self._form.control(a["name"], "multi" if "multiple" in a else "select")
            self._select.required = "required" in a
        elif tag == "option" and self._select is not None:
            self._option_start(a)
        elif tag == "textarea":
            self._textarea = self._form.control(a["name"], "textarea")
            self._textarea.shown = [""]
            self._textarea.required = "required" in a

    def _input(self, a: dict[str, str]) -> None:
        kind = a.get("type", "text").lower()
        if kind in SUBMITS:
            self._form.buttons.append((a["name"], a.get("value", "")))
            return
        control = self._form.control(a["name"], kind)
        control.required |= "required" in a
        control.least, control.most = a.get("min", ""), a.get("max", "")
        value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
        if kind in ("checkbox", "radio"):
            control.offered.append(value)
            if "checked" in a:
                control.shown.append(value)
        elif kind != "file":
            control.shown = [value]

    def _option_start(self, a: dict[str, str]) -> None:
        self._option = a.get("value")
        if self._option is not None:
            self._select.offered.append(self._option)
            if "selected" in a:
                self._select.shown.append(self._option)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.shown = [self._textarea.shown[0] + data]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            if not self._select.shown and self._select.offered and self._select.kind == "select":
                self._select.shown = self._select.offered[:1]  # a browser sends the first
            self._select = None
        elif tag == "option":
            self._option = None
        elif tag == "textarea" and self._textarea is not None:
            # A browser drops the newline that follows <textarea>.
            self._textarea.shown = [self._textarea.shown[0].removeprefix("\n")]
            self._textarea = None


def post_forms(page: str, markup: str) -> list[PostForm]:
    return FormReader(page, markup).forms
