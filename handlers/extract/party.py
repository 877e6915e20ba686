"""Who travels and how many rooms: "4 people", "me and my wife", "2 adults and a child (age 5)"."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ..common.question_form import is_question
from .text import NUMBER_RE, to_int

# What a number counts when it does not count people: "for 3 nights", "us two rooms", "a hotel with 2 beds".
# One list for every reading of a bare number next to the party ("for N", "us N", "with N"); each adds
# only what its own shape needs (an hour "for 9am", a ticket after "us", luggage "checked").
_THINGS = (
    r"(?:queen|king|double|single|twin|full|sofa)?\s*beds?|(?:bed)?rooms?|suites?|bathrooms?|stars?|stops?|layovers?"
    r"|connections?|nights?|days?|weeks?|months?|hours?|minutes?|bags?|suitcases?|carry[\s-]?ons?|queens|kings|doubles"
)
_N = rf"(?P<n>{NUMBER_RE})"
# A number that closes another count typed as on a form: the 2 of "adults 2 kids 3" counts the adults
# (the word before it starts the text or follows a word that is no number; "2 adults 3 kids" is two counts)
_FORM_BEFORE = re.compile(
    rf"(?:^|[^\w\s]|(?<!\S)(?!{NUMBER_RE}\b)\w+)\s*(?:adults?|seniors?|kids?|children|infants?|babies)\s*[:=-]?\s*$",
    re.I,
)
_ADULTS = re.compile(rf"\b{_N}\s+(?:more\s+)?(?:adults?|grown[- ]?ups?|seniors?|senior\s+citizens?)\b", re.I)
_CHILDREN = re.compile(
    rf"\b{_N}\s+(?:little\s+|young\s+|small\s+)?(?:children|child|kids?|minors?|teens?|teenagers?)\b(?![\s-]+friendly)",
    re.I,
)
# Counts written after the word, as on a form: "adults 2, kids 1", "adults: 3", "Infants - 1", "seniors 2"
# (a list after "kids" is their ages)
_AFTER = (
    r"\s*(?:[:=]|-(?!\s*\d{1,2}\s*-))?\s*(?P<n>\d{1,2})\b(?!\s*(?:,|and|&|/)\s*\d)(?!\s*(?:y/?o|yrs?|years?|months?)\b)"
    rf"(?!\s+\d{{1,2}}\b(?![/:.-]\d)(?!\s*(?:{_THINGS})\b))"  # "kids 4 7 10": their ages, typed with spaces
)
_ADULTS_AFTER = re.compile(rf"\b(?:adults?|seniors?){_AFTER}", re.I)
_CHILDREN_AFTER = re.compile(rf"\b(?:children|kids?){_AFTER}", re.I)
_INFANTS_AFTER = re.compile(rf"\b(?:lap\s+)?(?:infants?|babies){_AFTER}", re.I)
_INFANTS = re.compile(rf"\b{_N}\s+(?:infants?|babies|baby|toddlers?|lap\s+infants?)\b", re.I)
_CABIN_WORDS = r"(?:(?:premium\s+)?(?:economy|business|first|coach)(?:\s+class)?\s+)?"
# Words for grown-ups counted as a group ("4 guys", "me and 3 ladies"), and words for young people that
# count grown-ups only when nobody else is counted ("6 girls" on a bachelorette trip, not "2 adults and 3 boys").
_GROUP_WORDS = {w: 1 for w in "guys gals ladies dudes lads fellas women men chaperones teachers coaches".split()} | {
    "couples": 2
}
_YOUNG_GROUP_WORDS = {"girls": 1, "boys": 1}
# "one of us dropped out", "one of us can't make it": someone leaving, not a count of the party
_LEAVES = (
    r"\s+(?:can'?t|cant|cannot|won'?t|wont|isn'?t|is\s+not|is\s+no\s+longer|dropped|backed|pulled|bailed|cancell?ed"
    r"|has\s+to\s+(?:drop|cancel|stay)|is\s+out|left|quit|will\s+not|stays?\s+home)\b"
)
_PEOPLE = re.compile(
    rf"\b(?P<n1>{NUMBER_RE})\s*(?:peoples?|persons?|person|total|in\s+total|travell?ers?|passengers?|pax|ppl|guests?|individuals|of\s+us(?!{_LEAVES})|members|"
    rf"reservations|(?:one[\s-]?way\s+|round[\s-]?trip\s+|return\s+)?{_CABIN_WORDS}(?:plane\s+|airline\s+|flight\s+|bus\s+|train\s+|coach\s+)?"
    rf"(?:tickets?|tix|tkts?|seats?)|"
    rf"adults?\s+tickets?|in\s+(?:my|our|the)\s+(?:group|party|team))\b"
    rf"|\b(?:group|party|team)\s+(?:has|is|of|will\s+be)\s+(?P<n6>{NUMBER_RE})\b"
    # "travellers: 3", "pax 2" (on a form: "people" and "guests" only with the colon)
    rf"|\b(?:(?:travell?ers|passengers|pax|party\s+size|headcount)\s*[:=-]?|(?:people|guests)\s*:)\s*(?P<n7>\d{{1,2}})\b"
    rf"(?![/:.-]\d)(?!\s*(?:{_THINGS})\b)"
    rf"|(?<![\w-])x\s?(?P<n8>[1-9])\b(?!\s*(?:nights?|days?|rooms?))"
    rf"|\b(?:party|group|family|team)\s+of\s+(?P<n2>{NUMBER_RE})\b|\bwe(?:\s+are|'re|\s+will\s+be|'ll\s+be)\s+(?:actually\s+|now\s+|really\s+|just\s+|only\s+)?(?P<n3>{NUMBER_RE})\b(?!\s*(?:nights?|days?|weeks?|stars?|minutes?|mins?|hours?|hrs?|miles?|km|blocks?)\b)"
    rf"|\b(?:just|only)\s+(?P<n9>{NUMBER_RE})\s+(?:now|left|going|(?:of\s+us|people|adults)\s+now)\b"
    # "..., avoid Spirit pls, just 1": a count closing a clause of a trip request is the party
    rf"|\b(?:just|only)\s+(?P<n10>(?!(?:a|an|no)\b){NUMBER_RE})\s*(?=[,;.!)]|$)"
    rf"|\bthere\s+(?:are|will\s+be)\s+(?P<n4>{NUMBER_RE})\s+of\s+us\b|\b(?:for|book)\s+(?P<n5>(?!(?:a|an|no)\b){NUMBER_RE})\b(?!\s*(?:{_THINGS}|am\b|pm\b|%|percent|"
    rf"dollars|usd|bucks|o'?clock|st\b|nd\b|rd\b|th\b|[.:/]\d|\d|-|of\s+(?:the|these|those|them)|more|way|stop))",
    re.I,
)
_SOLO = re.compile(
    r"\bme\s*(?:\+|&|and|with|plus|n|w/)\s*(?:my|our|the)\s+(?:dog|cat|pet|puppy)\b"
    r"|\b(?:just\s+(?:be\s+)?me|only\s+(?:be\s+)?me|solo\s+trip|me\s+alone|just\s+myself|by\s+myself|on\s+my\s+own|travell?ing\s+alone|alone|solo|one\s+person"
    r"|(?:me|myself)\s+only|only\s+myself)\b"
    # someone else sends the writer: "my company is sending me to a conference", "work is flying me out",
    # "my boss wants me in chicago" (with others named, they are counted first: "sending me and 2 colleagues")
    r"|\b(?:is|are|'s|'re|been|keeps?)\s+(?:sending|flying)\s+me\b(?!\s*(?:and|&|\+|with|plus)\b)"
    r"|\b(?:sent|sends|wants|needs)\s+me\s+(?:to\s+(?:fly|go|travel|be|attend|head|visit)\b|in\s+[a-z])(?![^.;!?]*\b(?:with|and)\s+(?:my|our|\d))",
    re.I,
)
# "jan 15-17 for me": alone, when it closes a trip request (``solo_request``), not "that works for me"
FOR_ME = re.compile(
    r"\bfor\s+(?:just\s+|only\s+)?(?:me|myself)\b(?=\s*(?:[,;.!]|$|\s+(?:only|alone)\b))"
    r"|^(?:(?:can|could|would)\s+you\s+|please\s+)?(?:fly|get)\s+me\s+(?:from|to|out)\b",
    re.I,
)
_ADULT_KIN = (
    r"(?:mother|father|sister|brother)(?:-in-law|\s+in\s+law)|wife|husband|partner|spouse|girlfriend|boyfriend|gf|bf|fianc[eé]e?|friend|colleague|coworker|co-worker|"
    r"boss|mom|mother|dad|father|brother|sister|mum|roommate|assistant|manager|cousin|aunt|uncle|grandma|grandpa|buddy|buddie|pal|mate|"
    r"vp|ceo|cfo|cto|coo|president|director|executive|exec|employee|intern|(?:sales\s+)?reps?|engineer|consultant|analyst|staffer|"
    r"grandmother|grandfather|teammate|client|mother-in-law|father-in-law|hubby|other\s+half|sister-in-law|brother-in-law|"
    r"mrs|missus|wifey|hubs|sis|bro|better\s+half|mother\s+in\s+law|father\s+in\s+law|bff|bestie"
)
_PAIR_KIN = r"parents|grandparents|in-laws|folks"
# Family said without "my" after "with": "w/ hubby and our 2 kids", "with mom and dad" (not "with client")
_BARE_KIN = (
    r"(?:wife|husband|hubby|hubs|wifey|missus|mrs|partner|spouse|girlfriend|boyfriend|gf|bf|fianc[eé]e?|mom|mum|dad"
    rf"|grandma|grandpa|(?:other|better)\s+half|{_PAIR_KIN})"
)
_WITH_BARE = re.compile(r"(?:\bwith|\bw/|\bplus|[+&])\s*$", re.I)
_CHILD_KIN = (
    r"kids?|children|child|sons?|daughters?|boys?|girls?|toddlers?|babies|baby|infants?|little\s+ones?|newborn|"
    r"grandkids?|grandchild(?:ren)?|grandsons?|granddaughters?|twins|triplets|teens?|teenagers?"
    # young relatives whose ages, when given, say whether they are children ("my 2 nephews (14, 16)")
    r"|nephews?|nieces?|godsons?|goddaughters?|godchild(?:ren)?|stepsons?|stepdaughters?|stepkids?"
    r"|\d{1,2}[- ]?(?:years?|yrs?|yr|y/?o|months?|mos?)[- ]olds?"  # "my 2 yr old": a child named by age
)
# Children who come as more than one: "our twins (6)"
_MULTIPLES = {"twins": 2, "triplets": 3}
_TWIN_KIDS = re.compile(r"\b(twin|triplet)\s+(?:boys|girls|sons|daughters|brothers|sisters|babies|kids)\b", re.I)


def _multiples_said(m: re.Match[str]) -> str:
    """ "twin boys" as "twins"; "twin babies" as "2 babies" (lap infants, both of them)."""
    kind = m.group(1).lower() + "s"
    return f"{_MULTIPLES[kind]} babies" if m.group(0).lower().endswith("babies") else m.group(1) + "s"


# A word between "my" and the person: "my elderly father", "our little ones", "my best friend"
_KIN_ADJECTIVES = r"(?:elderly|old|older|younger|little|big|baby|teenage|grown(?:[- ]up)?|adult|best|youngest|oldest|eldest|step|lovely)"
# "my grown son", "our adult daughter": a grown-up, though named by a word for a child
_GROWN_CHILD = re.compile(r"\b(?:grown|adult)\b", re.I)
# The writer says they stay behind: "for my parents (not me)", "I'm not going"
_NOT_ME = re.compile(
    r"\b(?:not|except|without)\s+(?:me|myself)\b|\bi(?:'m|\s+am)\s+not\s+(?:going|travell?ing|flying|coming)\b"
    r"|\bi\s+(?:won'?t|will\s+not|don'?t|do\s+not)\s+(?:be\s+)?(?:go|fly|travel|come|going|flying|travell?ing|coming)\b",
    re.I,
)
# The writer is who they come to: "my parents are flying in to see us", "to visit me"
_HOSTS = re.compile(r"\b(?:visit|see|stay\s+with)\s+(?:us|me)\b", re.I)
# "my wife", "her parents", "two friends", "three colleagues", "her two boys"
_AGE_ADJECTIVE = r"(?:\d{1,2}[- ]?(?:years?|yrs?|yr|y/?o|months?|mos?)(?:[- ]old)?\s+)"
_COMPANION = re.compile(
    rf"\b(?:(?:my|our|his|her|their|the)\s+)?(?:(?P<n>{NUMBER_RE})\s+(?:of\s+(?:my|our|his|her|their)\s+)?)?{_AGE_ADJECTIVE}?(?:{_KIN_ADJECTIVES}\s+)?(?:(?P<adult>(?:{_ADULT_KIN})s?)|(?P<pair>{_PAIR_KIN})|(?P<child>{_CHILD_KIN}))\b"
    r"(?![\s-]+(?:friendly|trip|class|seat|room|rate|fare|ticket|meal|menu|house|home|place|wedding|party)s?\b)",
    re.I,
)
# Someone travels along when joined to the writer or the party: "me and my wife", "with my kids",
# "my sister and her two boys", "my mom, my dad and I" (not "visit a friend", "my cousin's house").
_JOINED_BEFORE = re.compile(
    r"(?:\b(?:with|w/?|and|n|plus|including|bringing\s+along|taking|bringing|to\s+(?:take|bring))|[+&,:(/])\s*$", re.I
)
# Booking for someone else: "booking for my wife and 2 kids", "book my parents", "it's for my boss",
# "tickets for my son": they travel; the writer goes too only when the text says so ("for me and my wife").
_FOR_OTHERS = re.compile(
    r"\b(?:(?:book(?:ing)?|reserv(?:e|ing)|arrang(?:e|ing))(?:\s+(?:a\s+)?(?:flights?|tickets?|trip|seats?|hotel|it|travel))?(?:\s+for)?"
    r"|(?:it'?s|this\s+is|that'?s)\s+for|(?:flights?|tickets?|tix|seats?|rooms?|another|one)\s+for)\s*$",
    re.I,
)
# The verbs of flying someone somewhere: "get my dad", "flying my mom"
_FLY_SOMEONE = r"(?:get(?:ting)?|fly(?:ing)?)"
# A grown-up flown somewhere by the writer: "need to get my dad from Tampa", "fly my mom to Denver"
_FLOWN = re.compile(rf"\b{_FLY_SOMEONE}\s*$", re.I)
# Booking for someone named ("book travel for our VP", "reserve a flight for my mom"), and words that
# say the writer flies too ("for my wife and me", "us", "I'm going")
_BOOKING_FOR = re.compile(
    r"\b(?:book(?:ing)?|reserv(?:e|ing)|arrang(?:e|ing))\s+(?:(?:a|some)\s+)?(?:flights?|tickets?|trip|seats?|travel|it)?\s*"
    r"for\s+(?:my|our|the|his|her|their)\b"
    # "I need flights for my parents", "I need to book my parents": they fly, the writer books
    r"|\b(?:flights?|tickets?|tix|seats?|rooms?|another|one)\s+for\s+(?:my|our|his|her|their)\b"
    r"|\bbook(?:ing)?\s+(?:my|our|his|her|their)\s+(?!(?:own\s+)?(?:flights?|tickets?|trip|hotel|rooms?|seats?|travel|stay|vacation|holiday|car)\b)"
    # "I need to get my dad from Tampa to Pittsburgh", "fly my mom home": someone else flown somewhere
    rf"|\b{_FLY_SOMEONE}\s+(?:my|our|his|her|their)\s+[\w\s-]{{2,30}}?\b(?:from|to|home|back|out\s+(?:to|of|here))\b",
    re.I,
)
_SELF_GOES = re.compile(
    r"\b(?:me|myself|us)\b|\band\s+i\b|\bi'?m\s+(?:travell?ing|going|flying|coming|joining)\b"
    r"|\bi\s+(?:will|'ll|am)\s+(?:also\s+)?(?:be\s+)?(?:fly|go|travel|com|join)",
    re.I,
)
# The person joins the trip: "my wife is coming too", "my sister wants to join", "my dad is tagging along"
_JOINS_AFTER = re.compile(
    r"^\s*(?:is|are|'s|'re|will\s+be|wants?\s+to|would\s+like\s+to|decided\s+to|can|will|also)\s+(?:also\s+)?"
    r"(?:com(?:e|ing)|join(?:ing)?|tag(?:ging)?\s+along|fly(?:ing)?(?!\s+(?:me|us)\b)|travel(?:l?ing)?)\b"
    r"|^\s*(?:(?:come|join)\s+(?:too|along|as\s+well|with\s+(?:us|me)|us|me)|tag\s+along)\b",  # "can my mom come too?"
    re.I,
)
_JOINED_AFTER = re.compile(
    r"^\s*(?:,|and\s+(?:i|me|my|our|her|his)\b|\+|&|\(|\s*$|incl(?:uding|\.)?\s+(?:me|myself)\b|(?:too|as\s+well)\b)",
    re.I,
)
_SELF = re.compile(
    r"\b(?:me|myself|i)\b(?!\s*'?(?:d|ll|ve|m)\b)|\bi'?m\s+(?:travell?ing|going|flying|bringing)\b"
    r"|\bi(?:'ll|\s+will)\s+(?:be\s+)?(?:travell?ing|going|flying|com(?:e|ing)|bring(?:ing)?|tak(?:e|ing))\b"
    rf"|\b(?:{_ADULT_KIN}|{_PAIR_KIN}|{_CHILD_KIN})s?\s+(?:too|as\s+well)\b"  # "..., my wife too"
    r"|\b(?:taking|bringing|to\s+(?:take|bring))\s+(?:my|our)\b"
    # "looking to take the kids (8 and 11) to Orlando": the writer takes them ("my wife is taking the
    # kids": she does)
    rf"|(?<!\bis\s)(?<!'s\s)(?<!\bare\s)\b(?:taking|bringing|to\s+(?:take|bring))\s+the\s+(?:{NUMBER_RE}\s+)?(?:{_CHILD_KIN})\b",
    re.I,
)
_SELF_PLUS = re.compile(
    rf"\bme\s*(?:\+|plus|and)\s*(?P<n>{NUMBER_RE})\b(?!\s+(?:{_ADULT_KIN}|{_CHILD_KIN}|{_PAIR_KIN}|more)s?\b)",
    re.I,
)
# "add my daughter", "also bringing my mom", "one more": people joining those already going
# "2 more adults", "two more people are coming", "plus one more": grown-ups on top of those going
MORE_PEOPLE = re.compile(
    rf"(?:\b(?:plus|and|with)\s+|\+\s*)(?P<n>{NUMBER_RE})\s+more\s*(?:[.!]|$|(?:is|are|will\s+be)\s+(?:coming|joining))"
    rf"|\b(?P<m>{NUMBER_RE})\s+more\s+(?:(?:adults?|people|persons?|travell?ers?|passengers?|guests?|pax|seats?|tickets?"
    r"|of\s+us|friends?|colleagues?)\b|(?:is|are|will\s+be\s+)?(?:coming|joining)\b)",
    re.I,
)
ADDING = re.compile(
    r"\badd(?:ing)?\b|\balso\s+(?:bring(?:ing)?|tak(?:e|ing)|coming|joining)\b|\bone\s+more\b"
    r"|\b(?:is|are|'s|'re|will\s+be)\s+(?:also\s+)?(?:coming|joining)\s+(?:too|as\s+well|along|with\s+(?:us|me))\b"
    r"|\bwe(?:'re|\s+are|'ll|\s+will)\s+(?:also\s+)?(?:be\s+)?(?:bring(?:ing)?|tak(?:e|ing))\s+(?:along\s+)?(?:our|my)\b"
    r"|\b(?:wants?|decided)\s+to\s+(?:come|join)\b|\btagging\s+along\b|\b(?:is|are|will|'s|'re)\s+join(?:ing)?\s+(?:us|me)\b"
    r"|\b(?:is|'s|are|'re)\s+(?:also\s+)?coming\s+(?:with\s+(?:us|me)|along|too)\b|\banother\s+(?:adult|person|traveller|traveler|passenger)\b"
    # asked: "can my mom come too?", "could my brother join us?", "is it ok if my sister tags along"
    r"|\b(?:can|could|may|if)\s+(?:my|our)\s+(?:[\w-]+\s+){1,3}?(?:(?:come|join)\s+(?:too|along|as\s+well|with\s+(?:us|me)|us|me)|tags?\s+along)\b",
    re.I,
)


# "+1, my sister", "plus 2": people on top of those going, said as a count at the start
PLUS_PEOPLE = re.compile(
    r"^\s*(?:\+\s*|plus\s+)(?P<n>one|two|three|four|[1-4])\b(?!\s*(?:more\b|%|nights?|days?|hours?|am\b|pm\b|[(\d]))(?![\d(/:.]|-\d)",
    re.I,
)


def adding(text: str) -> bool:
    """Whether the people a text names join those already going ("add my daughter", "2 more adults", "+1")."""
    return bool(ADDING.search(text) or ("more" in text.lower() and MORE_PEOPLE.search(text)) or PLUS_PEOPLE.match(text))


# The writer goes too: "flying with", "with my wife and 3 kids", "a ski trip with 3 friends" (not "for my parents")
_WITH = re.compile(
    rf"\b(?:travell?ing|going|flying|coming)\s+(?:with|w/?)(?=\s|$)|^\s*with\b|(?:\bwith\s+|\bw/\s*)(?:my|our|(?!(?:a|an|no)\b){NUMBER_RE})\s+(?!(?:own|points|miles|card|checked|{_THINGS})\b)"
    rf"|(?:\bwith\s+|\bw/\s*){_BARE_KIN}\b",
    re.I,
)
_I_GO_WITH = re.compile(
    r"\b(?:i'?ll|i\s+will|i\s+can|i'?m|i\s+am|i\s+would|i'?d)\s+(?:be\s+)?(?:fly|go|travel|com)(?:e|ing)?\s+(?:along\s+)?with\s+(?:him|her|them)\b",
    re.I,
)
_ME_AND_ONE = re.compile(r"\b(?:me|i)\s*(?:and|&|\+)\s*(?:him|her)\b|\b(?:him|her)\s*(?:and|&|\+)\s*(?:me|i)\b", re.I)
_US_N = re.compile(
    rf"\bus\s+(?P<n>two|three|four|five|six|2|3|4|5|6)\b(?![\s-]*(?:{_THINGS}|tickets?|options?|\*|\u2605))",
    re.I,
)
_US_AND_KIDS = re.compile(
    rf"(?:^|[,;:.!?]\s*|\b(?:for|just|only)\s+)us\s*(?:\+|&|and|plus|n|with|w/)\s*(?:(?:the|our|my)\s+)?(?:{NUMBER_RE}\s+)?"
    rf"(?:{_KIN_ADJECTIVES}\s+)?(?:{_CHILD_KIN})\b",
    re.I,
)
_KIDS_BEFORE = re.compile(rf"\b(?:{_CHILD_KIN})\b", re.I)
_INCLUDING_ME = re.compile(r"\bincl(?:uding|\.)?\s+me\b|\bcounting\s+me\b", re.I)
_LONE_ME = re.compile(r"(?:^|[,;:.]\s*)(?:just\s+|only\s+)?(?:me|myself)\s*(?:[,;.!]|$)", re.I)
_SELF_WITH = re.compile(
    r"\b(?:me\s+and|me\s*(?:\+|&|plus|w/)|and\s+(?:I|me)\b|with\s+(?:my|our|me)\b|i\s+and|bringing|taking\s+(?:my|our|the)\b|including\s+(?:me|myself))",
    re.I,
)
# The words that open a list of ages: "kids aged 3/5/8" (what follows is no day)
AGES_SAID = re.compile(r"\b(?:aged?|ages)\s*:?\s*$", re.I)
# One age in a list, in months for a baby: "ages 10 months, 3 and 5"
_AGE_ITEM = r"\d{1,2}(?:\s*(?:months?|mos?)(?:[- ]old)?\b)?"
# A number that counts people, not an age: "shes 9 and 2 adults", "(7) and 3 friends"
_NOT_AGE = (
    r"(?!\s*(?:adults?|grown[- ]?ups?|people|persons?|pax|ppl|travell?ers?|passengers?|guests?|seniors?|kids?|children"
    r"|friends?|of\s+us|rooms?|nights?|days?|weeks?)\b)"
)
_AGE_LIST = rf"{_AGE_ITEM}(?:\s*(?:,|and|&|/)\s*{_AGE_ITEM}{_NOT_AGE})*"
# In brackets the ages may be typed with spaces only: "kids (8 10 14)", "[5 7 9]"
_BRACKET_AGES = rf"{_AGE_ITEM}(?:(?:\s*(?:,|and|&|/)\s*|\s+){_AGE_ITEM}{_NOT_AGE})*"
_AGES = re.compile(
    rf"\b(?:aged?|ages)\s*:?\s*(?P<list>{_AGE_LIST})"
    rf"|[(\[](?:ages?\s*:?\s*)?(?P<paren>{_BRACKET_AGES})(?:\s*(?:y/?o|yrs?|years?(?:\s+old)?))?[)\]]"
    rf"|\b(?:(?:he|she|they)(?:['’]s|\s+is|\s+are|['’]re)|hes|shes|theyre)\s+(?P<pron>{_AGE_LIST})\b(?!\s*(?:months?|mos?|%))"
    rf"|\bwho(?:'s|\s+is|\s+are)\s+(?P<who>{_AGE_LIST})\b(?!\s*(?:months?|mos?))"
    rf"|\b(?:(?:step|god|grand)?(?:son|daughter)|kid|child|boy|girl|niece|nephew|grandkid|grandchild)(?:'s|\s+is)\s+(?:only\s+|just\s+)?(?P<kid_is>\d{{1,2}})\b"
    rf"(?!\s*(?:months?|mos?|%|am\b|pm\b|[/:\d-]|\.\d|nights?|days?|weeks?|hours?|minutes?))"
    rf"|\b(?:kids|children|sons|daughters|boys|girls|little\s+ones|grandkids|grandchildren|teens|teenagers)"
    rf"(?:\s+(?:are|aged?))?\s*[,:\-\u2013\u2014]?\s*(?P<kin>\d{{1,2}}(?:(?:\s*(?:,|and|&)\s*|\s+)\d{{1,2}})+)\b"
    rf"(?!\s*(?:months?|mos?|nights?|days?|weeks?|rooms?|stars?|adults?|people|persons?|pax|bags?|am\b|pm\b|[/:\d]|-\s*\d|\.\d))"
    r"|\b(?P<one>\d{1,2})[- ]?(?:years?|yrs?|yr|y/?o)(?:[- ]old)?\b"
    r"|\b(?P<months>\d{1,2})\s*(?:months?|mos?)(?:[- ]old)?\b",
    re.I,
)
# "2 rooms", "two smoking rooms", "3 different rooms": a number, at most one describing word, rooms
_ROOMS = re.compile(
    rf"\b(?!(?:a|an)\b){_N}\s+(?:(?!(?:stars?|nights?|days?|weeks?|people|persons?|adults?|kids?|children|guests?|"
    rf"of|in|for|and|or|to|per|with|bed|beds|bedrooms?)\b)[a-z][a-z-]*\s+)?rooms?\b"
    r"(?!\s+(?:per\s+(?:person|head|adult|guest|traveller|traveler)|each|for\s+each))",
    re.I,
)


# Students, counted as grown-ups or children by what the words say: "4 college students" travel on
# their own; "12 students (14-15) plus 2 teachers", "30 high school students" are a school group.
_STUDENTS = re.compile(
    rf"\b{_N}\s+(?:(?:other|more|fellow)\s+)?(?:(?P<grown>college|university|uni|grad(?:uate)?|undergrad(?:uate)?|med(?:ical)?|law|phd|mba|adult)\s+"
    rf"|(?P<school>(?:(?:high|middle|elementary|primary|secondary|grade)\s+)?school|(?:\w+[\s-])?grade)\s+)?"
    r"(?:students?|pupils?)\b(?P<ages>\s*\(\s*(?:ages?\s*)?\d{1,2}\b)?"
    rf"|\b(?P<n2>{NUMBER_RE})\s+(?P<schoolers>(?:high|middle)[\s-]?schoolers|(?:\w+[\s-])?graders)\b",
    re.I,
)
# Grown-ups a school group travels with
_WITH_GROWN_UPS = re.compile(
    r"\b(?:teachers?|chaperones?|coach(?:es)?|parents|adults?|professors?|instructors?|leaders?)\b", re.I
)


def _students(text: str) -> Tuple[int, int]:
    """(grown-ups, children) counted as students."""
    grown = young = 0
    for m in _STUDENTS.finditer(text):
        n = to_int(m.group("n") or m.group("n2"))
        if not n or n > 60:
            continue
        ages = re.match(r"\s*\(\s*(?:ages?\s*)?(\d{1,2})", m.group("ages") or "")
        minors = (
            m.group("school")
            or m.group("schoolers")
            or (ages and int(ages.group(1)) < 18)
            or (not m.group("grown") and not ages and _WITH_GROWN_UPS.search(text))
        )
        if minors:
            young += n
        else:
            grown += n + (1 if _BARE_AFTER_ME.search(_before(text, m)) else 0)
    return grown, young


# A count of grown-ups by a word for a group: "6 girls", "4 guys", "me and 3 ladies" (not "my 2 girls").
_GROUP = re.compile(
    rf"(?<!\bmy\s)(?<!\bour\s)(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)\b(?!(?:a|an)\s){_N}\s+(?P<word>{'|'.join([*_GROUP_WORDS, *_YOUNG_GROUP_WORDS])})\b"
    r"(?![\s-]+(?:trip|weekend|getaway|night)s?\b)",
    re.I,
)


_GROUP_NOUNS = ("guy", "gal", "lad", "dude", "fella", "men", "chaperone", "teacher", "coach", "couple", "girl", "boy")


def _said(low: str, *nouns: str) -> bool:
    return any(noun in low for noun in nouns)


def _count(pattern: re.Pattern[str], text: str) -> Optional[int]:
    """The sum over every mention ("1 child ... and another 2 children")."""
    total = None
    for m in pattern.finditer(text):
        n = to_int(m.group("n"))
        if n is not None and 0 < n <= 20 and not (m.start() and _FORM_BEFORE.search(_before(text, m))):
            total = (total or 0) + n
    return total


# Counts written as on a booking form: "2A 1C", "2ADT 1CHD 1INF", "2 adt + 1 chd" (one letter only in capitals)
_FORM_WORDS = {"adt": "adults", "adts": "adults", "chd": "children", "chld": "children", "inf": "infants"}
_FORM = re.compile(
    r"\b(?P<n>[1-9])\s?(?P<word>adts?|chl?d|inf)\b"
    # the code first, as a GDS or an agent writes it: "ADT 2 CHD 1 (7)", "ADT2/CHD1", "adt x2"
    r"|\b(?P<word_first>adts?|chl?d|inf)\s*[:=x]?\s*(?P<n_after>[1-9])\b(?![:.]\d|\s*(?:am|pm)\b)",
    re.I,
)
_FORM_LETTERS = re.compile(  # (also after a count written out: "2 adults 3C")
    r"\b(?P<a>[1-9])\s?(?:A|(?i:adults?\s*))(?:\s*[,/+&]?\s*(?P<c>[1-9])\s?CH?)(?:\s*[,/+&]?\s*(?P<i>[1-9])\s?I(?:NF)?)?\b"
)


# The same typed short, in either case, touching or not: "2a", "1a1c", "2a 2c", "2a+1c+1i"; not a seat,
# a gate or a flat ("seat 2a", "terminal 1a"), nor "2 a night".
_FORM_SHORT = re.compile(
    r"(?<![\w$\u20ac\u00a3.,/:-])(?P<a>[1-9])a(?:\s*[+&,]?\s*(?P<c>[1-9])c)?(?:\s*[+&,]?\s*(?P<i>[1-9])i)?(?![\w'])",
    re.I,
)
_FORM_PLACE = re.compile(
    r"\b(?:seats?|gates?|terminals?|term|flat|apt|apartment|suite|unit|room|row|platform|zone|group|boarding)\s*$", re.I
)


def _form_counts(text: str) -> str:
    """The text with form counts written out: "2A 1C (7yo)" -> "2 adults 1 children (7yo)"."""

    def letters(m: re.Match[str]) -> str:
        said = [f"{m.group('a')} adults"] + ([f"{m.group('c')} children"] if m.group("c") else [])
        return " ".join(said + ([f"{m.group('i')} infants"] if m.group("i") else []))

    def short(m: re.Match[str]) -> str:
        return m.group(0) if _FORM_PLACE.search(text[max(0, m.start() - 20) : m.start()]) else letters(m)

    if not any(c.isdigit() for c in text):
        return text
    text = _FORM_LETTERS.sub(letters, text)
    if "a" in text.lower():
        text = _FORM_SHORT.sub(short, text)

    def code(m: re.Match[str]) -> str:
        return f"{m.group('n') or m.group('n_after')} {_FORM_WORDS[(m.group('word') or m.group('word_first')).lower()]}"

    return _FORM.sub(code, text)


def read_party(text: str, going: bool = True) -> Dict[str, Any]:
    """{"adults", "children", "infants", "child_ages", "rooms"}; None where the text says nothing.

    Children of 2 and over count as children (they need a seat); under 2, or a baby of no
    stated age, as lap infants. ``going``: people already go on the trip, so those said to come
    along ("my wife is coming with me") join them; on a first message the writer goes with them."""
    joining = going and adding(text)
    text = visited_masked(_gifted(_form_counts(text)))  # "visiting my sister and her kids": they stay home
    if "twin" in text.lower() or "triplet" in text.lower():
        text = _TWIN_KIDS.sub(_multiples_said, text)  # "my twin boys (10)": "my twins (10)"
    low = text.lower()  # (the counting patterns run only where their nouns are: most messages name few)
    adults = _count(_ADULTS, text) if _said(low, "adult", "grown", "senior") else None
    adults = adults if adults is not None or not _said(low, "adult", "senior") else _count(_ADULTS_AFTER, text)
    kid_nouns = _said(low, "child", "kid", "minor", "teen")
    children = _count(_CHILDREN, text) if kid_nouns else None
    children = children if children is not None or not kid_nouns else _count(_CHILDREN_AFTER, text)
    grown_students, young_students = _students(text) if _said(low, "tudent", "rader", "upil") else (0, 0)
    if young_students:
        children = (children or 0) + young_students
    infants = _count(_INFANTS, text) if _said(low, "infant", "bab", "toddler") else None
    infants = infants if infants is not None or not _said(low, "infant", "babies") else _count(_INFANTS_AFTER, text)
    ages, infant_ages, grown_ages = _ages(text) if any(c.isdigit() for c in text) else ([], [], [])
    companions, kids = _companions(text)
    grown_kin = min(len(grown_ages), max(0, kids - len(ages)))
    companions, kids = companions + grown_kin, kids - grown_kin  # "my daughter (she's 19)" is a grown-up
    group = _GROUP.search(text) if _said(low, *_GROUP_NOUNS) else None
    young = bool(group) and group.group("word").lower() in _YOUNG_GROUP_WORDS
    if group and adults is None and not (young and (children is not None or infants is not None or ages)):
        # "4 guys and 2 kids": the guys are the grown-ups; "6 girls" only when nobody else is counted
        word = group.group("word").lower()
        n = (to_int(group.group("n")) or 0) * {**_GROUP_WORDS, **_YOUNG_GROUP_WORDS}[word]  # "3 couples": 6
        adults = n + (1 if _BARE_AFTER_ME.search(text[: group.start()]) else 0)
        kids = max(0, kids - n) if young else kids
    if grown_students:
        adults = (adults or 0) + grown_students
    if children is None and infants is None and kids:
        children = kids
    if infant_ages:
        infants = max(infants or 0, len(infant_ages))
        if children:
            children = max(0, children - len(infant_ages))
    elif infants is None and children is not None and re.search(r"\b(?:baby|babies|infants?|newborn)\b", text, re.I):
        infants, children = 1, max(0, children - 1)  # "2 adults + baby": a lap infant
    if ages and (children is None or children < len(ages)):
        children = len(ages)
    if "both" in low or "all" in low:
        ages = same_age_for_all(ages, children, text)
    us = _US_N.search(text)
    if adults is None and us:
        adults = to_int(us.group("n"))  # "us two + our 1 yr old": the two are the grown-ups
        little = (children or 0) + (infants or 0)
        if adults and little and adults > little and _KIDS_BEFORE.search(text[: us.start()]):
            adults -= little  # "with my 2 kids (5 and 9), just us 3": the three are everyone
    if adults is None and (children or infants) and _US_AND_KIDS.search(text):
        adults = 2  # "us + 2 kids (4, 6)", "us and the baby": the couple and the children
    if adults is None:
        people = _first(_PEOPLE, text)
        if people is not None:
            little = (children or 0) + (infants or 0)
            if _PLUS_AFTER.match(text[_last_end(_PEOPLE, text) :]):
                little = 0  # "2 of us + a 5 yr old": the child comes on top
            adults = max(1, people - little) if little and people > little else people
            group = _GROUP_OF.search(text)
            if group and _BARE_AFTER_ME.search(text[: group.start()] + " "):
                adults += 1  # "me and a group of 5 coworkers": the writer and the five
    low = text.lower()
    if (
        infants is None
        and ("lap" in low or "baby" in low or "infant" in low or "newborn" in low)
        and _LAP_BABY.search(text)
    ):
        infants = 1  # "2 of us + baby on lap", "and a lap infant"
    if adults is None and _A_COUPLE.search(text):
        adults = 2
    if adults is None and _SELF_PLUS.search(text):
        adults = 1 + (to_int(_SELF_PLUS.search(text).group("n")) or 0)
    if adults is None and not companions and _OUR_ANNIVERSARY.search(text):
        adults = 2  # "for our 10th anniversary", "... bringing the kids": the couple (told so: ``couple_trip``)
    if adults is None and (companions or kids):
        self_counted = 0 if _INCLUDING_ME.search(text) or not (_SELF.search(text) or _WITH.search(text)) else 1
        if joining:
            self_counted = 0  # "i need to add my daughter (5)": the ones already going stay as they are
        elif _BOOKING_FOR.search(text) and not _SELF_GOES.search(text):
            self_counted = 0  # "I need to book travel for our VP": the writer books, the VP flies
        elif ("not" in low or "n't" in low or "out" in low) and _NOT_ME.search(text):
            self_counted = 0  # "for my parents (not me)", "I'm not going": the writer stays home
        elif (" us" in low or " me" in low) and _HOSTS.search(text):
            self_counted = 0  # "my parents are flying in to see us": the writer is there already
        adults = (self_counted + companions) or None  # "add a kid": the grown-ups stay as they are
    if (
        adults is None
        and (children or infants)
        and (_WITH.search(text) or _SELF_WITH.search(text))
        and _SELF.search(text)
        and not joining
    ):
        adults = 1 + companions  # "I'm traveling with my 2 year old": the writer and the child
    if adults is None and " with " in low and _I_GO_WITH.search(text):
        adults = 1  # "i'll fly with him": the writer goes with the child
    if adults is None and ("him" in low or "her" in low) and _ME_AND_ONE.search(text):
        adults = 2  # "me and him", "her and i"
    if adults is None and (_SOLO.search(text) or _LONE_ME.search(text)):
        adults = 1
    if adults is None and not (children or infants or companions or kids) and _COUPLE_TRIP.search(text):
        adults = 2  # "honeymoon in st lucia": the two of them (and told so: ``couple_trip``)
    adults = _their_couple_trip(text, adults)  # "my parents' 40th": the two of them
    if unaccompanied(text):
        # "my son (10) flies alone": a child travelling without a grown-up, no one else; "my 16-year-old
        # flies by herself": from 15 airlines let them fly as passengers of their own
        young = max(children or 0, len(ages), 1)
        if flies_alone(ages, young, infants):
            adults, children, ages = young, 0, []
        else:
            adults, children = 0, young
    return {
        "adults": adults,
        "children": children,
        "infants": infants,
        "child_ages": ages or None,
        "rooms": _rooms(text, adults) if "room" in low or "rm" in low or "shar" in low else None,
    }


# A child who travels without a grown-up: "my son (10) will fly alone", "she flies by herself",
# "unaccompanied minor" (not "flying alone with my son", nor "me and my daughter, on our own")
_ALONE = re.compile(
    r"\b(?:fly|flying|flies|flown|travel(?:l?ing|s)?|go(?:ing|es)?|be)\s+(?:all\s+)?(?:alone|by\s+(?:him|her|them)sel(?:f|ves)"
    r"|on\s+(?:his|her|their)\s+own|solo|unaccompanied)\b(?!\s+with\b)|\bunaccompanied\s+minors?\b|\bas\s+an?\s+(?:um|unaccompanied)\b",
    re.I,
)
_CHILD_SAID = re.compile(
    rf"\b(?:my|our|his|her|the)\s+(?:{_AGE_ADJECTIVE}(?:{_CHILD_KIN})?|(?:{_CHILD_KIN}))\b|\bunaccompanied\s+minors?\b",
    re.I,
)
_GROWN_UP_GOES = re.compile(
    r"\b(?:me\s+and|and\s+(?:i|me)\b|with\s+(?:me|us)\b|i'?m\s+(?:flying|travell?ing|going)|we\b|we'(?:re|ll)|(?:i|we)\s+(?:will|'ll)\s+(?:fly|go|travel))",
    re.I,
)


def unaccompanied(text: str) -> bool:
    """A child named travels alone, with no grown-up going: the airline's unaccompanied-minor service."""
    low = text.lower()
    if not any(w in low for w in ("alone", "solo", "unaccompanied", "sel", " own", " um")):
        return False
    return bool(_ALONE.search(text) and _CHILD_SAID.search(text) and not _GROWN_UP_GOES.search(text))


UNACCOMPANIED = (
    "A child flying alone travels as an unaccompanied minor: airlines require that service from 5 to 14 and book it "
    "themselves, for a fee, and I can't add it here; say if a grown-up is flying with them"
)
# The ages airlines let fly alone: under 5 never; from 15 as a passenger of their own (the unaccompanied-minor
# service optional); in between only with that service.
UM_FROM_AGE, ALONE_FROM_AGE = 5, 15


def flies_alone(ages: List[int], young: int, infants: Optional[int]) -> bool:
    """Whether the ``young`` people said to fly alone are all of an age to fly as passengers of their own."""
    return not infants and len(ages) == young and min(ages) >= ALONE_FROM_AGE


# A child already going, named in a question about them: "does the baby need a seat?", "how much is it
# for the toddler", "can my 1 year old sit on my lap?"; and the seat the question is about
_CHILD_ASKED_ABOUT = re.compile(
    rf"\b(?:the|my|our|his|her)\s+(?:{_KIN_ADJECTIVES}\s+)?(?:{_CHILD_KIN})\b"
    r"|\b(?:a|its|his|her|their|own)\s+(?:own\s+)?seats?\b(?:\s+of\s+(?:its|his|her|their)\s+own)?",
    re.I,
)


def asks_about_those_going(text: str, current: Dict[str, Any]) -> bool:
    """A question about a child already on the trip ("does the baby need a seat?"), which says nothing of
    who travels (not "can my mom come too?", "what if we bring the kids?", "what if we add a baby?")."""
    going = (current.get("party") or {}).get("travelers") or {}
    if not (going.get("children") or going.get("infants")) or not is_question(text) or adding(text):
        return False
    if not _CHILD_ASKED_ABOUT.search(text) or re.search(r"\b(?:bring|take|add|come|join)", text, re.I):
        return False
    rest = _CHILD_ASKED_ABOUT.sub(lambda m: " " * len(m.group(0)), text)
    return all(v is None for k, v in read_party(rest).items() if k != "rooms")


# What the notice says, to know it later: the writer who then flies along comes on top of them
ALONE_WORDS = "airlines let 15 to 17-year-olds fly alone"


def writer_goes_along(text: str, current: Dict[str, Any]) -> bool:
    """ "actually i'll fly with her" on a trip whose young traveller was counted as flying alone."""
    notes = (current.get("status") or {}).get("assumptions") or []
    return any(ALONE_WORDS in str(a) for a in notes) and bool(_I_GO_WITH.search(text))


def alone_notice(text: str) -> Optional[str]:
    """What the traveller is told when the young people a text names fly alone from 15: counted as
    passengers of their own ("your 16-year-old"), the airline's service theirs to ask for."""
    if not unaccompanied(text):
        return None
    ages = _ages(visited_masked(_form_counts(text)))[0]
    if not ages or not flies_alone(ages, len(ages), None):
        return None
    who = f"your {ages[0]}-year-old" if len(ages) == 1 else f"your {len(ages)} teenagers"
    return (
        f"Counted {who} as {'a passenger' if len(ages) == 1 else 'passengers'} of their own: {ALONE_WORDS} "
        "(some offer their unaccompanied-minor service on request, booked with the airline); say if a grown-up "
        "is flying with them"
    )


# A room of the children's own besides the grown-ups': "a separate room for the kids"
_KIDS_ROOM = re.compile(
    r"\b(?:separate|second|another|extra|own|other)\s+room\s+for\s+(?:the\s+|our\s+|my\s+)?(?:kids|children|teens|boys|girls)\b"
    r"|\b(?:kids|children)\s+(?:in|get|have)\s+(?:a\s+|their\s+own\s+)?(?:separate|own|second)\s+room\b",
    re.I,
)


# Rooms said another way than "2 rooms": "rooms: 3", "2 rms", "a room for us and one for the kids",
# "separate rooms for me and my colleague", "each couple gets their own room"
_ROOMS_FORM = re.compile(r"\brooms?\s*[:=]\s*(?P<n>[1-9])\b|(?<!\ba\s)\b(?P<m>[1-9])\s*rms?\b", re.I)
_ROOM_AND_ANOTHER = re.compile(
    r"\broom\s+for\s+[^,.;!?]{1,40}?\s+(?:and|\+|&)\s+(?:one|another|a\s+(?:second|2nd|separate)(?:\s+room)?)\s+for\b",
    re.I,
)
_ROOM_EACH = re.compile(
    r"\b(?:separate|individual)\s+rooms\b|\brooms?\s+each\b(?!\s+(?:nights?|days?|weeks?|way|time))|\b(?:our|their)\s+own\s+rooms\b"
    r"|\beach\s+(?P<couple>couple\s+)?(?:\w+\s+)?(?:gets?|needs?|wants?|with|in|has)\s+(?:a|an|their|his|her)\s+(?:own\s+)?room\b",
    re.I,
)


# One room for the party: "we'll share a room", "we can share", "sharing a room is fine", "same room"
_SHARE_ROOM = re.compile(
    r"\b(?:share|sharing)\s+(?:a|one|the)\s+room\b|\bsame\s+room\b"
    r"|\bwe(?:'?ll|\s+will|\s+can|\s+could|\s+would|\s+don'?t\s+mind)\s+(?:to\s+)?shar(?:e|ing)\b(?!\s+(?:a\s+|the\s+)?(?:car|cab|ride|taxi|uber))",
    re.I,
)


def _rooms(text: str, adults: Optional[int]) -> Optional[int]:
    """How many rooms the text asks for, or None."""
    said = _first(_ROOMS, text) or _first(_ROOMS_FORM, text)
    if said:
        return said
    if _KIDS_ROOM.search(text) or _ROOM_AND_ANOTHER.search(text):
        return 2
    if _SHARE_ROOM.search(text):
        return 1  # "we'll share a room" (colleagues were given a room each)
    each = _ROOM_EACH.search(text)
    if each and adults and adults > 1:
        return adults // 2 if each.group("couple") else adults  # "separate rooms for the 3 of us": 3
    return None


def _ages(text: str) -> Tuple[List[int], List[int], List[int]]:
    """(children's ages, 2 to 17; infants' ages in years, under 2; grown-ups' ages, 18 and over) as the text gives them."""
    ages: List[int] = []
    infants: List[int] = []
    grown: List[int] = []
    for m in _AGES.finditer(text):
        if m.group("months"):
            months = int(m.group("months"))
            (infants if months < 24 else ages).append(months // 12)
            continue
        raw = m.group("list") or m.group("paren") or m.group("pron") or m.group("who") or m.group("kin") or ""
        raw = raw or m.group("kid_is") or ""
        raw = raw or m.group("one") or ""
        if m.group("paren") and not _CHILD_NEAR.search(text[max(0, m.start() - 40) : m.start()]):
            continue  # "(7 and 10)" are ages only after children were named
        for number, months in re.findall(r"(\d+)\s*(months?|mos?)?", raw):
            age = int(number) // 12 if months else int(number)
            if age < 2:
                infants.append(age)
            elif age < 18:
                ages.append(age)
            else:
                grown.append(age)
    for m in _MULTIPLE_AGE.finditer(text):  # "our twins (6)", "my 15 yo twins": one age for both
        age = int(m.group("age") or m.group("age_before"))
        if 2 <= age < 18:  # "our twins (6)", "the twins are 4", "twins, both 8", "12 year old twins"
            kind = (m.group("kind") or m.group("kind_before")).lower()
            ages.extend([age] * (_MULTIPLES[kind] - ages.count(age)))
    return ages, infants, grown


_MULTIPLE_AGE = re.compile(
    r"\b(?P<kind>twins|triplets)\s*(?:\(\s*|,\s*|who\s+are\s+|are\s+|aged?\s+)(?:(?:they|both)(?:['’]re|\s+are)?\s+|theyre\s+)?"
    r"(?P<age>\d{1,2})\b(?!\s*(?:,|and|&)\s*\d)"
    r"|\b(?P<age_before>\d{1,2})[- ]?(?:years?|yrs?|yr|y/?o)(?:[- ]olds?)?\s+(?P<kind_before>twins|triplets)\b",
    re.I,
)
# One age said for all the children counted: "2 kids both 10", "3 kids, all 8" (not "all 4 of us")
_SAME_AGE = re.compile(
    r"\b(?:both|all(?:\s+of\s+them)?)\s*(?:are\s+|aged?\s+)?(?P<age>\d{1,2})\b"
    r"(?!\s*(?:of\b|months?|mos?|nights?|days?|weeks?|rooms?|stars?|adults?|people|persons?|pax|[/:\d]|-\s*\d|%|am\b|pm\b))",
    re.I,
)


def same_age_for_all(ages: List[int], children: Optional[int], text: str) -> List[int]:
    """The ages with one age said for every child counted ("2 kids both 10": [10, 10])."""
    said = _SAME_AGE.search(text) if (children or 0) >= 2 and len(set(ages)) <= 1 else None
    age = int(said.group("age")) if said else 0
    return [age] * (children or 0) if 2 <= age < 18 and (not ages or ages[0] == age) else ages


# Someone the trip is for seeing, not someone travelling along: "to visit a friend", "meeting my colleague".
_VISITED = re.compile(
    r"\b(?:visit(?:ing)?|see(?:ing)?|meet(?:ing)?|surprise|stay(?:ing)?\s+with|staying\s+at"
    # someone asked, not someone travelling: "checking with my boss", "run it by my wife", "clear it with my manager"
    r"|(?:check(?:ing)?|confirm(?:ing)?|talk(?:ing)?|speak(?:ing)?|consult(?:ing)?|(?:discuss(?:ing)?|clear(?:ing)?|ok(?:ing)?)\s+(?:it|this|that)"
    r"|run(?:ning)?\s+(?:it|this|that)\s+(?:past|by))(?:\s+(?:it|this|that))?(?:\s+(?:with|to|by))?)\s+(?:(?:my|our|a|an|some|his|her)\s+)?$",
    re.I,
)
_KIN_WORD = rf"(?:{_KIN_ADJECTIVES}\s+)?(?:{_ADULT_KIN}|{_PAIR_KIN}|{_CHILD_KIN})s?"
# The people the writer goes to see: "visiting my parents", "to see my mom and dad", "staying with my sister"
_VISITED_PEOPLE = re.compile(
    rf"\b(?:visit(?:ing)?|see(?:ing)?|surprise|stay(?:ing)?\s+with|(?:spend|spending)\s+(?:\w+\s+){{1,2}}with)\s+my\s+"
    rf"{_KIN_WORD}\b(?:\s*(?:,|and|&|\+|n)\s*(?:(?:my|our|his|her|their)\s+)?{_KIN_WORD}\b)*",
    re.I,
)


# Children named without a count: "me and the kids", "with our kids" (not "2 kids", "the kids (5, 9)")
_UNCOUNTED_KIDS = re.compile(
    r"\b(?:the|my|our)\s+(?:kids|children|little\s+ones|grandkids|grandchildren|teens|teenagers)\b(?!\s*[(:,]?\s*\d)",
    re.I,
)


def children_as_before(text: str, current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "it'll just be me and the kids" on a trip with 2 children: the same children, not one."""
    going = ((current.get("party") or {}).get("travelers") or {}).get("children") or 0
    said = fields.get("children")
    if said is not None and going > said and not fields.get("child_ages") and _UNCOUNTED_KIDS.search(text):
        if _count(_CHILDREN, text) is None:
            fields["children"] = None


_HOME_KIN = r"(?:kids?|children|child|sons?|daughters?|boys?|girls?|baby|little\s+ones?|toddler|teens?|teenagers?)"
# Children who no longer come: "the kid is staying with grandma", "the kids can't come", "without the kids"
_STAY_HOME = re.compile(
    rf"\b(?:the|my|our)\s+{_HOME_KIN}\s+(?:is|are|'s|'re|will\s+be|will)\s+(?:not\s+(?:coming|going|travell?ing|flying)\b"
    rf"|stay(?:ing)?\s+(?:home|back|behind|with)\b)|\b(?:the|my|our)\s+{_HOME_KIN}\s+(?:can'?t|cannot|won'?t|will\s+not|aren'?t|isn'?t)\s+"
    rf"(?:come|coming|make\s+it|go|going|join)\b|\b(?:without|leaving)\s+(?:the|my|our)\s+{_HOME_KIN}\b",
    re.I,
)


def children_stay_home(text: str, current: Dict[str, Any], fields: Dict[str, Any]) -> None:
    """ "the kid is staying with grandma, so just us two": no children go any more (all of them, when
    the trip had one or the words name them all)."""
    going = ((current.get("party") or {}).get("travelers") or {}).get("children") or 0
    m = _STAY_HOME.search(text)
    if not going or not m:
        return
    said = re.search(_HOME_KIN, m.group(0), re.I)
    if going == 1 or (said and re.search(r"s$|children", said.group(0), re.I)):
        fields["children"], fields["child_ages"] = 0, None


# An adult who no longer comes: "one less person", "one fewer traveller", "minus one", "drop one adult",
# "mike can't make it", "my colleague dropped out", "she's not coming anymore" (children: ``_STAY_HOME``).
_LESS = re.compile(
    rf"\b(?P<n>{NUMBER_RE})\s+(?:less|fewer)(?:\s+(?:adults?|people|persons?|travell?ers?|passengers?|guests?|seats?|tickets?|of\s+us))?\b"
    rf"|\b(?:minus|drop|remove|take\s+off|take\s+out)\s+(?P<m>{NUMBER_RE})(?:\s+(?:adults?|people|persons?|travell?ers?|passengers?|guests?|seats?|tickets?))?\b",
    re.I,
)
_ADULT_OUT = re.compile(
    rf"\b(?:(?:my|our|the)\s+(?:{_KIN_ADJECTIVES}\s+)?(?:{_ADULT_KIN})|he|she"
    r"|(?!(?:we|you|they|it|that|this|these|those|which|who|what|there|flights?|hotels?|trips?|rooms?|planes?|options?"
    r"|ones?|bundles?|cars?|meetings?|events?|plans?|dates?|days?|time|budget|price|nonstop|direct)\b)"
    rf"(?!(?:{_CHILD_KIN})\b)[a-z]{{2,}})(?:\s+|(?=['’]s\s))"
    r"(?:(?:can'?t|cant|cannot|won'?t|wont|will\s+not|is\s+not|isn'?t|isnt|'s\s+not|s\s+not|is\s+no\s+longer|['’]s\s+no\s+longer|['’]s\s+not)\s+"
    r"(?:make\s+it|come|coming|go|going(?!\s+to\s+(?:be|pay|work|like|approve|happen|cost|let|allow|want|need|have|do|make|get|take)\b)"
    r"|join(?:ing)?(?:\s+us)?|travel(?:l?ing)?|fly(?:ing)?)"
    r"|(?:dropped|backed|pulled|is|['’]s)\s+out|bailed|cancell?ed(?:\s+on\s+(?:us|me))?)\b",
    re.I,
)


def adults_leaving(text: str, going: int) -> Optional[int]:
    """How many adults go once those the message says no longer come have left, or None ("one less
    person" on a trip of 3 adults: 2; never fewer than one)."""
    if going < 2:
        return None
    m = _LESS.search(text)
    n = to_int(m.group("n") or m.group("m")) if m else (1 if _ADULT_OUT.search(text) else None)
    if not n or n >= going:
        return None
    return going - n


# The people who live where the writer goes, and those the writer stays with: "my family is in tulsa",
# "my parents live in Omaha", "staying with her" (they are not travelling)
_LIVING_THERE = re.compile(
    rf"\b(?:my|our)\s+(?:(?:whole|entire|extended)\s+)?(?:family|{_KIN_WORD})\s+(?:is|are|'s|'re|lives?|still\s+lives?)\s+"
    r"(?:(?:still|all|now|out|down|up|back|over)\s+)*in\b|\b(?:stay(?:ing)?\s+with|visit(?:ing)?|see(?:ing)?|surprise)\s+(?:him|her|them)\b",
    re.I,
)


def visited_masked(text: str) -> str:
    """The text without the people the writer visits ("visiting my parents") or who live where the writer
    goes ("my family is in tulsa"): they are not travelling."""
    low = text.lower()
    if any(w in low for w in ("visit", "see", "surprise", "stay", "spend")):
        text = _VISITED_PEOPLE.sub(lambda m: " " * len(m.group(0)), text)
    if " in " in low or any(w in low for w in (" him", " her", " them")):
        text = _LIVING_THERE.sub(lambda m: " " * len(m.group(0)), text)
    return text


_BARE_AFTER_ME = re.compile(  # (or typed without a word between: "me wife and 2 kids", "me/wife/son")
    r"\b(?:me|i|myself)(?:\s*(?:\+|&|,|and|plus|n|w/?|with|/)\s*|\s+)(?:a\s+|an\s+|my\s+|our\s+)?$|\b(?:my|our)\s+(?:family|group|party|crew)\s*[(:]\s*$",
    re.I,
)
_CHILD_NEAR = re.compile(rf"\b(?:{_CHILD_KIN}|kids?)\b[^()]*$", re.I)


# How far around a person named the words that say who travels are read: a message's own list ("grandma
# (72), me and my two girls") fits, and a message of thousands of names costs each name the same.
_AROUND = 200


def _before(text: str, m: Any) -> str:
    return text[max(0, m.start() - _AROUND) : m.start()]


def _after(text: str, m: Any) -> str:
    return text[m.end() : m.end() + _AROUND]


def _companions(text: str) -> Tuple[int, int]:
    """(adults travelling with the writer, children) from "my wife and her parents", "two friends",
    "her two boys"; "1 adult" and the like are counted elsewhere."""
    adults = kids = 0
    last_end = -1  # where the last person counted ends: "my mom and dad", "my wife, son and daughter"
    multiples: set = set()  # "me my wife and the twins, the twins are 4": the same twins
    for m in _COMPANION.finditer(text):
        n = to_int(m.group("n")) if m.group("n") else None
        if (m.group("n") and n is None) or (
            text[m.end() : m.end() + 2] in ("'s", "s'") and not _IS_JOINING.match(_after(text, m))
        ):
            continue  # "a friend's wedding": not someone travelling (but "my mate's joining us" is "my mate is")
        word = (m.group("adult") or m.group("pair") or m.group("child") or "").lower()
        if (m.group("n") or "").lower() in ("a", "an") and word.endswith("s") and word not in _MULTIPLES:
            continue  # "a girls weekend", "a boys trip": a kind of trip, not a count
        possessed = re.match(r"(?:my|our|his|her|their|the)\b", m.group(0), re.I)
        child = (m.group("child") or "").lower()
        # "kids" with no number says no count; "son", "dad", "parents" do
        countable = n is not None or not child or child in _MULTIPLES or not re.search(r"s$|children", child)
        listed = countable and last_end >= 0 and bool(_LISTED.fullmatch(text[last_end : m.start()]))
        # "mom and dad need flights", "grandma and grandpa": two kin opening the message or a clause
        with_me = bool(_LIST_TO_ME.match(_after(text, m)))
        pair_opens = (
            countable
            and bool(_CLAUSE_START.search(_before(text, m)))
            and (with_me or (not child and bool(_KIN_AFTER.match(_after(text, m)))))
        )
        bare_kin = not child and bool(_WITH_BARE.search(_before(text, m))) and bool(re.fullmatch(_BARE_KIN, word, re.I))
        if not (possessed or n is not None or listed or pair_opens or bare_kin) and not (
            m.group("adult") and _BARE_AFTER_ME.search(_before(text, m))
        ):
            continue  # "a friend", "wife" alone; but "me+wife", "me, wife and 2 kids" say who travels
        before = text[max(0, m.start() - 30) : m.start()]
        joined = (
            listed
            or (with_me and countable)
            or (n is not None and n > 1 and bool(_CLAUSE_START.search(_before(text, m))))  # "2 grandparents and ..."
            or bool(_ME_BEFORE.search(_before(text, m)))
            or _JOINED_BEFORE.search(before[-14:])
            or _JOINED_AFTER.match(_after(text, m))
            or (not child and _KIN_AFTER.match(_after(text, m)))
            or _FOR_OTHERS.search(before)
            or (not child and _FLOWN.search(before))
            or _JOINS_AFTER.match(_after(text, m))
        )
        if not joined or _VISITED.search(text[max(0, m.start() - 30) : m.start()]):
            continue  # "visit a friend", "in my cousin house": not someone travelling along
        last_end = m.end()
        if child in _MULTIPLES and n is None:
            if child in multiples:
                continue
            multiples.add(child)
        if m.group("pair"):
            adults += n or 2  # "my parents": two; "2 parents", "4 grandparents": as many as said
        elif m.group("adult") or _GROWN_CHILD.search(m.group(0)) or (child and _HAS_KIDS.match(_after(text, m))):
            adults += n or 1
        else:
            kids += n or _MULTIPLES.get(m.group("child").lower(), 1)
    return adults, kids


# The writer named right before, with no word between: "me my wife and the twins"
_ME_BEFORE = re.compile(r"(?:^|[,;:.!?]\s*)me\s+$", re.I)
# A son or daughter with children of their own is a grown-up: "my daughter and her 2 kids"
_HAS_KIDS = re.compile(
    rf"^\s*(?:and|&|\+|n|with|w/)\s*(?:her|his|their)\s+(?:{NUMBER_RE}\s+)?(?:{_KIN_ADJECTIVES}\s+)?(?:{_CHILD_KIN})\b",
    re.I,
)
_IS_JOINING = re.compile(r"'s\s+(?:also\s+)?(?:com(?:e|ing)|join(?:ing)?|tag(?:ging)?\s+along)\b", re.I)
# The party's size said as a total ("so 3 of us", "that makes 4", "5 in total", "we're 3 now"): a
# number that replaces the count, where "add 2 adults" or "2 more" comes on top of it
TOTAL_SAID = re.compile(
    rf"\b(?P<t1>{NUMBER_RE})\s+of\s+us\b|\b(?:in\s+total|total|altogether|all\s+together|in\s+all)\b"
    rf"|\b(?:so|now|makes?|making)\s+(?:it\s+|that\s+|us\s+)?(?P<t2>{NUMBER_RE})\b(?!\s*(?:more|nights?|days?|stars?)\b)"
    rf"|\b(?P<t3>{NUMBER_RE})\s+(?:(?:people|persons|travell?ers|passengers|adults|pax)\s+)?now\b",
    re.I,
)


def total_said(text: str) -> Tuple[bool, Optional[int]]:
    """Whether the text gives the party's size as a total, and the number if it names one."""
    m = TOTAL_SAID.search(text)
    if not m:
        return False, None
    return True, to_int(m.group("t1") or m.group("t2") or m.group("t3") or "")


# Between two people in one list ("my mom and dad", "my wife, son and daughter", typed without commas:
# "mom dad", "wife/son"): the second is the writer's too.
_LISTED = re.compile(
    r"\s*(?:\(\s*\d{1,2}[^()]{0,12}\)\s*)?(?:,\s*(?:and\s+)?|and\s+|&\s*|\+\s*|n\s+|/\s*|(?<=[\s)]))", re.I
)  # "(10) + grandma"
_CLAUSE_START = re.compile(r"(?:^|[.!?;:,]\s*)(?:just\s+|only\s+)?$", re.I)
# Another grown-up named right after, in the same list: "mom and dad", "my grandma & my grandpa"
# (not "my wife and kids": whether the writer comes too is asked)
_KIN_AFTER = re.compile(
    rf"^\s*(?:(?:and|&|\+|n|/)\s*)?(?<=[\s&+/])(?:(?:my|our)\s+)?(?:{_KIN_ADJECTIVES}\s+)?(?:{_ADULT_KIN}|{_PAIR_KIN})s?\b",
    re.I,
)
_ANY_KIN = rf"(?:(?:my|our|his|her|their)\s+)?(?:{_KIN_ADJECTIVES}\s+)?(?:{_ADULT_KIN}|{_PAIR_KIN}|{_CHILD_KIN})s?"
# A list of people that ends with the writer: "mom, dad and me", "my son and daughter and i"
_LIST_TO_ME = re.compile(
    # (the list read once, never tried again word by word: "mom dad mom dad ..." is no slower than its length)
    rf"^(?:\s*\(\d{{1,3}}\))?(?:\s*(?:,|and|&|/)?\s*{_ANY_KIN}\b(?:\s*\(\d{{1,3}}\))?)*+\s*"
    # "... and me", or the writer in the middle of the list: "grandma (72), me and my two girls"
    r"(?:(?:,\s*)?(?:and|&|\+)\s*(?:i|me|myself)\b|,\s*(?:me|myself)\s*(?:,|and\b|&|\+))",
    re.I,
)


# A trip that is a couple's by its kind: "our honeymoon", "babymoon", "anniversary trip"
_COUPLE_TRIP = re.compile(
    r"\b(?:honeymoon|babymoon|anniversary\s+(?:trip|getaway|weekend)|romantic\s+(?:getaway|trip|weekend)"
    r"|couples?\s+(?:trip|getaway|retreat))\b"
    r"|(?<=\bour\s)(?:\d+(?:st|nd|rd|th)\s+)?(?:wedding\s+)?anniversary\b",  # not "my parents' anniversary"
    re.I,
)
# A couple's trip that is someone else's: "my parents' 40th anniversary trip", "my in-laws' trip to rome":
# the two of them travel (the writer only when the text says so: then it asks). Their occasion without a
# trip ("for my parents' 40th anniversary party") may be one the writer flies to: asked.
_THEIR_COUPLE_TRIP = re.compile(
    rf"\b(?:my|our|his|her)\s+(?:{_PAIR_KIN})(?:['’]s?)?\s+(?:\d+(?:st|nd|rd|th)\s+)?(?:wedding\s+)?(?:anniversary\s+)?"
    r"(?:big\s+|dream\s+|first\s+)?(?:trip|getaway|vacation|holiday|cruise|honeymoon)\b",
    re.I,
)


def _their_couple_trip(text: str, adults: Optional[int]) -> Optional[int]:
    """Two for "my parents' anniversary trip" when nothing else counted who travels and the writer is not said to go."""
    if adults is not None or not _THEIR_COUPLE_TRIP.search(text) or _SELF_GOES.search(text):
        return adults
    return 2


def their_trip(text: str) -> Optional[str]:
    """What the traveller is told when two were counted for someone else's couple trip ("my parents' 40th")."""
    m = _THEIR_COUPLE_TRIP.search(text)
    if not m or read_party(text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :])["adults"] is not None:
        return None
    said = re.sub(r"^(?:my|our)\b", "your", " ".join(m.group(0).split()), flags=re.I)
    return f"Counted 2 travellers for {said}, you not among them; say if you're going too"


# A trip given to someone: "surprise my mom and dad with a trip to vegas", "treating my parents to a
# cruise", "sending my folks on a getaway": they travel, as if booked for them (not "surprise my sister
# in denver": she is visited)
_GIFT = re.compile(
    r"\b(?:surpris(?:e|ing)|treat(?:ing)?|gift(?:ing)?|send(?:ing)?)\s+(?=(?:my|our)\s+[^.,;!?]{2,40}?\s+(?:with|to|on)\s+"
    r"(?:a|an|some|the)\s+(?:\w+\s+)?(?:trip|getaway|vacation|holiday|cruise|flights?|tickets?|weekend|week)\b)",
    re.I,
)


def _gifted(text: str) -> str:
    """The text with a trip given to someone said as booked for them ("booking for my mom and dad ...")."""
    return _GIFT.sub("booking for ", text)


_OUR_ANNIVERSARY = re.compile(r"\bour\s+(?:\d+(?:st|nd|rd|th)\s+)?(?:wedding\s+)?anniversary\b", re.I)


def couple_trip(text: str) -> Optional[str]:
    """The words that made two travellers of a couple's trip ("honeymoon"), when nothing else counted them."""
    m = _COUPLE_TRIP.search(text)
    rest = read_party(text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]) if m else {}
    if not m or rest["adults"] not in (None, 1 if rest["children"] else None):  # (1: the writer "bringing the kids")
        return None
    return m.group(0) if read_party(text)["adults"] == 2 else None


_FAMILY_OF = re.compile(rf"\bfamily\s+of\s+(?P<n>{NUMBER_RE})\b", re.I)


def family_unsplit(text: str) -> Optional[int]:
    """ "family of 5" and nothing said of who is a child: the size, which counts as that many grown-ups
    until the traveller says otherwise (and is told so)."""
    m = _FAMILY_OF.search(text)
    party = read_party(text) if m else {}
    if not m or party.get("children") or party.get("infants") or party.get("child_ages"):
        return None
    n = to_int(m.group("n"))
    return n if n and n > 2 and party.get("adults") == n else None


_GROUP_OF = re.compile(rf"\b(?:a|an|my|our)\s+(?:group|party|team)\s+of\s+{NUMBER_RE}\b", re.I)
_LAP_BABY = re.compile(
    r"\blap\s+(?:infant|baby|child)\b|\b(?:baby|infant)\s+(?:on|in)\s+(?:my\s+|her\s+|his\s+|our\s+|a\s+)?lap\b"
    r"|(?:\+|\bplus|\band\s+a|\bwith\s+a)\s*(?:baby|infant|newborn)\b",
    re.I,
)
# Someone added on top of a count of people: "2 of us + a 5 yr old", "4 people plus our baby"
_PLUS_AFTER = re.compile(r"\s*(?:\+|plus\b|&|and\s+(?:a|an|one|our|my)\b|with\s+(?:a|an|one|our|my)\b)", re.I)
# A couple travelling: "a couple, nyc to paris", "we're a couple" (not "a couple of days")
_A_COUPLE = re.compile(
    r"(?:^|[,;:.!]\s*|\bwe(?:'re|\s+are)\s+|\bfor\s+)(?:a|one)\s+couple\b(?!\s+(?:of|more|nights?|days?|weeks?|hours?))"
    # "couple + toddler", "married couple w/ 2 kids": a couple opening the message with others joined on
    r"|(?:^|[,;:.!]\s*)(?:(?:married|young|retired|older|senior)\s+)?couple\s*(?:\+|&|and\b|with\b|w/|plus\b)",
    re.I,
)


def _last_end(pattern: re.Pattern[str], text: str) -> int:
    return max((m.end() for m in pattern.finditer(text)), default=len(text))


def _first(pattern: re.Pattern[str], text: str) -> Optional[int]:
    """The last number the text gives for this pattern (people correct themselves: "2, no 3 rooms")."""
    value = None
    for m in pattern.finditer(text):
        n = to_int(next((v for v in m.groupdict().values() if v), None))
        if n is not None and 0 < n <= 20:
            value = n
    return value


# Children named by who they are, for asking their ages: "my nephew", "our son and daughter" (not "the kids")
_GENERIC_CHILD = re.compile(
    r"(?:kids?|children|child|little\s+ones?|babies|baby|infants?|newborn|toddlers?|\d.*)$", re.I
)
_OWNER = {"my": "your", "our": "your", "his": "his", "her": "her", "their": "their", "the": "the"}


def children_named(text: str, going: int) -> Optional[str]:
    """The children a message names, as a question can name them ("your nephew", "your son and
    daughter"), when the words name every one of the ``going`` children; else None."""
    named: List[str] = []
    count, last, last_end = 0, "", -1
    text = visited_masked(text)
    for m in _COMPANION.finditer(text):
        child = m.group("child")
        said = re.match(r"(my|our|his|her|their|the)\b", m.group(0), re.I)
        # "my son and daughter": the daughter is the writer's too
        listed = last and last_end >= 0 and _LISTED.fullmatch(text[last_end : m.start()])
        owner = _OWNER[said.group(1).lower()] if said else (last if listed else "")
        if not child or not owner or _GENERIC_CHILD.match(child):
            continue
        n = to_int(m.group("n")) if m.group("n") else None
        count += n or _MULTIPLES.get(child.lower(), 1)
        named.append(f"{owner} {child.lower()}")
        last, last_end = owner, m.end()
    if not named or count != going:
        return None
    return " and ".join(dict.fromkeys(named))


def ages_question(named: str, going: int) -> str:
    """ "How old is your nephew?", "How old are your son and daughter?" """
    return f"How old {'is' if going == 1 else 'are'} {named}?"
