"""The campaign's log in templates: ``{% load chronicle %}``, then ``{{ entry.text|story }}``
renders a story's few marks as safe HTML (`campaign.markup`), and ``|story_preview`` gives
a short plain-text preview of it."""

from __future__ import annotations

from django import template

from campaign import markup

register = template.Library()


@register.filter(is_safe=True)
def story(text: str):
    """The text of a log entry as HTML: escaped, paragraphs, bold, italic, lists, quotes."""
    return markup.render(text)


@register.filter
def story_preview(text: str, length: int = 200) -> str:
    """The text without its marks, cut short (autoescaped like any text)."""
    return markup.plain(text, int(length))
