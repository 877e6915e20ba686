"""Where "near X" is: city centres and well-known landmarks and convention centres, with coordinates.

``where_near(near, place)`` turns the traveller's words for where the hotel should be ("the
convention center", "times sq", "downtown", "the airport") into a point in the stay's city, or
None when the desk does not know the place (the traveller is then told so, not shown distances
from somewhere else). A landmark counts for a stay only when it lies within ``REACH_KM`` of the
stay's airport, so "the convention center" is the Las Vegas one in Las Vegas and the San Diego
one in San Diego.

A kind of area said instead of a place ("near the beach", "by the water", "in the old town":
``area_kind``) is the nearest place of that kind the table knows in the stay's city (South Beach in
Miami, Alfama in Lisbon); where it knows none, the traveller is told the options are not ranked by it.

``centre(city)`` is a city's centre (its downtown: city hall or the main square), which the
sandbox supplier places its hotels around; a city missing here keeps its main airport's point.

The centres and places are data (``data/landmarks.json``), read once at import.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path
from typing import Any, Dict, NamedTuple, Optional, Tuple

REACH_KM = 60.0  # how far from the stay's airport a landmark may be and still be the one meant


class Landmark(NamedTuple):
    name: str  # as the card says it: "the Las Vegas Convention Center"
    words: Tuple[str, ...]  # what travellers type, lower case, without "the"
    lat: float
    lon: float
    district: bool = False  # a part of town a hotel is "in" ("midtown", "the French Quarter")
    kinds: Tuple[str, ...] = ()  # the kinds of area it is ("beach", "waterfront", "old town")


_DATA = json.loads(Path(__file__).with_name("data").joinpath("landmarks.json").read_text(encoding="utf-8"))
# (city, country) as the airport data names them -> the centre (downtown) of that city
CENTRES: Dict[Tuple[str, str], Tuple[float, float]] = {(c, k): (lat, lon) for c, k, lat, lon in _DATA["centres"]}
LANDMARKS: Tuple[Landmark, ...] = tuple(
    Landmark(m["name"], tuple(m["words"]), m["lat"], m["lon"], m.get("district", False), tuple(m.get("kinds") or ()))
    for m in _DATA["landmarks"]
)
# A kind of area said instead of a place ("near the beach", "by the water", "in the old town"):
# the words, read whole after "the" is dropped -> the kind the landmarks are tagged with
KINDS: Dict[str, str] = {
    **dict.fromkeys(("beach", "beaches", "ocean", "sea", "seaside", "beachfront", "oceanfront", "sand"), "beach"),
    **dict.fromkeys(("water", "waterfront", "harbor", "harbour", "harborfront", "river", "riverfront"), "waterfront"),
    **dict.fromkeys(("lake", "lakefront", "lakeshore", "lake shore"), "lake"),
    **dict.fromkeys(("marina", "port", "pier", "bay", "canal", "canals"), "waterfront"),
    **dict.fromkeys(
        (
            "old town",
            "old city",
            "old quarter",
            "historic center",
            "historic centre",
            "historic district",
            "historic old town",
            "historic part of town",
            "old part of town",
            "historic area",
            "old town area",
        ),
        "old town",
    ),
}
# "by the water" is met by a beach or a lake shore too
_WIDER = {"waterfront": ("waterfront", "beach", "lake")}
# how the chat says a kind when no such place is known in the stay's city
KIND_SAID = {
    "beach": "near the beach",
    "waterfront": "by the water",
    "lake": "by the lake",
    "old town": "in the old town",
}

_ALL_WORDS = frozenset(w.replace("-", " ") for m in LANDMARKS for w in m.words)
# Words for the middle of town: measured from the city's centre
_CENTRAL = re.compile(
    r"^(?:downtown|down town|central|centre|center|city cent(?:er|re)|cent(?:er|re) of (?:town|the city)|town cent(?:er|re)"
    r"|the cent(?:er|re)|in town|the middle of (?:town|the city)|the heart of (?:town|the city))$"
)
_AIRPORT = re.compile(r"^(?:the )?airports?$")


def km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def centre(city: Dict[str, Any]) -> Optional[Tuple[float, float]]:
    """The centre of ``city`` (a ``geo.place``: its "city", "country", "lat", "lon"), or None when
    not known (or when the name is another town's: the centre must lie near the airport)."""
    point = CENTRES.get((str(city.get("city")), str(city.get("country"))))
    if point is None or km(point[0], point[1], float(city["lat"]), float(city["lon"])) > REACH_KM:
        return None
    return point


def landmarks_near(lat: float, lon: float) -> Tuple[Landmark, ...]:
    """The well-known places within ``REACH_KM`` of a city's airport point, each once (a place several
    cities share, such as Disneyland for Los Angeles and Santa Ana, is each one's)."""
    return _landmarks_near(round(lat, 4), round(lon, 4))


@cache
def _landmarks_near(lat: float, lon: float) -> Tuple[Landmark, ...]:
    seen: Dict[str, Landmark] = {}
    for mark in LANDMARKS:
        if km(mark.lat, mark.lon, lat, lon) <= REACH_KM:
            seen.setdefault(f"{mark.name} {mark.lat} {mark.lon}", mark)
    return tuple(seen.values())


@cache
def nearest_centre(lat: float, lon: float) -> Tuple[float, float]:
    """The centre (``CENTRES``) nearest a point: the town a part of town belongs to."""
    return min(CENTRES.values(), key=lambda c: km(c[0], c[1], lat, lon))


def _words(text: str) -> str:
    low = re.sub(r"[^\w'&\- ]+", " ", text.lower()).replace("-", " ")
    return re.sub(r"\s+", " ", re.sub(r"^\s*the\s+", "", low)).strip()


def means_centre(said: str) -> bool:
    """Whether words name the middle of town ("downtown", "the city centre", "the heart of town")."""
    words = _words(said)
    return bool(_CENTRAL.match(words) or _CENTRAL.match(f"the {words}"))


def where_near(near: Any, place: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """``{"name", "lat", "lon"}`` for the traveller's "near X" in the stay's city ``place`` (a
    ``geo.place``); None when X is not a place the desk knows there."""
    if not isinstance(near, str) or not near.strip() or not place:
        return None
    said = _words(near)
    if means_centre(said):
        point = centre(place) or (float(place["lat"]), float(place["lon"]))
        return {"name": "the centre", "lat": point[0], "lon": point[1]}
    if _AIRPORT.match(said):
        return {"name": "the airport", "lat": float(place["lat"]), "lon": float(place["lon"])}
    kind = area_kind(said)
    if kind:  # "the beach": the city's own beach, if the table knows one near its airport
        middle = centre(place) or (float(place["lat"]), float(place["lon"]))
        kinds = _WIDER.get(kind, (kind,))
        marks = [
            m
            for m in LANDMARKS
            if set(kinds) & set(m.kinds) and km(m.lat, m.lon, float(place["lat"]), float(place["lon"])) <= REACH_KM
        ]
        mark = min(marks, key=lambda m: km(m.lat, m.lon, *middle), default=None)  # the one nearest the centre
        return {"name": mark.name, "lat": mark.lat, "lon": mark.lon} if mark else None
    words = _said(said)
    if words is None:
        return None
    # the place those words name in the stay's city ("the convention center" there); none when they
    # name one elsewhere ("the orange county convention center" for a stay in Santa Ana)
    here = [m for m in LANDMARKS if words in {w.replace("-", " ") for w in m.words}]
    here.sort(key=lambda m: km(m.lat, m.lon, float(place["lat"]), float(place["lon"])))
    found = (
        here[0] if here and km(here[0].lat, here[0].lon, float(place["lat"]), float(place["lon"])) <= REACH_KM else None
    )
    return {"name": found.name, "lat": found.lat, "lon": found.lon} if found else None


def area_kind(near: Any) -> Optional[str]:
    """The kind of area ``near`` names instead of a place ("the beach" -> "beach", "by the water" ->
    "waterfront", "the old town" -> "old town"); None for a place or a landmark."""
    if not isinstance(near, str):
        return None
    said = re.sub(r"^(?:the|a|an)\s+", "", _words(near))
    return KINDS.get(said)


def _said(said: str) -> Optional[str]:
    """The longest landmark words that the traveller's say, whole words only ("strip" in "the strip",
    "convention center" in "walking distance to the convention center")."""
    padded = f" {said} "
    found = [w for w in _ALL_WORDS if f" {w} " in padded]
    return max(found, key=len) if found else None
