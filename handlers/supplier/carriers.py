"""Real carriers by region, with their hubs, for plausible flight numbers and connections.

The sandbox needs "who would fly this route" rather than real schedules: carriers based in the
origin's or destination's region, connecting over one of their hubs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Tuple

from handlers.common import geo


@dataclass(frozen=True)
class Carrier:
    code: str
    name: str
    region: str
    hubs: Tuple[str, ...]
    low_cost: bool = False
    long_haul: bool = True  # flies routes over 4,500 km

    @property
    def home_country(self) -> str:
        return geo.airport(self.hubs[0])["country"]


CARRIERS: Tuple[Carrier, ...] = (
    Carrier("AA", "American Airlines", "north_america", ("DFW", "CLT", "ORD", "PHX", "MIA")),
    Carrier("UA", "United Airlines", "north_america", ("ORD", "DEN", "IAH", "SFO", "EWR")),
    Carrier("DL", "Delta Air Lines", "north_america", ("ATL", "MSP", "DTW", "SLC", "JFK")),
    Carrier("AS", "Alaska Airlines", "north_america", ("SEA", "PDX", "SFO"), long_haul=False),
    Carrier("B6", "JetBlue", "north_america", ("JFK", "BOS", "FLL"), low_cost=True),
    Carrier("WN", "Southwest Airlines", "north_america", ("DEN", "MDW", "LAS", "BWI"), low_cost=True, long_haul=False),
    Carrier("AC", "Air Canada", "north_america", ("YYZ", "YUL", "YVR")),
    Carrier("BA", "British Airways", "europe", ("LHR",)),
    Carrier("AF", "Air France", "europe", ("CDG",)),
    Carrier("KL", "KLM", "europe", ("AMS",)),
    Carrier("LH", "Lufthansa", "europe", ("FRA", "MUC")),
    Carrier("IB", "Iberia", "europe", ("MAD",)),
    Carrier("AZ", "ITA Airways", "europe", ("FCO",)),
    Carrier("LX", "Swiss", "europe", ("ZRH",)),
    Carrier("TP", "TAP Air Portugal", "europe", ("LIS",)),
    Carrier("U2", "easyJet", "europe", ("LGW", "GVA"), low_cost=True, long_haul=False),
    Carrier("TK", "Turkish Airlines", "middle_east", ("IST",)),
    Carrier("EK", "Emirates", "middle_east", ("DXB",)),
    Carrier("QR", "Qatar Airways", "middle_east", ("DOH",)),
    Carrier("NH", "ANA", "asia", ("HND", "NRT")),
    Carrier("JL", "Japan Airlines", "asia", ("HND", "NRT")),
    Carrier("SQ", "Singapore Airlines", "asia", ("SIN",)),
    Carrier("CX", "Cathay Pacific", "asia", ("HKG",)),
    Carrier("KE", "Korean Air", "asia", ("ICN",)),
    Carrier("AI", "Air India", "asia", ("DEL", "BOM")),
    Carrier("LA", "LATAM", "latin_america", ("GRU", "SCL", "LIM")),
    Carrier("AV", "Avianca", "latin_america", ("BOG",)),
    Carrier("CM", "Copa Airlines", "latin_america", ("PTY",)),
    Carrier("AM", "Aeromexico", "latin_america", ("MEX",)),
    Carrier("QF", "Qantas", "oceania", ("SYD", "MEL")),
    Carrier("NZ", "Air New Zealand", "oceania", ("AKL",)),
    Carrier("ET", "Ethiopian Airlines", "africa", ("ADD",)),
    Carrier("SA", "South African Airways", "africa", ("JNB",)),
    Carrier("KQ", "Kenya Airways", "africa", ("NBO",)),
)
BY_CODE: Dict[str, Carrier] = {c.code: c for c in CARRIERS}

_REGION_OF_COUNTRY: Dict[str, str] = {
    **dict.fromkeys(("US", "CA", "PR", "BM", "BS"), "north_america"),
    **dict.fromkeys(
        ("MX", "GT", "CR", "PA", "CO", "PE", "CL", "AR", "BR", "EC", "UY", "DO", "CU", "JM"), "latin_america"
    ),
    **dict.fromkeys(("TR", "AE", "QA", "SA", "IL", "JO", "KW", "BH", "OM", "EG"), "middle_east"),
    **dict.fromkeys(
        ("JP", "KR", "CN", "HK", "TW", "SG", "TH", "MY", "ID", "PH", "VN", "IN", "LK", "NP", "BD", "PK", "MO", "KH"),
        "asia",
    ),
    **dict.fromkeys(("AU", "NZ", "FJ", "PF"), "oceania"),
    **dict.fromkeys(("ET", "ZA", "KE", "NG", "GH", "MA", "TZ", "SN", "RW", "UG", "TN", "DZ"), "africa"),
}


def region_of(country: str) -> str:
    """Unlisted countries count as Europe, the largest remaining group in the data."""
    return _REGION_OF_COUNTRY.get(country, "europe")


LONG_HAUL_KM = 4500


def carriers_for(origin_country: str, destination_country: str, km: float) -> List[Carrier]:
    """Carriers based at either end of the route; Gulf and Istanbul carriers join between regions
    other than North America and Europe, where they carry much of the traffic."""
    regions = {region_of(origin_country), region_of(destination_country)}
    found = [c for c in CARRIERS if c.region in regions]
    if len(regions) > 1 and regions != {"north_america", "europe"}:
        found.extend(c for c in CARRIERS if c.region == "middle_east" and c not in found)
    if km > LONG_HAUL_KM:
        found = [c for c in found if c.long_haul]
    return found
