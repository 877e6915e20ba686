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


# Towns people stay in that have no airline airport (nor a code of their own), flown to through another's:
# where their hotels are searched. Their codes are their names, so they never pass for an airport's.
# code -> (name, latitude, longitude, time zone, country, the airport that serves it)
TOWNS: Dict[str, tuple] = {
    "ZERMATT": ("Zermatt", 46.0207, 7.7491, "Europe/Zurich", "CH", "ZRH"),
    "INTERLAKEN": ("Interlaken", 46.6863, 7.8632, "Europe/Zurich", "CH", "ZRH"),
    "GRINDELWALD": ("Grindelwald", 46.6242, 8.0414, "Europe/Zurich", "CH", "ZRH"),
    "LUCERNE": ("Lucerne", 47.0502, 8.3093, "Europe/Zurich", "CH", "ZRH"),
    "STMORITZ": ("St. Moritz", 46.4983, 9.8390, "Europe/Zurich", "CH", "ZRH"),
    "VERBIER": ("Verbier", 46.0964, 7.2286, "Europe/Zurich", "CH", "GVA"),
    "GSTAAD": ("Gstaad", 46.4750, 7.2861, "Europe/Zurich", "CH", "GVA"),
    "CHAMONIX": ("Chamonix", 45.9237, 6.8694, "Europe/Paris", "FR", "GVA"),
    "KITZBUHEL": ("Kitzbühel", 47.4464, 12.3925, "Europe/Vienna", "AT", "INN"),
    "HALLSTATT": ("Hallstatt", 47.5622, 13.6493, "Europe/Vienna", "AT", "SZG"),
    "SINTRA": ("Sintra", 38.8029, -9.3817, "Europe/Lisbon", "PT", "LIS"),
    "CASCAIS": ("Cascais", 38.6979, -9.4215, "Europe/Lisbon", "PT", "LIS"),
    "SORRENTO": ("Sorrento", 40.6263, 14.3758, "Europe/Rome", "IT", "NAP"),
    "POSITANO": ("Positano", 40.6281, 14.4850, "Europe/Rome", "IT", "NAP"),
    "TAORMINA": ("Taormina", 37.8516, 15.2853, "Europe/Rome", "IT", "CTA"),
    "CORTINA": ("Cortina d'Ampezzo", 46.5405, 12.1357, "Europe/Rome", "IT", "VCE"),
    "LAKECOMO": ("Lake Como", 45.8081, 9.0852, "Europe/Rome", "IT", "MXP"),
    "CINQUETERRE": ("Cinque Terre", 44.1350, 9.6847, "Europe/Rome", "IT", "PSA"),
    "STTROPEZ": ("St. Tropez", 43.2727, 6.6406, "Europe/Paris", "FR", "NCE"),
    "ANTIBES": ("Antibes", 43.5804, 7.1251, "Europe/Paris", "FR", "NCE"),
    "HVAR": ("Hvar", 43.1729, 16.4411, "Europe/Zagreb", "HR", "SPU"),
    "BRUGES": ("Bruges", 51.2093, 3.2247, "Europe/Brussels", "BE", "BRU"),
    "GHENT": ("Ghent", 51.0543, 3.7174, "Europe/Brussels", "BE", "BRU"),
    "GALWAY": ("Galway", 53.2707, -9.0568, "Europe/Dublin", "IE", "SNN"),
    "UBUD": ("Ubud", -8.5069, 115.2625, "Asia/Makassar", "ID", "DPS"),
    "KYOTO": ("Kyoto", 35.0116, 135.7681, "Asia/Tokyo", "JP", "KIX"),
    "NARA": ("Nara", 34.6851, 135.8048, "Asia/Tokyo", "JP", "KIX"),
    "HAKONE": ("Hakone", 35.2324, 139.1069, "Asia/Tokyo", "JP", "HND"),
    "NIKKO": ("Nikko", 36.7199, 139.6982, "Asia/Tokyo", "JP", "HND"),
    "HAKUBA": ("Hakuba", 36.6982, 137.8619, "Asia/Tokyo", "JP", "HND"),
    "NISEKO": ("Niseko", 42.8048, 140.6874, "Asia/Tokyo", "JP", "CTS"),
    "WHISTLER": ("Whistler", 50.1163, -122.9574, "America/Vancouver", "CA", "YVR"),
    "PLAYADELCARMEN": ("Playa del Carmen", 20.6296, -87.0739, "America/Cancun", "MX", "CUN"),
    "PARKCITY": ("Park City", 40.6461, -111.4980, "America/Denver", "US", "SLC"),
    "BRECKENRIDGE": ("Breckenridge", 39.4817, -106.0384, "America/Denver", "US", "DEN"),
    "ESTESPARK": ("Estes Park", 40.3772, -105.5217, "America/Denver", "US", "DEN"),
    "BIGSKY": ("Big Sky", 45.2847, -111.3683, "America/Denver", "US", "BZN"),
    "CARMEL": ("Carmel", 36.5552, -121.9233, "America/Los_Angeles", "US", "MRY"),
}
_TOWN_CODES = {name: code for code, (name, *_rest) in TOWNS.items()}


def town_code(name: str) -> Optional[str]:
    """The code a town in ``TOWNS`` is searched under ("Zermatt": "ZERMATT"), else None."""
    return _TOWN_CODES.get(name)


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
    """An airport, metro or town code -> {type, code, name, airport, lat, lon, tz, country, city}; a town
    (``TOWNS``) is a "city" whose airport is the one that serves it."""
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
    town = TOWNS.get(c)
    if town:
        name, lat, lon, tz, country, served_by = town
        return {
            "type": "city",
            "code": c,
            "name": name,
            "airport": served_by,
            "airports": [served_by],
            "lat": lat,
            "lon": lon,
            "tz": tz,
            "country": country,
            "city": name,
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
