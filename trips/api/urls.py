"""REST API routes, mounted at ``/api/``."""

from rest_framework.routers import DefaultRouter

from .views import ApprovalRequestViewSet, HoldViewSet, TripViewSet

app_name = "api"

router = DefaultRouter()
router.register("trips", TripViewSet, basename="trip")
router.register("holds", HoldViewSet, basename="hold")
router.register("approvals", ApprovalRequestViewSet, basename="approval")

urlpatterns = router.urls
