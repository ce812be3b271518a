"""The organisers' changelist rows, filters and page links (`campaign.admin.rows`)."""

from django import template
from django.contrib.admin.templatetags.base import InclusionAdminNode

from campaign.admin.rows import lean_filter, lean_pagination, organiser_result_list

register = template.Library()


@register.tag(name="organiser_result_list")
def organiser_result_list_tag(parser, token):
    return InclusionAdminNode(
        parser,
        token,
        func=organiser_result_list,
        template_name="change_list_results.html",
        takes_context=False,
    )


@register.simple_tag
def organiser_list_filter(cl, spec):
    return lean_filter(cl, spec)


@register.simple_tag
def organiser_pagination(cl):
    return lean_pagination(cl)
