"""The import preview builds its fields in Python (`templatetags.fields`): the same markup
as `_field.html`, bound or not, with errors and help; inputs and selects alike."""

import re

import pytest
from django import forms
from django.template.loader import render_to_string

from campaign.templatetags.fields import field_html, is_plain_input, is_plain_select


class Sample(forms.Form):
    keep = forms.BooleanField(required=False, initial=True, label="Import <Squad>")
    flag = forms.BooleanField(required=False, help_text="Tick it & see.")
    name = forms.CharField(max_length=20, label="Name")
    points = forms.IntegerField(required=False, min_value=0, max_value=9, help_text="Points")
    story = forms.CharField(required=False, widget=forms.Textarea)
    side = forms.ChoiceField(choices=[("", "Pick one"), ("a", "Alpha & co"), ("b", 'B "two"')])
    grouped = forms.ChoiceField(
        required=False,
        help_text="From a group.",
        choices=[("", "None"), ("Near", [("1", "One")]), ("Far", [("2", "Two"), ("3", "<Three>")])],
    )
    many = forms.MultipleChoiceField(
        required=False, choices=[("1", "One"), ("2", "Two"), ("3", "Three")]
    )


def squashed(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"keep": "on", "name": "", "points": "12", "side": "c", "grouped": "9"},
        {"name": 'A "quoted" <b>', "points": "3", "side": "b", "grouped": "3", "many": ["1", "3"]},
    ],
)
@pytest.mark.parametrize(
    "name", ["keep", "flag", "name", "points", "story", "side", "grouped", "many"]
)
def test_it_builds_a_field_as_the_field_template_does(data, name):
    form = Sample(data)
    form.is_valid()
    field = form[name]

    by_template = render_to_string("_field.html", {"field": field})

    assert squashed(field_html(field)) == squashed(by_template)


def test_it_builds_plain_inputs_and_selects_itself_and_leaves_the_rest_to_the_template():
    form = Sample()

    assert [n for n in form.fields if is_plain_input(form[n]) or is_plain_select(form[n])] == [
        "keep",
        "flag",
        "name",
        "points",
        "side",
        "grouped",
        "many",
    ]
