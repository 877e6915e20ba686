"""Project URLs: the chat pages at the root, the REST API and its schema, the admin back office."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

# The one page with inline script and a CDN: drf-spectacular's Swagger UI (developer docs).
SWAGGER_CSP = {"script-src": ["'unsafe-inline'", "https://cdn.jsdelivr.net"], "style-src": ["https://cdn.jsdelivr.net"]}
swagger = csp_update(SWAGGER_CSP)(SpectacularSwaggerView.as_view(url_name="api-schema"))

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", swagger, name="api-docs"),
    path("api/", include("trips.api.urls")),
    path("account/two-factor/passkeys/", include("trips.web.passkeys")),
    path("", include("trips.web.urls")),
]
