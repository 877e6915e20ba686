"""The API's Basic auth, throttled like every sign-in (django-axes): a locked-out pair gets 429.

A password alone proves no second factor: an account with two-factor sign-in is refused here
(it uses the API from its signed-in session), and staff signing in this way hold no staff power
(``trips.access``), so they read only their own trips.
"""

from drf_spectacular.authentication import BasicScheme
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled

from trips import twofactor


class ThrottledBasicAuthentication(BasicAuthentication):
    def authenticate_credentials(self, userid, password, request=None):
        try:
            user, auth = super().authenticate_credentials(userid, password, request)
        except AuthenticationFailed:
            # Axes marks the request it was handed (DRF's, which the middleware never sees).
            if getattr(request, "axes_locked_out", False):
                raise Throttled(detail="Too many failed sign-ins; try again later.") from None
            raise
        if twofactor.enrolled(user):
            raise AuthenticationFailed(
                "This account signs in with a second factor: use the API from a signed-in session."
            )
        return user, auth


class ThrottledBasicScheme(BasicScheme):
    """The schema (``/api/schema/``) names it as plain Basic auth."""

    target_class = ThrottledBasicAuthentication
