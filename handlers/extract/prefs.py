"""Preferences and constraints: cabin, airlines, stops, red-eyes, budget, refundability, hotel wishes."""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ..common.beds import BED_WISHES
from ..common.carriers import AIRLINE_GROUPS, AIRLINES
from ..common.landmarks import area_kind
from ..common.question_form import is_question
from .board import BOARD_RELAX, read_board
from .cues import STAY_NOUNS
from .text import NUMBER_RE, to_int

# Two-letter codes people type for the big carriers ("no AA", "DL only").
# Only with words that say it is an airline ("no AA", "DL only", "UA or Delta"): "KL" is also Kuala Lumpur.
_CODES_TYPED = frozenset({"AA", "DL", "UA", "WN", "B6", "NK", "F9", "BA", "LH", "EK", "QR"})
_ORDINARY_WORDS = frozenset(
    {"american", "united", "delta", "alaska", "swiss", "spirit", "frontier", "turkish", "qatar"}
    # and words that are an airline only where airlines are spoken of ("no condor", "flair if possible")
    | {"breeze", "porter", "copa", "tap", "norwegian", "ethiopian", "austrian", "aegean", "condor", "flair"}
    | {"indigo", "azul", "garuda", "avelo"}
)
_AIRLINE_RE = re.compile(
    r"\b(?P<name>" + "|".join(re.escape(k) for k in sorted(AIRLINES, key=len, reverse=True)) + r")\b"
    r"(?:\s+(?:air\s*lines?|airways|air))?"
    r"|\b(?P<code>" + "|".join(sorted(_CODES_TYPED)) + r")\b(?!\s*\d)"
    r"|\b(?P<group>star\s*alliance|one\s*world|sky\s*team"
    r"|(?:ultra[\s-]?)?(?:low[\s-]?cost|budget|no[\s-]?frills|discount|cheapo?)\s+(?:air\s*lines?|carriers?)|ulccs?)\b",
    re.I,
)
_GROUP_OF = {"star": "Star Alliance", "one": "oneworld", "sky": "SkyTeam"}
# What people say about an airline: never it, only it (otherwise: they prefer it).
_AVOID_BEFORE = re.compile(
    r"(?:\bno|\bnot(?:\s+on)?|\bavoid(?:ing)?|\bexcept|\bbut\s+not|\banything\s+but|\bnever|\bhate|\bwithout|\bdon'?t\s+(?:want|like|book|put\s+me\s+on)(?:\s+to\s+fly)?"
    r"|\bexclude|\bnothing\s+on|\bnot\s+with|\bban|\bskip|\bother\s+than|\bbesides|\bnone\s+of"
    # what people say of an airline they are through with: "not a fan of spirit", "can't stand united",
    # "keep me off frontier", "done with jetblue", "stay away from spirit", "won't fly american"
    r"|\bnot\s+(?:a\s+(?:big\s+)?fan\s+of|keen\s+on)|\bcan'?t\s+stand|\bcannot\s+stand|\bdislike|\bdetest"
    r"|\bkeep\s+(?:me|us|them|him|her)\s+off|\b(?:done|through|finished)\s+with|\b(?:sick|tired)\s+of|\bfed\s+up\s+with"
    r"|\bstay\s+(?:away\s+from|off)|\bsteer\s+clear\s+of|\bwon'?t\s+(?:fly|take|book|do)|\bwill\s+not\s+(?:fly|take|book|do)"
    r"|\brefuse\s+to\s+(?:fly|take|book)|\bno\s+more|\b(?:do\s+not|don'?t|never)\s+care\s+for|\bhad\s+enough\s+of"
    r"|\b(?:bad|terrible|awful|horrible|poor)\s+(?:luck|experiences?|times?|service)\s+(?:with|on)|\bburned\s+by)"
    r"(?:\s+(?:the|a|an|again|ever|flying|fly|with|on|by|any|flights?\s+(?:on|with)|\w+\s+(?:or|and|,)))*\s*$",
    re.I,
)
_AVOID_AFTER = re.compile(
    r"^\s*(?:air\s*lines?\s+)?(?:is\s+|are\s+)?(?:a\s+)?(?:no[\s-]?go|banned|not\s+ok|not\s+allowed|never"
    r"|(?:just\s+|really\s+|so\s+)?(?:terrible|awful|horrible|the\s+worst|a\s+nightmare|garbage|trash|a\s+hard\s+no)"
    r"|sucks?|no\s+thanks?|no\s+thank\s+you|,?\s*(?:so\s+|please\s+|pls\s+)?(?:don'?t|do\s+not|never)\s+(?:book|put\s+(?:me|us)\s+on)\s+(?:them|it|those|that))\b",
    re.I,
)
# Words that make a lower-case "delta", "united", "american" an airline: "prefer delta", "fly united",
# "on american", "delta preferred", "united if possible" (not "united states", "american express").
_CARRIER_BEFORE = re.compile(
    r"\b(?:prefer(?:ably|red)?|ideally|like|rather|want|fly(?:ing)?|flown|book(?:ed)?|only|just|stick\s+with"
    r"|on|via|status\s+(?:with|on)|loyal\s+to|miles\s+(?:with|on)|member\s+of|add|include"
    # after the options: "can we do delta instead", "switch me to united", "let's try jetblue"
    r"|do|try|use|go\s+with|(?:switch|change|move)(?:\s+(?:me|us|it|them))?\s+(?:over\s+)?to"
    r"|(?:platinum|gold|silver|diamond|elite|1k|medallion|executive\s+platinum|premier)\s+(?:with|on|at))\s+$",
    re.I,
)
_CARRIER_AFTER = re.compile(
    r"^\s*(?:only|preferred|pls|please|instead|if\s+(?:possible|we\s+can|you\s+can)|ideally|preferably"
    r"|is\s+(?:best|preferred|fine|better)|would\s+be\s+(?:best|great|nice|ideal)|flights?|air(?:lines?)?"
    r"|medallion|miles|status|elite|loyalist|frequent\s+flyer|gold|platinum|diamond|1k)\b",
    re.I,
)
_ONLY_BEFORE = re.compile(
    r"(?:\bonly|\bmust\s+(?:be|fly)(?:\s+on|\s+with)?|\bhas\s+to\s+be|\bhave\s+to\s+(?:be|fly)|\bexclusively|\bstrictly|\brequired?)"
    r"(?:\s+(?:on|with|fly|flying|by))*\s*$",
    re.I,
)
_ONLY_AFTER = re.compile(
    r"^\s*(?:air\s*lines?\s+)?(?:only|or\s+nothing|exclusively|is\s+(?:a\s+)?must|required"
    r"|[,;-]?\s*(?:and\s+|but\s+)?(?:nothing|no(?:ne|\s+one)?|no\s+other(?:\s+airlines?)?)\s+else|[,;-]?\s*no\s+others)\b",
    re.I,
)
# An airline let back in: "united is fine too", "ok, delta works", "american is ok after all".
_ALLOWED_AFTER = re.compile(
    r"^\s*(?:air\s*lines?\s+)?(?:is|are|'s)\s+(?:(?:actually|also|totally|perfectly)\s+)?(?:fine|ok|okay|alright|all\s+right|acceptable)"
    r"(?:\s+(?:too|as\s+well|also|after\s+all|by\s+me|with\s+me|now|then))?\b|^\s*(?:works|would\s+work)(?:\s+(?:too|as\s+well))?\b",
    re.I,
)
# "upgrade to", "bump us up to", "move me into", "put us in": a cabin asked for
_MOVE_TO = r"(?:(?:upgrade|switch|change|move|bump|put)\s+(?:us\s+|me\s+|it\s+|them\s+|everyone\s+|both\s+of\s+us\s+)?(?:up\s+)?(?:to|into|in))"
# A cabin wished on a condition: "first if reasonable", "biz if it's under 2k", "business if not crazy":
# the cabin is searched (its prices show whether the condition holds)
_IF_PRICE = (
    r"\s+(?:class\s+)?(?:if|when|as\s+long\s+as|provided)\s+(?:it'?s\s+|its\s+|the\s+price\s+is\s+|prices?\s+(?:are|is)\s+)?"
    r"(?:reasonable|affordable|cheap|doable|not\s+(?:too\s+)?(?:crazy|expensive|pricey|much|bad|outrageous)|under|below|less|within"
    r"|the\s+price\s+is\s+right|worth\s+it|in\s+budget|close)\b"
)
# A better cabin let go of: "nevermind on business", "forget first class", "scrap the premium": economy again
_CABIN_DROPPED = re.compile(
    r"\b(?:never\s?mind|forget|scrap|skip|drop|ditch|no)\s+(?:on\s+|about\s+)?(?:the\s+)?"
    r"(?:business|biz|premium(?:[\s-]+econ\w*)?|first[\s-]+class|first\s+cabin)(?:[\s-]+(?:class|cabin|seats?|fares?))?\b"
    r"(?!\s+(?:trip|meeting|travel|dinner|card|lounge))",
    re.I,
)
_CABINS = [
    (
        "premium_economy",
        re.compile(
            r"\bpremium(?:[\s-]+(?:economy|econ|eco|coach))?\b|\beconomy\s+plus\b|\bcomfort\s*\+|\bprem\s+econ\b|\bpe\s+cabin\b",
            re.I,
        ),
    ),
    (
        "first",
        re.compile(
            rf"\bfirst[\s-]+class\b|\bfly(?:ing)?\s+first\b|\bin\s+first\b|\bfirst\s+cabin\b|\bfirst(?={_IF_PRICE})"
            rf"|\b(?:{_MOVE_TO}|make\s+it)\s+first\b"
            r"(?!\s+(?:one|option|bundle|choice|flight|leg|hotel|night|day|week|thing|of|in|on|at|off))",
            re.I,
        ),
    ),
    (
        "business",
        re.compile(
            r"\bbusiness[\s-]+(?:class|cabin)\b|\bbusiness\s+or\s+first\b|\bfirst\s+or\s+business\b"
            rf"|\b(?:fly(?:ing)?|in|sit\s+in|book|{_MOVE_TO}|go|make\s+it|let'?s\s+do|rather|prefer)\s+(?:business|biz|j)\b(?!\s+trip)"
            rf"|\b(?:business|biz)(?={_IF_PRICE})"
            r"|\b(?:how\s+much|what(?:'?s|\s+is|\s+would|\s+does|\s+will)?|price|cost|quote|what\s+about|how\s+about)\b"
            r"[^.?!]{0,25}?\b(?:for|in|about|with|to)\s+(?:business|biz)\b(?!\s+(?:trips?|travel|purposes?|meetings?|reasons?|hours?))"
            r"|\b(?:how\s+much|what(?:'?s|\s+is|\s+would|\s+does|\s+will)?|price|cost|quote)\b[^.?!]{0,25}?"
            r"\b(?:business|biz)\b(?=\s*(?:class|cabin|be\b|cost|seats?|fares?|instead|then|[?.!]|$))"
            r"|(?:^|[,;])\s*(?:business|biz)\s*(?=[,;.!]|$)"  # an item of a list: "1 adult, Emirates, business"
            r"|\bbiz\s+class\b|(?<=pax|ppl|adt)\s+biz\b|\b(?:pax|ppl|adults?|people|tickets?)\s+biz\b|\blie[\s-]?flat\b|\bflat[\s-]?bed\b|\bpolaris\b|\bdelta\s+one\b|\bbusiness\s+(?:pls|please|seats?|fares?|instead|then)\b",
            re.I,
        ),
    ),
    (
        "economy",
        re.compile(
            r"\beconomy\b|\bcoach\b|\bmain\s+cabin\b|\bcattle\s+class\b|\bback\s+of\s+the\s+plane\b|\becon\b", re.I
        ),
    ),
]
_TIMES = (
    ("morning", r"(?:early\s+)?morning|early|sunrise"),
    ("afternoon", r"(?:early\s+|late\s+|mid[\s-]?)?afternoon|midday|mid-day|lunchtime|noon"),
    ("evening", r"evening|after\s+work|late|dinnertime"),
    ("night", r"overnight|late[\s-]night|night"),
)


def _time_word(n: int) -> str:
    # "late afternoon" before "late" (evening), "late night" before both
    order = ("night", "afternoon", "evening", "morning")
    return rf"(?P<t{n}>" + "|".join(dict(_TIMES)[name] for name in order) + r")"


_TIME_FLIGHT = re.compile(
    rf"\b{_time_word(1)}\s+(?:flights?|departures?|departing|leaving|outbound|return|flight\s+(?:out|back|home)"
    r"|(?:back|home)(?!\s+(?:in|at|to|from)\b)|(?:out|there)(?=\s*(?:,|and\b|&|$)))\b"
    rf"|\b(?:fly|flying|leave|leaving|depart(?:ing|ure)?|come\s+back|coming\s+back|return(?:ing)?|fly\s+back|head\s+back|back|home)\s+"
    rf"(?:in\s+the\s+|on\s+\w+\s+|(?:\w+\s+){{0,3}}?(?:in\s+the\s+)?)?(?<!\bday\s)(?<!\bdays\s)(?<!\bweek\s)(?<!\bweeks\s)"
    rf"{_time_word(2)}\b(?!\s+(?:before|check))"
    rf"|\b(?:flights?|departures?|out|back|return)\s+(?:in\s+the\s+)?{_time_word(3)}\b"
    # a day said with its time ("atl to lga monday morning", "ATL -> ORD, Dec 14 morning"): that day's flight
    rf"|\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|tomorrow|today"
    rf"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?"
    rf"|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)"  # "12/18 evening"
    rf",?\s+(?:in\s+the\s+)?{_time_word(4)}\b(?!\s+(?:before|check|meeting|appointment|event|wedding|conference))"
    # with options on screen: "something in the evening", "an evening one", "any afternoon options?"
    rf"|\b(?:something|anything)\s+(?:(?:in|for)\s+the\s+)?{_time_word(5)}\b"
    rf"|\b(?:an?|any|some|the)\s+{_time_word(6)}\s+(?:ones?|options?)\b",
    re.I,
)
_AN_EVENT = re.compile(
    r"\b(?:meeting|appointment|interview|event|wedding|conference|class|shift|work|job|game|show|concert|dinner|party"
    r"|surgery|funeral|ceremony|presentation|call)\b(?:\s+\w+){0,3}\s*$",
    re.I,
)
_CHECK_IN = re.compile(r"\bcheck(?:ing)?[\s-]?(?:in|out)\b(?:\s+\w+){0,2}\s*$", re.I)  # the hotel's times
_FLIGHT_TALK = re.compile(
    # a journey's words, or its shape ("one way", "sacramento -> san diego", "from sacramento")
    r"\b(?:one[\s-]?way|round[\s-]?trip|from\s+(?!the\b|my\b|our\b|work\b|home\b)[a-z]{3,})\b|->|→"
    r"|\b(?:fly|flying|flights?|depart\w*|leav\w*|back|return\w*|out|outbound|home|both\s+ways"
    r"|(?:something|anything)\s+(?:(?:in|for)\s+the\s+)?(?:early|late|morning|afternoon|evening|night)"
    r"|(?:morning|afternoon|evening|night)\s+(?:ones?|options?))\b",
    re.I,
)
# A time of day the traveller does not want, and the clock bound that leaves the rest of the day.
_NOT_WANTED = re.compile(
    r"\b(?:no|not|never|avoid(?:ing)?|without|nothing|hate|dislike|don'?t|do\s+not|rather\s+not)\b(?:\s+\w+){0,3}\s*$",
    re.I,
)
_OTHER_THAN = {
    "early": "after 09:00",
    "morning": "after 12:00",
    "evening": "before 17:00",
    "late": "before 20:00",
    "night": "before 21:00",
}
# Being somewhere by a time of day: "need to be in seattle tues morning", "have to be there monday
# afternoon", "get home by sunday evening". The flight must land by then (``_LAND_BY``), whatever time it
# leaves; a time of day said of a flight's leaving ("leaving tues morning") stays a departure window.
_BE_THERE_BY = re.compile(
    r"\b(?:need|needs|have|has|got|gotta|must|should)\s+(?:to\s+)?be\s+(?:in|at|there|back|home)\b(?![^.;!?,]*\b(?:leav|depart|fly|flight)\w*)"
    r"|\bby\s+(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\w*\s+)?$",
    re.I,
)
_LAND_BY = {"morning": "before 12:00", "afternoon": "before 17:00", "evening": "before 21:00"}
_NOON = frozenset(("noon", "midday", "mid-day", "lunchtime"))
_OUT_CONTEXT = re.compile(r"\b(?:out(?:bound)?|there|going|leav\w*|depart\w*)\b", re.I)
_RETURN_CONTEXT = re.compile(r"\b(?:back|return(?:ing)?|home|inbound|come\s+back|coming\s+back|fly\s+back)\b", re.I)
_BOTH_WAYS = re.compile(r"\b(?:both\s+ways|each\s+way|both\s+directions|all\s+flights|there\s+and\s+back)\b", re.I)
_NONSTOP = re.compile(
    r"\bnon[\s-]?stops?\b|\bdirects?(?:\s+flights?)?\b|\b(?:no|avoid(?:ing)?|without|hate)\s+(?:any\s+)?(?:stops|layovers?|conn?ec?tions?)\b",
    re.I,
)
# "max one stop", "1 stop max", "one stop or less", "a layover is fine", "max of one connection"
_ONE_STOP = re.compile(
    r"\b(?:at\s+most|max(?:imum)?(?:\s+of)?|up\s+to|no\s+more\s+than|not\s+more\s+than)\s+(?:one|1|a\s+single)\s+(?:stop|layover|connection)s?\b"
    r"|\b(?:one|1)[\s-]+(?:stop|layover|connection)s?\s+(?:max|at\s+most|or\s+(?:less|fewer|under)|tops|(?:is\s+)?(?:fine|ok|okay|alright))\b"
    r"|\b(?:a|one|1)\s+(?:short\s+)?(?:stop|layover|connection)\s+is\s+(?:fine|ok|okay|alright)\b"
    r"|\b(?:otherwise|or\s+else|else|or)\s+(?:max\s+)?(?:one|1)\s+(?:stop|layover|connection)\b"
    r"|\b(?:one|1)\s+(?:stop|layover|connection)\s+if\s+(?:needed|necessary|need\s+be|(?:we|i)\s+(?:must|have\s+to))\b"
    r"|\b(?:allow|accept|take|include|ok\s+with|okay\s+with|fine\s+with|open\s+to)\s+(?:one|1|a\s+single)\s+(?:stop|layover|connection)s?\b",
    re.I,
)
# A nonstop wished, not required: "ideally nonstop", "direct if possible", "nonstop would be nice",
# "prefer nonstop but will take a connection", "as few stops as possible". Nonstops are ranked first
# and connections still shown; "must be nonstop", "nonstop only" stay a filter (``_NONSTOP``).
_NS = r"(?:a\s+)?(?:non[\s-]?stops?|directs?)(?:\s+(?:flights?|route|one))?"
_SOFT_NONSTOP = re.compile(
    r"\b(?:ideally|preferably|prefer(?:red|ably)?|would\s+(?:really\s+|much\s+)?prefer|'d\s+(?:really\s+|much\s+)?prefer|rather(?:\s+(?:go|fly|have|take|do))?|hoping\s+for"
    r"|hope\s+for|would\s+love|'d\s+love|would\s+like|'d\s+like|try(?:ing)?\s+(?:for|to\s+(?:get|find))|if\s+there'?s)"
    rf"\s+(?:to\s+(?:go|fly)\s+|on\s+|for\s+)?{_NS}\b(?!\s+(?:only|or\s+nothing|required|is\s+a\s+must))"
    rf"|\b{_NS}\s+(?:if\s+(?:possible|available|we\s+can|you\s+can|u\s+can|i\s+can|it'?s\s+possible|there\s+(?:is|are)\s+(?:one|any))"
    r"|where\s+possible|when\s+possible|ideally|preferably|preferred|pref|prefered|would\s+(?:just\s+|really\s+|still\s+)?be\s+(?:nice|great|ideal|best|better|good|preferred|awesome|lovely)"
    r"|(?:is|are)\s+(?:nice|ideal|best|better|preferred|a\s+plus|a\s+bonus|nice\s+to\s+have)|unless|but\s+(?:not\s+(?:a\s+must|required|essential|necessary|crucial|a\s+deal[\s-]?breaker)"
    r"|(?:i'?m\s+|we'?re\s+)?flexible|(?:i|we|will|would|can|could|i'?ll|we'?ll|i'?d|we'?d)\s+(?:\w+\s+)?(?:take|do|accept|consider|go\s+with)))\b"
    r"|\b(?:as\s+few|fewest|fewer|minimal|min(?:imum)?|least)\s+(?:number\s+of\s+)?(?:stops|connections|layovers)\b"
    rf"|\b{_NS}\b[^.;!?]{{0,40}}\b(?:not\s+a\s+(?:deal[\s-]?breaker|must|big\s+deal)|no\s+big\s+deal\s+if\s+not)\b"
    r"|\b(?:prefer(?:ably)?|ideally|rather|hoping\s+for|hope\s+for|'d\s+like|would\s+like)\s+(?:to\s+avoid|avoid(?:ing)?|not\s+to\s+have|no|not)\s+(?:any\s+)?(?:stops|layovers?|connections?|connecting)\b"
    r"|\b(?:no|without|avoid(?:ing)?)\s+(?:stops|layovers?|connections?)\s+(?:but|though)\s+(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?(?:flexible|open)\b"
    r"|\b(?:avoid(?:ing)?|no)\s+(?:stops|connections|layovers?)\s+(?:if\s+(?:possible|we\s+can|you\s+can)|ideally|preferably|where\s+possible)\b",
    re.I,
)
# "2 stops is fine", "up to two stops", "max 2 connections"
_TWO_STOPS = re.compile(
    r"\b(?:at\s+most|max(?:imum)?(?:\s+of)?|up\s+to|no\s+more\s+than)\s+(?:two|2)\s+(?:stops|layovers|connections)\b"
    r"|\b(?:two|2)[\s-]+(?:stops|layovers|connections)\s+(?:max|at\s+most|or\s+(?:less|fewer)|tops|(?:is\s+|are\s+)?(?:fine|ok|okay|alright))\b",
    re.I,
)
# A red-eye not wanted: "no red eyes", "i'd rather not do a red eye", "we'd prefer not to fly overnight",
# "can't do the red-eye", "not keen on an overnight flight" (never read as a wish for one: ``_red_eye_wanted``)
_RED_EYE_NOT = (
    r"(?:no|avoid(?:ing)?|not|without|hate|skip|rather\s+not|prefer(?:ably)?\s+not(?:\s+to)?|no\s+more"
    r"|(?:do\s+not|don'?t|dont|won'?t|will\s+not|would\s+not|wouldn'?t|can'?t|cannot|never)(?:\s+(?:want|like))?(?:\s+to)?"
    r"|not\s+(?:keen\s+on|a\s+(?:big\s+)?fan\s+of|interested\s+in|up\s+for))"
)
_RED_EYE = re.compile(
    rf"\b{_RED_EYE_NOT}(?:\s+(?:do|doing|take|taking|book|fly|flying|catch|get|be|go))?(?:\s+(?:on|with))?"
    r"(?:\s+(?:the|an?|any))?\s+(?:red[\s-]?eyes?|overnight\s+flights?)\b"
    rf"|\b{_RED_EYE_NOT}\s+(?:to\s+)?fly(?:ing)?\s+overnight\b",
    re.I,
)
_COUNTED = re.compile(
    r"\s*(?:people|persons?|travell?ers|passengers|guests|adults|kids?|children|rooms?|nights?|days?|weeks?|stops?|stars?|miles|km|"
    r"of\s+us|am|pm|years?|yrs?|months?|hours?|hrs?|minutes?|mins?|ppl|pax|bags?|colleagues|friends|(?:st|nd|rd|th)\b)\b",
    re.I,
)
# What people write for a currency, beside an amount ("2000 euros", "C$300", "150 CHF a night") or on its
# own ("prices in CAD", "in pounds please"): word -> ISO 4217 code.
_CURRENCY = {
    "$": "USD",
    "us$": "USD",
    "dollars": "USD",
    "usd": "USD",
    "bucks": "USD",
    "us dollars": "USD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
    "sterling": "GBP",
    "pounds sterling": "GBP",
    "cad": "CAD",
    "c$": "CAD",
    "ca$": "CAD",
    "cdn": "CAD",
    "canadian": "CAD",
    "canadian dollars": "CAD",
    "aud": "AUD",
    "a$": "AUD",
    "au$": "AUD",
    "australian dollars": "AUD",
    "aussie dollars": "AUD",
    "nzd": "NZD",
    "nz$": "NZD",
    "chf": "CHF",
    "swiss francs": "CHF",
    "francs": "CHF",
    "mxn": "MXN",
    "pesos": "MXN",
    "mexican pesos": "MXN",
    "jpy": "JPY",
    "yen": "JPY",
    "¥": "JPY",
    "sek": "SEK",
    "nok": "NOK",
    "dkk": "DKK",
    "inr": "INR",
    "rupees": "INR",
}


def _alternatives(forms: Iterable[str]) -> str:
    """``forms`` as one regex alternation, longest first ("canadian dollars" before "canadian")."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(forms, key=lambda w: (-len(w), w)))


# the written forms after an amount ("2000 euros") and the codes before one ("budget CAD 1200")
_CURRENCY_WORDS = _alternatives(w for w in _CURRENCY if w[-1].isalpha())
_CURRENCY_CODES = _alternatives({code.lower() for code in _CURRENCY.values()})
# A currency asked for without an amount: "prices in CAD", "quote me in euros", "show everything in GBP",
# "in canadian dollars please", "currency: EUR".
_CURRENCY_SAID = re.compile(
    r"\b(?:prices?|pricing|quotes?|quoted|costs?|fares?|totals?|amounts?|everything|budget|show(?:\s+me)?|quote\s+me"
    r"|display(?:ed)?|list(?:ed)?|paying|pay|numbers|figures|rates?)\s+(?:(?:\w+\s+){0,2}?)in\s+"
    rf"(?P<cur>{_CURRENCY_WORDS})\b"
    rf"|\bin\s+(?P<cur2>{_CURRENCY_WORDS})\s+(?:please|pls|plz|if\s+possible|thanks|thx)\b"
    rf"|\bcurrency\s*(?:is|:|=|-)?\s*(?P<cur3>{_CURRENCY_WORDS})\b",
    re.I,
)


def currency_said(text: str) -> Optional[str]:
    """The currency ``text`` asks prices in without naming an amount ("prices in CAD"), else None."""
    m = _CURRENCY_SAID.search(text)
    if not m:
        return None
    word = re.sub(r"\s+", " ", (m.group("cur") or m.group("cur2") or m.group("cur3")).lower())
    return _CURRENCY.get(word)


# "refundable", and what people say for it: "flexible tickets", "changeable fares", "free cancellation",
# "cancellable", "something I can cancel"; not "non-refundable", "no free cancellation needed".
_REFUNDABLE = re.compile(
    r"(?<!non)(?<!non-)(?<!non )\b(?:fully\s+)?refundable\b"
    r"|\b(?:flexible|flex|changeable|cancell?able)\s+(?:tickets?|fares?|flights?|bookings?|rates?|rooms?|hotels?|reservations?)\b"
    r"|\b(?:tickets?|fares?|flights?|bookings?|rates?|rooms?|hotels?|reservations?)\s+(?:that\s+)?(?:(?:is|are|must\s+be|need\s+to\s+be|should\s+be)\s+)?"
    r"(?:flexible|changeable|cancell?able)\b"
    r"|\b(?<!no\s)free\s+cancell?ation\b|\b(?:i|we)\s+can\s+(?:cancel|change)\s+(?:if|later|without)\b"
    r"|\b(?:can|could|able\s+to|option\s+to|free\s+to)\s+cancel\s+(?:the\s+|my\s+|our\s+)?(?:hotel|room|flights?|tickets?|booking|trip|it)\b"
    r"|\bsomething\s+(?:i|we)\s+can\s+cancel\b",
    re.I,
)
_HOTEL = re.compile(r"\b(?:hotels?|motel|inn|accommodations?|lodging|place\s+to\s+stay|rooms?|check[\s-]?in)\b", re.I)
_STARS = re.compile(
    rf"\b(?P<n>{NUMBER_RE})(?:\s*(?:or|-|to|/)\s*{NUMBER_RE})?[\s-]*(?:or\s+more\s+|plus\s+|\+\s*)?(?:stars?|start)(?:hotels?)?\b"
    rf"|\b(?P<a>[1-5])\s*(?:\*|\u2605)+(?=\s|$|[,.;!?])|\brated\s+(?:at\s+least\s+)?(?P<r>[1-5])\b"
    rf"|\bstar\s+rating\s+(?:of\s+)?(?:at\s+least\s+)?(?P<s>{NUMBER_RE})\b",
    re.I,
)
# "beachfront", "oceanfront hotel", "a room on the beach", "by the ocean": to be near the beach
_BY_THE_WATER = re.compile(
    r"\b(?:beach|ocean|sea)[\s-]?front\b|\b(?:on|by|at)\s+the\s+(?:beach|ocean|sea(?:side)?)\b|\bsteps\s+from\s+the\s+(?:beach|sand|ocean)\b",
    re.I,
)
_NEAR = re.compile(
    r"\b(?:near(?:er)?(?:\s+to)?|clos(?:e|er|est)\s+to|next\s+to|walking\s+distance\s+(?:to|from|of))\s+(?P<what>(?:the\s+)?[A-Za-z0-9'&\- ]{3,60}?)"
    r"(?=\s*(?:[.,!?;$\u20ac\u00a3]|$|\b(?:and|for|from|on|with|please|in|at|by|this|next|tomorrow|today|starting"
    r"|under|below|max(?:imum)?|up\s+to|less\s+than|no\s+more\s+than|cheaper\s+than|budget|tops|but|or|if|so"
    r"|ideally|preferably|if\s+possible|pls|plz|thanks|thx|would|is|would\s+be|instead|rather|then|too|this\s+time)\b"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d))",  # "near the airport jan 4-5"
    re.I,
)
# Where in town without a landmark: "a hotel downtown", "somewhere central", "centrally located",
# "in the city centre"; not "doesn't need to be central", "Central Park" (a landmark: _NEAR) or "central time".
_CENTRAL = re.compile(
    r"(?<!\bnot\s)(?<!n't\s)(?<!need\sto\sbe\s)\b(?:(?P<down>down\s?town)(?!\s+(?:[A-Z][a-z]+|\w+\s+(?:airport|station))\b)"
    r"|(?:somewhere|something|anywhere|place|hotel|stay(?:ing)?|be|more|nice\s+and|fairly|pretty|very|quite|is)\s+central\b(?!\s+(?:time|park|station|america|standard|avenue|ave|st|street))"
    r"|central(?:ly)?\s+(?:located|location|area|spot|part\s+of\s+(?:town|the\s+city)|neighbou?rhood|hotel)"
    r"|(?:city|town)\s+cent(?:er|re)|cent(?:er|re)\s+of\s+(?:town|the\s+city)|in\s+the\s+cent(?:er|re)\b"
    r"|in\s+central\s+(?!(?:time|park|station|america|standard|avenue|ave|st|street|florida|asia|europe|valley|coast)\b)[a-z]{3,}"
    # the hotel on screen is out of the way: "the hotel is too far out", "too far from everything"
    r"|(?:hotel|place|stay|location)(?:'s|\s+is|\s+seems|\s+looks)?\s+(?:way\s+|a\s+bit\s+|kind\s+of\s+|kinda\s+)?too\s+far"
    r"(?:\s+(?:out|away|off))?(?:\s+from\s+(?:everything|the\s+(?:cent(?:er|re)|city|action)|town))?\b)",
)
_NOT_CENTRAL = re.compile(
    r"\b(?:doesn'?t|does\s+not|don'?t|do\s+not|needn'?t|no\s+need\s+to|not)\s+(?:\w+\s+){0,3}?(?:be\s+)?(?:central|downtown)",
    re.I,
)
# "one way", "1-way", "no return flight", "we're not flying back", "don't need a return"
_ONE_WAY = re.compile(
    r"\b(?:one|1)[\s-]?way\b|\bno\s+(?:need\s+for\s+a\s+)?return(?:\s+(?:flights?|tickets?|trip|leg))?\b(?!\s+(?:before|after|on|until|till))"
    r"|\b(?:don'?t|do\s+not|won'?t)\s+need\s+(?:a\s+)?return\b|\bnot\s+(?:coming|flying)\s+back\b",
    re.I,
)
_ROUND_TRIP = re.compile(
    r"\bround[\s-]?trips?\b|\breturn\s+(?:flights?|tickets?|trip)\b|\bthere\s+and\s+back\b|(?<![\w'])(?:rt|r/t)(?![\w'])",
    re.I,
)
# Booking shorthand beside a route or a date: "PHX>SEA ow 12/9", "lax-jfk OW", "ow jan 5" (not "ow, that hurts")
_SHORT_ONE_WAY = re.compile(
    r"(?:(?<=\d)|\b[a-z]{3}\s*(?:-|>|->|\u2192|/|to)\s*[a-z]{3})\s+ow(?![\w'!?])"
    r"|(?<![\w'])ow\s+(?=\d{1,2}[/.-]\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s*\d)",
    re.I,
)
# "1a biz", "2 pax biz", "jfk-lhr biz": business class typed short (not "biz trip", "for biz")
_SHORT_BUSINESS = re.compile(
    r"(?<!\bfor\s)(?<!\bon\s)(?<!\bmy\s)(?<!\bour\s)(?<!\bof\s)(?<!\ba\s)(?<![\w'])biz(?![\w'])"
    r"(?!\s+(?:trip|travel|meeting|dinner|lunch|purposes?|reasons?|conference|stuff|thing|dev|card))",
    re.I,
)

# "jan 22 business, 1 pax", "2 adults business sfo to tokyo": "business" typed as booking shorthand, right
# after a date or a head count, or right before a head count (not "jan 22 business trip", "for business")
_COUNT = r"\d+\s*(?:adults?|adt|pax|ppl|people|passengers?|travell?ers?|persons?)\b"
_BARE_BUSINESS = re.compile(
    r"(?:(?<=\d)|(?<=\d(?:st|nd|rd|th))|(?<=\badults)|(?<=\badult)|(?<=\bpax)|(?<=\bppl)|(?<=\bpeople)"
    r"|(?<=\bpassengers)|(?<=\bpassenger))[\s,]+business\b(?!\s+(?:trips?|travel\w*|meetings?|purposes?|reasons?"
    r"|conferences?|dinners?|lunch|hours?|days?|district|park|cent(?:er|re)|hotels?|cards?|partners?|school|casual))"
    rf"|(?<!\bfor\s)(?<!\bon\s)(?<!\bof\s)(?<!\bmy\s)(?<!\bour\s)(?<!\ba\s)(?<!\bthe\s)(?<!:\s)(?<!:)\bbusiness\s*,?\s*(?={_COUNT})",
    re.I,
)


def read_airlines(text: str) -> Tuple[Dict[str, Optional[List[str]]], List[Tuple[int, int]]]:
    """IATA codes of the airlines named, by what the traveller wants of each ("airlines": preferred,
    "airlines_required", "airlines_avoid"), and their spans (so place matching can skip them)."""
    found: Dict[str, List[str]] = {"airlines": [], "airlines_required": [], "airlines_avoid": []}
    spans: List[Tuple[int, int]] = []
    mentions: List[Tuple[re.Match[str], str]] = []
    for m in _AIRLINE_RE.finditer(text):
        if m.group("group"):
            group = _GROUP_OF.get(
                re.split(r"\s|(?<=e)(?=w)|(?<=y)(?=t)", m.group("group").lower())[0], "low-cost airlines"
            )
            mentions.extend((m, code) for code in AIRLINE_GROUPS[group])
            spans.append((m.start(), m.end()))
            continue
        if m.group("code"):
            after, before = text[m.end() : m.end() + 30], text[max(0, m.start() - 40) : m.start()]
            if not m.group("code").isupper() and not (
                _ONLY_AFTER.match(after) or _ONLY_BEFORE.search(before) or _AVOID_BEFORE.search(before)
            ):
                continue  # "aa", "dl" in lower case are not codes people type, unless "aa only", "no nk"
            code = m.group("code").upper()
        else:
            key = m.group("name").lower()
            if m.group(0).lower() == key and key in _ORDINARY_WORDS and not m.group(0)[0].isupper():
                # "united", "american", "spirit" in lower case are ordinary words, unless
                # the words around them speak of airlines ("no spirit or frontier")
                if (
                    not _AVOID_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
                    and not _AVOID_AFTER.match(text[m.end() : m.end() + 30])
                    and not _ALLOWED_AFTER.match(text[m.end() : m.end() + 30])
                    and not (
                        (
                            _CARRIER_BEFORE.search(text[max(0, m.start() - 30) : m.start()])
                            or _CARRIER_AFTER.match(text[m.end() : m.end() + 30])
                        )
                        and not re.match(r"\s+(?:express|states|kingdom|nations)\b", text[m.end() :], re.I)
                    )
                    and not re.match(r"\s*(?:or|and|,)\s*\w+\s+air", text[m.end() : m.end() + 30], re.I)
                    and not GOES_ON.match(text[: m.start()] + "\0")
                    and not _listed_with_airline(text, m, mentions)
                ):
                    continue
            code = AIRLINES[key][0]
        mentions.append((m, code))
        spans.append((m.start(), m.end()))
    stance = None
    for i, (m, code) in enumerate(mentions):
        before = text[mentions[i - 1][0].end() if i else max(0, m.start() - 60) : m.start()]
        listed = i and (mentions[i - 1][0] is m or re.fullmatch(_LIST_JOIN, before, re.I))  # a group's members
        if m.group("code") and not listed and not _code_meant(text, m, before, mentions[i + 1 :]):
            spans.remove((m.start(), m.end()))
            continue
        if not listed:
            after = text[m.end() : m.end() + 30]
            later = next((mm for mm, _ in mentions[i + 1 :]), None)
            tail_after = text[(later or m).end() : (later or m).end() + 30] if later else after
            if _AVOID_BEFORE.search(before) or _AVOID_AFTER.match(tail_after):
                stance = "airlines_avoid"
            elif _ONLY_BEFORE.search(before) or _ONLY_AFTER.match(tail_after):
                stance = "airlines_required"
            elif _ALLOWED_AFTER.match(tail_after):
                stance = "airlines_allowed"
            else:
                stance = "airlines"
        if code not in found.setdefault(stance or "airlines", []):
            found[stance or "airlines"].append(code)
    allowed = found.pop("airlines_allowed", [])
    found["airlines"] += [c for c in allowed if c not in found["airlines"]]  # read alone: a mild preference
    return {k: (v or None) for k, v in found.items()}, spans


# A message that goes on with the list the trip has: "or american" after "delta only", "and jetblue".
GOES_ON = re.compile(r"^\W*(?:or|and|also|plus|maybe|perhaps|(?:what|how)\s+about)\s+(?:\0|[a-z])", re.I)


def carriers_against(text: str, said: Dict[str, Optional[List[str]]], flight: Any) -> Dict[str, Optional[List[str]]]:
    """The airline lists of a message read against the trip's (``flight``: its flight preferences).

    An airline avoided before stays avoided when another is named ("no delta either" after "no
    united" avoids both); one let back in ("united is fine too", "ok american works") leaves the
    avoided list, joins the required ones when some are required, and is no preference of its own.
    An airline named alone after "or" / "and" ("or american" after "delta only") joins the list the
    trip has: the required ones, else the avoided ones (with none preferred), else the preferred."""
    flight = flight if isinstance(flight, dict) else {}
    avoided = [c for c in flight.get("airlines_avoid") or [] if isinstance(c, str)]
    required = [c for c in flight.get("airlines_required") or [] if isinstance(c, str)]
    preferred = [c for c in flight.get("airlines") or [] if isinstance(c, str)]
    out = dict(said)
    named = said.get("airlines") or []
    if named and not said.get("airlines_required") and not said.get("airlines_avoid") and GOES_ON.match(text):
        key = "airlines_required" if required else "airlines_avoid" if avoided and not preferred else "airlines"
        if key != "airlines" or preferred:
            joined = {"airlines_required": required, "airlines_avoid": avoided, "airlines": preferred}[key]
            out["airlines"] = None if key != "airlines" else list(dict.fromkeys(preferred + named))
            out[key] = list(dict.fromkeys(joined + named))
            return out
    allowed = [c for c in said.get("airlines") or [] if (c in avoided or required) and _let_in(text, c)]
    if allowed:
        rest = [c for c in said.get("airlines") or [] if c not in allowed]
        out["airlines"] = rest or None
        out["airlines_avoid"] = [c for c in avoided + (said.get("airlines_avoid") or []) if c not in allowed]
        if required:
            out["airlines_required"] = list(dict.fromkeys(required + (said.get("airlines_required") or []) + allowed))
    elif said.get("airlines_avoid") and avoided:
        others = set((said.get("airlines") or []) + (said.get("airlines_required") or []))
        out["airlines_avoid"] = [
            c for c in dict.fromkeys(avoided + (said.get("airlines_avoid") or [])) if c not in others
        ]
    return out


def _let_in(text: str, code: str) -> bool:
    """Whether ``text`` lets airline ``code`` in rather than wishing for it ("united is fine too")."""
    names = [k for k, v in AIRLINES.items() if v and v[0] == code] + [code]
    for m in _AIRLINE_RE.finditer(text):
        said = (m.group("name") or m.group("code") or "").lower()
        if said in (n.lower() for n in names) and _ALLOWED_AFTER.match(text[m.end() : m.end() + 40]):
            return True
    return bool(re.search(r"\b(?:also|too|as\s+well|after\s+all|back\s+in)\b", text, re.I))


_LIST_JOIN = r"\s*(?:,|or|and|&|/|nor|,\s*or|,\s*and)\s*"
_NAME_NEXT = re.compile(_LIST_JOIN + r"(?:" + "|".join(re.escape(k) for k in AIRLINES) + r")\b", re.I)


def _listed_with_airline(text: str, m: re.Match[str], mentions: List[Tuple[re.Match[str], str]]) -> bool:
    """ "prefer alaska or delta", "delta or united", "no spirit, frontier or allegiant": a lower-case
    "delta" listed next to an airline is one too (not "united states", "american express")."""
    if re.match(r"\s+(?:express|states|kingdom|nations|airlines?\s+center)\b", text[m.end() :], re.I):
        return False
    after_one = bool(mentions) and re.fullmatch(_LIST_JOIN, text[mentions[-1][0].end() : m.start()], re.I)
    return bool(after_one or _NAME_NEXT.match(text, m.end()))


def _code_meant(text: str, m: re.Match[str], before: str, later: list) -> bool:
    """A bare carrier code counts next to words about airlines, or listed with another airline."""
    after = text[m.end() : m.end() + 30]
    if later and re.fullmatch(r"\s*(?:,|or|and|&|/|nor)\s*", text[m.end() : later[0][0].start()], re.I):
        return True
    return bool(
        _AVOID_BEFORE.search(before)
        or _ONLY_BEFORE.search(before)
        or _AVOID_AFTER.match(after)
        or _ONLY_AFTER.match(after)
        or re.match(r"\s*(?:flights?|airlines?|if\s+possible|preferred|please|pls)\b", after, re.I)
        or re.search(r"\b(?:prefer|on|with|fly|flying)\s*$", before, re.I)
    )


# Someone's (not "a place near the beach"): "my", "their", "my brother's", "a friend's".
_SOMEONES = r"(?:(?:my|our|his|her|their)\s+(?:[\w-]+(?:'s|s')\s+)?|an?\s+[\w-]+(?:'s|s')\s+)"
# Saying no to a hotel, or that one is not needed.
NO_HOTEL = re.compile(
    # every way below starts with one of these letters: other places are passed over at once
    r"(?=[abcdfghijlnoprsvwABCDFGHIJLNOPRSVW])(?:"
    # "no hotel needed", not "no hotels near the airport", "no hotel over 200", "no motels"
    r"\bno\s+(?:need\s+for\s+(?:a\s+)?)?(?:hotels?|accommodations?|lodging|place\s+to\s+stay)\b"
    r"(?!\s+(?:near|close|by|in\s+the|next|over|above|under|more|less|that|which|with|without|on|at|far|outside|further|farther"
    r"|than|costing|for\s+more|rated|below|chains?|w/|where))|"
    r"\b(?:don'?t|do\s+not|won'?t|will\s+not|doesn'?t)\s+need\s+(?:a\s+|the\s+|any\s+)?(?:hotels?|room|accommodations?|lodging|place\s+to\s+stay)\b|"
    r"\bwithout\s+(?:a\s+)?hotel\b|"
    # "direct flights only", "morning flights only": a kind of flight, not a trip without a hotel
    r"(?=flights?\s+only\b)(?<!\bdirect\s)(?<!\bnonstop\s)(?<!\bnon-stop\s)(?<!\bmorning\s)(?<!\bevening\s)(?<!\bafternoon\s)(?<!\bnight\s)(?<!\brefundable\s)(?<!\beconomy\s)(?<!\bbusiness\s)(?<!\bclass\s)(?<!\bcabin\s)(?<!\bdelta\s)(?<!\bunited\s)(?<!\bamerican\s)(?<!\bjetblue\s)(?<!\balaska\s)(?<!\bsouthwest\s)(?<!\bairline\s)(?<!\bearly\s)(?<!\blate\s)(?<!\bcheap\s)(?<!\bcheaper\s)(?<!\blater\s)(?<!\bearlier\s)(?<!\bdaytime\s)\bflights?\s+only\b|\bflight[\s-]only\b|"
    r"\bjust\s+(?:need\s+)?(?:the\s+)?flights?\b|\bonly\s+(?:need\s+)?(?:the\s+)?flights?\b|\bhotel\s+(?:is\s+)?not\s+needed\b|"
    r"\balready\s+(?:have|has|booked|got|found|sorted)\s+(?:a\s+|the\s+|my\s+|our\s+)?(?:hotel|room|place|accommodation|lodging)\b|"
    r"\b(?:i|we)\s+(?:have|has|'ve\s+got|got)\s+(?:a\s+)?place\s+to\s+stay\b|"
    r"\bstay(?:ing)?\s+(?:with|at)\s+(?:a\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?(?:friends?|family|relatives|parents|in-laws|folks|mom|dad|mum|"
    r"sister|brother|son|daughter|kids|cousin|aunt|uncle|grand(?:parents|ma|pa|mother|father)|girlfriend|boyfriend|partner|them|him|her)\b(?!'s)|"
    # where a bed already waits: "staying at my brother's apartment", "crash at their place", "we have a timeshare there"
    rf"\bstay(?:ing)?\s+(?:with|at|in)\s+{_SOMEONES}(?:place|house|home|apartment|flat|condo|cabin|couch)\b|"
    rf"\b(?:crash(?:ing)?|sleep(?:ing)?)\s+(?:at|on|with|in)\s+(?:them|him|{_SOMEONES})|"
    r"\b(?:we|i)(?:\s+(?:have|own|got|have\s+got)|'ve\s+got|'ve)\s+(?:a\s+|our\s+|my\s+)?(?:timeshare|condo|vacation\s+home|beach\s+house|cabin|apartment|flat)\s+(?:there|in)\b|"
    # going home ("heading home for christmas", "flying home to cleveland"); "heading home jan 9" is a return
    r"\b(?:head(?:ing)?|go(?:ing)?|fly(?:ing)?|com(?:e|ing))\s+(?:back\s+)?home\s+(?:for|to)\b|"
    r"\b(?:anything|nothing)\s+(?:but|except|other\s+than)\s+(?:the\s+)?flights?\b|"
    r"\b(?:booked|arranged|covered|sorted|reserved)\s+the\s+hotel\b|\bhotel\s+(?:is\s+)?(?:already\s+)?(?:booked|sorted|covered|taken\s+care\s+of|arranged)\b|"
    r"\b(?=(?:drop|cancel|remove|skip|forget|nix|lose|ditch|scrap|scratch|axe|cut)\s)(?<!\bcan\s)(?<!\bcould\s)(?<!\bto\s)"
    r"(?:drop|cancel|remove|skip|forget|nix|lose|ditch|scrap|scratch|axe|cut)\s+(?:about\s+)?the\s+(?:hotel|room)\b|"
    r"\bno\s+need\s+for\s+(?:the|a|any)\s+(?:hotel|room)\b|"
    # a bed arranged another way: "airbnb already booked", "we have a vrbo", "lodging is taken care of",
    # "the company is putting me up", "staying at my brother's", "i've got somewhere to stay"
    r"\balready\s+(?:have|has|booked|got|found|sorted|rented)\s+(?:an?\s+|the\s+|my\s+|our\s+)?(?:airbnb|vrbo|rental|house|cabin|condo|apartment)\b|"
    r"\b(?:airbnb|vrbo|lodging|accommodations?|place\s+to\s+stay)\s+(?:is\s+|are\s+|'s\s+)?(?:already\s+)?(?:booked|sorted|covered|taken\s+care\s+of|arranged|reserved|handled)\b|"
    r"\b(?:i|we)(?:\s+(?:have|got|booked|rented|have\s+got)|'ve\s+got|'ve\s+booked|'ve)\s+(?:an?\s+|our\s+|my\s+)(?:airbnb|vrbo)\b|"
    r"\b(?:i|we)(?:\s+(?:have|got|have\s+got)|'ve\s+got|'ve)\s+(?:somewhere|a\s+place)\s+to\s+stay\b|"
    r"\bgot\s+(?:the\s+|my\s+|our\s+)?(?:lodging|accommodations?|hotel|place)\s+(?:sorted|covered|booked|handled|taken\s+care\s+of)\b|"
    r"\bputting\s+(?:me|us)\s+up\b|"
    r"\bstay(?:ing)?\s+(?:at|with)\s+(?:my|our|his|her|their|an?)\s+[\w-]+(?:'s|s')(?=\s*(?:[,.;!?)]|$|and\b|so\b|for\b|while\b)))",
    re.I,
)
# Flights the traveller already has: "already booked my flights", "flights are taken care of".
FLIGHTS_BOOKED = re.compile(
    r"\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:all\s+)?(?:set|good|sorted|covered)\s+(?:on|for|with)\s+(?:the\s+)?(?:flights?|air(?:fare)?)\b|"
    r"\balready\s+(?:have|has|booked|got|bought|purchased|sorted)\s+(?:my\s+|our\s+|the\s+)?(?:own\s+)?(?:flights?|plane\s+tickets?|air(?:fare)?)\b|"
    r"\b(?:i|we)\s+(?:booked|bought|have|got)\s+(?:my|our)\s+(?:own\s+)?(?:flights?|plane\s+tickets?|airfare)\s+(?:already|sorted|booked|covered)\b|"
    r"\b(?:i|we)\s+(?:booked|bought)\s+(?:my|our)\s+own\s+(?:flights?|plane\s+tickets?|airfare)\b|"
    r"\b(?:got|have)\s+(?:my|our)\s+flights?\s+(?:already|sorted|booked|covered)\b|"
    r"\b(?:(?:my|our|the)\s+)?flights?\s+(?:is|are)\s+(?:already\s+(?:booked|sorted|covered|taken\s+care\s+of|paid)|booked\s+already|covered|taken\s+care\s+of)\b|"
    r"\bflights?\s+already\s+(?:booked|sorted|covered|taken\s+care\s+of)\b",
    re.I,
)
# Saying no to flights: a stay alone (driving, the train, living there); see also ``no_flights``.
NO_FLIGHTS = re.compile(
    # "no flights needed", not "no flights before 8am", "no flights on sunday", "no flights over 6 hours"
    r"\bno\s+(?:need\s+for\s+(?:a\s+)?)?(?:flights?|plane|air(?:fare)?)\b"
    r"(?!\s+(?:before|after|earlier|later|on|with|that|which|over|under|longer|shorter|past|leaving|departing|arriving|landing"
    r"|at|in\s+the|until|till|between|from|to|into|out|back|home|through|via|connecting|w/|by|around|during))|"
    r"\b(?:don'?t|do\s+not|won'?t|will\s+not)\s+need\s+(?:a\s+|the\s+|any\s+)?flights?\b|\bflights?\s+(?:are\s+|is\s+)?not\s+needed\b|"
    r"(?<!refundable\s)(?<!refundable-)\bhotel[\s-]+only\b(?!\s+(?:rates?|rooms?|options?))|\b(?:only|just)\s+(?:need\s+)?(?:a\s+|the\s+)?(?:hotel|room)\b|"
    r"\b(?:i'?m|we'?re|i\s+am|we\s+are|i'?ll\s+be|we'?ll\s+be)\s+driving\b|\b(?:we'?ll|i'?ll|we\s+will|i\s+will)\s+drive\s+(?:down|up|in|over|there)\b|"
    r"\bdriv(?:e|ing)\s+(?:down\s+|up\s+|in\s+|over\s+)?from\b|\b(?:taking|take|by)\s+(?:the\s+)?(?:train|bus|car|amtrak)\s+(?:from|to|down|up)\b|\broad\s+trip\b",
    re.I,
)


def no_flights(text: str) -> bool:
    """Whether a message says no flights are needed (a stay alone, or flights already booked)."""
    low = text.lower()
    booked = ("fl" in low or "air" in low or "plane" in low) and FLIGHTS_BOOKED.search(text) is not None
    return booked or NO_FLIGHTS.search(text) is not None


_FLIGHT_NEEDED = re.compile(r"\b(?:fly|flying|flights?|plane|airfare)\b", re.I)
_SEPARATE_ROOMS = re.compile(
    r"\bseparate\s+(?:hotel\s+)?rooms\b|\b(?:a|one|own)\s+room\s+each\b|\beach\s+(?:with\s+)?(?:their|his|her|our|my)\s+own\s+room\b|"
    r"\brooms?\s+of\s+(?:our|their)\s+own\b|\bnot\s+shar(?:e|ing)\s+(?:a\s+)?room\b"
    r"|\b(?:everyone|everybody|each(?:\s+(?:person|of\s+us|of\s+them|one|guest|traveller|traveler))?)\s+"
    r"(?:(?:needs?|gets?|wants?|will\s+need|should\s+have|has|with|in)\s+)?(?:(?:their|his|her|a|an|our|my)\s+)?own\s+rooms?\b"
    r"|\bone\s+room\s+(?:per\s+person|per\s+head|for\s+each\s+of\s+us)\b|\b(?:individual|single\s+occupancy)\s+rooms\b",
    re.I,
)


# A hotel's class in words ("luxury hotel", "a mid-range hotel", "upscale"): stars the search can use,
# said back as an assumption (``hotel_class_said``). "A nice hotel", "a good hotel" are not a class.
_HOTEL_CLASS = re.compile(
    r"\b(?P<w>luxury|luxurious|upscale|high[\s-]?end|fancy|posh|mid[\s-]?range|moderate|"
    r"mid[\s-]?level)\s+(?:hotels?|place\s+to\s+stay|rooms?|stay)\b",
    re.I,
)
_CLASS_STARS = {"luxury": 5, "luxurious": 5, "upscale": 4, "high": 4, "fancy": 4, "posh": 4}
_NOT_CLASS = re.compile(r"\b(?:not|no|nothing|isn'?t|doesn'?t|don'?t|needn'?t)\b[^,.;!?]*$", re.I)


def hotel_class_said(text: str) -> Optional[Tuple[str, int]]:
    """(the words, the stars they are taken as) for a hotel wished by class, not by stars: "a mid-range
    hotel" → 3, "upscale" → 4, "luxury" → 5; None when stars are given or the class is not wished."""
    if _stars(text) is not None:
        return None
    for m in _HOTEL_CLASS.finditer(text):
        if _NOT_CLASS.search(text[max(0, m.start() - 40) : m.start()]):
            continue  # "not a fancy hotel"
        word = m.group("w").lower()
        return " ".join(m.group(0).split()), _CLASS_STARS.get(re.split(r"[\s-]", word)[0], 3)
    return None


# A part of town the hotel should be in: "hotel on South Beach", "staying in Brickell", "a room in the
# French Quarter"; a town with an airport is a stay there instead ("hotel in Santa Monica"), and the
# destination itself is no wish ("hotel in Miami").
# Words that end a part of town by judging it: "hotel on the strip is fine", "staying in soho works"
_VERDICT = r"is|are|was|would|works?|fine|ok|okay|ideally|preferably|too|as\s+well"
_AREA = re.compile(
    r"\b(?:hotels?|stay(?:ing)?|room|place|accommodation|lodging)\s+(?:in|on|at)\s+"
    rf"(?P<what>(?:the\s+)?[A-Za-z][A-Za-z'\-]+(?:\s+(?!(?:and|for|from|with|near|please|pls|if|under|that|or|area|neighbou?rhood|district|{_VERDICT})\b)[A-Za-z][A-Za-z'\-]+){{0,2}})"
    r"(?=\s*(?:[.,!?;)]|$|\b(?:and|for|from|with|please|pls|if|under|below|max|near|close|that|which|or"
    rf"|area|neighbou?rhood|district|{_VERDICT})\b))",
    re.I,
)
# Words after "hotel in" that are no part of town: the town itself, a time, how to book.
_NOT_AREAS = frozenset(
    "town city center centre downtown midtown uptown advance total cash person general mind time case addition "
    "budget policy area middle heart row same walking distance one each full good nice safe "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday tonight tomorrow today".split()
)


# A named part of town without a hotel word: "would love to be in the historic district", "near the arts district"
_DISTRICT = re.compile(
    r"\b(?:in|near|around|by|close\s+to)\s+(?P<what>the\s+(?:[A-Za-z'\-]+\s+){1,2}(?:district|quarter|neighbou?rhood))\b",
    re.I,
)

# The word that ends a part of town when it is said as a kind ("the historic district", "the old town area")
_KIND_AFTER = re.compile(r"\s+(district|area|quarter|neighbou?rhood)\b", re.I)


def hotel_area(text: str, is_place: Any) -> Optional[str]:
    """The part of town named for the hotel ("South Beach", "the French Quarter"), if it is not a place of its own.

    ``is_place(name)`` says whether a name is a town the desk knows (the extractor passes its gazetteer)."""
    for m in _AREA.finditer(text):
        what = m.group("what").strip()
        bare = re.sub(r"^the\s+", "", what, flags=re.I)
        words = bare.lower().split()
        after = _KIND_AFTER.match(text, m.end("what"))
        if after and (after.group(1).lower() != "area" or area_kind(f"{bare} area")):
            return f"{what} {after.group(1)}"  # "the historic district", "the Garden District": the name is whole
        if area_kind(bare):
            return what  # "in the old town"
        if not words or words[0] in _NOT_AREAS or words[-1] in _NOT_AREAS or is_place(bare):
            continue
        capitalised = any(w[0].isupper() for w in bare.split())
        if not capitalised and (len(words) < 2 and not text.islower()):
            continue  # a lower-case word in a capitalised message is a word, not a name
        return what
    district = _DISTRICT.search(text)
    return district.group("what") if district else None


def _where_in_town(text: str) -> Optional[str]:
    """ "downtown" or "the city center" for a hotel wished central without a landmark; None otherwise."""
    low = text.lower()
    found = _CENTRAL.search(low)
    if found is None or _NOT_CENTRAL.search(low):
        return None
    return "downtown" if found.group("down") else "the city center"


def read_preferences(text: str, money_text: Optional[str] = None, money: Optional[List[Any]] = None) -> Dict[str, Any]:
    """Preferences in ``text``; amounts are read from ``money_text`` (the text with dates masked), or
    taken from ``money`` (its ``money_mentions``, when the caller has them already)."""
    dropped = _CABIN_DROPPED.search(text)
    cabin_text = text[: dropped.start()] + " " * len(dropped.group(0)) + text[dropped.end() :] if dropped else text
    cabin = next((name for name, rx in _CABINS if rx.search(cabin_text)), "economy" if dropped else None)
    if cabin is None and "biz" in cabin_text.lower() and _SHORT_BUSINESS.search(cabin_text):
        cabin = "business"
    if cabin is None and _BARE_BUSINESS.search(cabin_text):
        cabin = "business"
    # "nonstop if possible, otherwise 1 stop": the stop allowed is the limit, the nonstop a wish
    soft_nonstop = _SOFT_NONSTOP.search(text) is not None
    max_stops = 2 if _TWO_STOPS.search(text) else 1 if _ONE_STOP.search(text) else None
    max_stops = 0 if max_stops is None and _NONSTOP.search(text) and not soft_nonstop else max_stops
    budgets = read_budgets(money_text if money_text is not None else text, money)
    stars = _stars(text)
    said_class = hotel_class_said(text)
    if said_class:
        stars = said_class[1]
    near = _NEAR.search(text)
    by_the_water = _BY_THE_WATER.search(text)
    one_way = (
        True if _ONE_WAY.search(text) or _SHORT_ONE_WAY.search(text) else False if _ROUND_TRIP.search(text) else None
    )
    no_hotel = NO_HOTEL.search(text)
    hotel_needed = False if no_hotel else True if _HOTEL.search(text) else None
    flights_needed = False if no_flights(text) else True if _FLIGHT_NEEDED.search(text) else None
    if flights_needed is False and hotel_needed is False:
        hotel_needed = None  # "no flights, no hotel" reads as neither; ask rather than guess
    times = read_times(text)
    return {
        "cabin": cabin,
        "max_stops": max_stops,
        "prefer_nonstop": True if soft_nonstop else None,
        "avoid_red_eye": True if _RED_EYE.search(text) else None,
        **budgets,
        "refundable": _refundable(text),
        "hotel_min_stars": stars,
        "hotel_near": near.group("what").strip() if near else "the beach" if by_the_water else _where_in_town(text),
        "hotel_board": read_board(text),
        "hotel_beds": read_beds(text),
        "friends_sharing": True if friends_sharing(text) else None,
        "colleagues": True if _COLLEAGUES.search(text) else None,
        "one_way": one_way,
        "hotel_needed": hotel_needed,
        "flights_needed": flights_needed,
        "separate_rooms": True if _SEPARATE_ROOMS.search(text) else None,
        "for_work": True if FOR_WORK.search(text) else None,
        "hotel_quality": None if stars else hotel_quality(text),
        **times,
    }


# A trip for work: "business trip", "for work", "a client meeting in denver", "conference in austin",
# "my company is sending me": its hotel is one a company books (``trip_option_ranker``: no hostel first)
FOR_WORK = re.compile(
    r"\b(?:business|work|company)\s+trip\b|\bfor\s+(?:work|business|my\s+job|the\s+company)\b"
    r"|\b(?:client|business|sales|board|team|work)\s+(?:meetings?|visits?|dinner|presentation|pitch|offsite|off-site)\b"
    r"|\b(?:conference|convention|trade\s*show|summit)\b|\b(?:work|my\s+(?:company|employer|boss|manager))\s+(?:is\s+)?"
    r"(?:sending|flying)\s+me\b",
    re.I,
)


# A hotel wished good in words, not in stars: "a nice hotel", "somewhere decent", "not a dump", "no hostels",
# "somewhere fancy". The least stars the words mean are ranked first (``preferences.hotel.quality``,
# ``trip_option_ranker``) but filter no search: the cheapest hotel is still shown. Stars or a class said
# ("4 star", "a luxury hotel") are the traveller's own filter and win.
_QUALITY_WORDS = (
    (4, r"fancy|fancier|luxur(?:y|ious)|upscale|posh|swanky|high[\s-]?end|classy"),
    (3, r"nice|nicer|lovely|good|great|comfortable|comfy|quality|charming|beautiful|better"),
    (2, r"decent|clean|proper|respectable|safe|ok|okay|reasonable|real"),
)
_LODGING = r"(?:hotels?|motels?|place\s+to\s+stay|rooms?|accommodations?|lodging|resorts?)"
_SOMEWHERE = r"(?:somewhere|some\s*place|a\s+place|anywhere)"
_IS_WISHED = r"(?:that'?s|that\s+is|which\s+is|should\s+be|must\s+be|needs?\s+to\s+be|has\s+to\s+be)"
_QUALITY = tuple(
    (
        stars,
        re.compile(
            rf"\b(?P<w>{words})(?:[\s,]+(?:and\s+)?(?!{_LODGING}|price|value|deal|rate)[a-z]+)?\s+{_LODGING}\b"  # "a nice hotel", "clean decent hotel"
            rf"|\b{_SOMEWHERE}\s+(?:(?:really|very|pretty|super|reasonably|fairly|actually)\s+)?(?P<s>{words})\b"
            rf"|\b{_LODGING}\s+{_IS_WISHED}\s+(?:(?:really|very|pretty|at\s+least)\s+)?(?P<i>{words})\b",
            re.I,
        ),
    )
    for stars, words in _QUALITY_WORDS
)
# Said as what it must not be: a hostel, a dump, somewhere sketchy (a hotel of 2★ or more first)
_NOT_LOW = re.compile(
    r"\bnot\s+(?:a\s+|in\s+a\s+|some\s+)?(?:dump|dive|hostel|shithole|fleabag|motel)\b"
    r"|\bno\s+(?:dumps|dives|hostels?|motels|fleabags)\b|\bnothing\s+(?:sketchy|seedy|dodgy|gross|dirty)\b"
    r"|\bnot\s+(?:sketchy|seedy|dodgy|gross|dirty)\b",
    re.I,
)
# A clause ends at a "but" too: "not too fancy but a nice hotel" wishes the nice one
_CLAUSE = re.compile(r"[,.;!?]|\b(?:but|though|although|just)\b", re.I)


def hotel_quality(text: str) -> Optional[int]:
    """The least stars a hotel wished in words means: 4 for "somewhere fancy", 3 for "a nice hotel", 2 for
    "somewhere decent" / "not a dump"; None when no such words are said (or only said as not wished)."""
    wished = [2] if _NOT_LOW.search(text) else []
    for stars, rx in _QUALITY:
        for m in rx.finditer(text):
            start = next(m.start(g) for g in ("w", "s", "i") if m.group(g))
            clause = _CLAUSE.split(text[max(0, start - 40) : start])[-1]
            if not _NOT_CLASS.search(clause):  # "nothing fancy", "doesn't need to be nice"
                wished.append(stars)
    return max(wished, default=None)


# A red-eye wanted, not only allowed: "I want the red-eye", "back on the red-eye", "red-eye home please"
# (not "red-eye is fine", "no red-eyes", "are any of them red-eyes?"): that leg leaves late at night
_RED_EYE_WANTED = re.compile(
    r"\b(?:want|wants|take|taking|book|booking|prefer|like|love|catch|catching|on|do|doing|grab)\s+(?:the|a|an)\s+"
    r"(?:late\s+)?red[\s-]?eyes?(?:\s+flight)?\b(?!\s+(?:is|are|would\s+be|works?)\b)"
    r"|\bred[\s-]?eyes?\s+(?:flight\s+)?(?:out|back|home|there|please|pls|preferred|if\s+possible|ideally|works\s+best)\b",
    re.I,
)
RED_EYE_HOURS = "after 21:00"  # a red-eye leaves late at night and lands the next morning


def _red_eye_wanted(text: str) -> Dict[str, str]:
    """{"time_out" or "time_return": RED_EYE_HOURS} for the leg a red-eye is wanted on."""
    if "eye" not in text.lower() or _RED_EYE.search(text):
        return {}
    out: Dict[str, str] = {}
    for m in _RED_EYE_WANTED.finditer(text):
        clause_start = max(text.rfind(c, 0, m.start()) for c in ".;!?,")
        around = text[clause_start + 1 : m.start()] + m.group(0) + re.split(r"[,.;!?]", text[m.end() : m.end() + 12])[0]
        if _BOTH_WAYS.search(around):
            out["time_out"] = out["time_return"] = RED_EYE_HOURS
        else:
            out["time_return" if _RETURN_CONTEXT.search(around) else "time_out"] = RED_EYE_HOURS
    return out


def read_times(text: str) -> Dict[str, Optional[str]]:
    """Departure-time wishes for the outbound and return flights ("morning out, evening back",
    "after 5pm", "the earliest flight out") and arrival bounds ("land by 6pm")."""
    out: Dict[str, Optional[str]] = {"time_out": None, "time_return": None, "arrive_out": None, "arrive_return": None}
    clock = {**_event_hours(text), **read_clock_bounds(text)}  # more exact than a time of day: it wins for its leg
    clock = {**read_superlatives(text), **clock}  # "the first flight in the morning": the first, not any morning one
    clock = {**_red_eye_wanted(text), **clock}
    # without words of flying, only a day said with its time ("denver to austin 3/4 morning") is a
    # flight's (a check-in's or an event's time is not: ``_CHECK_IN``, ``_AN_EVENT``)
    talk = bool(_FLIGHT_TALK.search(text))
    last = 0
    dated_out = False  # a day said with its time went to the flight out: the next such day is the way back
    for m in _TIME_FLIGHT.finditer(text):
        if not talk and not m.group("t4"):
            continue
        word = next((g for g in m.group("t1", "t2", "t3", "t4", "t5", "t6") if g), "").lower()
        window = next((name for name, rx in _TIMES if re.fullmatch(rx, word, re.I)), None)
        if window is None:
            continue
        clause_start = max(text.rfind(c, 0, m.start()) for c in ".;!?,")
        before = text[max(last, clause_start + 1) : m.start()]
        if m.group("t4") and (_AN_EVENT.search(before) or _CHECK_IN.search(before)):
            continue  # "a meeting monday morning", "check in tomorrow afternoon": not the flight's time
        after = text[m.end() : m.end() + 20]
        inside = m.group(0)
        ret = bool(
            _RETURN_CONTEXT.search(before)
            or _RETURN_CONTEXT.search(inside)
            or re.match(r"\s*(?:on\s+the\s+way\s+|flights?\s+)?(?:back|home|return)\b", after, re.I)
            or (m.group("t4") and dated_out)  # "jan 8 morning, jan 11 evening"
        )
        unwanted = _NOT_WANTED.search(before)
        if unwanted and word == "overnight" and _RED_EYE.search(text):
            last = m.end()
            continue  # "rather not fly overnight": no red-eyes (``avoid_red_eye``), not a bound on the evening
        if unwanted:  # "no early morning flights": the rest of the day, not the morning
            window = _OTHER_THAN.get(
                word.split()[0] if word.split()[0] in ("early", "late") and window != "afternoon" else window
            )
            if window is None:
                last = m.end()
                continue  # "no afternoon flights": morning or evening, not one window to search
        elif (
            _BE_THERE_BY.search(before + inside[: inside.lower().rfind(word)])
            and window in _LAND_BY
            and not _BOTH_WAYS.search(text[m.start() : m.end() + 30])
        ):
            # "need to be in seattle tues morning": landing by then (a bound said in hours wins: ``clock``);
            # "back by sunday noon": by noon, not by the afternoon's end
            out["arrive_return" if ret else "arrive_out"] = "before 12:00" if word in _NOON else _LAND_BY[window]
            last = m.end()
            continue
        elif word == "night":
            window = "evening"  # "back monday night", "a friday night flight": the evening's flights (not the red-eyes)
        # a time not wanted, with no leg named, is not wanted either way ("no early morning flights")
        either_way = unwanted and not ret and not _OUT_CONTEXT.search(before + inside + after)
        if either_way or _BOTH_WAYS.search(text[m.start() : m.end() + 30]):
            out["time_out"] = out["time_return"] = window
        elif ret:
            out["time_return"] = window
        else:
            out["time_out"] = window
            dated_out = dated_out or bool(m.group("t4"))
        last = m.end()
    return {**out, **clock}


# Times people tie to a meal or to the day's routine instead of a clock ("leave after lunch", "get in
# before dinner", "after school gets out"): the hour a bound on them means, (after it, before it).
_MEALS = {
    "breakfast": ("09:00", "08:00"),
    "brunch": ("12:00", "10:00"),
    "lunch": ("13:00", "12:00"),
    "lunchtime": ("13:00", "12:00"),
    "dinner": ("20:00", "18:00"),
    "dinnertime": ("20:00", "18:00"),
    "supper": ("20:00", "18:00"),
    "school gets out": ("15:00", "08:00"),
    "school lets out": ("15:00", "08:00"),
    "school pickup": ("15:00", "08:00"),
    "school": ("15:00", "08:00"),
    "school ends": ("15:00", "08:00"),
    "kids finish school": ("15:00", "08:00"),
    "kids get out of school": ("15:00", "08:00"),
    "kids are out of school": ("15:00", "08:00"),
    "school pick-up": ("15:00", "08:00"),
    "church": ("12:00", "09:00"),
}
_MEAL_WORDS = "|".join(k.replace(" ", r"\s+") for k in sorted(_MEALS, key=len, reverse=True))
# "after my 3pm meeting", "once my 2:30 call is over": the event's hour and one hour for it
_AFTER_AN_EVENT = re.compile(
    r"\b(?:after|once|when)\s+(?:my|the|our|a)\s+(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?m\b\.?)\s*"
    r"(?:meeting|call|class|appointment|presentation|interview|exam|session|shift|demo|pitch)\b",
    re.I,
)
_EVENT_AT = re.compile(
    r"\b(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?m\b\.?)\s*(?P<what>meeting|call|class|appointment|presentation"
    r"|interview|exam|session|shift|demo|pitch)\b|\b(?P<what2>meeting|call|class|appointment|presentation|interview|exam"
    r"|session|shift|demo|pitch)\s+(?:is\s+|ends\s+)?at\s+(?P<h2>\d{1,2})(?::(?P<m2>[0-5]\d))?\s*(?P<ap2>[ap]\.?m\b\.?)",
    re.I,
)
_AFTER_THE_EVENT = re.compile(
    r"\b(?:leave|leaving|fly(?:ing)?(?:\s+out)?|depart\w*|head(?:ing)?\s+out|go)\b[^.;!?]{0,30}?\b(?:after|once)\s+"
    r"(?:my|the|our)\s+(?P<what>meeting|call|class|appointment|presentation|interview|exam|session|shift|demo|pitch)\b",
    re.I,
)


def _event_hours(text: str) -> Dict[str, str]:
    """ "leave after my 3pm meeting", "meeting at 2pm, can only leave after the meeting": a departure after
    the event (an hour for it), as a clock bound on the way out or back, as the words around it say."""
    found: Dict[str, str] = {}
    for m in _AFTER_AN_EVENT.finditer(text):
        at = _clock(m, "after")
        clause = re.split(r"[.;!?,]|\b(?:and|so|then|but)\b", text[: m.start()], flags=re.I)[-1]
        if at:
            found["time_return" if _RETURN_CONTEXT.search(clause) else "time_out"] = f"after {_hour_later(at)}"
    if found:
        return found
    said = _AFTER_THE_EVENT.search(text)
    if said:
        for m in _EVENT_AT.finditer(text):
            if (m.group("what") or m.group("what2")).lower() != said.group("what").lower():
                continue
            h, mins, ap = (
                (m.group("h"), m.group("m"), m.group("ap"))
                if m.group("h")
                else (m.group("h2"), m.group("m2"), m.group("ap2"))
            )
            hours = int(h) % 12 + (12 if ap.lower().startswith("p") else 0)
            clause = re.split(r"[.;!?,]|\b(?:and|so|then|but)\b", text[: said.start()], flags=re.I)[-1]
            key = "time_return" if _RETURN_CONTEXT.search(clause + said.group(0)) else "time_out"
            found[key] = f"after {_hour_later(f'{hours:02d}:{int(mins or 0):02d}')}"
            break
    return found


def clock_words_read(text: str) -> List[Tuple[str, str, str]]:
    """The clock bounds read from words rather than a clock ("after lunch", "after my 3pm meeting"), as
    (what was said, the wish's key, the wish), so the traveller can be told the hour taken."""
    said: List[Tuple[str, str, str]] = []
    times = read_times(text)
    for m in _CLOCK_BOUND.finditer(text):
        if m.group("meal"):
            phrase = " ".join(text[m.start() : m.end()].split())
            said.extend((phrase, key, wish) for key, wish in times.items() if wish and wish.endswith(_clock_of(m)))
    for m in _BETWEEN.finditer(text):
        wish = _window(m)
        said.extend((" ".join(m.group(0).split()), key, wish) for key, value in times.items() if wish and value == wish)
    for key, wish in _event_hours(text).items():
        if times.get(key) == wish:
            found = _AFTER_AN_EVENT.search(text) or _AFTER_THE_EVENT.search(text)
            said.append((" ".join(found.group(0).split()) if found else "after the event", key, wish))
    return said


def _clock_of(m: re.Match[str]) -> str:
    bound = next(_BOUNDS[i][0] for i in range(len(_BOUNDS)) if m.group(f"b{i}"))
    return _clock(m, bound) or "--"


def _hour_later(at: str) -> str:
    hours, minutes = at.split(":")
    return f"{min(23, int(hours) + 1):02d}:{minutes}"


# A clock time: "5pm", "5:30 p.m.", "17:30", "noon"; a bound on a meal ("after lunch"); a bare hour
# ("after 5") only after a bound.
_CLOCK = (
    r"(?:(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?\s?m\b\.?|in\s+the\s+(?:morning|afternoon|evening)|at\s+night)?"
    r"(?P<ish>-?ish\b)?"
    r"|(?P<word>noon|midday|midnight)"
    rf"|(?:my\s+|the\s+|our\s+)?(?P<meal>{_MEAL_WORDS})\b)"
)
_NOT_CLOCK_AFTER = re.compile(
    r"\s*(?:nights?|days?|weeks?|hours?|hrs?|mins?|minutes?|people|persons?|adults?|kids?|children|guests?|rooms?"
    r"|stars?|stops?|%|k\b|dollars|usd|bucks|euros?|\$|/|-\s*\d|st\b|nd\b|rd\b|th\b|[.,]\d)",
    re.I,
)
_NEGATED = r"(?:nothing|no|not|never|can'?t|cannot|can\s+not|don'?t\s+want\s+(?:anything|to))"
# Bounds, the negated ones first: "nothing before 9am" is "after 9am".
_NEGATED = r"(?:nothing|no|not|never|can'?t|cannot|can\s+not|don'?t\s+want\s+(?:anything|to))"
# Bounds, the negated ones first: "nothing before 9am" is "after 9am".
_BOUNDS = (
    ("after", rf"{_NEGATED}\s+(?:\w+\s+){{0,2}}?(?:before|earlier\s+than)"),
    ("before", rf"{_NEGATED}\s+(?:\w+\s+){{0,2}}?(?:after|later\s+than)"),
    ("after", r"after|past|later\s+than|not\s+until|any\s?time\s+after"),
    ("before", r"before|earlier\s+than|(?:leave|leaving|depart\w*|fly(?:ing)?\s+out|take\s+off|out)\s+by"),
    ("by", r"by|no\s+later\s+than"),  # an arrival's "before": "land by 6pm" (a departure's "by" is above)
    (
        "around",
        r"around|about|at|at\s+around|circa|~"
        r"|(?:leav\w*|depart\w*|fly\w*|flights?|home|back|out)(?=\s+\d{1,2}\s*-?ish\b)"  # "flight home 6ish"
        r"|(?:an?|the)(?=\s+\d{1,2}(?::\d\d)?\s*[ap]\.?m\b\.?\s+(?:flight|departure|one|plane"
        r"|shuttle(?!\s+(?:bus|van|to\s+(?:the\s+)?(?:airport|hotel)|from\s+(?:the\s+)?(?:airport|hotel))))\b)",
    ),
)
_CLOCK_BOUND = re.compile(
    r"\b(?:" + "|".join(f"(?P<b{i}>{rx})" for i, (_, rx) in enumerate(_BOUNDS)) + rf")\s+{_CLOCK}",
    re.I,
)
# "by Monday Jan 11 at noon", "by the 11th at 9am": a day, then the time it is a bound of
_DAY_WORDS = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
    r"|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?|the|of|on|today|tomorrow|\d{1,2}(?:st|nd|rd|th)?|\d{1,2}/\d{1,2}(?:/\d{2,4})?"
)
_BY_DAY_AT = re.compile(rf"\bby\s+(?:(?:{_DAY_WORDS})\.?,?\s+){{1,4}}at\s+(?=\d|noon|midnight|mid-?day)", re.I)
_ARRIVAL = re.compile(r"\b(?:arriv\w*|land\w*|get\s+(?:in|there|back)|be\s+(?:there|in|back|home))\b[^.;!?]*$", re.I)
_NOT_FLIGHT_TIME = re.compile(
    r"\b(?:check[\s-]?(?:in|out)|checkout|hotel|room|dinner|meeting|lunch|breakfast)\b[^.;!?]*$", re.I
)
_ANY_FLIGHT = re.compile(r"\b(?:nothing|anything|flights|departures|any\s+(?:flight|departure))\b", re.I)


def _clock(m: re.Match[str], bound: str) -> Optional[str]:
    """The "HH:MM" a clock match names, or None when it is not a time of day."""
    meal = re.sub(r"\s+", " ", (m.groupdict().get("meal") or "").lower())
    if meal:
        if bound not in ("after", "before", "by"):
            return None  # "at lunch", "around dinner": not a bound
        return _MEALS[meal][0 if bound == "after" else 1]
    word = (m.groupdict().get("word") or "").lower()
    if word:
        return "00:00" if word == "midnight" else "12:00"
    hours, minutes, ampm = int(m.group("h")), int(m.group("m") or 0), (m.group("ap") or "").lower()
    if ampm:
        if not 1 <= hours <= 12:
            return None
        morning = ampm.startswith("a") and not ampm.startswith("at") or ampm.endswith("morning")  # not "at night"
        hours = hours % 12 + (0 if morning else 12)
    elif m.group("m") is None:
        if (bound == "around" and not m.groupdict().get("ish")) or not 1 <= hours <= 12:
            return None  # "at 5" without a clock word is too loose ("around 6ish" is not)
        hours = hours + 12 if hours <= 6 else hours  # "after 5": 5 PM; "before 9": 9 AM
    if hours > 23:
        return None
    return f"{hours:02d}:{minutes:02d}"


# A window of hours: "between 9 and 11am", "between 1:30 and 3 pm", "between 10am and noon"
_HOUR = r"(?:(?P<{h}>\d{{1,2}})(?::(?P<{m}>[0-5]\d))?\s*(?P<{ap}>[ap]\.?\s?m\b\.?)?|(?P<{noon}>noon|midday))"
_BETWEEN = re.compile(
    r"\bbetween\s+"
    + _HOUR.format(h="h1", m="m1", ap="ap1", noon="n1")
    + r"\s*(?:and|-|to|&)\s*"
    + _HOUR.format(h="h2", m="m2", ap="ap2", noon="n2"),
    re.I,
)
_WIDE_WINDOW = 240  # minutes: a wider window is read as its start ("between 1 and 6pm": after 1 PM)


def _minutes_of(m: re.Match[str], n: int, meridiem: str) -> Optional[int]:
    if m.group(f"n{n}"):
        return 12 * 60
    hours, minutes = int(m.group(f"h{n}")), int(m.group(f"m{n}") or 0)
    ap = (m.group(f"ap{n}") or meridiem).lower()
    if not ap:
        return hours * 60 + minutes if 0 <= hours <= 23 and m.group(f"m{n}") else None
    if not 1 <= hours <= 12:
        return None
    return (hours % 12 + (12 if ap.startswith("p") else 0)) * 60 + minutes


def _window(m: re.Match[str]) -> Optional[str]:
    """ "between 9 and 11am" -> "around 10:00" (its middle); a window wider than four hours -> "after" its start."""
    end = _minutes_of(m, 2, "")
    meridiem = m.group("ap2") or ("pm" if m.group("n2") else "")
    start = _minutes_of(m, 1, meridiem)
    if (
        start is not None
        and end is not None
        and start > end
        and not m.group("ap1")
        and meridiem.lower().startswith("p")
    ):
        start -= 12 * 60  # "between 11 and 1pm": 11 AM
    if start is None or end is None or not 0 < end - start <= 12 * 60:
        return None
    if end - start > _WIDE_WINDOW:
        return f"after {start // 60:02d}:{start % 60:02d}"
    mid = (start + end) // 2
    return f"around {mid // 60:02d}:{mid % 60:02d}"


def _windows_as_bounds(text: str) -> str:
    """The text with each window of hours written as the bound it is read as ("around 10:00")."""
    if "between" not in text.lower():
        return text
    return _BETWEEN.sub(lambda m: _window(m) or m.group(0), text)


def read_clock_bounds(text: str) -> Dict[str, str]:
    """Clock bounds on departure times ("leave after 5pm", "nothing before 9am", "back before noon",
    "a 7am flight"), as ``{"time_out"|"time_return": "after 17:00"}``, and on arrival times ("land by
    6pm", "need to be in Chicago before noon", "don't want to land before 7am", "be home by 9pm"), as
    ``{"arrive_out"|"arrive_return": "before 18:00"}``. Times of other things ("check-in after 3pm",
    "dinner at 8pm") are neither; an arrival "at 10am" is not a wish. A window ("between 9 and
    11am") is a departure around its middle."""
    found: Dict[str, str] = {}
    text = _windows_as_bounds(text)
    if "by " in text.lower():
        text = _BY_DAY_AT.sub("by ", text)  # "be in SF by Monday Jan 11 at noon": by noon (that day is read as a date)
    for m in _CLOCK_BOUND.finditer(text):
        bound = next(_BOUNDS[i][0] for i in range(len(_BOUNDS)) if m.group(f"b{i}"))
        at = None if _NOT_CLOCK_AFTER.match(text, m.end()) else _clock(m, bound)
        # the words since the clause began ("so", "and", "then" begin one too), and the bound's own words
        clause = re.split(r"[.;!?,]|\b(?:and|so|then|but)\b", text[: m.start()], flags=re.I)[-1]
        said = clause + text[m.start() : next(m.start(g) for g in ("h", "word", "meal") if m.group(g))]
        # "home by 10pm", "back by 8 on sunday": being back, an arrival ("back before noon" is a departure)
        arrival = _ARRIVAL.search(said) is not None or (
            bound == "by" and re.search(r"\b(?:back|home)\s+(?:\w+\s+){0,2}?by\s*$", said, re.I) is not None
        )
        if at is None or _NOT_FLIGHT_TIME.search(clause) or (arrival and bound == "around"):
            continue
        if bound == "by" and not arrival:
            continue  # "by 5pm" alone says nothing of which end of the flight
        if bound == "around" and not _FLIGHT_TALK.search(text):
            continue  # "call me at 5pm": a time, not a departure
        after = text[m.end() : m.end() + 30]
        ret = _RETURN_CONTEXT.search(clause + m.group(0)) or re.match(
            r"\s*(?:on\s+the\s+(?:way\s+)?)?(?:flights?\s+)?(?:back|home|return)\b", after, re.I
        )
        both = _BOTH_WAYS.search(text[m.start() : m.end() + 30]) or (
            not ret
            and not arrival
            and _ANY_FLIGHT.search(clause + m.group(0))
            and not re.search(r"\b(?:out|outbound|there|going)\b", clause + after, re.I)
        )
        wish = f"{'before' if bound == 'by' else bound} {at}"
        out_key, ret_key = ("arrive_out", "arrive_return") if arrival else ("time_out", "time_return")
        if both and not _ONE_WAY.search(text):
            found[out_key] = found[ret_key] = wish
        else:
            found[ret_key if ret else out_key] = wish
    return found


# "the earliest flight out", "the last flight back", "first flight in the morning", "latest one home";
# "first" and "last" only with a leg or a time of day ("my first flight ever" is no wish).
_SUPERLATIVE = re.compile(
    r"\b(?P<w>earliest|latest|last|first)(?:\s+possible)?\s+(?P<noun>flights?|ones?|departures?|planes?|thing)\b"
    r"(?P<when>(?:\s+(?:possible|available|of\s+the\s+day|in\s+the\s+(?:morning|evening|day)|at\s+night))*)"
    r"(?P<leg>\s+(?:(?P<out>out(?:bound)?|there|going\s+out|to\s+[a-z]+)|(?P<back>back|home|return(?:ing)?)))?",
    re.I,
)


_ASKS_WHICH = re.compile(r"^\W*(?:which|what|when|how)\b", re.I)


def read_superlatives(text: str) -> Dict[str, str]:
    """ "earliest"/"latest" departure wishes, as ``{"time_out"|"time_return": "earliest"}``."""
    found: Dict[str, str] = {}
    if _ASKS_WHICH.match(text):
        return found  # "which one has the latest flight back?": a question about the options, not a wish
    for m in _SUPERLATIVE.finditer(text):
        word, noun = m.group("w").lower(), m.group("noun").lower()
        clause = re.split(r"[.;!?,]|\b(?:and|so|then|but)\b", text[: m.start()], flags=re.I)[-1]
        back = bool(m.group("back")) or (not m.group("out") and _RETURN_CONTEXT.search(clause) is not None)
        if word in ("first", "last") and not (m.group("leg") or m.group("when") or back):
            continue
        if noun == "thing" and "morning" not in m.group("when").lower():
            continue  # "first thing in the morning" only
        found["time_return" if back else "time_out"] = "earliest" if word in ("earliest", "first") else "latest"
    return found


# An amount, with a currency's code before it ("budget CAD 1200", "EUR 180 per night") or its sign or word
_MONEY = re.compile(
    rf"(?:\b(?P<cur0>{_CURRENCY_CODES})\s?(?=\d))?"
    r"(?P<cur1>(?:\b(?:US|CA|AU|NZ|C|A))?[$\u20ac\u00a3\u00a5])?\s*(?<![\d.,])(?P<amount>\d{1,3}(?:,\d{3})+|\d+)(?P<dec>\.\d{1,2})?(?!\s*[/.]\d)"
    rf"\s*(?P<k>k\b|grand\b|thousand\b)?\s*(?P<cur2>{_CURRENCY_WORDS})?(?:\b|(?=p\.?p\b|pn\b))",
    re.I,
)
# "a grand", "two grand", "a thousand bucks": the amount in words, read as digits of the same length
_WORD_THOUSANDS = re.compile(rf"\b(?P<n>a|{NUMBER_RE})\s+(?P<k>grand|thousand)\b", re.I)
# "two hundred a night", "fifteen hundred all in", "a couple hundred", "three hundred and fifty"
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_HUNDREDS = re.compile(
    rf"\b(?:a\s+)?(?P<n>a|{NUMBER_RE})\s+hundred(?:\s+(?:and\s+)?(?P<t>{'|'.join(_TENS)}))?\b(?!\s*(?:miles|km|people|years))",
    re.I,
)


def _hundreds(m: re.Match[str]) -> str:
    n = to_int(m.group("n")) or 1
    return str(100 * n + _TENS.get((m.group("t") or "").lower(), 0)).ljust(len(m.group(0)))


# Words between an amount and whom it is for: "900 round trip per person", "500 all in each"
_PER_PERSON_FILLER = (
    r"(?:(?:round[\s-]?trip|rt|return|all[\s-]in|max(?:imum)?|tops|or\s+(?:less|so)|ish|total|roughly)\s+)?"
)
_PER_NIGHT_AFTER = re.compile(
    r"^\s*(?:(?:/|per|a|an|each|every)\s*(?:night|nite|nt|evening)\b|(?:/|per\s+|a\s+)?(?:pn|p/n)\b|nightly\b)", re.I
)
# "up to 225 for the hotel", "150 max on the room": a nightly rate when small enough to be one (_NIGHTLY_AT_MOST)
_HOTEL_AFTER = re.compile(
    r"^\s*(?:max\s+|tops\s+)?(?:for|on)\s+(?:the\s+|a\s+)?(?:hotel|room|motel)\b(?!\s+(?:and|&|\+))", re.I
)
_PER_NIGHT_BEFORE = re.compile(
    r"(?:\b(?:hotel|nightly|room)\s+(?:cap|limit|max(?:imum)?|ceiling)|\bper[\s-]night|\bnightly(?:\s+(?:rate|price|cost|budget))?|\bnight(?:ly)?\s+rate|\ba\s+night|\bper\s+room\s+per\s+night|\brate\s+per\s+night)"
    r"(?:(?!\band\b|\bbut\b)[^.;,]){0,35}$",
    re.I,
)
_PER_PERSON_AFTER = re.compile(
    r"^\s*"
    + _PER_PERSON_FILLER
    + r"(?:each|apiece|pp\b|p\.p\.?|pax\b|(?:/|per|a)\s*(?:person|head|travell?er|passenger|pax|ticket|seat|adult)s?\b|per\s+(?:each\s+)?(?:of\s+us|person))",
    re.I,
)
_PER_PERSON_BEFORE = re.compile(
    r"(?:\beach\s+(?:ticket|seat|person|traveller|traveler|fare)|\bper\s+(?:person|head|ticket|traveller|traveler|seat)|\bticket\s+price)(?:(?!\band\b|\bbut\b)[^.;,]){0,30}$",
    re.I,
)
_MONEY_BEFORE = re.compile(
    r"(?:\bunder|\bbelow|\bless\s+than|\bmax(?:imum)?|\bup\s+to|\bno\s+more\s+than|\bbudget|\bwithin|\bat\s+most|\bcaps?(?:ped)?\s+(?:\w+\s+)?at|"
    r"\b(?:cap|limit|max(?:imum)?|ceiling)\s+(?:to|of)|\baround|\babout|\bspend|\bexceed|\bcost(?:s|ing)?|\bpric(?:e|ier|ey)\w*|\bcheaper\s+than|\bbetween|\bmake\s+(?:that|it)|\blimit|\bceiling|\bhave|\bgot|\btotal|\btops)"
    r"[^.;\d]{0,25}$",
    re.I,
)
# A cap said right after what it is the price of: "hotel under 150" is a nightly rate (as hotels are
# priced), "flights under 300" a fare for each traveller (as fares are); "hotel budget 1500" is neither.
_CAP_WORDS = (
    r"(?:under|below|less\s+than|max(?:imum)?|up\s+to|no\s+more\s+than|around|about|at\s+most|tops|within|not\s+over)"
)
_LINKING = r"(?:(?:for|at|is|are|should\s+be|must\s+be|needs?\s+to\s+be|to\s+be|that(?:'s|\s+are|\s+is)|costing|priced|cost(?:ing)?)\s+)?"
_HOTEL_PRICE_BEFORE = re.compile(
    rf"\b(?:hotels?|rooms?|motels?|accommodations?|lodging|airbnbs?|place\s+to\s+stay)\s+(?:{_LINKING}{_CAP_WORDS}|"
    r"(?:that\s+(?:is|are)\s+|that'?s\s+)?(?:not\s+)?(?:over|above|more\s+than))\s*$",
    re.I,
)
_FARE_PRICE_BEFORE = re.compile(rf"\b(?:flights?|tickets?|fares?|airfares?)\s+{_LINKING}{_CAP_WORDS}\s*$", re.I)
_FOR_ALL_AFTER = re.compile(
    r"^\s*(?:total|in\s+total|all\s+in|for\s+(?:all|both|everyone|the\s+(?:two|three|four|\d+)(?:\s+of\s+us)?|us\s+all))\b",
    re.I,
)
_NIGHTLY_AT_MOST = 600  # "hotel under 150" is a night; "hotel under 1500" is the stay, which no field holds
_MONEY_AFTER = re.compile(r"^\s*(?:total|all\s+in|all-in|max|tops|or\s+less|budget|limit)\b", re.I)


def read_budgets(
    text: str, mentions: Optional[List[Tuple[str, float, Optional[str], Tuple[int, int]]]] = None
) -> Dict[str, Any]:
    """{"budget_total", "budget_per_person", "hotel_max_per_night", "currency"}: an amount is money when a
    currency or the words around it say so; per night and per person when they say that."""
    out: Dict[str, Any] = {
        "budget_total": None,
        "budget_per_person": None,
        "hotel_max_per_night": None,
        "currency": None,
    }
    for key, amount, currency, _ in money_mentions(text) if mentions is None else mentions:
        out[key] = amount
        out["currency"] = currency or out["currency"]
    if out["currency"] is None or out["currency"] == "USD" and "$" in text:
        out["currency"] = currency_said(text) or out["currency"]  # "prices in CAD", "$300 a night, in CAD please"
    return out


def money_mentions(text: str) -> List[Tuple[str, float, Optional[str], Tuple[int, int]]]:
    """Each amount that is money, as (what it caps, amount, currency code or None, span); the span
    takes in "a person", "per night" after it, so the people reader does not count "a person" as one."""
    found: List[Tuple[str, float, Optional[str], Tuple[int, int]]] = []
    if "grand" in text.lower() or "thousand" in text.lower():
        text = _WORD_THOUSANDS.sub(lambda w: str(1000 * (to_int(w.group("n")) or 1)).ljust(len(w.group(0))), text)
    if "hundred" in text.lower():
        text = _WORD_HUNDREDS.sub(_hundreds, text)
    prev_end = 0
    for m in _MONEY.finditer(text):
        start, prev_end = prev_end, m.end()
        amount = float(m.group("amount").replace(",", "") + (m.group("dec") or ""))
        if m.group("k"):
            amount *= 1000
        # "$2000 CAD": the code after the amount says which dollars
        cur = re.sub(r"\s+", " ", (m.group("cur2") or m.group("cur1") or m.group("cur0") or "").lower())
        before = text[max(start, m.start() - 60) : m.start()]
        after = text[m.end() : m.end() + 30]
        if _COUNTED.match(text, m.end()) or amount <= 0:
            continue
        night_after, person_after = _PER_NIGHT_AFTER.match(after), _PER_PERSON_AFTER.match(after)
        for_all = _FOR_ALL_AFTER.match(after)
        per_night = bool(night_after or _PER_NIGHT_BEFORE.search(before)) or bool(
            not for_all
            and amount <= _NIGHTLY_AT_MOST
            and (_HOTEL_PRICE_BEFORE.search(before) or _HOTEL_AFTER.match(after))
        )
        per_person = not per_night and bool(
            person_after or _PER_PERSON_BEFORE.search(before) or (not for_all and _FARE_PRICE_BEFORE.search(before))
        )
        money = bool(cur or m.group("k")) or _MONEY_BEFORE.search(before) or _MONEY_AFTER.match(after)
        if not money and not ((per_night or per_person) and amount >= 20):
            continue
        if amount < 20 and not cur:
            continue
        key = "hotel_max_per_night" if per_night else "budget_per_person" if per_person else "budget_total"
        tail = night_after if per_night else person_after if per_person else None
        found.append((key, amount, _CURRENCY.get(cur), (m.start(), m.end() + (tail.end() if tail else 0))))
    return found


# A cap said on its own ("cheap, like under 150", "no more than $200"): on a trip that is only a stay, a
# nightly rate, as hotels are priced; "budget 500", "under 900 total", "600 for the 3 nights" stay totals
_STAY_CAP_BEFORE = re.compile(rf"\b{_CAP_WORDS}\s+(?:like\s+|about\s+|around\s+)?$", re.I)
_STAY_CAP_AFTER = re.compile(r"^\s*(?:or\s+(?:less|under|below|cheaper)|max(?:imum)?\b|tops\b|at\s+most\b)", re.I)
_STAY_TOTAL_WORDS = re.compile(r"\b(?:budget|total|all[\s-]in|in\s+all|whole|entire|altogether)\b", re.I)
_STAY_TOTAL_AFTER = re.compile(
    r"^\s*(?:for\s+(?:the\s+|all\s+)?(?:whole|entire|stay|trip|week|weekend|\w+\s+nights?|nights?|all|both|everyone)\b)",
    re.I,
)


def stay_caps_nightly(
    text: str, mentions: List[Tuple[str, float, Optional[str], Tuple[int, int]]]
) -> List[Tuple[str, float, Optional[str], Tuple[int, int]]]:
    """``mentions`` (``money_mentions`` of ``text``) for a trip that is a stay alone: a trip total said by
    a bare cap small enough to be a night's rate is the nightly cap ("hotel in austin, cheap, like under
    150"); any word of a total keeps it the stay's total."""
    out = []
    for key, amount, currency, span in mentions:
        before = _CLAUSE_END.split(text[max(0, span[0] - 40) : span[0]])[-1]
        after = _CLAUSE_END.split(text[span[1] : span[1] + 40])[0]
        if (
            key == "budget_total"
            and amount <= _NIGHTLY_AT_MOST
            and (
                _STAY_CAP_BEFORE.search(text[max(0, span[0] - 40) : span[0]].rstrip("$\u20ac\u00a3 ") + " ")
                or _STAY_CAP_AFTER.match(after)
            )
            and not _STAY_TOTAL_WORDS.search(before + " " + after)
            and not _STAY_TOTAL_AFTER.match(after)
        ):
            key = "hotel_max_per_night"
        out.append((key, amount, currency, span))
    return out


def _stars(text: str) -> Optional[int]:
    value = None
    low = text.lower()
    if not any(w in low for w in ("star", "start", "*", "\u2605", "rated")):
        return value
    for m in _STARS.finditer(text):
        n = to_int(m.group("n") or m.group("a") or m.group("r") or m.group("s"))  # "4 or 5 star": at least 4
        if n is not None and 1 <= n <= 5:
            value = n
    return value


_CLAUSE_END = re.compile(r"[,;.!?]|\b(?:but|though|although|whereas|while)\b", re.I)


def _refundable(text: str) -> Optional[str]:
    low = text.lower()
    if not any(w in low for w in ("refund", "flex", "chang", "cancel")):
        return None
    m = _REFUNDABLE.search(text)
    if not m:
        return None
    around = text[max(0, m.start() - 30) : m.end() + 30].lower()
    # "refundable hotel but the flights can be whatever": a "but" ends the clause as a comma does
    clause = _CLAUSE_END.split(text[max(0, m.start() - 30) : m.start()])[-1] + m.group(0)
    clause += _CLAUSE_END.split(text[m.end() : m.end() + 30])[0]
    if re.search(r"\b(?:hotels?|rooms?|stay|rates?|flights?|tickets?|fares?|air)\b", clause, re.I):
        around = clause.lower()  # "a room with free cancellation, flights whatever": the room's
    hotel = re.search(r"\b(?:hotels?|rooms?|stay|rates?|reservations?)\b", around)
    flight = re.search(r"\b(?:flights?|tickets?|fares?|air)\b", around)
    if hotel and not flight:
        return "hotel"
    if flight and not hotel:
        return "flight"
    return "all"


# "stops are fine", "any airline", "no hotel cap": a hard filter the traveller lets go of (offered
# when a search comes back empty because of one). Each name is a search filter.
_OK = r"(?:are|is)\s+(?:fine|ok|okay|alright|all\s+right)"
_DROP = r"(?:drop|forget|remove|lose|lift|skip|relax|undo|scrap|ditch|get\s+rid\s+of|no\s+need\s+for)"
_RELAX: Dict[str, Any] = {  # a compiled pattern, or what finds like one (extract.board.BOARD_RELAX)
    "max_stops": re.compile(
        rf"(?<!\bone\s)(?<!\b1\s)(?<!\bsingle\s)(?<!\btwo\s)(?<!\b2\s)\b(?:stops?|connections?|layovers?)\s+{_OK}\b|\b{_DROP}\s+(?:the\s+)?(?:nonstop|non-stop|direct)(?:\s+(?:only|requirement|filter|preference))?\b|"
        r"\b(?:doesn'?t|does\s+not|don'?t)\s+(?:have|need)\s+to\s+be\s+(?:nonstop|non-stop|direct)\b|\bany\s+number\s+of\s+stops\b",
        re.I,
    ),
    "airlines": re.compile(
        rf"\bany\s+(?:airline|carrier)s?\b|\b{_DROP}\s+(?:the\s+)?airlines?(?:\s+(?:filter|preference|requirement))?\b|"
        r"\b(?:airline|carrier)\s+(?:doesn'?t|does\s+not)\s+matter\b",
        re.I,
    ),
    "red_eye": re.compile(rf"\bred[\s-]?eyes?\s+{_OK}\b", re.I),
    "time_window": re.compile(
        rf"\bany\s+time(?:\s+of\s+(?:the\s+)?day)?\b|\b(?:time|timing)\s+(?:doesn'?t|does\s+not)\s+matter\b|"
        rf"\b{_DROP}\s+(?:the\s+)?(?:time|departure\s+time|time\s+of\s+day)(?:\s+(?:window|filter|preference))?\b",
        re.I,
    ),
    "min_stars": re.compile(
        rf"\bany\s+(?:star\s+rating|number\s+of\s+stars|stars)\b|\bstars?\s+(?:don'?t|doesn'?t)\s+matter\b|"
        rf"\b{_DROP}\s+(?:the\s+)?stars?(?:\s+(?:rating|filter|minimum))?\b",
        re.I,
    ),
    "refundable": re.compile(
        rf"\bnon[\s-]?refundable\s+(?:is|are|would\s+be)\s+(?:fine|ok|okay)\b|\b{_DROP}\s+(?:the\s+)?refundable(?:\s+only)?\b"
        r"|\b(?:don'?t|doesn'?t|do\s+not|does\s+not|won'?t)\s+(?:need|have)\s+(?:\w+\s+){0,3}?to\s+be\s+(?:fully\s+)?refundable\b"
        r"|\brefundable\s+(?:is\s+not|isn'?t|not)\s+(?:needed|necessary|required|important)\b"
        r"|\bno\s+need\s+(?:for|to\s+be)\s+(?:\w+\s+)?refundable\b",
        re.I,
    ),
    "budget": re.compile(
        rf"\b(?:{_DROP}|ignore|scrap|ditch|no)\s+(?:about\s+)?(?:the\s+|my\s+|our\s+|a\s+)?(?:trip\s+|total\s+)?budget\b(?!\s+(?:air|carrier|hotel|motel|option|flight))"
        r"|\b(?:budget|price|cost|money)\s+(?:doesn'?t|does\s+not|don'?t|won'?t)\s+matter\b|\bmoney\s+(?:is\s+)?no\s+object\b",
        re.I,
    ),
    "max_nightly": re.compile(
        rf"\b(?:no|{_DROP})\s+(?:the\s+)?(?:hotel\s+|nightly\s+|price\s+|room\s+)?(?:cap|limit|max(?:imum)?)\b|"
        r"\bany\s+price\s+(?:for\s+the\s+)?(?:hotel|room)\b|\b(?:hotel|nightly)\s+price\s+(?:doesn'?t|does\s+not)\s+matter\b",
        re.I,
    ),
}


_RELAX["board"] = BOARD_RELAX  # "breakfast doesn't matter", "room only is fine"


def read_relax(text: str) -> Tuple[Optional[List[str]], List[Tuple[int, int]]]:
    """(filters let go of, their spans) — the spans are not read again as wishes ("drop the nonstop")."""
    names, spans = [], []
    for name, rx in _RELAX.items():
        for m in rx.finditer(text):
            spans.append(m.span())
            if name not in names:
                names.append(name)
    return names or None, spans


# Hotel features the suppliers do not say (only stars, price, meals, refundability and where it is).
_AMENITIES = re.compile(
    r"\b(?P<a>pool|swimming\s+pool|gym|fitness\s+(?:center|centre|room)|parking|wi-?fi|internet|spa|jacuzzi|hot\s+tub"
    r"|pet[\s-]?friendly|pets?|dogs?|kitchen(?:ette)?|balcony|ocean\s+view|sea\s+view|airport\s+shuttle"
    r"|ev\s+charg\w*|laundry|room\s+service|bathtub"
    # the room itself: "2 queen beds", "a king bed", "a crib", "connecting rooms", "non-smoking"
    r"|(?:(?:two|2|one|1|a)\s+)?(?:queen|king|twin|double)[\s-]+(?:size\s+)?beds?|cribs?|rollaway(?:\s+beds?)?|cots?"
    r"|(?:connecting|adjoining|accessible|ada|non[\s-]?smoking|smoking|quiet)\s+rooms?|non[\s-]?smoking|wheelchair\s+accessible"
    r"|high(?:er)?\s+floor|late\s+check[\s-]?out|early\s+check[\s-]?in)\b",
    re.I,
)
_PET = "pet policy"  # "pet friendly", "my dog": what the traveller needs to know is whether pets may stay
_AMENITY_NAMES = {"pet friendly": _PET, "pet-friendly": _PET, "petfriendly": _PET, "pet": _PET, "pets": _PET}
_AMENITY_NAMES.update({"dog": _PET, "dogs": _PET})
_AMENITY_HOTEL = re.compile(
    r"\b(?:hotels?|rooms?|stay|place|with|w/|has|have|needs?|must|want|allow\w*|beds?|please|pls|if\s+possible)\b", re.I
)


def unsearchable_hotel_features(text: str) -> List[str]:
    """The hotel features a message wishes that no search can filter on ("a hotel with a gym",
    "w/ pool"), in the order named; none unless the message speaks of a hotel or a wish."""
    named = list(
        dict.fromkeys(_AMENITY_NAMES.get(w, w) for w in (m.group("a").lower() for m in _AMENITIES.finditer(text or "")))
    )
    return named if named and _AMENITY_HOTEL.search(text or "") else []


# The beds wished in the room: "a king bed", "2 queens", "two double beds", "twin beds", "one king", "2 beds"
_BED_KINDS = {"king": "king", "queen": "queen", "double": "double", "full": "double", "twin": "twin"}
_BEDS_WISHED = re.compile(
    r"\b(?:(?P<n>two|2|one|1|a|an|single)\s+)?(?P<kind>king|queen|twin|double|full)(?:[\s-]+size(?:d)?)?[\s-]+(?P<beds>beds?)\b"
    r"|\b(?P<n2>two|2)\s+(?P<kinds>kings|queens|twins|doubles)\b"
    r"|\b(?:a|one|1)\s+(?P<king>king)(?:[\s-]+size(?:d)?)?\b(?!\s+(?:street|st|ave|avenue|blvd|center|centre|hotel|of)\b)"
    r"|\b(?P<two>two|2|separate)\s+beds\b",
    re.I,
)


def read_beds(text: str) -> Optional[str]:
    """The beds wished in the room, as a key of ``BED_WISHES`` ("2 queen", "king"), the last said; None."""
    low = (text or "").lower()
    if not any(w in low for w in ("king", "queen", "twin", "double", "full", "beds")):
        return None
    wish = None
    for m in _BEDS_WISHED.finditer(text):
        if m.group("king"):
            wish = "king"
        elif m.group("two"):
            wish = "2 beds"
        else:
            kind = _BED_KINDS[(m.group("kind") or m.group("kinds")[:-1]).lower()]
            count = (m.group("n") or m.group("n2") or "").lower()
            plural = (m.group("beds") or "").lower() == "beds" or m.group("kinds")
            two = count in ("two", "2") or (plural and count not in ("one", "1", "a", "an", "single"))
            wish = f"2 {kind}" if two else kind
        wish = wish if wish in BED_WISHES else None
    return wish


# A party of friends, who share a room but not a bed: "6 guys", "me and 3 buddies", "girls trip", "a
# bachelor party"; not a couple or a family ("my wife", "our kids", "honeymoon").
_FRIENDS = re.compile(
    r"\b(?:guys|buddies|bros|dudes|pals|mates|friends|roommates)\b|\b(?:a\s+|my\s+)?(?:buddy|friend|roommate)\b"
    r"|\b(?:girls|boys|guys|lads|ladies)(?:'|’)?\s+(?:trip|weekend|getaway|night)\b|\bbachelor(?:ette)?\s+party\b|\bstag\s+(?:do|party)\b",
    re.I,
)
# Colleagues travelling together ("me and 2 coworkers", "my colleague and I"): a room each
_COLLEAGUES = re.compile(r"\b(?:coworkers?|co-workers?|colleagues?|teammates?|team\s+members?)\b", re.I)
_COUPLE_OR_FAMILY = re.compile(
    r"\b(?:wife|husband|hubby|girlfriend|boyfriend|gf|bf|partner|spouse|fianc[eé]e?|honeymoon|anniversary|couple"
    r"|kids?|children|child|son|daughter|baby|family|mom|mum|dad|parents)\b",
    re.I,
)


def friends_sharing(text: str) -> bool:
    """Whether the party is friends sharing rooms (``_FRIENDS``), not a couple or a family."""
    return bool(_FRIENDS.search(text or "")) and not _COUPLE_OR_FAMILY.search(text or "")


def _says(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether a message says what ``pattern`` finds (the ``asks_for_*`` readers below)."""

    def says(text: str) -> bool:
        return pattern.search(text or "") is not None

    return says


_SEATS = re.compile(
    r"\b(?:aisle|window|middle|exit[\s-]row|bulkhead|extra[\s-]legroom)(?:\s+seats?)?\b(?<!window)(?<!middle)"
    r"|\b(?:window|middle)\s+seats?\b|\bseats?\s+(?:together|next\s+to\s+each\s+other)\b|\bsit\s+together\b",
    re.I,
)


# Seats wished ("aisle seats", "sit together"), which no search can choose.
asks_for_seats = _says(_SEATS)


_BAGS_WISHED = re.compile(
    rf"\b(?:{NUMBER_RE}|a|an|a\s+couple\s+of|some|lots\s+of|extra|big|heavy)\s+(?:checked\s+|large\s+|big\s+)?(?:bags?|suitcases?|pieces\s+of\s+luggage)\b"
    r"|\bcheck(?:ing)?\s+(?:in\s+)?(?:a\s+|\d+\s+|two\s+|our\s+|my\s+)?(?:bags?|luggage|suitcases?)\b|\bchecked\s+(?:bags?|luggage|baggage)\b"
    r"|\bcarry[\s-]?on\s+only\b|\b(?:bags?|luggage|baggage)\s+(?:included|each|for\s+(?:each|everyone|all))\b",
    re.I,
)


def bags_wished(text: str) -> bool:
    """Whether a message tells the bags the party brings ("2 checked bags each", "carry-on only"),
    which no search filters on; a question about the options' bags is no wish."""
    low = (text or "").lower()
    if not any(w in low for w in ("bag", "luggage", "suitcase", "carry")):
        return False
    return _BAGS_WISHED.search(text) is not None and not is_question(text)


# What the traveller had before ("same hotel as last time", "my usual hotel", "the airline we flew last
# year"): the desk keeps no past trips to look it up in.
_PAST_TRIP = re.compile(
    r"\b(?:usual|regular)\s+(?:hotel|place|airline|room)\b"
    r"|\bsame\s+(?:hotel|place|airline|flights?|room)\s+(?:as|like)\s+(?:last|before|previously|the\s+last|my\s+last|we\s+had|i\s+had)\b"
    r"|\b(?:as|like)\s+(?:last\s+(?:time|year|trip)|the\s+last\s+trip)\b"
    r"|\b(?:hotel|place|airline)\s+(?:we|i)\s+(?:stayed\s+at|used|had|flew|took|booked)\s+(?:last|before)\b",
    re.I,
)


# What an earlier trip had ("same hotel as last time"): the desk keeps no past trips.
asks_for_past_trip = _says(_PAST_TRIP)


# Dates that may move ("dates are flexible", "flexible by a day or two", "+/- 2 days", "give or take a
# day"): the desk searches the days said; the words are no day and no length of stay ("a day or two"
# is not a one-day trip), and the traveller is told how to compare other days (``flexible_dates_line``).
_FLEX_AMOUNT = (
    r"(?:a\s+day(?:\s+or\s+two)?|a\s+(?:couple|few)\s+(?:of\s+)?days|(?:\d|one|two|three)\s*(?:-\s*\d\s*)?days?)"
)
FLEXIBLE_DATES = re.compile(
    r"\b(?:(?:the|my|our)\s+)?(?:travel\s+)?dates?\s+(?:are|is)\s+(?:pretty\s+|very\s+|a\s+bit\s+|fairly\s+|somewhat\s+|totally\s+)?flexible"
    rf"(?:\s+(?:by|within)\s+{_FLEX_AMOUNT})?"
    r"|\bflexible\s+(?:on|with|about|re|in)\s+(?:the\s+|my\s+|our\s+)?(?:travel\s+)?(?:dates?|days?|timing)\b"
    rf"(?:\s+(?:by|within)\s+{_FLEX_AMOUNT})?"
    r"|\b(?:flexible|flex)\s+(?:travel\s+)?dates?\b"
    rf"|\b(?:flexible|flex)\s+(?:by|within)\s+{_FLEX_AMOUNT}"
    r"|(?:\+\s*/?\s*-|±|\bplus\s+or\s+minus)\s*(?:\d|one|two|three|a)\s*(?:days?|d)\b"
    rf"|\bgive\s+or\s+take\s+{_FLEX_AMOUNT}"
    rf"|\b{_FLEX_AMOUNT}\s+(?:either\s+(?:side|way)|earlier\s+or\s+later|before\s+or\s+after)\b",
    re.I,
)


def dates_flexible(text: str) -> List[Tuple[int, int]]:
    """Where a message says its dates may move (``FLEXIBLE_DATES``): the spans, [] when it does not."""
    return [m.span() for m in FLEXIBLE_DATES.finditer(text or "")]


# Help at the airport or on board ("she uses a wheelchair", "needs wheelchair assistance", "travelling with
# a service dog", "needs oxygen on the flight"), which airlines arrange themselves, free, once booked.
_ASSISTANCE = re.compile(
    r"\b(?:uses?|using|in|needs?|need(?:s|ing)?\s+a|with\s+a|requires?)\s+(?:a\s+)?wheel\s?chair\b(?!\s+accessible)"
    r"|\bwheel\s?chair\s+(?:assistance|service|help|user|bound|at\s+the\s+airport)\b"
    r"|\b(?:mobility|special)\s+(?:assistance|needs)\b|\bservice\s+(?:dog|animal)\b"
    r"|\b(?:needs?|uses?|on)\s+(?:supplemental\s+)?oxygen\b",
    re.I,
)


# Help at the airport or on board (a wheelchair, a service dog, oxygen), arranged by the airline once booked.
asks_for_assistance = _says(_ASSISTANCE)


# A hotel asked for ("add a hotel", "we also need a room", "include a place to stay").
_HOTEL_ASKED = re.compile(
    rf"\b(?:add|need|want|include|get|book|throw\s+in|also)\b[^.?!]{{0,30}}\b(?:{STAY_NOUNS})\b", re.I
)


# A hotel asked for ("add a hotel", "we need a room too").
asks_for_hotel = _says(_HOTEL_ASKED)


# A car wished beside the trip ("need a car too", "and a rental car", "can you add a car"): not booked here.
_CAR = re.compile(
    r"\b(?:rental\s+cars?|rent(?:al|ing)?\s+(?:a\s+)?car|car\s+rentals?|(?:need|want|add|get|book)\s+(?:a|the)\s+car"
    r"|a\s+car\s+(?:too|as\s+well|also)|and\s+a\s+car)\b(?!\s+seats?)",
    re.I,
)


# A rental car beside the trip, which the desk does not book.
asks_for_car = _says(_CAR)
