"""The import preview builds its fields in Python (`templatetags.fields`): the same markup
as `_field.html`, bound or not, with errors and help."""

import re

import pytest
from django import forms
from django.template.loader import render_to_string

from campaign.templatetags.fields import field_html


class Sample(forms.Form):
    keep = forms.BooleanField(required=False, initial=True, label="Import <Squad>")
    flag = forms.BooleanField(required=False, help_text="Tick it & see.")
    name = forms.CharField(max_length=20, label="Name")
    points = forms.IntegerField(required=False, min_value=0, max_value=9, help_text="Points")
    story = forms.CharField(required=False, widget=forms.Textarea)


def squashed(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@pytest.mark.parametrize(
    "data",
    [None, {"keep": "on", "name": "", "points": "12"}, {"name": 'A "quoted" <b>', "points": "3"}],
)
@pytest.mark.parametrize("name", ["keep", "flag", "name", "points", "story"])
def test_it_builds_a_field_as_the_field_template_does(data, name):
    form = Sample(data)
    form.is_valid()
    field = form[name]

    by_template = render_to_string("_field.html", {"field": field})

    assert squashed(field_html(field)) == squashed(by_template)
