"""The API's Basic auth, throttled like every sign-in (django-axes): a locked-out pair gets 429."""

from drf_spectacular.authentication import BasicScheme
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled


class ThrottledBasicAuthentication(BasicAuthentication):
    def authenticate_credentials(self, userid, password, request=None):
        try:
            return super().authenticate_credentials(userid, password, request)
        except AuthenticationFailed:
            # Axes marks the request it was handed (DRF's, which the middleware never sees).
            if getattr(request, "axes_locked_out", False):
                raise Throttled(detail="Too many failed sign-ins; try again later.") from None
            raise


class ThrottledBasicScheme(BasicScheme):
    """The schema (``/api/schema/``) names it as plain Basic auth."""

    target_class = ThrottledBasicAuthentication
