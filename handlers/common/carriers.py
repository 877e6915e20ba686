"""Airlines by the names people type, their names to say back, and the groups people name
("star alliance", "budget airlines"). The extractor reads them; the trip summary says them back."""

from __future__ import annotations

from typing import Dict, Iterable, Tuple

# Airline names people type -> (IATA carrier code, name). Carriers, unlike airports, have no
# maintained offline package; this is the list the sandbox supplier and the SGD cases use.
AIRLINES: Dict[str, Tuple[str, str]] = {
    "delta": ("DL", "Delta Airlines"),
    "united": ("UA", "United Airlines"),
    "american": ("AA", "American Airlines"),
    "southwest": ("WN", "Southwest Airlines"),
    "alaska": ("AS", "Alaska Airlines"),
    "jetblue": ("B6", "JetBlue Airways"),
    "jet blue": ("B6", "JetBlue Airways"),
    "spirit": ("NK", "Spirit Airlines"),
    "frontier": ("F9", "Frontier Airlines"),
    "hawaiian": ("HA", "Hawaiian Airlines"),
    "allegiant": ("G4", "Allegiant Air"),
    "air canada": ("AC", "Air Canada"),
    "westjet": ("WS", "WestJet"),
    "british airways": ("BA", "British Airways"),
    "air france": ("AF", "Air France"),
    "klm": ("KL", "KLM"),
    "lufthansa": ("LH", "Lufthansa"),
    "emirates": ("EK", "Emirates"),
    "qatar": ("QR", "Qatar Airways"),
    "virgin atlantic": ("VS", "Virgin Atlantic"),
    "aer lingus": ("EI", "Aer Lingus"),
    "iberia": ("IB", "Iberia"),
    "swiss": ("LX", "Swiss International Air Lines"),
    "qantas": ("QF", "Qantas"),
    "aeromexico": ("AM", "Aeromexico"),
    "singapore airlines": ("SQ", "Singapore Airlines"),
    "cathay pacific": ("CX", "Cathay Pacific"),
    "japan airlines": ("JL", "Japan Airlines"),
    "all nippon": ("NH", "All Nippon Airways"),
    "turkish": ("TK", "Turkish Airlines"),
    "sun country": ("SY", "Sun Country Airlines"),
    "breeze": ("MX", "Breeze Airways"),
    "avianca": ("AV", "Avianca"),
    "copa": ("CM", "Copa Airlines"),
    "latam": ("LA", "LATAM Airlines"),
    "ryanair": ("FR", "Ryanair"),
    "easyjet": ("U2", "easyJet"),
    "norwegian": ("DY", "Norwegian"),
    "sas": ("SK", "Scandinavian Airlines"),
    "finnair": ("AY", "Finnair"),
    "tap": ("TP", "TAP Air Portugal"),
    "icelandair": ("FI", "Icelandair"),
    "etihad": ("EY", "Etihad Airways"),
    "korean air": ("KE", "Korean Air"),
    "eva air": ("BR", "EVA Air"),
    "volaris": ("Y4", "Volaris"),
    "porter": ("PD", "Porter Airlines"),
    "air new zealand": ("NZ", "Air New Zealand"),
    # the sandbox's own carriers the names above missed, and the world's other large airlines
    "ita airways": ("AZ", "ITA Airways"),
    "alitalia": ("AZ", "ITA Airways"),  # its successor flies its routes
    "air india": ("AI", "Air India"),
    "ethiopian": ("ET", "Ethiopian Airlines"),
    "south african airways": ("SA", "South African Airways"),
    "kenya airways": ("KQ", "Kenya Airways"),
    "el al": ("LY", "El Al"),
    "vueling": ("VY", "Vueling"),
    "wizz air": ("W6", "Wizz Air"),
    "wizzair": ("W6", "Wizz Air"),
    "air europa": ("UX", "Air Europa"),
    "brussels airlines": ("SN", "Brussels Airlines"),
    "austrian": ("OS", "Austrian Airlines"),
    "lot polish": ("LO", "LOT Polish Airlines"),
    "aegean": ("A3", "Aegean Airlines"),
    "eurowings": ("EW", "Eurowings"),
    "condor": ("DE", "Condor"),
    "air transat": ("TS", "Air Transat"),
    "flair": ("F8", "Flair Airlines"),
    "sunwing": ("WG", "Sunwing Airlines"),
    "avelo": ("XP", "Avelo Airlines"),
    "virgin australia": ("VA", "Virgin Australia"),
    "jetstar": ("JQ", "Jetstar"),
    "airasia": ("AK", "AirAsia"),
    "air asia": ("AK", "AirAsia"),
    "indigo": ("6E", "IndiGo"),
    "thai airways": ("TG", "Thai Airways"),
    "malaysia airlines": ("MH", "Malaysia Airlines"),
    "philippine airlines": ("PR", "Philippine Airlines"),
    "vietnam airlines": ("VN", "Vietnam Airlines"),
    "garuda": ("GA", "Garuda Indonesia"),
    "cebu pacific": ("5J", "Cebu Pacific"),
    "china airlines": ("CI", "China Airlines"),
    "air china": ("CA", "Air China"),
    "china eastern": ("MU", "China Eastern"),
    "china southern": ("CZ", "China Southern"),
    "asiana": ("OZ", "Asiana Airlines"),
    "saudia": ("SV", "Saudia"),
    "oman air": ("WY", "Oman Air"),
    "gulf air": ("GF", "Gulf Air"),
    "royal jordanian": ("RJ", "Royal Jordanian"),
    "egyptair": ("MS", "EgyptAir"),
    "royal air maroc": ("AT", "Royal Air Maroc"),
    "aerolineas argentinas": ("AR", "Aerolineas Argentinas"),
    "azul": ("AD", "Azul"),
    # loyalty programmes: "I want my skymiles", "use my aadvantage"
    "skymiles": ("DL", "Delta Airlines"),
    "mileageplus": ("UA", "United Airlines"),
    "aadvantage": ("AA", "American Airlines"),
    "rapid rewards": ("WN", "Southwest Airlines"),
    "trueblue": ("B6", "JetBlue Airways"),
}
AIRLINE_NAMES = {code: name for code, name in AIRLINES.values()}
# Groups people name instead of airlines: an alliance (its members this desk knows by name) or the
# low-cost carriers. Keys are how the group is said back.
AIRLINE_GROUPS: Dict[str, Tuple[str, ...]] = {
    "Star Alliance": ("UA", "AC", "LH", "LX", "TP", "TK", "NH", "SQ", "AV", "CM", "NZ"),
    "oneworld": ("AA", "AS", "BA", "IB", "QF", "CX", "JL", "QR", "AY"),
    "SkyTeam": ("DL", "AF", "KL", "AM", "KE", "VS", "SK"),
    "low-cost airlines": ("NK", "F9", "G4", "SY"),
}


def carriers_text(codes: Iterable[str]) -> str:
    """ "Delta Airlines, United Airlines"; a whole group by its name ("Star Alliance")."""
    codes = list(codes)
    for group, members in AIRLINE_GROUPS.items():
        if set(members) <= set(codes):
            rest = [c for c in codes if c not in members]
            return ", ".join([group] + [AIRLINE_NAMES.get(c, c) for c in rest])
    return ", ".join(AIRLINE_NAMES.get(c, c) for c in codes)
