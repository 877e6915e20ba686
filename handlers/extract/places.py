"""Find airports, cities and metro areas in free text.

The index is built once from ``airportsdata`` (through ``handlers.common.geo``): every
airport's city, every airport's own name without the generic words ("Vancouver International
Airport" -> "Vancouver"), the metro codes, and a short list of nicknames people really type
("NYC", "San Fran", "Philly"). When a name has several airports the main one wins: a metro code
first, then an international airport whose name starts with the city.

Matching is greedy longest-first over words. A single word that is also plain English ("Nice",
"Hope", "Mobile") only counts after a travel cue ("to Nice"); lower-case text is accepted after
a cue or when the name is unambiguous; a misspelling within one edit of a major city is
forgiven when the word is capitalised or follows a cue.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from rapidfuzz import process
from rapidfuzz.distance import OSA

from handlers.common import geo

from .text import fold

Place = Dict[str, str]  # {"type": "airport"|"city", "code": "EWR", "name": "Newark"}

# Nicknames and spellings that are not in airportsdata: alias -> (code, display name).
NICKNAMES: Dict[str, Tuple[str, str]] = {
    "nyc": ("NYC", "New York"),
    "ny": ("NYC", "New York"),
    "new york city": ("NYC", "New York"),
    "big apple": ("NYC", "New York"),
    "manhattan": ("NYC", "New York"),
    "la": ("QLA", "Los Angeles"),
    "l a": ("QLA", "Los Angeles"),
    "sf": ("QSF", "San Francisco"),
    "san fran": ("QSF", "San Francisco"),
    "frisco": ("QSF", "San Francisco"),
    "san francisco bay area": ("QSF", "San Francisco"),
    "bay area": ("QSF", "San Francisco"),
    "sd": ("SAN", "San Diego"),
    "philly": ("PHL", "Philadelphia"),
    "vegas": ("LAS", "Las Vegas"),
    "chi town": ("CHI", "Chicago"),
    "chitown": ("CHI", "Chicago"),
    "chi": ("CHI", "Chicago"),
    "big d": ("DFW", "Dallas-Fort Worth"),
    "music city": ("BNA", "Nashville"),
    "city of angels": ("QLA", "Los Angeles"),
    "the city of angels": ("QLA", "Los Angeles"),
    "bmore": ("BWI", "Baltimore"),
    "b more": ("BWI", "Baltimore"),
    "hotlanta": ("ATL", "Atlanta"),
    "steel city": ("PIT", "Pittsburgh"),
    "the lou": ("STL", "St Louis"),
    "sactown": ("SMF", "Sacramento"),
    "sac town": ("SMF", "Sacramento"),
    "dc": ("WAS", "Washington"),
    "d c": ("WAS", "Washington"),
    "washington dc": ("WAS", "Washington"),
    "washington d c": ("WAS", "Washington"),
    "delhi": ("DEL", "Delhi"),
    "new delhi": ("DEL", "Delhi"),
    "kl": ("KUL", "Kuala Lumpur"),
    "anaheim": ("SNA", "Anaheim"),
    "toronto": ("YTO", "Toronto"),
    "vancouver": ("YVR", "Vancouver"),
    "ciudad de mexico": ("MEX", "Mexico City"),
    "cdmx": ("MEX", "Mexico City"),
    "sao paulo": ("SAO", "Sao Paulo"),
    "hong kong": ("HKG", "Hong Kong"),
    "singapore": ("SIN", "Singapore"),
    "nola": ("MSY", "New Orleans"),
    "nawlins": ("MSY", "New Orleans"),
    "minneapolis st paul": ("MSP", "Minneapolis"),
    "minneapolis saint paul": ("MSP", "Minneapolis"),
    "big easy": ("MSY", "New Orleans"),
    "sin city": ("LAS", "Las Vegas"),
    "beantown": ("BOS", "Boston"),
    "twin cities": ("MSP", "Minneapolis"),
    "mpls": ("MSP", "Minneapolis"),
    "cincy": ("CVG", "Cincinnati"),
    "nashvegas": ("BNA", "Nashville"),
    "atx": ("AUS", "Austin"),
    "htown": ("HOU", "Houston"),
    "h town": ("HOU", "Houston"),
    "pgh": ("PIT", "Pittsburgh"),
    "indy": ("IND", "Indianapolis"),
    "windy city": ("CHI", "Chicago"),
    "motor city": ("DTT", "Detroit"),
    "the motor city": ("DTT", "Detroit"),
    "san antone": ("SAT", "San Antonio"),
    "cabo": ("SJD", "Los Cabos"),
    "los cabos": ("SJD", "Los Cabos"),
    "cabo san lucas": ("SJD", "Los Cabos"),
    "st pete": ("TPA", "Tampa"),
    "st petersburg florida": ("TPA", "Tampa"),
    "the keys": ("EYW", "Key West"),
    "florida keys": ("EYW", "Key West"),
    "puerto rico": ("SJU", "San Juan"),
    "kc": ("MCI", "Kansas City"),
    "orange county": ("SNA", "Orange County"),
    "disney world": ("MCO", "Orlando"),
    "disneyworld": ("MCO", "Orlando"),
    "walt disney world": ("MCO", "Orlando"),
    "disneyland": ("SNA", "Anaheim"),
    "disney": ("MCO", "Orlando"),  # "take the kids to disney": Walt Disney World, unless they say Disneyland
    "malta": ("MLA", "Malta"),
    "saint martin": ("SXM", "St. Maarten"),
    "st martin": ("SXM", "St. Maarten"),
    "st maarten": ("SXM", "St. Maarten"),
    "sint maarten": ("SXM", "St. Maarten"),
    # famous short names: "rio for carnival", "hk to tokyo", "out of nj"
    "rio": ("RIO", "Rio de Janeiro"),
    "bombay": ("BOM", "Mumbai"),
    "hk": ("HKG", "Hong Kong"),
    "bsas": ("BUE", "Buenos Aires"),
    "nj": ("EWR", "Newark"),
}
# Airports people call by their own name ("out of O'Hare", "into Midway", "Heathrow"): alias -> code.
# A bare name is read only where an airport is expected (after from/to/into/out of, or before
# "airport"); with its city in front ("Chicago Midway", "Houston Hobby") it is always the airport.
AIRPORT_NAMES: Dict[str, str] = {
    "ohare": "ORD",
    "o hare": "ORD",
    "midway": "MDW",
    "heathrow": "LHR",
    "gatwick": "LGW",
    "stansted": "STN",
    "luton": "LTN",
    "dulles": "IAD",
    "reagan": "DCA",
    "reagan national": "DCA",
    "laguardia": "LGA",
    "la guardia": "LGA",
    "love field": "DAL",
    "hobby": "HOU",
    "intercontinental": "IAH",
    "bush intercontinental": "IAH",
    "sky harbor": "PHX",
    "hartsfield": "ATL",
    "john wayne": "SNA",
    "charles de gaulle": "CDG",
    "de gaulle": "CDG",
    "orly": "ORY",
    "schiphol": "AMS",
    "narita": "NRT",
    "haneda": "HND",
    "pearson": "YYZ",
    "billy bishop": "YTZ",
    "fiumicino": "FCO",
    "malpensa": "MXP",
    "linate": "LIN",
    "barajas": "MAD",
    "el prat": "BCN",
    "incheon": "ICN",
    "changi": "SIN",
    "logan": "BOS",
    "sea tac": "SEA",
    "seatac": "SEA",
    "lambert": "STL",
    "mccarran": "LAS",
    "harry reid": "LAS",
    "newark liberty": "EWR",
    "kennedy": "JFK",
    "ronald reagan": "DCA",
    "thurgood marshall": "BWI",
    "louis armstrong": "MSY",
    "bob hope": "BUR",
    "hollywood burbank": "BUR",
    "tf green": "PVD",
    "bradley": "BDL",
    "general mitchell": "MKE",
}
# Islands and a state people fly "to", by their main airport; short names no misspelling is forgiven into
# ("Mami" is Miami, not Maui).
ISLANDS: Dict[str, Tuple[str, str]] = {
    "maui": ("OGG", "Maui"),
    "kauai": ("LIH", "Kauai"),
    "oahu": ("HNL", "Honolulu"),
    "waikiki": ("HNL", "Honolulu"),
    "big island": ("KOA", "Kona"),
    "hawaii": ("HNL", "Honolulu"),
}
# Islands and small countries people fly "to" with no town of that name ("Aruba", "Jamaica", "the
# Bahamas", "St. Lucia"): alias -> (main airport, its place, the place named, another airport to offer).
# Taking the main airport is a guess, so it is told as one.
DESTINATIONS: Dict[str, Tuple[str, str, str, str]] = {
    "aruba": ("AUA", "Aruba", "Aruba", ""),
    "jamaica": ("MBJ", "Montego Bay", "Jamaica", "Kingston (KIN)"),
    "bahamas": ("NAS", "Nassau", "the Bahamas", "Freeport (FPO)"),
    "barbados": ("BGI", "Barbados", "Barbados", ""),
    "st lucia": ("UVF", "St. Lucia", "St. Lucia", "Castries (SLU)"),
    "saint lucia": ("UVF", "St. Lucia", "St. Lucia", "Castries (SLU)"),
    "bermuda": ("BDA", "Bermuda", "Bermuda", ""),
    "turks and caicos": ("PLS", "Providenciales", "Turks and Caicos", ""),
    "turks caicos": ("PLS", "Providenciales", "Turks and Caicos", ""),
    "cayman islands": ("GCM", "Grand Cayman", "the Cayman Islands", ""),
    "grand cayman": ("GCM", "Grand Cayman", "Grand Cayman", ""),
    "caymans": ("GCM", "Grand Cayman", "the Cayman Islands", ""),
    "curacao": ("CUR", "Curacao", "Curacao", ""),
    "bonaire": ("BON", "Bonaire", "Bonaire", ""),
    "antigua": ("ANU", "Antigua", "Antigua", ""),
    "st kitts": ("SKB", "St. Kitts", "St. Kitts", ""),
    "saint kitts": ("SKB", "St. Kitts", "St. Kitts", ""),
    "grenada": ("GND", "Grenada", "Grenada", ""),
    "dominican republic": ("PUJ", "Punta Cana", "the Dominican Republic", "Santo Domingo (SDQ)"),
    "st thomas": ("STT", "St. Thomas", "St. Thomas", ""),
    "saint thomas": ("STT", "St. Thomas", "St. Thomas", ""),
    "st croix": ("STX", "St. Croix", "St. Croix", ""),
    "saint croix": ("STX", "St. Croix", "St. Croix", ""),
    "virgin islands": ("STT", "St. Thomas", "the Virgin Islands", "St. Croix (STX) or Tortola (EIS)"),
    "us virgin islands": ("STT", "St. Thomas", "the US Virgin Islands", "St. Croix (STX)"),
    "usvi": ("STT", "St. Thomas", "the US Virgin Islands", "St. Croix (STX)"),
    "british virgin islands": ("EIS", "Tortola", "the British Virgin Islands", ""),
    "bvi": ("EIS", "Tortola", "the British Virgin Islands", ""),
    "tortola": ("EIS", "Tortola", "Tortola", ""),
    "anguilla": ("AXA", "Anguilla", "Anguilla", ""),
    "st barts": ("SBH", "St. Barts", "St. Barts", ""),
    "st barths": ("SBH", "St. Barts", "St. Barts", ""),
    "martinique": ("FDF", "Martinique", "Martinique", ""),
    "guadeloupe": ("PTP", "Guadeloupe", "Guadeloupe", ""),
    "trinidad and tobago": ("POS", "Port of Spain", "Trinidad and Tobago", "Tobago (TAB)"),
    "tobago": ("TAB", "Tobago", "Tobago", ""),
    "roatan": ("RTB", "Roatan", "Roatan", ""),
    "belize": ("BZE", "Belize City", "Belize", ""),
    "iceland": ("KEF", "Reykjavik", "Iceland", ""),
    "cyprus": ("LCA", "Larnaca", "Cyprus", "Paphos (PFO)"),
    "tenerife": ("TFS", "Tenerife", "Tenerife", "Tenerife North (TFN)"),
    "santorini": ("JTR", "Santorini", "Santorini", ""),
    "mykonos": ("JMK", "Mykonos", "Mykonos", ""),
    "bali": ("DPS", "Bali", "Bali", ""),
    "fiji": ("NAN", "Nadi", "Fiji", ""),
    "tahiti": ("PPT", "Tahiti", "Tahiti", ""),
    "bora bora": ("BOB", "Bora Bora", "Bora Bora", "Tahiti (PPT)"),
    "maldives": ("MLE", "Male", "the Maldives", ""),
    "mauritius": ("MRU", "Mauritius", "Mauritius", ""),
    "seychelles": ("SEZ", "Seychelles", "the Seychelles", ""),
    "guam": ("GUM", "Guam", "Guam", ""),
    "antigua and barbuda": ("ANU", "Antigua", "Antigua and Barbuda", ""),
    "st kitts and nevis": ("SKB", "St. Kitts", "St. Kitts and Nevis", "Nevis (NEV)"),
    "saint kitts and nevis": ("SKB", "St. Kitts", "St. Kitts and Nevis", "Nevis (NEV)"),
    "st vincent": ("SVD", "St. Vincent", "St. Vincent", ""),
    "saint vincent": ("SVD", "St. Vincent", "St. Vincent", ""),
    "ireland": ("DUB", "Dublin", "Ireland", "Shannon (SNN) or Cork (ORK)"),
    "sicily": ("CTA", "Catania", "Sicily", "Palermo (PMO)"),
    "sardinia": ("CAG", "Cagliari", "Sardinia", "Olbia (OLB)"),
    "crete": ("HER", "Heraklion", "Crete", "Chania (CHQ)"),
    "mallorca": ("PMI", "Palma de Mallorca", "Mallorca", ""),
    "majorca": ("PMI", "Palma de Mallorca", "Mallorca", ""),
    "ibiza": ("IBZ", "Ibiza", "Ibiza", ""),
    # regions and resort areas whose own airfield (if any) has no airline service (the hotel goes there too)
    "amalfi coast": ("NAP", "Naples", "the Amalfi Coast", ""),
    "amalfi": ("NAP", "Naples", "Amalfi", ""),
    "tuscany": ("FLR", "Florence", "Tuscany", "Pisa (PSA)"),
    "marthas vineyard": ("MVY", "Martha's Vineyard", "Martha's Vineyard", ""),
    "nantucket": ("ACK", "Nantucket", "Nantucket", ""),
    "cape cod": ("HYA", "Hyannis", "Cape Cod", "Boston (BOS)"),
    "outer banks": ("ORF", "Norfolk", "the Outer Banks", ""),
    "gatlinburg": ("TYS", "Knoxville", "Gatlinburg", ""),
    "smoky mountains": ("TYS", "Knoxville", "the Smoky Mountains", ""),
    "vail": ("EGE", "Eagle County", "Vail", "Denver (DEN)"),
    "scotland": ("EDI", "Edinburgh", "Scotland", "Glasgow (GLA)"),
    # metro areas and regions people name instead of a town ("south florida", "socal", "the metroplex")
    "south florida": ("MIA", "Miami", "South Florida", "Fort Lauderdale (FLL) or West Palm Beach (PBI)"),
    "southwest florida": ("RSW", "Fort Myers", "Southwest Florida", "Tampa (TPA)"),
    "central florida": ("MCO", "Orlando", "Central Florida", "Tampa (TPA)"),
    "tampa bay": ("TPA", "Tampa", "Tampa Bay", "St. Pete-Clearwater (PIE)"),
    "emerald coast": ("VPS", "Destin-Fort Walton Beach", "the Emerald Coast", "Pensacola (PNS)"),
    "southern california": ("LAX", "Los Angeles", "Southern California", "San Diego (SAN) or Orange County (SNA)"),
    "socal": ("LAX", "Los Angeles", "Southern California", "San Diego (SAN) or Orange County (SNA)"),
    "so cal": ("LAX", "Los Angeles", "Southern California", "San Diego (SAN) or Orange County (SNA)"),
    "northern california": ("SFO", "San Francisco", "Northern California", "Oakland (OAK) or Sacramento (SMF)"),
    "norcal": ("SFO", "San Francisco", "Northern California", "Oakland (OAK) or Sacramento (SMF)"),
    "silicon valley": ("SJC", "San Jose", "Silicon Valley", "San Francisco (SFO)"),
    "east bay": ("OAK", "Oakland", "the East Bay", "San Francisco (SFO)"),
    "inland empire": ("ONT", "Ontario, California", "the Inland Empire", "Los Angeles (LAX)"),
    "dfw area": ("DFW", "Dallas/Fort Worth", "the DFW area", "Dallas Love Field (DAL)"),
    "dfw metroplex": ("DFW", "Dallas/Fort Worth", "the DFW area", "Dallas Love Field (DAL)"),
    "the metroplex": ("DFW", "Dallas/Fort Worth", "the DFW area", "Dallas Love Field (DAL)"),
    "research triangle": ("RDU", "Raleigh/Durham", "the Research Triangle", ""),
    "north jersey": ("EWR", "Newark", "North Jersey", "New York (LGA or JFK)"),
    "northern new jersey": ("EWR", "Newark", "North Jersey", "New York (LGA or JFK)"),
    "new jersey": ("EWR", "Newark", "New Jersey", "Philadelphia (PHL) or New York (LGA or JFK)"),
    "jersey city": ("EWR", "Newark", "Jersey City", "New York (LGA or JFK)"),
    "south jersey": ("PHL", "Philadelphia", "South Jersey", "Atlantic City (ACY)"),
    "southern new jersey": ("PHL", "Philadelphia", "South Jersey", "Atlantic City (ACY)"),
    "jersey shore": ("ACY", "Atlantic City", "the Jersey Shore", "Newark (EWR) or Philadelphia (PHL)"),
    "long island": ("ISP", "Islip", "Long Island", "New York (JFK or LGA)"),
    "northern virginia": ("IAD", "Washington Dulles", "Northern Virginia", "Washington National (DCA)"),
    # towns whose own airfield (the one airportsdata and GeoNames give them) has no airline service, or
    # whose airport is filed under another town: the airport their travellers fly from, when it is near
    # enough for the hotel too (a town farther out, such as Boulder, keeps its own place: its hotel is there)
    "hartford": ("BDL", "Hartford", "Hartford", ""),
    "ann arbor": ("DTW", "Detroit", "Ann Arbor", ""),
    "scranton": ("AVP", "Wilkes-Barre/Scranton", "Scranton", ""),
    "fort worth": ("DFW", "Dallas/Fort Worth", "Fort Worth", ""),
    "ft worth": ("DFW", "Dallas/Fort Worth", "Fort Worth", ""),
    "st paul": ("MSP", "Minneapolis", "St. Paul", ""),
    "saint paul": ("MSP", "Minneapolis", "St. Paul", ""),
    "scottsdale": ("PHX", "Phoenix", "Scottsdale", ""),
    "tacoma": ("SEA", "Seattle", "Tacoma", ""),
    "akron": ("CAK", "Akron-Canton", "Akron", ""),
    "clearwater": ("TPA", "Tampa", "Clearwater", "St. Pete-Clearwater (PIE)"),
    "sarasota": ("SRQ", "Sarasota", "Sarasota", "Tampa (TPA)"),
    "west palm": ("PBI", "West Palm Beach", "West Palm Beach", ""),
    "palm beach": ("PBI", "West Palm Beach", "Palm Beach", ""),
    "destin": ("VPS", "Destin-Fort Walton Beach", "Destin", ""),
    "kissimmee": ("MCO", "Orlando", "Kissimmee", ""),
    "palo alto": ("SFO", "San Francisco", "Palo Alto", "San Jose (SJC)"),
    "berkeley": ("OAK", "Oakland", "Berkeley", "San Francisco (SFO)"),
    "santa monica": ("LAX", "Los Angeles", "Santa Monica", ""),
    "pasadena": ("BUR", "Burbank", "Pasadena", "Los Angeles (LAX)"),
    "chapel hill": ("RDU", "Raleigh/Durham", "Chapel Hill", ""),
    "champaign": ("CMI", "Champaign", "Champaign", ""),
    "annapolis": ("BWI", "Baltimore", "Annapolis", ""),
    "brooklyn": ("NYC", "New York", "Brooklyn", ""),
    "coventry": ("BHX", "Birmingham", "Coventry", ""),
    "cannes": ("NCE", "Nice", "Cannes", ""),
    "monaco": ("NCE", "Nice", "Monaco", ""),
}


# Resort towns and areas with no airline service of their own, flown to through the airport that serves
# them while the hotel stays in the town: alias -> (airport flown to, its place, the town, the code the
# town's hotels are searched under ("" when it has none: they are searched around the airport), other
# airports to offer). "Napa" is SFO with a hotel in Napa, not Napa County's airfield.
SERVED: Dict[str, Tuple[str, str, str, str, str]] = {
    "napa": ("SFO", "San Francisco", "Napa", "APC", "Oakland (OAK) or Sonoma County (STS)"),
    "napa valley": ("SFO", "San Francisco", "Napa", "APC", "Oakland (OAK) or Sonoma County (STS)"),
    "boulder": ("DEN", "Denver", "Boulder", "WBU", ""),
    "sedona": ("PHX", "Phoenix", "Sedona", "SDX", "Flagstaff (FLG)"),
    "park city": ("SLC", "Salt Lake City", "Park City", "", ""),
    "breckenridge": ("DEN", "Denver", "Breckenridge", "", "Eagle County (EGE)"),
    "estes park": ("DEN", "Denver", "Estes Park", "", ""),
    "lake tahoe": ("RNO", "Reno", "Lake Tahoe", "TVL", "Sacramento (SMF)"),
    "tahoe": ("RNO", "Reno", "Lake Tahoe", "TVL", "Sacramento (SMF)"),
    "south lake tahoe": ("RNO", "Reno", "South Lake Tahoe", "TVL", "Sacramento (SMF)"),
    "steamboat": ("HDN", "Hayden", "Steamboat Springs", "SBS", "Denver (DEN)"),
    "steamboat springs": ("HDN", "Hayden", "Steamboat Springs", "SBS", "Denver (DEN)"),
    "telluride": ("MTJ", "Montrose", "Telluride", "TEX", ""),
    "big sky": ("BZN", "Bozeman", "Big Sky", "", ""),
    "carmel": ("MRY", "Monterey", "Carmel", "", "San Jose (SJC)"),
    "carmel by the sea": ("MRY", "Monterey", "Carmel", "", "San Jose (SJC)"),
    "big sur": ("MRY", "Monterey", "Big Sur", "", "San Jose (SJC)"),
    "pebble beach": ("MRY", "Monterey", "Pebble Beach", "", "San Jose (SJC)"),
    "yosemite": ("FAT", "Fresno", "Yosemite", "", "San Francisco (SFO)"),
    "zion": ("LAS", "Las Vegas", "Zion", "", "St. George (SGU)"),
    "zion national park": ("LAS", "Las Vegas", "Zion", "", "St. George (SGU)"),
    "grand canyon": ("FLG", "Flagstaff", "the Grand Canyon", "GCN", "Phoenix (PHX) or Las Vegas (LAS)"),
    "moab": ("GJT", "Grand Junction", "Moab", "CNY", "Salt Lake City (SLC)"),
    "hamptons": ("ISP", "Islip", "the Hamptons", "HTO", "New York (JFK)"),
    "the hamptons": ("ISP", "Islip", "the Hamptons", "HTO", "New York (JFK)"),
    "east hampton": ("ISP", "Islip", "East Hampton", "HTO", "New York (JFK)"),
    "montauk": ("ISP", "Islip", "Montauk", "MTP", "New York (JFK)"),
    "stowe": ("BTV", "Burlington", "Stowe", "MVL", ""),
    "lake placid": ("ALB", "Albany", "Lake Placid", "LKP", "Burlington (BTV)"),
    "bar harbor": ("BGR", "Bangor", "Bar Harbor", "BHB", "Portland, Maine (PWM)"),
    "kennebunkport": ("PWM", "Portland", "Kennebunkport", "", ""),
    "cape may": ("ACY", "Atlantic City", "Cape May", "WWD", "Philadelphia (PHL)"),
    "poconos": ("AVP", "Wilkes-Barre/Scranton", "the Poconos", "", "Allentown (ABE)"),
    "the poconos": ("AVP", "Wilkes-Barre/Scranton", "the Poconos", "", "Allentown (ABE)"),
    "berkshires": ("ALB", "Albany", "the Berkshires", "", "Hartford (BDL)"),
    "the berkshires": ("ALB", "Albany", "the Berkshires", "", "Hartford (BDL)"),
    "whistler": ("YVR", "Vancouver", "Whistler", "", ""),
    "banff": ("YYC", "Calgary", "Banff", "YBA", ""),
    "lake louise": ("YYC", "Calgary", "Lake Louise", "YBA", ""),
    "playa del carmen": ("CUN", "Cancun", "Playa del Carmen", "", ""),
    "lake como": ("MXP", "Milan", "Lake Como", "", "Milan Linate (LIN)"),
    "cinque terre": ("PSA", "Pisa", "Cinque Terre", "", "Genoa (GOA)"),
    "positano": ("NAP", "Naples", "Positano", "", ""),
    "cotswolds": ("LHR", "London", "the Cotswolds", "", "Birmingham (BHX)"),
    "the cotswolds": ("LHR", "London", "the Cotswolds", "", "Birmingham (BHX)"),
    "chamonix": ("GVA", "Geneva", "Chamonix", "", ""),
    # abroad: towns people tour by train or road from a big airport ("tokyo then kyoto", "zermatt from nyc")
    "kyoto": ("KIX", "Osaka Kansai", "Kyoto", "", "Osaka Itami (ITM)"),
    "nara": ("KIX", "Osaka Kansai", "Nara", "", "Osaka Itami (ITM)"),
    "hakone": ("HND", "Tokyo Haneda", "Hakone", "", "Tokyo Narita (NRT)"),
    "nikko": ("HND", "Tokyo Haneda", "Nikko", "", "Tokyo Narita (NRT)"),
    "hakuba": ("HND", "Tokyo Haneda", "Hakuba", "", "Tokyo Narita (NRT)"),
    "niseko": ("CTS", "Sapporo New Chitose", "Niseko", "", ""),
    "zermatt": ("ZRH", "Zurich", "Zermatt", "", "Geneva (GVA)"),
    "interlaken": ("ZRH", "Zurich", "Interlaken", "", "Geneva (GVA)"),
    "grindelwald": ("ZRH", "Zurich", "Grindelwald", "", "Geneva (GVA)"),
    "lucerne": ("ZRH", "Zurich", "Lucerne", "", ""),
    "luzern": ("ZRH", "Zurich", "Lucerne", "", ""),
    "st moritz": ("ZRH", "Zurich", "St. Moritz", "", "Milan (MXP)"),
    "saint moritz": ("ZRH", "Zurich", "St. Moritz", "", "Milan (MXP)"),
    "verbier": ("GVA", "Geneva", "Verbier", "", ""),
    "gstaad": ("GVA", "Geneva", "Gstaad", "", "Zurich (ZRH)"),
    "kitzbuhel": ("INN", "Innsbruck", "Kitzbühel", "", "Salzburg (SZG) or Munich (MUC)"),
    "hallstatt": ("SZG", "Salzburg", "Hallstatt", "", "Vienna (VIE)"),
    "sintra": ("LIS", "Lisbon", "Sintra", "", ""),
    "cascais": ("LIS", "Lisbon", "Cascais", "", ""),
    "sorrento": ("NAP", "Naples", "Sorrento", "", ""),
    "taormina": ("CTA", "Catania", "Taormina", "", ""),
    "cortina": ("VCE", "Venice", "Cortina d'Ampezzo", "", "Innsbruck (INN)"),
    "cortina dampezzo": ("VCE", "Venice", "Cortina d'Ampezzo", "", "Innsbruck (INN)"),
    "dolomites": ("VCE", "Venice", "the Dolomites", "", "Innsbruck (INN) or Verona (VRN)"),
    "the dolomites": ("VCE", "Venice", "the Dolomites", "", "Innsbruck (INN) or Verona (VRN)"),
    "st tropez": ("NCE", "Nice", "St. Tropez", "", ""),
    "saint tropez": ("NCE", "Nice", "St. Tropez", "", ""),
    "antibes": ("NCE", "Nice", "Antibes", "", ""),
    "hvar": ("SPU", "Split", "Hvar", "", ""),
    "bruges": ("BRU", "Brussels", "Bruges", "", ""),
    "brugge": ("BRU", "Brussels", "Bruges", "", ""),
    "ghent": ("BRU", "Brussels", "Ghent", "", ""),
    "galway": ("SNN", "Shannon", "Galway", "", "Dublin (DUB)"),
    "ubud": ("DPS", "Bali", "Ubud", "", ""),
    "machu picchu": ("CUZ", "Cusco", "Machu Picchu", "", ""),
    # ski and resort towns at home whose airport is filed under another town, or that have none
    "crested butte": ("GUC", "Gunnison", "Crested Butte", "", "Denver (DEN)"),
    "snowmass": ("ASE", "Aspen", "Snowmass", "", "Eagle County (EGE)"),
    "beaver creek": ("EGE", "Eagle County", "Beaver Creek", "", "Denver (DEN)"),
    "keystone": ("DEN", "Denver", "Keystone", "", "Eagle County (EGE)"),
    "mammoth lakes": ("MMH", "Mammoth Lakes", "Mammoth Lakes", "", "Reno (RNO)"),
    "mammoth mountain": ("MMH", "Mammoth Lakes", "Mammoth Lakes", "", "Reno (RNO)"),
    "sun valley": ("SUN", "Hailey", "Sun Valley", "", "Boise (BOI)"),
    "killington": ("BTV", "Burlington", "Killington", "", "Albany (ALB)"),
    "taos": ("ABQ", "Albuquerque", "Taos", "", "Santa Fe (SAF)"),
    "mackinac island": ("PLN", "Pellston", "Mackinac Island", "", ""),
    "key largo": ("MIA", "Miami", "Key Largo", "", ""),
    "la jolla": ("SAN", "San Diego", "La Jolla", "", ""),
    "laguna beach": ("SNA", "Orange County", "Laguna Beach", "", "Los Angeles (LAX)"),
    "malibu": ("LAX", "Los Angeles", "Malibu", "", ""),
    "sonoma": ("STS", "Santa Rosa", "Sonoma", "", "San Francisco (SFO) or Oakland (OAK)"),
    "yellowstone": ("BZN", "Bozeman", "Yellowstone", "", "Jackson Hole (JAC) or West Yellowstone (WYS)"),
    "glacier national park": ("FCA", "Kalispell", "Glacier National Park", "", ""),
    # towns and parks people holiday in whose own field (if any) has no airline service, or whose name
    # airportsdata gives to another place ("panama city beach" is not Panama, "hood river" not New Zealand's)
    "panama city beach": ("ECP", "Panama City", "Panama City Beach", "", "Destin-Fort Walton Beach (VPS)"),
    "gettysburg": ("MDT", "Harrisburg", "Gettysburg", "GTY", "Baltimore (BWI)"),
    "hershey": ("MDT", "Harrisburg", "Hershey", "", ""),
    "williamsburg virginia": ("PHF", "Newport News", "Williamsburg", "", "Richmond (RIC) or Norfolk (ORF)"),
    "colonial williamsburg": ("PHF", "Newport News", "Williamsburg", "", "Richmond (RIC) or Norfolk (ORF)"),
    "st augustine": ("JAX", "Jacksonville", "St. Augustine", "UST", "Daytona Beach (DAB)"),
    "saint augustine": ("JAX", "Jacksonville", "St. Augustine", "UST", "Daytona Beach (DAB)"),
    "amelia island": ("JAX", "Jacksonville", "Amelia Island", "", ""),
    "jekyll island": ("JAX", "Jacksonville", "Jekyll Island", "", "Brunswick (BQK)"),
    "tybee island": ("SAV", "Savannah", "Tybee Island", "", ""),
    "kiawah island": ("CHS", "Charleston", "Kiawah Island", "", ""),
    "sanibel": ("RSW", "Fort Myers", "Sanibel", "", ""),
    "sanibel island": ("RSW", "Fort Myers", "Sanibel", "", ""),
    "siesta key": ("SRQ", "Sarasota", "Siesta Key", "", "Tampa (TPA)"),
    "anna maria island": ("SRQ", "Sarasota", "Anna Maria Island", "", "Tampa (TPA)"),
    "gulf shores": ("PNS", "Pensacola", "Gulf Shores", "GUF", "Mobile (MOB)"),
    "mount rushmore": ("RAP", "Rapid City", "Mount Rushmore", "", ""),
    "mt rushmore": ("RAP", "Rapid City", "Mount Rushmore", "", ""),
    "grand teton": ("JAC", "Jackson Hole", "Grand Teton", "", "Idaho Falls (IDA)"),
    "grand tetons": ("JAC", "Jackson Hole", "the Grand Tetons", "", "Idaho Falls (IDA)"),
    "the grand tetons": ("JAC", "Jackson Hole", "the Grand Tetons", "", "Idaho Falls (IDA)"),
    "joshua tree": ("PSP", "Palm Springs", "Joshua Tree", "", "Ontario (ONT)"),
    "death valley": ("LAS", "Las Vegas", "Death Valley", "", ""),
    "sequoia": ("FAT", "Fresno", "Sequoia National Park", "", ""),
    "sequoia national park": ("FAT", "Fresno", "Sequoia National Park", "", ""),
    "solvang": ("SBA", "Santa Barbara", "Solvang", "", ""),
    "mendocino": ("STS", "Santa Rosa", "Mendocino", "", "San Francisco (SFO)"),
    "cannon beach": ("PDX", "Portland", "Cannon Beach", "", ""),
    "hood river": ("PDX", "Portland", "Hood River", "", ""),
    "san juan islands": ("SEA", "Seattle", "the San Juan Islands", "FRD", "Bellingham (BLI)"),
    "lake george": ("ALB", "Albany", "Lake George", "", ""),
    "cooperstown": ("ALB", "Albany", "Cooperstown", "COP", "Syracuse (SYR)"),
    "niagara falls": ("BUF", "Buffalo", "Niagara Falls", "IAG", "Toronto (YYZ)"),
    "wisconsin dells": ("MSN", "Madison", "Wisconsin Dells", "", ""),
    "mackinac": ("PLN", "Pellston", "Mackinac Island", "", ""),
    "eureka springs": ("XNA", "Northwest Arkansas", "Eureka Springs", "", ""),
    "lake of the ozarks": ("SGF", "Springfield, Missouri", "Lake of the Ozarks", "", "Kansas City (MCI)"),
    "pigeon forge": ("TYS", "Knoxville", "Pigeon Forge", "", ""),
    "rehoboth beach": ("BWI", "Baltimore", "Rehoboth Beach", "", "Philadelphia (PHL)"),
}


# Towns with no airline airport of their own, found only when their state is said, and the airport that
# serves them ("springfield ma" is Bradley, not Missouri's Springfield): (name, state) -> airport.
SERVED_IN_STATE: Dict[Tuple[str, str], str] = {
    ("springfield", "massachusetts"): "BDL",
    ("kansas city", "kansas"): "MCI",
    ("fayetteville", "arkansas"): "XNA",
    ("bentonville", "arkansas"): "XNA",
    ("columbia", "maryland"): "BWI",
    ("arlington", "texas"): "DFW",
    ("arlington", "virginia"): "DCA",
    ("cambridge", "massachusetts"): "BOS",
    ("newark", "delaware"): "PHL",
    ("bloomington", "indiana"): "IND",
    ("princeton", "new jersey"): "EWR",
    ("durham", "north carolina"): "RDU",
}


def served_town(typed: str) -> Optional[str]:
    """The town a name typed stands for when it is flown to through another town's airport ("kyoto": "Kyoto",
    not Osaka Kansai), else None."""
    town = SERVED.get(fold(typed))
    return town[2] if town else None


def _served_note(code: str, name: str, town: str, _stay: str, other: str) -> str:
    """ "Flying into Sedona's nearest airline airport: Phoenix (PHX); say if you would rather fly into Flagstaff (FLG)"."""
    said = f"Flying into {name} ({code}) for {town}, which has no airline airport of its own"
    return f"{said}; say if you would rather fly into {other}" if other else said


def _destination_note(code: str, name: str, place: str, other: str) -> str:
    """ "Assumed Montego Bay (MBJ) for Jamaica; say if you meant Kingston (KIN)"."""
    said = f"Assumed {name} ({code}) for {place}" if name != place else f"Assumed {place}'s main airport ({code})"
    return f"{said}; say if you meant {other}" if other else said


# A name that stands for several airports, the one taken and the others offered.
GATEWAYS = {
    "hawaii": "Assumed Honolulu (HNL) for Hawaii; say if you meant Maui (OGG), Kona (KOA) or Kauai (LIH)",
    "the keys": "Assumed Key West (EYW) for the Keys; say if you would rather fly into Miami (MIA)",
    "florida keys": "Assumed Key West (EYW) for the Keys; say if you would rather fly into Miami (MIA)",
    "disney world": "Assumed Orlando (MCO) for Disney World",
    "disneyworld": "Assumed Orlando (MCO) for Disney World",
    "walt disney world": "Assumed Orlando (MCO) for Disney World",
    "disneyland": "Assumed Orange County (SNA) for Disneyland; say if you would rather fly into Los Angeles (LAX)",
    "disney": "Assumed Orlando (MCO) for Disney World; say if you meant Disneyland in California (SNA)",
    "st pete": "Assumed Tampa (TPA) for St. Pete; say if you meant St. Pete-Clearwater (PIE)",
    "st petersburg florida": "Assumed Tampa (TPA) for St. Petersburg; say if you meant St. Pete-Clearwater (PIE)",
    "nj": "Assumed Newark (EWR) for New Jersey; say if you meant another airport",
}
GATEWAYS.update({alias: _destination_note(*entry) for alias, entry in DESTINATIONS.items()})
GATEWAYS.update({alias: _served_note(*entry) for alias, entry in SERVED.items()})
# Nicknames that are too short to trust in lower case ("la" is also French, "ny" a typo).
_CASE_SENSITIVE_NICKNAMES = {"ny", "la", "sf", "sd", "dc", "kl", "l a", "d c", "kc", "hk", "nj"}

# Words in airport names that do not name the place.
_GENERIC = re.compile(
    r"\b(international|intl|ntl|national|regional|municipal|county|airport|airfield|airstrip|aerodrome|"
    r"jetport|field|executive|memorial|airpark)\b"
)
_MINOR = re.compile(r"\b(heliport|seaplane|air base|afb|air force|naval|army|raf|raaf|station|bus|railway|ferry)\b")

# Plain English words that are also towns somewhere; they need a travel cue before them.
COMMON_WORDS = frozenset(
    """
    a an the i me my we us our you your he she it they them this that these those there here what which who
    when where why how yes no not any all some one two three four five six seven eight nine ten
    hope nice save wise page flat mesa troy van bush gore ware wick mare leo po bo wa au ely ada ames enid
    erie hugo hays wink lusk elim omak rome reno york victoria orange mobile reading bristol darwin
    hotel hotels room rooms flight flights stay trip ticket tickets star stars city town airport place
    first second third economy business premium class coach price cost date day days night nights week
    morning evening afternoon today tomorrow tonight next last new old great good best fine okay ok sure
    thanks thank please help need want like find book search look going go leave return back flying
    monday tuesday wednesday thursday friday saturday sunday weekend
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    delta united american southwest alaska frontier spirit jetblue allegiant hawaiian
    can will just also only still even much many more most other another each every both either
    paradise independence liberty union hamilton lincoln jackson franklin madison
    friendly welcome hollywood beverly eagle bethel plains crossing gateway center central harbor
    north south east west santa san saint st mount lake bay island river valley park beach spring springs
    """.split()
)
# Words after a name that make it a venue or an address rather than a city.
VENUE_WORDS = frozenset(
    """station depot terminal centre center stadium arena amphitheater amphitheatre theatre theater hall square
    street avenue ave road boulevard blvd drive lane inn suites lodge plaza mall museum university
    hostel resort motel apartments aerocity lot bungalow house cottage villa
    college church club pier marina garden gardens bowl coliseum pavilion auditorium clinic hospital
    500""".split()
)
# Words after which a place name is expected.
CUES = frozenset(
    "to from in into at for via visit visiting near around leaving departing depart leave out of "
    "fly flying head heading go going travel traveling travelling arrive arriving return returning "
    "back stay staying book than and then".split()
)
# Upper-case words that look like airport codes but are not.
_NOT_CODES = frozenset(
    "THE AND YOU ANY ALL CAN NOT OUT FOR BUT ARE HOW WHO WHY YES USA USD EUR GBP CAD AUD JPY VIP ASAP "
    "HEY HI OK OKAY PLS AM PM TBD FYI ETA BTW LOL OMG ONE TWO SUN MON TUE WED THU FRI SAT JAN FEB MAR APR "
    "MAY JUN JUL AUG SEP OCT NOV DEC NEW OLD BIG TOP MAX MIN PER NON RED EYE CHF MXN NZD SEK NOK DKK INR".split()
)
# Airport codes people also write in lower case.
_LOWER_OK_CODES = frozenset(
    {a.lower() for m in geo.METRO_CODES.values() for a in m["airports"]}
    | {"lax", "sfo", "dfw", "atl", "mia", "bos", "phx", "iah", "dtw", "msp", "jfk", "ewr", "lga", "ord"}
)
# Big airports' codes that are also written in lower case where a place is expected: after a travel
# cue ("from phl") or right before "to" ("phl to orlando"); codes that are words ("sea", "den") are left out.
_LOWER_CUED_CODES = frozenset(
    "phl clt bna mco msy pdx slc bwi dca iad mdw fll rdu stl mci cle cmh smf sjc sna hnl tpa rsw buf abq okc "
    "mke jax rno boi anc sju yyz yvr yul lhr cdg fra ams mad fco dub nrt hnd icn "
    # beach and holiday airports people write as codes ("dfw to cun for spring break", "lax to ogg")
    "cun sjd pvr mbj puj nas aua bgi sxm stt stx ogg koa lih gdl mex pty sjo lim gru eze scl "
    "yyc yeg yhz lis bcn mxp muc zrh gva cph arn osl hel ath ist dxb hkg bkk pvg kix tpe akl "
    # other airports people write short ("bos-chs", "den to las", "jfk>lgw"); codes that are words
    # ("man", "bud", "nap", "sun", "can", "per", "cos", "doh") are left out
    "las chs ric orf bdl pvd alb syr roc bhm sdf cvg dsm gsp pwm btv msn grr tys bzn jac ege psp ont lgb geg "
    "ict dal hou myr hhh ilm avl cak mry sba sbp pbi srq pns vps ecp tlh gnv dab mlb cae gso tri hsv shv bil "
    "fca cid fsd bis gjt mtj hdn rdm eug mfr lgw edi gla bhx brs ncl bfs ory nce lys mrs ber dus str vie prg "
    "waw krk kef opo fao agp pmi svq vlc vce flr tlv auh jnb cpt nbo bom blr kul hkt cgk dps mnl pek icn "
    "syd mel bne adl chc yow ywg yqb mty gdl mde scl eze gru".split()
)

# Big airports whose codes are also words ("sea", "den", "aus"): read in lower case only as one end of
# a route whose other end is written as a code ("phx to sea", "bos-den-bos").
_WORD_CODES = frozenset("sea den aus san sat ind pit mem tus elp ict oma gsp sav tul".split())

_SENTENCE_CAPS = re.compile(r"\bI(?=\b|')|(?:^|[.!?]\s+)[A-Z](?=[a-z]+\b)")

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*(?:\.[A-Za-z]\.?)*|\d+")
_MAX_WORDS = 4


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    place: Place
    # for a name several towns share ("Columbus"), the assumption to tell the traveller
    assumed: str = ""
    # a town flown to through another town's airport ("Boulder": DEN): where its hotel is
    stay: Optional[Place] = None


@dataclass(frozen=True)
class Town:
    name: str
    country: str
    region: str
    population: int
    codes: Tuple[str, ...]
    key: str = ""

    @property
    def label(self) -> str:
        where = self.region if self.country == "US" and self.region else _gazetteer()["countries"].get(self.country)
        return f"{self.name}, {where or self.country} ({self.codes[0]})"


GAZETTEER = Path(__file__).with_name("data") / "gazetteer.json"
# Another town of the same name is worth mentioning when it has this share of the first one's
# people and at least _RIVAL_PEOPLE ("Portland": Oregon, then Maine).
_RIVAL_SHARE = 0.08
_RIVAL_PEOPLE = 40_000
_WELL_KNOWN_PEOPLE = 100_000


@lru_cache(maxsize=1)
def _gazetteer() -> Dict[str, object]:
    return json.loads(GAZETTEER.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _words() -> frozenset:
    """English words that are, or are one typo from, a town's name ("van", "reading", "resend")."""
    return frozenset(_gazetteer()["words"])


@lru_cache(maxsize=1)
def _towns() -> Dict[str, List[Town]]:
    """folded name (and, for big towns, their names in other languages) -> towns, most people first."""
    data = _gazetteer()
    out: Dict[str, List[Town]] = {}
    for name, country, region, population, codes, aliases in data["towns"]:
        town = Town(name, country, region, population, tuple(codes), fold(name))
        for key in {town.key, *aliases}:
            out.setdefault(key, []).append(town)
    for short, (full, country) in _SHORT_NAMES.items():
        town = next((t for t in out.get(fold(full)) or [] if t.country == country), None)
        if town:
            out.setdefault(short, []).append(replace(town, name=short.title(), key=short))
    for key, towns in out.items():
        towns.sort(key=lambda t: (t.country != _MEANT_FIRST.get(key), -t.population))
    return out


# Towns people call by a shorter name GeoNames does not list: short name -> (GeoNames name, country).
_SHORT_NAMES = {"newcastle": ("Newcastle upon Tyne", "GB")}
# A name several big towns share whose most populous town (by GeoNames' count of the town proper) is not
# the one most travellers mean: the country of the one meant first (the other is still offered, and taken
# when the route's other end is in its country): "Newcastle" is England's NCL unless Australia is said.
_MEANT_FIRST = {"newcastle": "GB"}


def _rival(key: str) -> Optional[Tuple[Town, Town]]:
    """(the town meant by default, another big town of the same name) or None."""
    towns = [t for t in _towns().get(key) or [] if t.key == key]
    if len(towns) < 2:
        return None
    first = towns[0]
    for other in towns[1:]:
        if (
            not set(other.codes) & set(first.codes)  # towns that share an airport are one metro (Kansas City MO/KS)
            and other.population >= _RIVAL_PEOPLE
            and other.population >= _RIVAL_SHARE * first.population
        ):
            return first, other
    return None


@dataclass(frozen=True)
class _Entry:
    code: str
    type: str
    name: str
    score: int
    region: str = ""  # folded subdivision and country, to honour "Portland, Maine"


def _airport_score(a: Dict[str, str], city_key: str) -> int:
    name = fold(a.get("name", ""))
    score = 0
    if "international" in name:
        score += 40
    if name.startswith(city_key):
        score += 10
    if name == f"{city_key} international airport":
        score += 5
    if _MINOR.search(name):
        score -= 60
    return score


@lru_cache(maxsize=1)
def _index() -> Dict[str, List[_Entry]]:
    """folded name -> candidate places, best first."""
    index: Dict[str, List[_Entry]] = {}

    def add(key: str, entry: _Entry) -> None:
        if key and not key.isdigit():
            index.setdefault(key, []).append(entry)

    for code, a in geo.airports().items():
        region = f"{fold(a.get('subd') or '')} {fold(a.get('country') or '')}"
        city = a.get("city") or ""
        key = fold(city)
        add(key, _Entry(code, "city", city, _airport_score(a, key), region))
        stripped = _name_key(a)
        if stripped and stripped != key and not _MINOR.search(stripped):
            # an airport named after a town it is not in ("Oakland County" is Pontiac's) comes after that town's own
            elsewhere = 30 if stripped in _city_keys() else 5
            add(stripped, _Entry(code, "city", airport_city(code), _airport_score(a, stripped) - elsewhere, region))
            opening = _opening_town(stripped, key)
            if opening and "international" in fold(a.get("name") or ""):
                # "Greenville Spartanburg International" (filed under Greer) serves Greenville: above the
                # town's own small fields, below an international airport of its own
                add(opening, _Entry(code, "city", airport_city(code), _airport_score(a, opening) - 30, region))
    for code, metro in geo.METRO_CODES.items():
        main = geo.airports().get(metro["main"]) or {}
        region = f"{fold(main.get('subd') or '')} {fold(main.get('country') or '')}"
        add(fold(metro["name"]), _Entry(code, "city", metro["name"], 100, region))
    for alias, (code, name) in {**NICKNAMES, **ISLANDS}.items():
        add(alias, _Entry(code, "city", name, 90))
    destinations = {**DESTINATIONS, **{alias: (c, n, t, o) for alias, (c, n, t, _s, o) in SERVED.items()}}
    for alias, (code, name, _place, _other) in destinations.items():
        served = geo.place(code) or {}
        main = geo.airports().get(served.get("airport") or code) or {}
        # a served town whose name is also a word ("boulder", "steamboat") needs a cue or a capital, as before
        score = 35 if alias in SERVED and " " not in alias and alias in _words() else 90
        # the served airport's state or country, so that "Hartford, CT" still finds Bradley
        add(
            alias,
            _Entry(code, "city", name, score, f"{fold(main.get('subd') or '')} {fold(main.get('country') or '')}"),
        )
    for alias, code in AIRPORT_NAMES.items():
        a = geo.airports()[code]
        city = airport_city(code)
        add(alias, _Entry(code, "airport", city, 80))
        add(f"{fold(city)} {alias}", _Entry(code, "airport", city, 95))  # "Chicago Midway", "Dallas Love Field"
    for entries in index.values():
        entries.sort(key=lambda e: (-e.score, e.code))
    for key, towns in list(_towns().items()):
        top = towns[0]
        entries = index.get(key)
        if entries and top.key == key:
            if top.population >= _WELL_KNOWN_PEOPLE and not any(e.code in top.codes or e.score >= 60 for e in entries):
                # "Raleigh": airportsdata files RDU under "Raleigh/Durham" and only a small
                # airport under "Raleigh"; the town's own airport comes first
                add(key, _town_entry(top, 60))
            else:  # among equally named airports, the ones GeoNames links to the town first ("Houston": HOU)
                index[key] = entries = [
                    _Entry(e.code, e.type, e.name, e.score + 20, e.region)
                    if e.code in top.codes and e.score < 70
                    else e
                    for e in entries
                ]
                _biggest_town_first(key, top, entries, index)
            continue
        exact = max((t.population for t in towns if t.key == key), default=0)
        if top.population < _WELL_KNOWN_PEOPLE or key in COMMON_WORDS or key in _NEVER_PLACES:
            continue
        if entries and top.population < 10 * max(exact, 1):
            continue
        # "Koln", "Wien", "Lisboa", "Napoli" (the town's name in another language), or a
        # spelling far more people mean than the small town of that name ("Pittsburg")
        # an alias is read where a place is expected (after a cue, before "to"): "the Hanover Hotel" is not Hannover
        add(key, _town_entry(top, 70 if entries else 35, index))
    for (key, state), code in SERVED_IN_STATE.items():  # "springfield ma": Bradley, found only with its state
        region = f"{state} us"  # (the town's own airfield, if any, has no airline service: not flown to)
        index[key] = [e for e in index.get(key) or [] if e.region != region] + [
            _Entry(code, "city", key.title(), -10, region)
        ]
    for key, (code, *_rest) in SERVED.items():  # the town's own airfield, which has no airline service, is not flown to
        index[key] = [e for e in index.get(key) or [] if e.code == code] + [
            e
            for e in index.get(key) or []
            if e.code != code and e.region not in {x.region for x in index[key] if x.code == code}
        ]
    for key in _MEANT_FIRST:  # the other towns of the name are still found when their country or state is said
        codes = {c for t in _towns().get(key) or [] for c in t.codes}
        index[key] = [replace(e, score=max(e.score, 0)) if e.code in codes else e for e in index.get(key) or []]
    for entries in index.values():
        entries.sort(key=lambda e: (-e.score, e.code))
    for key in _countries_not_places(index):
        del index[key]
    return index


def _opening_town(stripped: str, own: str) -> str:
    """The town an airport's name opens with when it names two ("greenville spartanburg" ->
    "greenville"), other than the town it is filed under; else ""."""
    words = stripped.split()
    for n in range(len(words) - 1, 0, -1):
        prefix = " ".join(words[:n])
        if prefix != own and prefix in _city_keys():
            return prefix
    return ""


def _biggest_town_first(key: str, top: Town, entries: List[_Entry], index: Dict[str, List[_Entry]]) -> None:
    """A name several towns share is first the most populous one's ("Charleston" is South Carolina's
    CHS, not West Virginia's CRW; "Venice" is Italy's VCE, which airportsdata files under "Venezia"),
    unless the best candidate is a metro area or a name people give it (score 70 and up)."""
    best = max(entries, key=lambda e: e.score)
    if best.code in top.codes or best.score >= 70:
        return
    own = [e for e in entries if e.code in top.codes]
    if own:  # the town's own airport, above another town's (not above a bigger airport of the same town)
        own_best = max(own, key=lambda e: e.score)
        if own_best.region != best.region:
            entries[entries.index(own_best)] = replace(own_best, score=best.score + 1)
        return
    others = [t for t in _towns()[key] if t.key == key and t is not top]
    rival = next((t for t in others if best.code in t.codes or (t.region and fold(t.region) in best.region)), None)
    # the same town, whose GeoNames airport is an international one and the airport found is not
    same_town = (
        rival is None
        and bool(top.region)
        and fold(top.region) in best.region
        and _international(top.codes[0])
        and not _international(best.code)
    )
    if not same_town and (rival is None or top.population < 2 * rival.population):
        return  # the airport found may be the big town's after all
    # the town's own airport by GeoNames ("Wilkes-Barre": AVP, not the small field of that name)
    entry = _town_entry(top, best.score + 1, index)
    index[key].append(replace(entry, name=top.name))


def _international(code: str) -> bool:
    return "international" in fold((geo.airports().get(code) or {}).get("name") or "")


def _countries_not_places(index: Dict[str, List[_Entry]]) -> List[str]:
    """Country names that are not one place to fly to: "Mexico" has dozens of airports (which city?),
    "Lebanon" and "Jordan" are not the small American towns of those names. An island or a city
    state with one main airport ("Bahrain", "Luxembourg", "Singapore") stays a place."""
    main_airports: Dict[str, int] = {}
    for a in geo.airports().values():
        if "international" in (a.get("name") or "").lower():
            main_airports[a["country"]] = main_airports.get(a["country"], 0) + 1
    out = []
    for country, name in _gazetteer()["countries"].items():
        key = fold(name)
        entries = index.get(key)
        if not entries or entries[0].score >= 90:
            continue
        top = entries[0]
        if (geo.airports().get(top.code) or {}).get("country") != country or main_airports.get(country, 0) > 2:
            out.append(key)
    return out


@lru_cache(maxsize=1)
def _country_keys() -> frozenset:
    return frozenset(_country_codes())


def _state_or_country(key: str) -> bool:
    """A US state, Canadian province or country by its name ("oregon", "costa rica"), not a parish
    or a county that shares a city's name ("Portland", Jamaica)."""
    return key in _country_codes() or key in _STATE_CODES.values()


@lru_cache(maxsize=1)
def _country_codes() -> Dict[str, str]:
    """folded country name -> its two-letter code ("costa rica" -> "CR"), with the names people use for a few."""
    names = {fold(name): code for code, name in _gazetteer()["countries"].items()}
    return {**names, "uk": "GB", "england": "GB", "scotland": "GB", "usa": "US", "holland": "NL"}


def _town_entry(town: Town, score: int, index: Optional[Dict[str, List[_Entry]]] = None) -> _Entry:
    own = [e for e in (index or {}).get(town.key) or [] if e.code in town.codes or e.score >= 90]
    if own:  # the town's own airport as its name finds it ("Pittsburg" is Pittsburgh: PIT)
        return _Entry(own[0].code, own[0].type, own[0].name, score, own[0].region)
    code = _metro_of(town.codes[0])
    a = geo.airports().get(town.codes[0]) or {}
    region = f"{fold(a.get('subd') or '')} {fold(a.get('country') or '')}"
    name = geo.METRO_CODES[code]["name"] if code in geo.METRO_CODES else airport_city(town.codes[0])
    return _Entry(code, "city", name, score, region)


@lru_cache(maxsize=8192)
def _metro_of(code: str) -> str:
    """The metro code an airport belongs to ("LIN" -> "MIL"), else the airport."""
    for metro, m in geo.METRO_CODES.items():
        if code in m["airports"] and metro not in geo._AIRPORT_BEATS_METRO:
            return metro
    return code


def _population(key: str) -> int:
    """People in the biggest town of exactly this name (not a town this is another name for)."""
    towns = [t for t in _towns().get(key) or [] if t.key == key]
    return towns[0].population if towns else 0


def _name_key(a: Dict[str, str]) -> str:
    """An airport's name without the generic words: "Vancouver International Airport" -> "vancouver"."""
    return re.sub(r"\s+", " ", _GENERIC.sub(" ", fold(a.get("name") or ""))).strip()


@lru_cache(maxsize=1)
def _city_keys() -> frozenset:
    return frozenset(
        {fold(a.get("city") or "") for a in geo.airports().values()}
        | {fold(m["name"]) for m in geo.METRO_CODES.values()}
    )


@lru_cache(maxsize=4096)
def airport_city(code: str) -> str:
    """The city people name for an airport: the city its name starts with ("Vancouver", although
    airportsdata files YVR under Richmond; "Fresno" for Fresno Yosemite), else its listed city
    ("Paris" for Charles de Gaulle)."""
    a = geo.airports().get(code) or {}
    if fold(a.get("city") or "") and f" {fold(a['city'])} " in f" {_name_key(a)} ":
        return str(a["city"])  # "George Bush Intcntl/Houston": Houston, not George
    words = _name_key(a).split()
    for n in range(len(words), 0, -1):
        prefix = " ".join(words[:n])
        if prefix in _city_keys():
            return _display_from_name(a.get("name") or "", prefix)
    return a.get("city") or a.get("name") or code


def _display_from_name(name: str, stripped_key: str) -> str:
    """The words of an airport's name that name its place, in their original spelling."""
    words = [w for w in re.split(r"[\s/\-]+", name) if fold(w) and fold(w) in stripped_key.split()]
    return " ".join(words) or name


@lru_cache(maxsize=1)
def _fuzzy_names() -> Dict[str, Tuple[List[str], List[int]]]:
    """Names a misspelling may be forgiven into, by first letter: the names of towns of 100,000+
    people (not their other-language names) and the metro areas."""
    out: Dict[str, Tuple[List[str], List[int]]] = {}
    for key, entries in _index().items():
        towns = [t for t in _towns().get(key) or [] if t.key == key]
        pop = towns[0].population if towns else (1_000_000 if entries[0].score >= 90 else 0)
        if len(key) >= 4 and key not in COMMON_WORDS and key not in ISLANDS and pop >= _WELL_KNOWN_PEOPLE:
            names, people = out.setdefault(key[0], ([], []))
            names.append(key)
            people.append(pop)
    return out


def _fuzzy_key(word: str) -> Optional[str]:
    """The well-known place ``word`` is a typo of ("chicgo", "Albuqurque", "sn francisco"), else None.

    Same first letter; one edit (a swap of two letters counts as one: "pheonix") for words of up to eight letters, two for longer ones; never an
    English word one typo from a town ("reserve" is not Resende); among
    equally close names the one with most people wins."""
    if len(word) < 4 or word in COMMON_WORDS or word in _words() or word in _index() or word in _country_keys():
        return None
    if not word.replace(" ", "").isalpha():
        return None
    names, people = _fuzzy_names().get(word[0], ([], []))
    limit = 1 if len(word) <= 8 else 2
    best = None
    for name, distance, i in process.extract(word, names, scorer=OSA.distance, score_cutoff=limit, limit=8):
        if len(word) <= 4 and people[i] < 300_000:
            continue
        rank = (distance, -people[i])
        if best is None or rank < best[0]:
            best = (rank, name)
    return best[1] if best else None


# Abbreviations in place names ("Ft Lauderdale", "St. Louis", "Mt Vernon").
_ABBREVIATIONS = (("ft ", "fort "), ("st ", "saint "), ("mt ", "mount "), ("saint ", "st "))


def _known_key(key: str) -> Optional[str]:
    """The index's key for a name, trying its abbreviations either way; where both spellings are
    known the better candidate wins ("Saint Louis" is St. Louis, Missouri, not Saint-Louis, Senegal)."""
    index = _index()
    found = key if key in index else None
    if not key.startswith(_ABBREVIATED):
        return found
    for short, full in _ABBREVIATIONS:
        other = full + key[len(short) :]
        if key.startswith(short) and other in index:
            if found is None or index[other][0].score > index[found][0].score:
                found = other
    return found


_ABBREVIATED = tuple(short for short, _ in _ABBREVIATIONS)


def _pick(entries: List[_Entry], following: str) -> Tuple[_Entry, bool]:
    """The best candidate, unless the words after the name ("Portland, Maine") pick another;
    and whether they did."""
    comma = following.lstrip(" ").startswith(",")
    following = following.lstrip(" ,")
    tail = fold(following[:40]).split()
    country = next(
        (_country_codes().get(" ".join(tail[:n])) for n in (3, 2, 1) if " ".join(tail[:n]) in _country_codes()), None
    )
    if country:  # "San Jose, Costa Rica", "rome italy"
        for entry in entries:
            if entry.region.split()[-1:] == [country.lower()] and entry.score > -20:
                return entry, True
    if tail:
        # "Portland ME", "Portland, OR": a state's postal code in capitals (not "portland me and my wife"),
        # or in lower case when it is no English word ("springfield il", "athens ga", "rochester mn")
        code = (following[:2].isupper() or _lower_state_code(following[:2])) and following[2:3] in (
            "",
            " ",
            ",",
            ".",
            ";",
            ")",
        )
        # "portland me for dec 12", "columbus oh to denver", "portland or 2 rooms": a code that is also a
        # word, in lower case, where the word could not stand ("in" and "on" only before a route's
        # clause's end: "columbus in march" is a month)
        code = code or _word_state_code(following)
        # "london, on to vancouver", "portland, me." (not "london, on the 5th", "portland, me and my wife")
        ends = _CODE_ENDS_HERE if following[:2] in ("in", "on") else _CODE_ENDS
        code = code or (comma and following[:2].islower() and ends.match(following[2:]) is not None)
        said = _STATE_CODES[tail[0]].split() if code and tail[0] in _STATE_CODES else None
        said = _PROVINCES[tail[0]].split() if tail[0] in _PROVINCES else said  # "newcastle nsw"
        for entry in entries:
            region = entry.region.split()
            if not region or entry.score <= -20:
                continue
            if (region[: len(said)] == said) if said else tail[0] in region:
                return entry, True
    return entries[0], False


# (a date masked out leaves spaces, and the dash of "feb 11-13": "portland me       -  , 1 adult")
_CODE_ENDS = re.compile(r"\s*(?:$|[-–,.;!?)]|(?<=\s)(?:to|from|->)\b)", re.I)
# after "on" and "in", which also open a date, only right at the end: "london, on." (not "london, on the 5th")
_CODE_ENDS_HERE = re.compile(r"(?:\s?$|[,.;!?)]|\s(?:to|from|->)\b)", re.I)
# Postal codes that are also English words or names ("me", "in", "or", "hi", "la"): read only in capitals.
_WORD_STATE_CODES = frozenset("me in or ok hi oh la de ma pa co id on al ne pe".split())


def _lower_state_code(word: str) -> bool:
    return word.islower() and word in _STATE_CODES and word not in _WORD_STATE_CODES


_MESSAGE_ENDS = re.compile(r"\s?$|[,.;!?)]")
_MONTH_START = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
# What may follow a word-like postal code for it to be the state: a date, a count, "for", "to", "from"
_AFTER_WORD_CODE = re.compile(rf"\s+(?:for|on|in|this|next|\d|{_MONTH_START})", re.I)


def _word_state_code(following: str) -> bool:
    """ "me" in "portland me for dec 12", "oh" in "columbus oh to denver" (not "portland me and my wife")."""
    word, rest = following[:2], following[2:]
    if not (word.islower() and word in _WORD_STATE_CODES) or rest[:1].isalnum():
        return False
    if word in ("in", "on"):
        return _MESSAGE_ENDS.match(rest) is not None
    return _CODE_ENDS.match(rest) is not None or _AFTER_WORD_CODE.match(rest) is not None


def _with_region(name: str, region: str) -> str:
    """ "Paris, Texas", "Portland, Maine", "San Jose, Costa Rica": a town with its state (in the US and
    Canada) or its country."""
    subdivision, _, country = region.rpartition(" ")
    where = subdivision.title() if country in ("us", "ca") else _gazetteer()["countries"].get(country.upper(), "")
    return f"{name}, {where}" if where else name


def _by_population(key: str, entry: _Entry) -> Tuple[_Entry, str]:
    """For a name several big towns share, the most populous one and the assumption that says so."""
    rival = _rival(key)
    if rival is None or entry.score >= 90:
        return entry, ""
    first, other = rival
    region = fold(first.region)
    if entry.code not in first.codes and region not in entry.region:
        entry = next((e for e in _index()[key] if e.code in first.codes or (region and region in e.region)), entry)
    return entry, f"Assumed {first.label} for {first.name}; say if you meant {other.label}"


# A town of the same name in the country of the route's other end is meant when it is farther than a
# drive from it: "birmingham to chicago" is Alabama's, "atlanta to athens" still Greece's (Athens,
# Georgia is an hour from Atlanta by road), "toronto to london" still England's. A small town whose
# airfield few airlines serve does not take the name from a city the world flies to: "nyc to athens"
# is Greece's (Athens/Ben Epps), "vancouver to kingston" Jamaica's; "sydney to newcastle" (half a
# million people) and "la to salem" (the other Salem's airport is no international one) still switch.
_DRIVE_KM = 250
_SMALL_TOWN = 300_000


def _stays_with_the_world(first: str, other: str, people: int) -> bool:
    """The town meant by default keeps its name: its airport serves the world and the other's does not."""
    return people < _SMALL_TOWN and _serves_the_world(first) and not _serves_the_world(other)


def _serves_the_world(code: str) -> bool:
    """A metro area or an airport whose name says international ("Portland International Jetport")."""
    place = geo.place(code) or {}
    return place.get("type") == "city" or "international" in fold(str(place.get("name") or ""))


def _rival_place(key: str) -> Optional[Tuple[Place, str]]:
    """The other big town of a shared name as a place, with the assumption to tell when it is taken."""
    rival = _rival(key)
    if rival is None:
        return None
    first, other = rival
    region = fold(other.region)
    entry = next((e for e in _index()[key] if e.code in other.codes or (region and region in e.region)), None)
    if entry is None:
        return None
    place = {"type": entry.type, "code": entry.code, "name": entry.name}
    return place, f"Assumed {other.label} for {other.name}; say if you meant {first.label}"


def _by_the_other_end(found: List[Tuple[Mention, str]]) -> List[Mention]:
    """Each name several towns share, read as the town in the country of another place named
    (farther than a drive from it) when the most populous one is abroad."""
    out = [m for m, _ in found]
    for i, (m, key) in enumerate(found):
        alternative = _rival_place(key) if key and m.assumed else None
        if alternative is None:
            continue
        place, note = alternative
        country = _country_of(place["code"])
        for j, other in enumerate(out):
            if j == i or not country:
                continue
            there = _country_of(other.place["code"])
            far = geo.distance_km(place["code"], other.place["code"]) or 0.0
            if (
                there == country
                and _country_of(m.place["code"]) != there
                and far > _DRIVE_KM
                and not _stays_with_the_world(m.place["code"], place["code"], _rival_people(key))
            ):
                out[i] = Mention(m.start, m.end, place, note)
                break
    return out


def _rival_people(key: str) -> int:
    rival = _rival(key)
    return rival[1].population if rival else 0


def _country_of(code: str) -> str:
    return str((geo.place(code) or {}).get("country") or "")


# A town offered by its region: "say if you meant Portland, Maine (PWM)", "Did you mean ... or Birmingham, Alabama (BHM)?"
_OFFERED = re.compile(r"(?P<town>[A-Z][\w.' -]*?), (?P<region>[A-Z][\w.' -]*?) \((?P<code>[A-Z]{3})\)")
_OFFER_WORDS = {"united kingdom": ("uk", "england", "britain", "the uk"), "united states": ("us", "usa", "the us")}


def other_town_named(text: str, current: Any, pending_question: Any = None) -> List[Mention]:
    """ "maine", "the one in alabama", "UK": the town of the name the trip guessed (or the question
    offered) that is in the region the message names, as a place; else nothing."""
    status = (current or {}).get("status") if isinstance(current, dict) else None
    offers = [a for a in (status or {}).get("assumptions") or [] if isinstance(a, str)]
    question = pending_question.get("text") if isinstance(pending_question, dict) else pending_question
    offers += [question] if isinstance(question, str) else []
    said = f" {fold(text)} "
    if len(said.split()) > 6:
        return []
    found: Dict[str, Place] = {}
    for offer in offers:
        for m in _OFFERED.finditer(offer):
            region = fold(m.group("region"))
            names = (region, *_OFFER_WORDS.get(region, ()))
            if any(f" {n} " in said for n in names) or _STATE_CODES.get(fold(text).strip()) == region:
                found[m.group("code")] = {"type": "city", "code": m.group("code"), "name": m.group("town").strip()}
    if len(found) != 1:
        return []
    (place,) = found.values()
    return [Mention(0, len(text), _code_place(place["code"]) or place)]


def lookup(name: str) -> Optional[Place]:
    """A place for a name or code typed on its own ("Denver", "nyc", "EWR"), else None."""
    found = find_places(name, cue_all=True)
    return found[0].place if len(found) == 1 else None


def _code_place(code: str) -> Optional[Place]:
    p = geo.place(code)
    if not p:
        return None
    if p["type"] == "city":
        return {"type": "city", "code": p["code"], "name": p["name"]}
    return {"type": "airport", "code": p["code"], "name": airport_city(p["code"])}


def find_places(text: str, *, cue_all: bool = False, accented: frozenset = frozenset()) -> List[Mention]:
    """Every place named in ``text``, in order; ``cue_all`` treats the text as an answer to "where?";
    ``accented``: folded words the traveller wrote with accents ("Málaga"), names rather than words."""
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    # written in lower case: the pronoun "I" ("I'm", "I'd") and a capital opening a sentence do not
    # count ("atlanta to boston jan 14, I'm traveling with my 2 year old")
    lower_text = not any(c.isupper() for c in _SENTENCE_CAPS.sub("", text))
    typed_lower = lower_text or _typed_lower(words)
    index = _index()
    out: List[Tuple[Mention, str]] = []  # each place, with the shared name it was read from
    i = 0
    while i < len(words):
        state = _state_named(words, i)
        if state:  # "washington state" is not Washington, DC: no place, so the city is asked
            i += state
            continue
        # "Amsterdam - Lisbon": a name right after a place and a dash or an arrow is the route's other end
        cued = (
            cue_all
            or _cued(words, i)
            or bool(out and out[-1][0].end == words[i - 1][1] and _dash_before(text, words, i))
            # "boston: lisbon, madrid": a name listed right after a place is one too
            or bool(
                out and out[-1][0].end == words[i - 1][1] and _LISTED.fullmatch(text[words[i - 1][1] : words[i][0]])
            )
        )
        route = not cued and (_before_to(words, i) or _dash_after(text, words, i))
        hit = None
        hit_key = served = ""
        word_code = False  # "lafayette la to houston": the state's code that is also a word, read with the town
        for n in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            span = words[i : i + n]
            # names do not run across sentence punctuation (but "St. Louis" is one name, and "Turks & Caicos"
            # is "Turks and Caicos")
            gaps = [text[span[k][1] : span[k + 1][0]].strip(" -") for k in range(n - 1)]
            if any(
                gap not in ("", ".", "&") or (gap == "." and fold(span[k][2]) not in ("st", "ste", "ft", "mt"))
                for k, gap in enumerate(gaps)
            ):
                continue
            raw = " ".join(w for _, _, w in span)
            if "&" in gaps:
                raw = span[0][2] + "".join(
                    f"{' and' if gap == '&' else ''} {w}" for gap, (_, _, w) in zip(gaps, span[1:], strict=True)
                )
            key = _known_key(fold(raw))
            entries = index.get(key) if key else None
            if not entries:
                continue
            capitalised = all(w[0].isupper() for _, _, w in span)
            # "Koln to Wien", "Málaga to Bruxelles", not "Nice to meet you"
            named = key in accented or any(fold(w) in accented for _, _, w in span)
            starts_route = (
                route
                and key not in COMMON_WORDS
                and (
                    key not in _words()
                    or named
                    or ((capitalised or lower_text or _well_known_city(key)) and _place_after_to(words, i + n, text))
                )
            )
            # "Nice to London", "reno to denver": a well-known town that is also a plain word, right before
            # "to <a known city>", is the origin ("nice to meet you" stays a phrase); in a message typed
            # all in lower case, right after "<a place> to" it is the destination ("boston to rome")
            common_route = (
                n == 1
                and key in COMMON_WORDS
                and key not in _NEVER_PLACES
                and _well_known_city(key)
                and (
                    (
                        (capitalised or (lower_text and (i == 0 or cued)))
                        and _to_next(text, words, i + 1)
                        and _place_after_to(words, i + 1, text, lower_text)
                    )
                    or (lower_text and _after_place_to(text, words, i, [m for m, _ in out[-1:]]))
                    or (lower_text and _cued(words, i, _FROM_CUES))  # "leaving from reno", "out of mobile"
                    or (lower_text and _flown_into(words, i))  # "fly into rome" (not "get into nice places")
                    or (lower_text and _stay_in(words, i))  # "hotel in rome", "3 nights in nice"
                    or (cued and _qualifier_words(text, words, i + 1) > 0)  # "to rome italy", "to Reno, NV"
                )
            ) or _state_said(text, words, i + n, entries)  # "jackson ms", "mobile, al", "reading pa"
            if not common_route and not _accept(
                key,
                raw,
                n,
                capitalised,
                cued or starts_route or _stay_after(words, i + n),
                lower_text,
                named,
                typed_lower=typed_lower,
                route_end=key in _CASE_SENSITIVE_NICKNAMES and i > 0 and words[i - 1][2].lower() in _ROUTE_ENDS,
            ):
                continue
            if (
                key not in _city_keys()
                and key not in _towns()
                and entries[0].score < 90
                and not (cue_all or _airport_named(words, i, n, text))
            ):
                continue  # "Flamingo", "Heathrow": an airport's own name counts only as "... Airport" or after to/from
            entry, qualified = _pick(entries, text[span[-1][1] : span[-1][1] + 40])
            assumed = GATEWAYS.get(key, "")
            if not qualified and not assumed:
                entry, assumed = _by_population(key, entry)
            name = entry.name
            if qualified and entry.code != entries[0].code:
                name = _with_region(name, entry.region)  # "Paris, Texas": not the Paris one expects
            hit = (n, {"type": entry.type, "code": entry.code, "name": name}, assumed)
            hit_key = key if assumed and not qualified else ""
            served = key if key in SERVED and entry.code == SERVED[key][0] else ""
            word_code = qualified and _word_state_code(text[span[-1][1] : span[-1][1] + 40].lstrip(" "))
            break
        if hit is None:
            raw = words[i][2]
            routed = _route_neighbour(words, i, text)
            code = _code_hit(raw, lower_text, cued, routed, _beside_code(words, i, text))
            hit = (1, code, "") if code else _fuzzy_hit(words, i, text, cue_all or _cued(words, i, _TYPO_CUES))
        if hit and i + hit[0] < len(words) and fold(words[i + hit[0]][2]) in VENUE_WORDS:
            i += hit[0] + 1  # "Union Station", "Rogers Centre", "Santa Fe Depot": a venue, not the city
            continue
        if hit and _longer_name(text, words, i, hit[0]):
            i += hit[0] + 1  # "The Van Buren", "Beverly Hills Marriott": a longer name than the town's
            continue
        if hit:
            n, place, assumed = hit
            n += (
                _qualifier_words(text, words, i + n, place["code"])
                or _country_words(words, i + n, place["code"])
                or int(word_code and i + n < len(words))
            )
            town = SERVED.get(served)
            # (its hotels searched in the town: its own field's code, else its own, else around the airport)
            stay_code = (town[3] or geo.town_code(town[2])) if town else None
            stay = {"type": "city", "code": stay_code, "name": town[2]} if town and stay_code else None
            out.append((Mention(words[i][0], words[i + n - 1][1], place, assumed, stay), hit_key))
            i += n
        else:
            i += 1
    return _short_for_a_state(text, _twin_towns(text, _alternatives_merged(text, _by_the_other_end(out))))


# A place abroad whose name is also what Americans call a state ("flying from jersey to orlando", "jersey
# to cancun"): the state, when every other place named is in the Americas (the place abroad otherwise:
# "london to jersey").
_SHORT_FOR_A_STATE = {"jersey": "new jersey"}


def _in_the_americas(code: str) -> bool:
    where = geo.place(code) or {}
    return where.get("country") == "US" or str(where.get("tz") or "").startswith("America/")


def _short_for_a_state(text: str, found: List[Mention]) -> List[Mention]:
    out = list(found)
    for i, m in enumerate(found):
        state = _SHORT_FOR_A_STATE.get(fold(text[m.start : m.end]))
        others = [o.place["code"] for j, o in enumerate(found) if j != i]
        if state and others and all(_in_the_americas(code) for code in others):
            code, name, place, other = DESTINATIONS[state]
            note = f"{_destination_note(code, name, place, other)}, or the island of Jersey ({m.place['code']})"
            out[i] = Mention(m.start, m.end, {"type": "city", "code": code, "name": name}, note)
    return out


# A state named so that it is not the city of its name: first word -> the phrases it opens.
_STATES_NOT_CITIES: Dict[str, Tuple[Tuple[str, ...], ...]] = {
    "washington": (("washington", "state"),),
    "new": (("new", "york", "state"), ("new", "york", "upstate")),
    "upstate": (("upstate", "new", "york"), ("upstate", "ny")),
    "state": (("state", "of", "washington"), ("state", "of", "new", "york")),
}


def _state_named(words: List[Tuple[int, int, str]], i: int) -> int:
    """How many words from ``i`` name a state that is not its city ("washington state"), else 0."""
    for phrase in _STATES_NOT_CITIES.get(words[i][2].lower(), ()):
        if tuple(fold(w) for _, _, w in words[i : i + len(phrase)]) == phrase:
            return len(phrase)
    return 0


_TWIN_JOIN = re.compile(r"\s*[-/–]\s*")
_TWIN_KM = 60


def _twin_towns(text: str, found: List[Mention]) -> List[Mention]:
    """Two neighbouring towns joined by a dash or a slash ("Minneapolis-St. Paul", "Dallas/Fort Worth")
    name one place, the first one's (a route "bos-mco" joins towns far apart)."""
    out: List[Mention] = []
    for m in found:
        last = out[-1] if out else None
        if last is not None and _TWIN_JOIN.fullmatch(text[last.end : m.start]):
            apart = geo.distance_km(last.place["code"], m.place["code"])
            # one airport for both ("Dallas/Fort Worth": DFW twice) is one place too, but not a name said twice
            same = last.place["code"] == m.place["code"]
            said_twice = same and fold(text[last.start : last.end]) == fold(text[m.start : m.end])
            if apart is not None and apart < _TWIN_KM and not said_twice:
                out[-1] = Mention(last.start, m.end, last.place, last.assumed)
                continue
        out.append(m)
    return out


_OR = re.compile(r"\s*(?:or|/|or\s+maybe)\s*", re.I)


def _alternatives_merged(text: str, found: List[Mention]) -> List[Mention]:
    """Airports of one metro offered as alternatives ("JFK or Newark", "ORD/MDW") are that metro."""
    out: List[Mention] = []
    for m in found:
        last = out[-1] if out else None
        metro = _metro_of(m.place["code"])
        if (
            last is not None
            and metro in geo.METRO_CODES
            and _metro_of(last.place["code"]) == metro
            and _OR.fullmatch(text[last.end : m.start])
        ):
            whole = geo.METRO_CODES[metro]
            out[-1] = Mention(last.start, m.end, {"type": "city", "code": metro, "name": whole["name"]})
            continue
        out.append(m)
    return out


_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july "
    "august september october november december jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


def _longer_name(text: str, words: List[Tuple[int, int, str]], i: int, n: int) -> bool:
    """A one-word name that is also an English word, run on by another capitalised word that is
    neither a place nor a date ("Van Buren", "Beverly Hills Marriott"), names something else."""
    j = i + n
    if n != 1 or j >= len(words) or fold(words[i][2]) not in COMMON_WORDS:
        return False
    nxt = words[j][2]
    if text[words[i][1] : words[j][0]].strip() or not nxt[0].isupper():
        return False
    key = fold(nxt)
    return key not in _CALENDAR and key not in _index() and _qualifier_words(text, words, j) == 0


def _typed_lower(words: List[Tuple[int, int, str]]) -> bool:
    """Written without capitals but for codes and the pronoun ("me and 3 buddies, vegas from LA",
    "nyc to SFO, I need..."): names are not told from words by case, as in all-lower-case text."""
    return not any(
        any(c.isupper() for c in w) and not (w.isupper() and len(w) <= 4) and w not in ("I", "I'm", "I'd", "I'll")
        for _, _, w in words
    )


def _before_to(words: List[Tuple[int, int, str]], i: int) -> bool:
    """ "Koln to Wien", "lisbon from newark", "dublin then cork": a name right before "to", "from" or "then"
    (within four words) starts a route."""
    return any(fold(words[j][2]) in _ROUTE_WORDS for j in range(i + 1, min(len(words), i + 5)))


_ROUTE_WORDS = frozenset({"to", "from", "then"})  # "lisbon then porto": a tour starts at the name
_DASH = re.compile(
    r"\s+(?:-|–|—|->|→|>|➡️?)\s+|\s*(?:–|—|->|→|➡️?)\s*"
)  # a route's dash or arrow, not "Minneapolis-St. Paul"


_LISTED = re.compile(r"\s*[,:;&]\s*")


def _dash_before(text: str, words: List[Tuple[int, int, str]], i: int) -> bool:
    return i > 0 and _DASH.fullmatch(text[words[i - 1][1] : words[i][0]]) is not None


def _dash_after(text: str, words: List[Tuple[int, int, str]], i: int) -> bool:
    """A dash or an arrow after word ``i`` or one of the three words after it (a name of up to four words)."""
    return any(_dash_before(text, words, j) for j in range(i + 1, min(len(words), i + 5)))


_FILLERS = frozenset({"the", "city", "of", "town", "airport", "beautiful", "sunny", "lovely", "main", "in"})


def _place_after_to(words: List[Tuple[int, int, str]], i: int, text: str = "", lower_text: bool = False) -> bool:
    """ "Malaga to London", "lisbon from newark": the "to" (or "from") after word ``i`` leads to a known city, so a name that is also a
    dictionary word ("malaga", a wine; "faro", a card game) starts a route; "Nice to meet you" does not.
    A city that is also a word counts only written as a name ("Nice to Rome", not "nice to have")."""
    for j in range(i - 1, min(len(words), i + 4)):
        if j < i:  # "Amsterdam - Lisbon": a dash or an arrow right after the name leads on as "to" does
            if not (text and 0 < i < len(words) and _dash_before(text, words, i)):
                continue
        elif fold(words[j][2]) not in _ROUTE_WORDS:
            continue
        for n in range(min(_MAX_WORDS, len(words) - j - 1), 0, -1):
            span = words[j + 1 : j + 1 + n]
            key = _known_key(fold(" ".join(w for _, _, w in span)))
            if not key or not (key in _city_keys() or _index()[key][0].score >= 90) or not _well_known_city(key):
                continue
            if key in COMMON_WORDS and (
                key in _NEVER_PLACES or not (lower_text or all(w[0].isupper() for _, _, w in span))
            ):
                continue
            if n > 1 and any(text[span[k][1] : span[k + 1][0]].strip(" -") for k in range(n - 1)):
                continue  # a name does not run across punctuation
            return True
        return False
    return False


_TOUR_JOIN = re.compile(r"\s*(?:,?\s*(?:and\s+)?then|>|->|→)\s*", re.I)


def _after_place_to(text: str, words: List[Tuple[int, int, str]], i: int, out: List[Mention]) -> bool:
    """Word ``i`` follows "<the last place found> to" ("boston to rome") or "<it> then" ("paris and then
    rome", "paris > rome")."""
    if not (i >= 1 and out and (i + 1 >= len(words) or fold(words[i + 1][2]) not in _THINGS)):
        return False
    if _TOUR_JOIN.fullmatch(text[out[-1].end : words[i][0]]):
        return True
    return (
        i >= 2
        and fold(words[i - 1][2]) == "to"
        and out[-1].end == words[i - 2][1]
        and not text[words[i - 2][1] : words[i][0]].strip(" to")
    )


# Nouns after which a word is an adjective ("paris to nice hotels"), not a town.
_THINGS = frozenset(
    "hotel hotels place places room rooms restaurant restaurants spot spots area areas view views weather food "
    "beach beaches people".split()
)


def _to_next(text: str, words: List[Tuple[int, int, str]], j: int) -> bool:
    """Word ``j`` is "to" (or "then": "rome then florence"), with nothing but spaces (or a region: "Mobile, AL to")
    before it."""
    j += _qualifier_words(text, words, j)
    return j < len(words) and fold(words[j][2]) in ("to", "then") and not text[words[j - 1][1] : words[j][0]].strip()


def _well_known_city(key: str) -> bool:
    return _population(key) >= _WELL_KNOWN_PEOPLE or _index()[key][0].score >= 40


_STAY_WORDS = frozenset(
    "hotel hotels room rooms stay staying nights night accommodation accommodations lodging airbnb".split()
)


def _flown_into(words: List[Tuple[int, int, str]], i: int) -> bool:
    """Word ``i`` follows "fly into", "landing into", "flying to", "a trip to": where a flight goes, a town."""
    if i < 2:
        return False
    before = fold(words[i - 2][2])
    return fold(words[i - 1][2]) == "into" and before in _FLY_INTO or fold(words[i - 1][2]) == "to" and before in _GO_TO


def _stay_in(words: List[Tuple[int, int, str]], i: int) -> bool:
    """Word ``i`` follows "<a stay> in" ("hotel in rome", "2 nights in nice"): where a stay is, a town."""
    return i >= 2 and fold(words[i - 1][2]) == "in" and fold(words[i - 2][2]) in _STAY_WORDS


def _stay_after(words: List[Tuple[int, int, str]], i: int) -> bool:
    """Word ``i`` is a stay ("lisbon hotel", "venice airbnb"): the name before it is where the stay is."""
    return i < len(words) and fold(words[i][2]) in _STAY_WORDS and fold(words[i][2]) not in ("night", "nights")


def _cued(words: List[Tuple[int, int, str]], i: int, cues: frozenset = CUES) -> bool:
    """A travel cue before word ``i``, looking past fillers ("from the city of ...")."""
    for j in range(i - 1, max(-1, i - 5), -1):
        w = fold(words[j][2])
        if w in cues:
            return True
        if w not in _FILLERS:
            return False
    return False


# Cues that also lead to what is not a place: a purpose ("for mardi gras", "for sxsw"), a time or a
# landmark ("at noon", "near the beach"), a list ("and"): a known name after them is a place, a word
# one typo from a town is not forgiven into one ("mardi" is not Maradi).
_FROM_CUES = frozenset({"from", "of", "leaving", "departing"})  # "of": "out of"
_FLY_INTO = frozenset({"fly", "flying", "flights", "flight", "land", "landing", "arrive", "arriving"})
_GO_TO = frozenset({"fly", "flying", "flights", "flight", "trip", "vacation", "vacay", "getaway", "honeymoon"})
_COUNT_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"})
_TYPO_CUES = CUES - frozenset({"for", "at", "near", "around", "and", "than", "then", "book", "back", "stay", "staying"})


def _qualifier_words(text: str, words: List[Tuple[int, int, str]], j: int, code: str = "") -> int:
    """How many words after a place are its state or country (", Ontario", ", WA", " UK", " Oregon"); not
    a big town abroad that is also a region's name ("from sfo, tokyo then seoul": Tokyo is the next town)."""
    if j >= len(words) or text[words[j - 1][1] : words[j][0]].strip() not in (",", ""):
        return 0
    town, country = _index().get(fold(words[j][2])), _country_of(code) if code else ""
    if town and country and town[0].score >= 40 and _country_of(town[0].code) != country:
        if country not in _region_countries().get(fold(words[j][2]), ()):  # ("London, Ontario" is Canada's)
            return 0
    regions = _regions()
    comma = text[words[j - 1][1] : words[j][0]].strip() == ","
    shouting = text.isupper()
    for n in range(min(3, len(words) - j), 0, -1):
        raw = " ".join(w for _, _, w in words[j : j + n])
        key = fold(raw)
        if key not in regions or (n == 1 and not comma and (key in CUES or key in COMMON_WORDS)):
            continue  # "DENVER TO ...": "to" is Tocantins only after a comma
        # a state or country written out, capitalised or in a message typed all in lower case ("rome italy")
        written_out = len(key) > 3 and (
            raw[0].isupper() or (not any(c.isupper() for c in text) and _state_or_country(key))
        )
        if comma or (raw.isupper() and not shouting) or n > 1 or written_out or (n == 1 and _lower_state_code(raw)):
            return n
    return 0


def _state_said(text: str, words: List[Tuple[int, int, str]], j: int, entries: List[_Entry]) -> bool:
    """The words after a name are the state of one of its towns ("jackson ms", "mobile, al"): a place,
    even where the name alone is a word or a person's."""
    if j >= len(words):
        return False
    following = text[words[j - 1][1] : words[j - 1][1] + 40]
    coded = _qualifier_words(text, words, j) > 0 or _word_state_code(following.lstrip(" "))
    return coded and _pick(entries, following)[1]


def _country_words(words: List[Tuple[int, int, str]], j: int, code: str) -> int:
    """How many words after a place name its own country ("kingston jamaica", "naples italy"), else 0."""
    country = _country_of(code)
    for n in (3, 2, 1):
        said = " ".join(fold(w) for _, _, w in words[j : j + n])
        if len(words) >= j + n and country and _country_codes().get(said) == country:
            return n
    return 0


@lru_cache(maxsize=1)
def _region_countries() -> Dict[str, frozenset]:
    """A state or province's folded name -> the countries it is in ("ontario": Canada)."""
    out: Dict[str, set] = {}
    for a in geo.airports().values():
        out.setdefault(fold(a.get("subd") or ""), set()).add(a.get("country") or "")
    return {name: frozenset(countries) for name, countries in out.items()}


@lru_cache(maxsize=1)
def _regions() -> frozenset:
    """States, provinces and countries that may follow a city name."""
    names = {fold(a.get("subd") or "") for a in geo.airports().values()}
    names |= {(a.get("country") or "").lower() for a in geo.airports().values()}
    names |= set(REGION_NAMES)
    return frozenset(n for n in names if n)


# Countries and abbreviations people add after a city ("London, UK", "Seattle, WA").
REGION_NAMES = frozenset(
    """uk usa us u s england scotland wales ireland france germany italy spain canada australia kenya india
    mexico malaysia japan china brazil nsw bc qc on al ak az ar ca co ct de fl ga hi id il in ia ks ky la
    me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc
    ns nb nl pe mb sk ab""".split()
)


# The postal codes people write after a city ("Portland, ME", "Kansas City MO"), as the regions are named.
# Australian states as people shorten them ("Newcastle NSW", "Perth WA" is left to the postal code reader).
_PROVINCES: Dict[str, str] = {
    "nsw": "new south wales",
    "qld": "queensland",
    "vic": "victoria",
    "tas": "tasmania",
}
_STATE_CODES: Dict[str, str] = {
    "al": "alabama",
    "ak": "alaska",
    "az": "arizona",
    "ar": "arkansas",
    "ca": "california",
    "co": "colorado",
    "ct": "connecticut",
    "de": "delaware",
    "fl": "florida",
    "ga": "georgia",
    "hi": "hawaii",
    "id": "idaho",
    "il": "illinois",
    "in": "indiana",
    "ia": "iowa",
    "ks": "kansas",
    "ky": "kentucky",
    "la": "louisiana",
    "me": "maine",
    "md": "maryland",
    "ma": "massachusetts",
    "mi": "michigan",
    "mn": "minnesota",
    "ms": "mississippi",
    "mo": "missouri",
    "mt": "montana",
    "ne": "nebraska",
    "nv": "nevada",
    "nh": "new hampshire",
    "nj": "new jersey",
    "nm": "new mexico",
    "ny": "new york",
    "nc": "north carolina",
    "nd": "north dakota",
    "oh": "ohio",
    "ok": "oklahoma",
    "or": "oregon",
    "pa": "pennsylvania",
    "ri": "rhode island",
    "sc": "south carolina",
    "sd": "south dakota",
    "tn": "tennessee",
    "tx": "texas",
    "ut": "utah",
    "vt": "vermont",
    "va": "virginia",
    "wa": "washington",
    "wv": "west virginia",
    "wi": "wisconsin",
    "wy": "wyoming",
    "dc": "district of columbia",
    "bc": "british columbia",
    "on": "ontario",
    "qc": "quebec",
    "ab": "alberta",
    "ns": "nova scotia",
    "nb": "new brunswick",
    "nl": "newfoundland and labrador",
    "pe": "prince edward island",
    "mb": "manitoba",
    "sk": "saskatchewan",
}


_AIRPORT_WORDS = frozenset({"airport", "international", "intl", "airfield"})
_FLIGHT_CUES = frozenset({"from", "to", "into", "via", "through", "out"})
_ROUTE_ENDS = frozenset({"from", "to", "into"})
_PREFERENCE_CUES = frozenset({"prefer", "preferably", "ideally"})


def _airport_named(words: List[Tuple[int, int, str]], i: int, n: int, text: str = "") -> bool:
    after = fold(words[i + n][2]) if i + n < len(words) else ""
    before = fold(words[i - 1][2]) if i else ""
    out_of = before == "of" and i >= 2 and fold(words[i - 2][2]) == "out"  # "out of O'Hare"
    # "heathrow to jfk", "need flights, o'hare to lax": a route's first end, opening the message or a clause
    # "heathrow-jfk": joined by a dash to the other end
    dashed = bool(after) and text[words[i + n - 1][1] : words[i + n][0]].strip() in ("-", "–")
    opens_route = (after == "to" or dashed) and (
        i == 0 or before in _ROUTE_OPENERS or bool(text[words[i - 1][1] : words[i][0]].strip())
    )
    wished = before in _PREFERENCE_CUES or after == "preferred"  # "prefer laguardia", "midway preferred"
    return after in _AIRPORT_WORDS or before in _FLIGHT_CUES or out_of or opens_route or wished


# Words right before a route's first end ("flights heathrow to jfk").
_ROUTE_OPENERS = frozenset({"flight", "flights", "fly", "flying", "nonstop", "nonstops", "direct", "book"})


def _accept(
    key: str,
    raw: str,
    n: int,
    capitalised: bool,
    cued: bool,
    lower_text: bool,
    named: bool = False,
    *,
    typed_lower: bool = False,
    route_end: bool = False,
) -> bool:
    if key in _CASE_SENSITIVE_NICKNAMES:
        # "Flying from dc to Boston": right after "from" or "to" the short name is the place, in any case
        # ("ny to LA": lower case where only codes are capitals, as in all-lower-case text)
        return raw.isupper() or (cued and (raw[0].isupper() or lower_text or typed_lower or route_end))
    if n == 1 and key in COMMON_WORDS:
        return cued and capitalised and key not in _NEVER_PLACES
    # a name written with its accents ("Málaga", "Besançon") is a name, even if the plain spelling is also a word
    well_known = _index()[key][0].score >= 40 or (
        _population(key) >= _WELL_KNOWN_PEOPLE and (key not in _words() or named)
    )
    if n > 1 and (capitalised or _index()[key][0].score >= 90):
        return True
    if capitalised or raw.isupper():
        # an unknown capitalised word ("Radisson", "Castro") is a place only after a travel cue
        return cued or well_known
    # in text typed lower-case (codes and "I" aside) a well-known name is a name: "me and 3 buddies, vegas from LA"
    return cued or ((lower_text or typed_lower) and (n > 1 or well_known))


# Words that never name a place, whatever precedes them.
_NEVER_PLACES = frozenset(
    "a an the i me my we us you it this that there here what which who when where why how yes no not "
    "hotel hotels room rooms flight flights stay trip ticket tickets star stars city town airport place "
    "today tomorrow tonight next last first second third economy business premium class coach "
    "monday tuesday wednesday thursday friday saturday sunday weekend week day days night nights "
    "january february march april may june july august september october november december "
    "delta united american southwest alaska frontier spirit jetblue allegiant hawaiian".split()
) | frozenset(  # parts of any town, which GeoNames files as other names of one ("old town" of Las Vegas)
    (
        "old town",
        "oldtown",
        "old city",
        "old quarter",
        "westside",
        "eastside",
        "northside",
        "southside",
        "downtown",
        "uptown",
        "midtown",
        "city center",
        "city centre",
        "historic center",
        "historic centre",
        "historic district",
        "hotel zone",
        "waterfront",
        "beachfront",
    )
)


_ROUTE_JOIN = re.compile(r"\s*(?:-|–|->|→|>|to)\s*", re.I)


def _beside_code(words: List[Tuple[int, int, str]], i: int, text: str) -> bool:
    """Word ``i`` is joined ("to", "-", "->") to a neighbour that is a three-letter airport code."""

    mine = words[i][2]

    def code_like(j: int) -> bool:
        raw = words[j][2] if 0 <= j < len(words) else ""
        if len(raw) != 3 or not raw.isalpha() or _code_place(raw.upper()) is None:
            return False
        # "den to aus": two codes that are words stand for a route only beside each other
        return raw.lower() not in _WORD_CODES or (raw.islower() and mine.lower() in _WORD_CODES and raw != mine)

    for j, k in ((i - 1, i), (i, i + 1)):  # the neighbour before, then after
        if not (0 <= j and k < len(words)):
            continue
        gap = text[words[j][1] : words[k][0]]
        if gap.strip() and _ROUTE_JOIN.fullmatch(gap) and code_like(j if j != i else k):
            return True
    if i >= 2 and fold(words[i - 1][2]) == "to" and code_like(i - 2):
        return True  # "phx to sea"
    return i + 2 < len(words) and fold(words[i + 1][2]) == "to" and code_like(i + 2)  # "sea to phx"


def _route_neighbour(words: List[Tuple[int, int, str]], i: int, text: str) -> bool:
    """Word ``i`` is one end of a route written short: "phl to orlando", "bos-mco", "sfo->jfk"."""
    if i + 1 < len(words):
        gap = text[words[i][1] : words[i + 1][0]]
        if (fold(words[i + 1][2]) == "to" and not gap.strip()) or (gap.strip() and _ROUTE_JOIN.fullmatch(gap)):
            return True
    if i:
        gap = text[words[i - 1][1] : words[i][0]]
        return bool(gap.strip()) and _ROUTE_JOIN.fullmatch(gap) is not None and len(words[i - 1][2]) == 3
    return False


def _code_hit(raw: str, lower_text: bool, cued: bool, routed: bool = False, paired: bool = False) -> Optional[Place]:
    if len(raw) != 3 or not raw.isalpha():
        return None
    if raw.islower() and paired and raw in _WORD_CODES:
        return _code_place(raw.upper())  # "phx to sea", "bos-den-bos": a word that is a code beside a code
    if raw.isupper() and raw not in _NOT_CODES and not (lower_text and not cued):
        return _code_place(raw)
    if not raw.isupper() and raw.lower() in _LOWER_OK_CODES:
        return _code_place(raw.upper())
    if raw.islower() and (cued or routed) and raw in _LOWER_CUED_CODES:
        return _code_place(raw.upper())
    return None


def _fuzzy_hit(words: List[Tuple[int, int, str]], i: int, text: str, cued: bool) -> Optional[Tuple[int, Place, str]]:
    """A misspelt name where a place is expected: after a travel cue or right before "to" ("chicgo to ...")."""
    after_cue = i == 0 or fold(words[i - 1][2]) not in CUES
    for n in (2, 1):
        if i + n > len(words) or any(text[words[k][1] : words[k + 1][0]].strip() for k in range(i, i + n - 1)):
            continue
        before_to = i + n < len(words) and fold(words[i + n][2]) in _ROUTE_WORDS and after_cue  # "chicgo to ..."
        if not (cued or before_to):
            continue
        raw = " ".join(w for _, _, w in words[i : i + n])
        if fold(words[i][2]) in _COUNT_WORDS:
            continue  # "out of two cities" is a count, not the Twin Cities misspelt
        if n == 1 and len(raw) <= 4 and not raw[0].isupper():
            continue  # "home", "town": short lower-case words are words
        if (
            n == 2
            and min(len(w) for _, _, w in words[i : i + n]) < 3
            and sum(len(w) for _, _, w in words[i : i + n]) < 6
        ):
            continue  # "do a" is not Doha, "to go" not Togo: two short words are a phrase (not "sn francisco")
        key = _fuzzy_key(fold(raw))
        if key:
            entry, assumed = _by_population(key, _index()[key][0])
            return n, {"type": entry.type, "code": entry.code, "name": entry.name}, assumed
    return None


def tables_build() -> None:
    """Build the tables this reader keeps (airports, towns, the index, the fuzzy names: about a
    third of a second of CPU) now rather than on the first message. A server that forks its
    workers calls it before forking, so they share one copy instead of each building its own
    while a traveller waits for its first answer."""
    for table in (_gazetteer, _words, _towns, _index, _city_keys, _fuzzy_names, _regions, _country_keys):
        table()
