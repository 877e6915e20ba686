"""Every HTTP route and websocket route the project serves, as concrete paths to request.

The routes come from the URL resolver and ``trips.routing.websocket_urlpatterns`` themselves, so
a route added tomorrow shows up here without anyone listing it; ``concrete`` fills each route's
parameters with the ids of one trip's objects (or of the named model's first row).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterator, List

from django.urls import URLPattern, URLResolver, get_resolver

from trips.routing import websocket_urlpatterns

ADMIN_MODEL = re.compile(r"^admin/\w+/(\w+)/")
PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


@dataclass(frozen=True)
class Route:
    template: str  # the route as declared, e.g. "api/^trips/(?P<pk>[^/.]+)/$"
    name: str
    view: str


def _walk(patterns, prefix: str = "") -> Iterator[Route]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield Route(prefix + str(pattern.pattern), pattern.name or "", pattern.lookup_str)


def http_routes() -> List[Route]:
    return list(_walk(get_resolver().url_patterns))


def websocket_routes() -> List[Route]:
    return list(_walk(websocket_urlpatterns))


def concrete(route: Route, ids: Dict[str, str]) -> str:
    """The path for ``route`` with each parameter taken from ``ids``.

    ``ids`` maps parameter names (``trip_id``, ``pk``, ``format``, ``app_label``, ``url``, …) to
    values; an admin page's ``object_id`` is looked up by the model's name (``trip``, ``hold``…).
    """
    admin_model = ADMIN_MODEL.match(route.template)
    model = admin_model.group(1) if admin_model else "object_id"

    def value(match: re.Match) -> str:
        name = match.group("name") or match.group("group")
        if name == "object_id":
            return ids.get(model, "0")
        if name == "format":
            return ids["format"] if match.group("group") else "." + ids["format"]
        return ids[name]

    path = PARAM.sub(value, route.template)
    path = path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "")
    return "/" + path
