"""The organisers' admin site: Django's, without the navigation sidebar.

Every admin page listed every model the user may reach in a sidebar: the list was built
on each look (permission checks per model) and drawn again on each page, a tenth of a
changelist's time. The site's index and each page's breadcrumbs lead to the same lists.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


class CrusadeAdminSite(AdminSite):
    enable_nav_sidebar = False

    def get_app_list(self, request: HttpRequest, app_label: str | None = None):
        """Django's list, built only when a page reads it (the index and an app's page):
        every page's context holds it for the sidebar, which is gone."""
        return SimpleLazyObject(lambda: AdminSite.get_app_list(self, request, app_label))


class CrusadeAdminConfig(AdminConfig):
    default_site = "campaign.admin_site.CrusadeAdminSite"
