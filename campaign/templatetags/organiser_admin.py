"""The organisers' changelist rows (`campaign.admin.rows`)."""

from django import template
from django.contrib.admin.templatetags.base import InclusionAdminNode

from campaign.admin.rows import organiser_result_list

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
