from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from campaign import views

urlpatterns = [
    path("", views.home, name="home"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]

# Uploaded pictures in local development; in production the web server serves MEDIA_ROOT.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
