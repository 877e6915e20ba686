"""Where "near X" is: city centres and well-known landmarks and convention centres, with coordinates.

``where_near(near, place)`` turns the traveller's words for where the hotel should be ("the
convention center", "times sq", "downtown", "the airport") into a point in the stay's city, or
None when the desk does not know the place (the traveller is then told so, not shown distances
from somewhere else). A landmark counts for a stay only when it lies within ``REACH_KM`` of the
stay's airport, so "the convention center" is the Las Vegas one in Las Vegas and the San Diego
one in San Diego.

``centre(city)`` is a city's centre (its downtown: city hall or the main square), which the
sandbox supplier places its hotels around; a city missing here keeps its main airport's point.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any, Dict, NamedTuple, Optional, Tuple

REACH_KM = 60.0  # how far from the stay's airport a landmark may be and still be the one meant


class Landmark(NamedTuple):
    name: str  # as the card says it: "the Las Vegas Convention Center"
    words: Tuple[str, ...]  # what travellers type, lower case, without "the"
    lat: float
    lon: float
    district: bool = False  # a part of town a hotel is "in" ("midtown", "the French Quarter")


# (city, country) as the airport data names them -> the centre (downtown) of that city
CENTRES: Dict[Tuple[str, str], Tuple[float, float]] = {
    ("New York", "US"): (40.7549, -73.9840),
    ("Los Angeles", "US"): (34.0522, -118.2437),
    ("Chicago", "US"): (41.8818, -87.6231),
    ("Houston", "US"): (29.7604, -95.3698),
    ("Phoenix", "US"): (33.4484, -112.0740),
    ("Philadelphia", "US"): (39.9526, -75.1652),
    ("San Antonio", "US"): (29.4241, -98.4936),
    ("San Diego", "US"): (32.7157, -117.1611),
    ("Dallas", "US"): (32.7767, -96.7970),
    ("Dallas-Fort Worth", "US"): (32.7767, -96.7970),
    ("Austin", "US"): (30.2672, -97.7431),
    ("San Francisco", "US"): (37.7879, -122.4075),
    ("San Jose", "US"): (37.3382, -121.8863),
    ("Seattle", "US"): (47.6062, -122.3321),
    ("Denver", "US"): (39.7392, -104.9903),
    ("Washington", "US"): (38.8951, -77.0364),
    ("Boston", "US"): (42.3601, -71.0589),
    ("Nashville", "US"): (36.1627, -86.7816),
    ("Las Vegas", "US"): (36.1699, -115.1398),
    ("Miami", "US"): (25.7743, -80.1937),
    ("Orlando", "US"): (28.5384, -81.3789),
    ("Atlanta", "US"): (33.7490, -84.3880),
    ("New Orleans", "US"): (29.9511, -90.0715),
    ("Portland", "US"): (45.5152, -122.6784),
    ("Minneapolis", "US"): (44.9778, -93.2650),
    ("Detroit", "US"): (42.3314, -83.0458),
    ("Charlotte", "US"): (35.2271, -80.8431),
    ("Salt Lake City", "US"): (40.7608, -111.8910),
    ("Honolulu", "US"): (21.3069, -157.8583),
    ("St. Louis", "US"): (38.6270, -90.1994),
    ("Tampa", "US"): (27.9506, -82.4572),
    ("Baltimore", "US"): (39.2904, -76.6122),
    ("Pittsburgh", "US"): (40.4406, -79.9959),
    ("Kansas City", "US"): (39.0997, -94.5786),
    ("Indianapolis", "US"): (39.7684, -86.1581),
    ("Cleveland", "US"): (41.4993, -81.6944),
    ("Raleigh", "US"): (35.7796, -78.6382),
    ("Sacramento", "US"): (38.5816, -121.4944),
    ("Toronto", "CA"): (43.6532, -79.3832),
    ("Montreal", "CA"): (45.5017, -73.5673),
    ("Vancouver", "CA"): (49.2827, -123.1207),
    ("Mexico City", "MX"): (19.4326, -99.1332),
    ("London", "GB"): (51.5074, -0.1278),
    ("Paris", "FR"): (48.8566, 2.3522),
    ("Rome", "IT"): (41.9028, 12.4964),
    ("Milan", "IT"): (45.4642, 9.1900),
    ("Madrid", "ES"): (40.4168, -3.7038),
    ("Barcelona", "ES"): (41.3874, 2.1686),
    ("Lisbon", "PT"): (38.7223, -9.1393),
    ("Amsterdam", "NL"): (52.3676, 4.9041),
    ("Berlin", "DE"): (52.5200, 13.4050),
    ("Munich", "DE"): (48.1351, 11.5820),
    ("Frankfurt", "DE"): (50.1109, 8.6821),
    ("Hamburg", "DE"): (53.5511, 9.9937),
    ("Vienna", "AT"): (48.2082, 16.3738),
    ("Prague", "CZ"): (50.0755, 14.4378),
    ("Dublin", "IE"): (53.3498, -6.2603),
    ("Edinburgh", "GB"): (55.9533, -3.1883),
    ("Copenhagen", "DK"): (55.6761, 12.5683),
    ("Stockholm", "SE"): (59.3293, 18.0686),
    ("Oslo", "NO"): (59.9139, 10.7522),
    ("Zurich", "CH"): (47.3769, 8.5417),
    ("Brussels", "BE"): (50.8503, 4.3517),
    ("Warsaw", "PL"): (52.2297, 21.0122),
    ("Athens", "GR"): (37.9838, 23.7275),
    ("Istanbul", "TR"): (41.0082, 28.9784),
    ("Tokyo", "JP"): (35.6812, 139.7671),
    ("Singapore", "SG"): (1.2903, 103.8520),
    ("Sydney", "AU"): (-33.8688, 151.2093),
}

LANDMARKS: Tuple[Landmark, ...] = (
    # convention centres: "the convention center" is the one in the stay's city
    Landmark(
        "the Las Vegas Convention Center",
        ("las vegas convention center", "lvcc", "convention center"),
        36.1313,
        -115.1516,
    ),
    Landmark(
        "the Orange County Convention Center",
        ("orange county convention center", "occc", "convention center"),
        28.4250,
        -81.4694,
    ),
    Landmark(
        "the San Diego Convention Center", ("san diego convention center", "convention center"), 32.7065, -117.1617
    ),
    Landmark(
        "the Los Angeles Convention Center",
        ("los angeles convention center", "la convention center", "lacc", "convention center"),
        34.0403,
        -118.2696,
    ),
    Landmark("the Anaheim Convention Center", ("anaheim convention center",), 33.8003, -117.9196),
    Landmark("the Austin Convention Center", ("austin convention center", "convention center"), 30.2635, -97.7396),
    Landmark("McCormick Place", ("mccormick place", "mccormick", "convention center"), 41.8514, -87.6160),
    Landmark("the Moscone Center", ("moscone center", "moscone", "convention center"), 37.7840, -122.4010),
    Landmark("the Javits Center", ("javits center", "javits", "convention center"), 40.7577, -74.0021),
    Landmark(
        "the Walter E. Washington Convention Center",
        ("walter e washington convention center", "convention center"),
        38.9046,
        -77.0230,
    ),
    Landmark(
        "the Boston Convention and Exhibition Center",
        ("boston convention and exhibition center", "bcec", "convention center"),
        42.3457,
        -71.0445,
    ),
    Landmark("the Colorado Convention Center", ("colorado convention center", "convention center"), 39.7424, -104.9970),
    Landmark(
        "the Seattle Convention Center",
        ("seattle convention center", "washington state convention center", "convention center"),
        47.6114,
        -122.3318,
    ),
    Landmark("the Music City Center", ("music city center", "convention center"), 36.1575, -86.7760),
    Landmark(
        "the Georgia World Congress Center",
        ("georgia world congress center", "gwcc", "convention center"),
        33.7585,
        -84.3973,
    ),
    Landmark(
        "the Ernest N. Morial Convention Center", ("morial convention center", "convention center"), 29.9420, -90.0640
    ),
    Landmark(
        "the Miami Beach Convention Center", ("miami beach convention center", "convention center"), 25.7955, -80.1340
    ),
    Landmark("the Phoenix Convention Center", ("phoenix convention center", "convention center"), 33.4488, -112.0695),
    Landmark(
        "the George R. Brown Convention Center",
        ("george r brown convention center", "convention center"),
        29.7523,
        -95.3590,
    ),
    Landmark(
        "the Pennsylvania Convention Center", ("pennsylvania convention center", "convention center"), 39.9550, -75.1600
    ),
    Landmark(
        "the Kay Bailey Hutchison Convention Center",
        ("kay bailey hutchison convention center", "convention center"),
        32.7746,
        -96.8010,
    ),
    Landmark("ExCeL London", ("excel london", "excel centre", "excel"), 51.5081, 0.0294),
    Landmark("RAI Amsterdam", ("rai amsterdam", "rai"), 52.3406, 4.8886),
    # sights and districts
    Landmark("the Las Vegas Strip", ("las vegas strip", "vegas strip", "strip"), 36.1147, -115.1728),
    Landmark("Fremont Street", ("fremont street", "fremont st"), 36.1707, -115.1440, district=True),
    Landmark("Times Square", ("times square", "times sq"), 40.7580, -73.9855),
    Landmark("Central Park", ("central park",), 40.7829, -73.9654),
    Landmark("the Empire State Building", ("empire state building", "empire state"), 40.7484, -73.9857),
    Landmark("Madison Square Garden", ("madison square garden", "msg"), 40.7505, -73.9934),
    Landmark("Wall Street", ("wall street", "wall st", "financial district"), 40.7060, -74.0088, district=True),
    Landmark(
        "the Theater District", ("theater district", "theatre district", "broadway"), 40.7590, -73.9845, district=True
    ),
    Landmark("Midtown Manhattan", ("midtown manhattan", "midtown"), 40.7549, -73.9840, district=True),
    Landmark("Walt Disney World", ("walt disney world", "disney world", "disney"), 28.3852, -81.5639),
    Landmark("Universal Orlando", ("universal orlando", "universal studios", "universal"), 28.4743, -81.4678),
    Landmark("Disneyland", ("disneyland", "disney"), 33.8121, -117.9190),
    Landmark(
        "Universal Studios Hollywood",
        ("universal studios hollywood", "universal studios", "universal"),
        34.1381,
        -118.3534,
    ),
    Landmark("Hollywood", ("hollywood",), 34.1016, -118.3267, district=True),
    Landmark("Santa Monica Pier", ("santa monica pier",), 34.0094, -118.4973),
    Landmark("the Gaslamp Quarter", ("gaslamp quarter", "gaslamp"), 32.7116, -117.1597, district=True),
    Landmark("Navy Pier", ("navy pier",), 41.8917, -87.6086),
    Landmark("the Loop", ("loop",), 41.8819, -87.6278),
    Landmark("the Magnificent Mile", ("magnificent mile", "mag mile"), 41.8948, -87.6243),
    Landmark("Wrigley Field", ("wrigley field", "wrigley"), 41.9484, -87.6553),
    Landmark("Fisherman's Wharf", ("fisherman's wharf", "fishermans wharf"), 37.8080, -122.4177),
    Landmark("Union Square", ("union square",), 37.7880, -122.4075),
    Landmark("Union Square", ("union square",), 40.7359, -73.9911),
    Landmark("the National Mall", ("national mall",), 38.8899, -77.0260),
    Landmark("the White House", ("white house",), 38.8977, -77.0365),
    Landmark("the Capitol", ("capitol", "us capitol"), 38.8899, -77.0091),
    Landmark("Fenway Park", ("fenway park", "fenway"), 42.3467, -71.0972),
    Landmark("the French Quarter", ("french quarter",), 29.9584, -90.0644, district=True),
    Landmark("South Beach", ("south beach",), 25.7826, -80.1341, district=True),
    Landmark("Brickell", ("brickell",), 25.7617, -80.1918, district=True),
    Landmark("the Space Needle", ("space needle",), 47.6205, -122.3493),
    Landmark("Pike Place Market", ("pike place market", "pike place"), 47.6097, -122.3422),
    Landmark("Lower Broadway", ("lower broadway", "broadway"), 36.1610, -86.7770),
    Landmark("Sixth Street", ("sixth street", "6th street", "6th st"), 30.2672, -97.7388),
    Landmark("the River Walk", ("river walk", "riverwalk"), 29.4241, -98.4891),
    Landmark("Waikiki", ("waikiki",), 21.2793, -157.8292, district=True),
    Landmark("Hyde Park", ("hyde park",), 51.5073, -0.1657),
    Landmark("Westminster", ("westminster", "big ben"), 51.5007, -0.1246),
    Landmark("the Tower of London", ("tower of london", "tower bridge"), 51.5081, -0.0759),
    Landmark("the Eiffel Tower", ("eiffel tower", "tour eiffel"), 48.8584, 2.2945),
    Landmark("the Louvre", ("louvre",), 48.8606, 2.3376),
    Landmark("the Champs-Élysées", ("champs-elysees", "champs elysees", "champs-élysées"), 48.8698, 2.3075),
    Landmark("Disneyland Paris", ("disneyland paris", "disneyland", "disney"), 48.8722, 2.7758),
    Landmark("the Colosseum", ("colosseum", "coliseum"), 41.8902, 12.4922),
    Landmark("the Vatican", ("vatican", "st peter's", "st peters"), 41.9029, 12.4534),
    Landmark("the Trevi Fountain", ("trevi fountain", "trevi"), 41.9009, 12.4833),
    Landmark("the Sagrada Família", ("sagrada familia", "sagrada família"), 41.4036, 2.1744),
    Landmark("the Brandenburg Gate", ("brandenburg gate",), 52.5163, 13.3777),
)

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


def _words(text: str) -> str:
    low = re.sub(r"[^\w'&\- ]+", " ", text.lower()).replace("-", " ")
    return re.sub(r"\s+", " ", re.sub(r"^\s*the\s+", "", low)).strip()


def where_near(near: Any, place: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """``{"name", "lat", "lon"}`` for the traveller's "near X" in the stay's city ``place`` (a
    ``geo.place``); None when X is not a place the desk knows there."""
    if not isinstance(near, str) or not near.strip() or not place:
        return None
    said = _words(near)
    if _CENTRAL.match(said) or _CENTRAL.match(f"the {said}"):
        point = centre(place) or (float(place["lat"]), float(place["lon"]))
        return {"name": "the centre", "lat": point[0], "lon": point[1]}
    if _AIRPORT.match(said):
        return {"name": "the airport", "lat": float(place["lat"]), "lon": float(place["lon"])}
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


def _said(said: str) -> Optional[str]:
    """The longest landmark words that the traveller's say, whole words only ("strip" in "the strip",
    "convention center" in "walking distance to the convention center")."""
    padded = f" {said} "
    found = [w for w in _ALL_WORDS if f" {w} " in padded]
    return max(found, key=len) if found else None
