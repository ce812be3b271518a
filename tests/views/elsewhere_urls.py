"""A second set of addresses, for the test that the app's are worked out again when the
settings move them (`test_addresses`)."""

from django.http import HttpResponse
from django.urls import path

urlpatterns = [path("elsewhere/", lambda request: HttpResponse(), name="dashboard")]
