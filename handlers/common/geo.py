"""Airports, cities and metro codes from the maintained ``airportsdata`` package (no hand list of airports).

``airport(code)`` gives one airport; ``place(code)`` accepts an airport or a metro/city code and
returns the representative airport; ``distance_km`` is great-circle. Name resolution for free
text lives in the extractor, which builds on these.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Dict, List, Optional, cast

import airportsdata

# Metropolitan (city) codes as used by airlines and GDSs: code -> (city name, airports, main airport).
METRO_CODES: Dict[str, Dict[str, Any]] = {
    "NYC": {"name": "New York", "airports": ["JFK", "EWR", "LGA"], "main": "JFK"},
    "LON": {"name": "London", "airports": ["LHR", "LGW", "STN", "LCY", "LTN", "SEN"], "main": "LHR"},
    "PAR": {"name": "Paris", "airports": ["CDG", "ORY", "BVA"], "main": "CDG"},
    "CHI": {"name": "Chicago", "airports": ["ORD", "MDW"], "main": "ORD"},
    "WAS": {"name": "Washington", "airports": ["IAD", "DCA", "BWI"], "main": "IAD"},
    "TYO": {"name": "Tokyo", "airports": ["HND", "NRT"], "main": "HND"},
    "MIL": {"name": "Milan", "airports": ["MXP", "LIN", "BGY"], "main": "MXP"},
    "ROM": {"name": "Rome", "airports": ["FCO", "CIA"], "main": "FCO"},
    "STO": {"name": "Stockholm", "airports": ["ARN", "BMA", "NYO"], "main": "ARN"},
    "MOW": {"name": "Moscow", "airports": ["SVO", "DME", "VKO"], "main": "SVO"},
    "SAO": {"name": "Sao Paulo", "airports": ["GRU", "CGH", "VCP"], "main": "GRU"},
    "RIO": {"name": "Rio de Janeiro", "airports": ["GIG", "SDU"], "main": "GIG"},
    "BUE": {"name": "Buenos Aires", "airports": ["EZE", "AEP"], "main": "EZE"},
    "YTO": {"name": "Toronto", "airports": ["YYZ", "YTZ"], "main": "YYZ"},
    "YMQ": {"name": "Montreal", "airports": ["YUL"], "main": "YUL"},
    "OSA": {"name": "Osaka", "airports": ["KIX", "ITM"], "main": "KIX"},
    "SEL": {"name": "Seoul", "airports": ["ICN", "GMP"], "main": "ICN"},
    "BJS": {"name": "Beijing", "airports": ["PEK", "PKX"], "main": "PEK"},
    "SHA": {"name": "Shanghai", "airports": ["PVG", "SHA"], "main": "PVG"},
    "JKT": {"name": "Jakarta", "airports": ["CGK", "HLP"], "main": "CGK"},
    "BKK": {"name": "Bangkok", "airports": ["BKK", "DMK"], "main": "BKK"},
    "DTT": {"name": "Detroit", "airports": ["DTW"], "main": "DTW"},
    "QSF": {"name": "San Francisco", "airports": ["SFO", "OAK", "SJC"], "main": "SFO"},
    "QLA": {"name": "Los Angeles", "airports": ["LAX", "BUR", "LGB", "SNA", "ONT"], "main": "LAX"},
    # HOU is Houston's city code and Hobby's own: "Houston" searches Bush (IAH) and Hobby alike.
    "HOU": {"name": "Houston", "airports": ["IAH", "HOU"], "main": "IAH"},
    # City codes that replaced a closed airport's: airportsdata still lists Tegel (TXL), Atatürk
    # (ISL) and old Doha (DIA) under their cities, so the city name must resolve through these.
    "BER": {"name": "Berlin", "airports": ["BER"], "main": "BER"},
    "IST": {"name": "Istanbul", "airports": ["IST", "SAW"], "main": "IST"},
    "DOH": {"name": "Doha", "airports": ["DOH"], "main": "DOH"},
}


# Codes that are both a metro code above and a busy airport, where the airport is meant.
# (QSF, a pseudo-code for the Bay Area, is also Setif in Algeria: there the metro wins.)
_AIRPORT_BEATS_METRO = frozenset({"SHA", "BKK", "BER", "IST", "DOH"})


@lru_cache(maxsize=1)
def airports() -> Dict[str, Dict[str, Any]]:
    """All airports with an IATA code, keyed by it."""
    return cast(Dict[str, Dict[str, Any]], airportsdata.load("IATA"))  # TypedDict rows, read as plain dicts


def airport(code: Optional[str]) -> Optional[Dict[str, Any]]:
    if not code:
        return None
    return airports().get(code.strip().upper())


def place(code: Optional[str]) -> Optional[Dict[str, Any]]:
    """An airport or metro code -> {type, code, name, airport, lat, lon, tz, country, city}."""
    if not code:
        return None
    c = code.strip().upper()
    metro = METRO_CODES.get(c)
    if metro and c not in _AIRPORT_BEATS_METRO:
        main = airports()[metro["main"]]
        return {
            "type": "city",
            "code": c,
            "name": metro["name"],
            "airport": metro["main"],
            "airports": list(metro["airports"]),
            "lat": main["lat"],
            "lon": main["lon"],
            "tz": main["tz"],
            "country": main["country"],
            "city": metro["name"],
        }
    a = airports().get(c)
    if not a:
        return None
    return {
        "type": "airport",
        "code": c,
        "name": a["name"],
        "airport": c,
        "airports": [c],
        "lat": a["lat"],
        "lon": a["lon"],
        "tz": a["tz"],
        "country": a["country"],
        "city": a["city"],
    }


def airports_for(code: str) -> List[str]:
    p = place(code)
    return list(p["airports"]) if p else []


def distance_km(a: str, b: str) -> Optional[float]:
    """Great-circle distance between two airport or metro codes."""
    pa, pb = place(a), place(b)
    if not pa or not pb:
        return None
    lat1, lon1, lat2, lon2 = map(math.radians, (pa["lat"], pa["lon"], pb["lat"], pb["lon"]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))
