"""Router: chat text → event, deterministic and strict (DESIGN.md "Conversation rules").

Only short, command-like texts become commands; everything else is a ``USER_MESSAGE`` for
the extractor. A bundle is only ever one of those on screen; "hold" is a command but "hold
on" is not; and no text can purchase: purchase-like texts stay ``USER_MESSAGE`` flagged
``purchase_text_refused`` (the Reducer refuses, the Runner audits). Token-looking strings are
redacted before the text goes anywhere.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from .common.carriers import AIRLINE_NAMES, AIRLINES
from .common.question_form import is_question
from .common.redact import contains_token_like, redact_text
from .common.shape import clock_text, leg_departure
from .common.types import EVENT_TYPES, fail, guarded, ok
from .extract.party import read_party
from .extract.prefs import read_airlines, read_preferences, read_relax, unsearchable_hotel_features
from .quotes import items as quote_items
from .trip_read import travellers

# Texts longer than this are never commands (a pasted page is a message, not "hold").
COMMAND_MAX_CHARS = 80

_POLITE = r"(?:(?:ok(?:ay)?|yes|yep|yeah|yup|great|perfect|sure|cool|alright)[,!.]?\s+)?(?:please\s+)?"
_TAIL = r"(?:\s+for\s+(?:me|us))?(?:\s+(?:please|pls|plz))?[.!]*"

RETRY_RE = re.compile(rf"^{_POLITE}(?:try (?:it |that )?again|retry|try once more)(?: now)?{_TAIL}$")
HOLD_RE = re.compile(
    rf"^{_POLITE}(?:go ahead and |pls |just )?(?:hold|hold (?:it|this|that|them)|hold (?:this|that|the) (?:one|bundle|option|trip)|reserve"
    rf"|place (?:a |the )?holds?|put (?:it|this|that|them) on hold|(?:put|place) (?:a |the )?hold on (?:it|this|that|them)|reserve (?:it|this|that)|hold please"
    rf"|lock (?:it|this|that|them) in){_TAIL}$"
)
# A hold asked as a request or for a while: "can u put it on hold til tmrw", "could you hold this one
# for us until friday", "please hold it for 24 hours", "can we keep it on hold overnight", "can u put a
# hold on it", "hold onto it for a day or two", "hold it while i check with my wife". The time and the
# reason are the traveller's; the hold lasts as long as the supplier allows, and the reply says until when.
_HOLD_FOR = r"(?:\s+(?:until|till|til|thru|through|for|over)\s+[\w:]+(?:\s+[\w:]+){0,3}|\s+overnight)?"
HOLD_ASK_RE = re.compile(
    rf"^{_POLITE}(?:(?:can|could|would|will)\s+(?:you|u|we|i)\s+(?:please\s+|pls\s+|just\s+)?|please\s+|pls\s+"
    r"|(?:i|we)'?d\s+like\s+to\s+|let'?s\s+|go\s+ahead\s+and\s+)?"
    r"(?:hold\s+(?:on\s*to\s+|onto\s+)?(?:it|this|that|them)(?:\s+one)?(?:\s+on\s+hold)?|reserve\s+(?:it|this|that|them)(?:\s+one)?"
    r"|(?:put|keep|place)\s+(?:it|this|that|them)(?:\s+one)?\s+on\s+hold|(?:put|place)\s+(?:a\s+|the\s+)?hold\s+on\s+(?:it|this|that|them))"
    rf"(?:\s+for\s+(?:me|us))?{_HOLD_FOR}"
    r"(?:\s+for\s+(?:me|us))?(?:\s+(?:please|pls|plz))?"
    r"(?:\s*,?\s+(?:while|whilst|so|because|cause|cuz|as|till|until|til|for\s+now|tho|though|thanks|thx)\b[^?]{0,50})?\s*[?.!]*$"
)
# A hold asked as the approval it starts: "send it to my manager for approval", "B2 and submit it for
# sign-off", "get B3 approved", "request approval", "ask my boss to approve it". The hold is what puts
# an option before the approver; nothing here approves anything.
_APPROVER = r"(?:my|our|the)\s+(?:boss|manager|approver|supervisor|line\s+manager|travel\s+(?:manager|desk|team)|finance(?:\s+team)?)"
_FOR_APPROVAL = r"for\s+(?:(?:their|his|her|an?)\s+)?(?:approval|sign[- ]?off|ok|okay)"
APPROVAL_ASK_RE = re.compile(
    r"^(?:(?:ok(?:ay)?|yes|yeah|great|perfect|sure|cool|right|so)[,!.]?\s+)*(?:(?P<pick>.{1,40}?)(?:\s*(?:,|\band\b|&|\bthen\b|\+))+\s*)?"
    r"(?:(?:please|pls|can\s+you|could\s+you|would\s+you|let'?s|go\s+ahead\s+and|i'?d\s+like\s+to|i\s+want\s+to|we'?d\s+like\s+to)\s+)*"
    r"(?:(?:send|submit|forward|pass|put)\s+(?:(?P<what>b\d{1,2}|it|this|that|them|this\s+one|that\s+one|the\s+\w+(?:\s+one)?)\s+)?"
    rf"(?:(?:(?:up\s+|over\s+|through\s+)?to\s+{_APPROVER}(?:\s+{_FOR_APPROVAL})?)|{_FOR_APPROVAL})"
    r"|get\s+(?P<what2>b\d{1,2}|it|this|that|them|this\s+one|that\s+one|the\s+\w+(?:\s+one)?)\s+(?:approved|signed\s+off)"
    r"|request\s+(?:an?\s+)?approval(?:\s+(?:for|on)\s+(?P<what3>b\d{1,2}|it|this|that|them|the\s+\w+(?:\s+one)?))?"
    rf"|ask\s+{_APPROVER}\s+(?:to\s+(?:approve|sign\s+off(?:\s+on)?)(?:\s+(?P<what4>b\d{{1,2}}|it|this|that|them|the\s+\w+(?:\s+one)?))?|{_FOR_APPROVAL}))"
    r"(?:\s+(?:please|pls|now|for\s+(?:me|us)))*\s*[.!?]*$"
)
# "cancel the hold", "never mind, release them", "we'd like to drop the reservations": give held space back.
# "it"/"them" count only after cancel/release/drop, and only before anything is bought (``route_text``).
RELEASE_RE = re.compile(
    rf"^(?:(?:never ?mind|nvm|actually|no|nah|sorry|hmm+|change of plans?|scratch that|forget (?:it|that)|on second thought|(?:we|i)(?:'ve)? changed (?:our|my) minds?"
    rf"|changed (?:our|my) minds?)[,!.]?\s+)*{_POLITE}"
    r"(?:(?:can|could) you |(?:i|we) (?:want to |wanna |need to |would like to )|(?:i|we)'?d like to |let'?s |just )?"
    r"(?:(?:cancel|release|drop|remove|let go of|free up|give up|undo|scrap|ditch)\s+"
    r"(?:the |my |our |these |those |both |all (?:the |of (?:the |my |our |them))?)?"
    r"(?:holds?|reservations?|hold on (?:it|them|(?:the |these |those )?\w+)|reserved (?:flights?|rooms?|seats?|hotel))"
    r"|(?:cancel|release|drop) (?:it|them|everything))"
    rf"(?: (?:for now|then|after all|instead|we changed our minds?))*(?: please)?[.!]*$"
)
# "never mind, undo that", "put it back", "go back to how it was": the last change to the trip put back;
# "show me the first list again", "go back to the original options": every change since the first options.
_BACK_LEAD = (
    r"^(?:(?:never ?mind|nvm|actually|no|nah|hmm+|ok(?:ay)?|sorry|wait|oops|ugh|hm+|oh)[,!.]*\s+)*"
    r"(?:please\s+|pls\s+|(?:can|could)\s+you\s+(?:please\s+)?|let'?s\s+|just\s+)?"
)
_BACK_TAIL = r"(?:\s+(?:please|pls|plz|then|for\s+now|again|thanks|instead))*\s*[.!?]*$"
UNDO_RE = re.compile(
    _BACK_LEAD
    + r"(?:(?:undo|revert|reverse|scratch|scrap|forget|take\s+back)\s+(?:that|this|it|the\s+(?:last\s+)?change"
    r"|my\s+last\s+(?:change|message|request)|what\s+i\s+(?:just\s+)?said)(?:\s+change)?"
    r"|(?:change|put|set|switch|turn)\s+(?:it|that|them|everything)\s+back(?:\s+(?:to\s+)?(?:how|what|the\s+way)\s+it\s+was(?:\s+before)?)?"
    r"|(?:go|let'?s\s+go)\s+back\s+to\s+(?:how|what|the\s+way)\s+(?:it|things)\s+(?:was|were)(?:\s+before)?|undo)"
    + _BACK_TAIL
)
FIRST_LIST_RE = re.compile(
    _BACK_LEAD
    + r"(?:(?:go|get|take\s+(?:me|us)|switch)\s+back\s+to|back\s+to|(?:show|give)\s+(?:me|us)|(?:can|could)\s+(?:i|we)\s+see"
    r"|let\s+me\s+see|bring\s+back|return\s+to)\s+(?:again\s+)?(?:the\s+|my\s+|our\s+|those\s+)?"
    r"(?:first|original|initial|earlier|previous|old|very\s+first)"
    r"(?:\s+(?:five|5|few|ones|list|options?|results?|bundles?|choices?|search|set)|\s+(?:five|5|few)\s+(?:ones|options?))"
    r"(?:\s+(?:of\s+options|you\s+showed(?:\s+(?:me|us))?|from\s+before))?" + _BACK_TAIL
)
_SELECT_VERB = (
    r"(?:(?:i'?ll|ill|i will|we'?ll|we will|let'?s|lets) (?:take|go with|go for|pick|do|book|get)"
    r"|(?:i|we)(?:'?d| would) (?:like to (?:book|take|go with|get|do|pick|choose|reserve|have)|like|prefer|take|go with)"
    r"|(?:i|we) (?:want|choose|pick|prefer)(?: to (?:book|take|go with|get|do))?"
    r"|go with|go for|select|choose|pick|take|book(?: me| us)?|reserve|do|gimme|give me|get me|(?:i'?ll|ill|we'?ll) have"
    r"|(?:switch|change|swap|move)(?: it| over| that)? to)\s+"
)
ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    # "show me more" puts B6-B10 on screen
    "sixth": 6,
    "6th": 6,
    "seventh": 7,
    "7th": 7,
    "eighth": 8,
    "8th": 8,
    "ninth": 9,
    "9th": 9,
    "tenth": 10,
    "10th": 10,
}
BUNDLE_ID_RE = re.compile(
    rf"^{_POLITE}(?:{_SELECT_VERB})?(?:the )?(?:bundle |option |number |#)?b?\s?(\d{{1,2}})(?: one| bundle| option)?{_TAIL}$"
)
EXPLICIT_ID_RE = re.compile(r"\bb(\d{1,2})\b")
ORDINAL_RE = re.compile(
    rf"^{_POLITE}(?:{_SELECT_VERB})?(?:the )?({'|'.join(ORDINALS)}|last)(?: one| bundle| option)?{_TAIL}$"
)
# An option named by what sets it apart ("the fastest", "the flexible one", "the one with the better hotel").
_QUALITIES = {
    "cheapest": "cheapest",
    "cheaper": "cheapest",
    "less expensive": "cheapest",
    "faster": "fastest",
    "quicker": "fastest",
    "shorter": "fastest",
    "pricier": "dearest",
    "more expensive": "dearest",
    "least expensive": "cheapest",
    "lowest price": "cheapest",
    "lowest priced": "cheapest",
    "most expensive": "dearest",
    "priciest": "dearest",
    "dearest": "dearest",
    "earliest arrival": "arrives_first",
    "earliest arriving": "arrives_first",
    "fastest": "fastest",
    "quickest": "fastest",
    "shortest": "fastest",
    "flexible": "refundable",
    "most flexible": "refundable",
    "refundable": "refundable",
    "fully refundable": "refundable",
    "cancellable": "refundable",
    "cancelable": "refundable",
    "best": "best",
    "best overall": "best",
    "recommended": "best",
    "top": "best",
    "better hotel": "hotel",
    "best hotel": "hotel",
    "nicer hotel": "hotel",
    "nicest hotel": "hotel",
    "fancier hotel": "hotel",
    "nonstop": "nonstop",
    "non-stop": "nonstop",
    "direct": "nonstop",
}
_QUALITY = "|".join(sorted(map(re.escape, _QUALITIES), key=len, reverse=True))
_OPTION_NOUN = r"(?: one| bundle| option| choice| deal| package| combo| combination)?"
SUPERLATIVE_RE = re.compile(
    rf"^{_POLITE}(?:{_SELECT_VERB})?(?:the |that |this )?(?:one with (?:the |a )?)?({_QUALITY}){_OPTION_NOUN}{_TAIL}$"
)
# "the second cheapest", "next fastest": an option by its place in that order
NTH_QUALITY_RE = re.compile(
    rf"^{_POLITE}(?:{_SELECT_VERB})?(?:the )?(second|2nd|third|3rd|next) "
    r"(cheapest|least expensive|lowest priced|fastest|quickest|shortest)(?: one| bundle| option)?"
    rf"{_TAIL}$"
)
# "the one with breakfast", "the one with the 3 star hotel", "the delta one", "the one on jetblue":
# an option by what its card shows (meals, stars, airline, hotel name)
_FEATURE = r"([a-z0-9★*'&. -]{2,40}?)"
FEATURE_RE = re.compile(
    rf"^{_POLITE}(?:{_SELECT_VERB})?(?:(?:the |that )?(?:one|option|bundle) (?:with|that has|that includes|including|on|flying)"
    rf" (?:the |a |an )?{_FEATURE}(?: included| hotel)?|the {_FEATURE} (?:one|option|bundle)){_TAIL}$"
)
# "option B", "choice c", a lone "B": the cards are titled "Option B1", "Option B2"…, so a letter
# alone names none of them; it is answered with the names on screen, never mapped to a position.
LETTER_RE = re.compile(rf"^{_POLITE}(?:{_SELECT_VERB})?(?:the )?(?:(?:option|choice|bundle) )?([a-e]){_TAIL}$")
_LABELS = {
    "cheapest": "Cheapest",
    "fastest": "Fastest",
    "refundable": "Refundable",
    "best": "Best overall",
    "hotel": "Better hotel",
}

# -- words are not approval ---------------------------------------------------------------
# A text is refused as a purchase when it (a) asks to spend money on what is held or shown ("buy
# it", "pay for them", "confirm the purchase"), or (b) touches buying or approval AND carries a
# marker no honest trip request needs: a claimed approval or policy change, a system/assistant
# voice, payment details; or (c) speaks the machinery's language (tool or event names, tool-call
# JSON, state paths). A trip request that
# merely uses a buying verb ("I want to buy tickets to Denver for 2 on Jan 30") has neither, so
# it goes to the extractor like any other message.
_BUY = r"(?:buy|purchase|pay(?: for)?|check ?out|book|charge|order)"
_SHOWN = (
    r"(?:it|this|that|them|these|those|everything|all(?: of (?:it|them))?|now|right (?:now|away)|immediately"
    r"|the (?:holds?|held \w+|bundle|selection|selected \w+|reservations?|lot)|b\d{1,2}|(?:bundle|option) \d{1,2}"
    r"|the (?:trip|tickets?)\s*[.!]*$)"
)
BUY_SHOWN_RE = re.compile(
    # "please don't book them" (an airline said no to) is no command to buy
    rf"^\s*(?:(?:ok(?:ay)?|yes|yep|yeah|great|perfect|sure|cool|alright|so|then|now)[,!.]?\s+)*(?:please\s+|pls\s+)?"
    rf"(?:{_BUY}|buy now|book it|finali[sz]e(?: it| this| that| the (?:trip|booking))?)(?:\s+(?:please|pls|now|asap|right away|today|for (?:me|us)))*\s*[.!]*\s*$|(?<!\bdon't\s)(?<!\bdont\s)(?<!\bnot\s)(?<!\bnever\s)\b{_BUY}\s+{_SHOWN}"
    r"|\b(?:confirm|complete|finali[sz]e|proceed with|go ahead with) (?:the |my )?(?:purchase|payment|booking|order|checkout)\b"
    r"|\bproceed to (?:payment|checkout)\b|\bgo ahead and (?:buy|purchase|book|pay)\b|\bcharge (?:my|the) card\b"
    r"|\bconfirm (?:and|&) (?:buy|purchase|book|pay)\b|\b(?:pay|buy|purchase|book)(?: it| this| that| them)?"
    r" (?:with|using|by|on) (?:my |our |the |a )?(?:company |corporate |work )?(?:visa|amex|mastercard|card|credit|debit|paypal)\b"
)
# "lets book", "ok lets do it, book", "I'll take it, book please", "ready to book": a buy verb with nothing
# after it. With options on screen it asks to buy what is chosen (refused as a purchase, read as a pick);
# before any, "i'd like to book" starts a trip.
BUY_BARE_RE = re.compile(
    r"(?:^|[,.;!]\s*|\b(?:let'?s|lets|to|wanna|(?:can|could|shall|should|do)\s+(?:we|i|you|u)|ok(?:ay)?|yes|yeah|yep|sure"
    r"|great|perfect|cool|so|then|now|just|pls|please)\s+)(?:book|buy|purchase)(?:\s+(?:please|pls|plz|now|then|asap|today"
    r"|right\s+away|for\s+(?:me|us)))*\s*[.!?]*\s*(?:$|[,;])"
)
_WHICH_TO_BUY = re.compile(r"\b(?:which|what|whether|if)\b")
PURCHASE_TOPIC_RE = re.compile(
    r"\b(?:buy\w*|purchas\w*|pay\w*|check ?out|book\w*|charg\w*|order|confirm\w*|approv\w*|holds?|tokens?)\b"
)
# The machinery's own words (tool and event names, state paths, tool-call JSON) are never trip talk.
MACHINERY_RE = re.compile(
    r"\b(?:booking_confirm_and_purchase|reservation_hold_create|reservation_hold_release|booking_cancel"
    r"|user_approved_purchase|hold_approval_decided|approval_token|payment_method_id|working_memory|tool_calls?)\b"
    r"|[\"'](?:name|tool|function|type)[\"']\s*:\s*[\"'][a-z_]+[\"'][^}]*[\"'](?:arguments|data|parameters)[\"']"
)
INJECTION_MARKER_RE = re.compile(
    # claimed approvals and authority
    r"\b(?:skip|bypass|override|waive|ignore|without)(?: the| an?| any| my)? approvals?\b"
    r"|\bapprov\w*\b[^.\n]{0,40}\b(?:granted|given|waived|not (?:needed|required)|no longer (?:needed|required))\b"
    r"|\b(?:pre-?approved|already approved|is approved|approved (?:it|this|that|the (?:purchase|trip|booking))|i approve"
    r"|(?:as|i am|i'm) (?:the|an|your) approver|approver (?:says|said|agreed|is (?:ok|fine)))\b"
    # "my manager approved, book it", "approved by our finance team", "got approval", "it's been approved"
    rf"|\b{_APPROVER}\s+(?:has\s+|have\s+|already\s+|just\s+)*(?:approved|ok'?d|okayed|signed\s+off|said\s+(?:ok|okay|yes)"
    r"|gave\s+(?:(?:us|me)\s+)?(?:the\s+|an?\s+)?(?:ok|okay|go[- ]ahead|green\s+light|approval))\b"
    rf"|\bapproved\s+by\s+{_APPROVER}|\bgot\s+(?:the\s+|an?\s+|my\s+|our\s+)?approval\b|\bit'?s\s+(?:been\s+|all\s+)?approved\b"
    r"|\bpolic(?:y|ies)\b[^.\n]{0,40}\b(?:changed|amended|updated|waived|overridden|no longer)\b"
    # other voices and instructions
    r"|(?:^|\n)\s*(?:#+\s*)?(?:system|assistant|developer|tool|admin)\b\s*(?:override\b)?\s*(?:#+|[:>\]])"
    r"|<\|?\s*(?:system|im_start)|\bignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) instructions\b"
    r"|\b(?:admin|developer|god) mode\b"
    # payment details
    r"|\b(?:credit card|debit card|card (?:number|ending|no\b)|(?:my|the|this|with|a|by) card\b|mastercard|amex|cvv|cvc|iban|paypal"
    r"|payment method)"
)


# "has my boss approved it yet", "did the manager approve it?": asked about the approval, never a claim of one
APPROVAL_STATUS_RE = re.compile(
    r"^(?:(?:so|and|hey|hi|ok(?:ay)?|any\s+news|just\s+checking)[,.!]*\s+)*(?:has|have|did|is|was)\s+(?:my|our|the)\s+"
    r"(?:boss|manager|approver|supervisor|line\s+manager|travel\s+manager|finance(?:\s+team)?)\s+"
    r"(?:approved|approve|signed\s+off|ok'?d|okayed)(?:\s+(?:it|this|that|them|the\s+trip|the\s+hold|b\d{1,2}))?"
    r"(?:\s+(?:yet|already|now))?\s*[?.!]*$"
)


def purchase_refused(text: str) -> bool:
    """Whether a lower-cased chat text (lines kept: a "system:" voice starts one) gets the purchase refusal."""
    text = text[:2000]
    if BUY_SHOWN_RE.search(text) or MACHINERY_RE.search(text):
        return True
    if APPROVAL_STATUS_RE.match(text.strip()):
        return False  # a question about the approval: answered from the holds (``hold_answer``)
    return bool(PURCHASE_TOPIC_RE.search(text) and INJECTION_MARKER_RE.search(text))


def honest_buy_wish(text: str) -> bool:
    """Whether a refused, lower-cased text is only a traveller asking to buy ("book B2", "buy it"): no
    claimed approval, other voice, payment detail or machinery word. It is still refused (nothing
    typed buys); it is answered with the pick and the next step instead of the refusal card."""
    text = text[:2000]
    return not (
        contains_token_like(text)
        or MACHINERY_RE.search(text)
        or INJECTION_MARKER_RE.search(text)
        or _PAYMENT_WORDS.search(text)
    )


# Payment details: "pay with my visa", "book it using the company card" get the refusal card as they are.
_PAYMENT_WORDS = re.compile(
    r"\b(?:visa|cards?|credit|debit|paypal|amex|mastercard|apple\s+pay|google\s+pay|venmo|iban)\b"
)


# Words that ask about an option rather than pick it ("tell me more about B4", "whats the hotel in B1 called").
ASKS_ABOUT_RE = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+)[,.!]*\s+)*(?:the\s+)?(?:price|prices|cost|costs|total|totals|fares?|details|info|layovers?"
    r"|connections?|stops|bags?|baggage|luggage|duration|flight\s+times?|departure\s+times?|arrival\s+times?|distance"
    r"|cancellation|refund\s+policy)\b(?!\s+(?:is|are)\s+(?:fine|ok|good|great))"
    r"|\b(?:tell me|more (?:about|on|info|details)|info(?:rmation)? (?:on|about)|details (?:on|of|about)|explain"
    r"|describe|compare|difference|differences|called|named|how (?:far|long|much|many|close|good)|what(?:'?s| is| are)"
    r"|which (?:airline|hotel|one has))\b"
)
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0/C1 controls except \t and \n
_DATE_SLOTS = {"depart_date", "return_date", "check_in", "check_out", "dates"}


def clean_text(text: Any) -> str:
    """Drop control characters (keep newlines and tabs) and surrounding whitespace."""
    if not isinstance(text, str):
        return ""
    return CONTROL_RE.sub("", text).strip()


def _on_screen(trip_intent: Dict[str, Any]) -> List[Dict[str, Any]]:
    return list((trip_intent.get("working_memory") or {}).get("ranked_bundles") or [])


def _flight_minutes(bundle: Dict[str, Any]) -> float:
    return sum(float((f.get("summary") or {}).get("duration_minutes") or 0) for f in bundle.get("flights") or [])


_NOT_ID = re.compile(r"\b(?:not|no|except|instead\s+of|rather\s+than|other\s+than|besides)\s+(?:the\s+)?b\d{1,2}\b")


def _bundle_reference(text: str, bundles: List[Dict[str, Any]], pending_slots: set) -> Optional[str]:
    """The bundle id ``text`` names, as written (may be off screen), or None.

    While a question is pending, a bare number or ordinal may be its answer ("2", "the
    3rd"), so only an explicit "B2" / "bundle 2" counts then.
    """
    m = BUNDLE_ID_RE.match(text)
    if m and (not pending_slots or EXPLICIT_ID_RE.search(text) or re.search(r"bundle|option|number|#", text)):
        return f"B{int(m.group(1))}"
    explicit = set(EXPLICIT_ID_RE.findall(text))
    if m is None and len(explicit) == 1 and not is_question(text) and not _NOT_ID.search(text):
        return f"B{int(explicit.pop())}"
    m = ORDINAL_RE.match(text)
    if m and not (_DATE_SLOTS & pending_slots):
        word = m.group(1)
        n = len(bundles) if word == "last" else ORDINALS[word]
        if n > max(5, len(bundles)) and not re.search(r"\b(?:one|bundle|option)\b", text):
            return None  # "the 7th" with five on screen is a day of the month, not an option
        return f"B{n}"
    m = LETTER_RE.match(text)
    if m and not pending_slots:
        return f"Option {m.group(1).upper()}"  # not a card's name: the Reducer lists the names on screen
    m = NTH_QUALITY_RE.match(text)
    if m:
        quality = "cheapest" if m.group(2) in ("cheapest", "least expensive", "lowest priced") else "fastest"
        flying = [b for b in bundles if b.get("flights") or quality == "cheapest"]
        ranked = sorted(
            flying, key=lambda b: float(b.get("total") or "inf") if quality == "cheapest" else _flight_minutes(b)
        )
        n = {"third": 3, "3rd": 3}.get(m.group(1), 2)
        return str(ranked[n - 1].get("bundle_id")) if len(ranked) >= n else None
    m = TIME_PICK_RE.match(text)
    if m and (m.group("m") or m.group("ap")) and re.search(r"\b(?:the|that|one|option|bundle)\b", text):
        at = _flight_at(m, bundles)
        if at or not re.search(r"\b(?:one|option|bundle)\b", text):
            return at  # "the 5pm flight back" and none on screen leaves then: a wish, read as one
        return f"@{_clock_said(m)}"  # "the 10:55 one" and none leaves then: said (``route_text``)
    m = FEATURE_RE.match(text)
    if m:
        found = bundle_with(m.group(1) or m.group(2) or "", bundles)
        if found is not None:
            return str(found.get("bundle_id"))
    m = SUPERLATIVE_RE.match(text)
    if m:
        quality = _QUALITIES[m.group(1)]
        if quality in ("refundable", "nonstop") and not re.search(
            r"\b(?:the|that|this|one|option|bundle|choice)\b", text
        ):
            return None  # a bare "nonstop" or "refundable" is a wish for the trip, not a pick
        found = bundle_by_quality(quality, bundles)
        return str(found.get("bundle_id")) if found else None
    return None


# "the 10:55 one", "the one with the 9am flight", "gimme the one that leaves at 2:45pm", "the 6:30 flight
# back": an option by a flight's departure time (minutes or am/pm said: "the 2 one" is no time)
_CLOCK = r"(?P<h>[01]?\d|2[0-3])(?:[:.](?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?m\.?|[ap]\b)?"
TIME_PICK_RE = re.compile(
    rf"^(?:{_SELECT_VERB})?(?:(?:on|with) )?(?:the |that )?"
    r"(?:(?:one|option|bundle) (?:(?:with|that has|that's|on) (?:the |a )?|(?:that |which )?(?:leaves|departs|goes out"
    r"|flies out|takes off|is leaving|leaving|departing)(?: at| around| @)? ))?"
    rf"(?:@ ?)?{_CLOCK}(?: ?o'?clock)?(?: (?:flight|departure|dep|one|option|plane))*"
    r"(?: (?:(?P<out>out|outbound|there|going out)|(?P<back>back|home|return|coming back)))?(?: (?:one|flight))?$"
)


def _clock_said(m: re.Match[str]) -> str:
    """The time ``TIME_PICK_RE`` read, as the traveller meant it ("2:45 PM"; "10:55" when no half of the day)."""
    hour, minute, half = int(m.group("h")), m.group("m") or "00", (m.group("ap") or "")[:1]
    return clock_text(f"{hour % 12 + (12 if half == 'p' else 0):02d}:{minute}") if half else f"{hour}:{minute}"


def _flight_at(m: re.Match[str], bundles: List[Dict[str, Any]]) -> Optional[str]:
    """The first option on screen with a flight leaving at the time ``TIME_PICK_RE`` read (on the leg
    said): the exact minute, or within half an hour of an hour said alone ("the 10am flight" at 10:05)."""
    hour, minute, half = int(m.group("h")), int(m.group("m") or 0), (m.group("ap") or "")[:1]
    hours = [hour % 12 + (12 if half == "p" else 0)] if half else [hour, hour + 12] if hour < 12 else [hour]
    wanted = [h * 60 + minute for h in hours]
    legs = ["return"] if m.group("back") else ["outbound"] if m.group("out") else ["outbound", "return"]

    def gap(b: Dict[str, Any]) -> Tuple[int, int]:  # minutes off, then the outbound before the return
        times = [(leg_departure(b, leg)[11:16], n) for n, leg in enumerate(legs)]
        said = [(int(t[:2]) * 60 + int(t[3:]), n) for t, n in times if len(t) == 5]
        return min(((abs(t - w), n) for t, n in said for w in wanted), default=(10**6, 0))

    tolerance = 0 if m.group("m") else 30
    close = [b for b in bundles if gap(b)[0] <= tolerance]
    return str(min(close, key=gap).get("bundle_id")) if close else None


def _unseen_feature(plain: str) -> Optional[str]:
    """What "the one with the marriott" names when no option shows it and it is no airline, star
    rating, meal or wish for the trip (then a hotel's name or brand), else None."""
    m = FEATURE_RE.match(plain)
    what = ((m.group(1) or m.group(2) or "") if m else "").strip()
    if len(what) < 4 or re.search(r"\d|★|\*|\b(?:breakfast|meals?|stops?|stars?|one|option|bundle)\b", what):
        return None
    if what in _QUALITIES or AIRLINES.get(what) or read_airlines(what)[0].get("airlines") or _changes_trip(what):
        return None
    if unsearchable_hotel_features(f"a hotel with {what}"):  # "the one with a pool": answered as amenities are
        return None
    return what


def bundle_items(bundle: Dict[str, Any]) -> List[Any]:
    """The offers and rates a bundle is made of (what tells one "B2" from the next search's)."""
    flights = [f.get("offer_id") for f in bundle.get("flights") or []]
    return flights + [h.get("rate_id") for h in bundle.get("hotels") or []]


def discussed(wm: Dict[str, Any], bundles: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The option last asked about ("what's in the fourth one?"), if it is still on screen as it was."""
    said = wm.get("discussed")
    if not isinstance(said, dict):
        return None
    found = next((b for b in bundles if b.get("bundle_id") == said.get("bundle_id")), None)
    return found if found is not None and bundle_items(found) == said.get("items") else None


def compared(wm: Dict[str, Any], bundles: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The options last asked about together ("compare b1 and b2"), if all are still on screen as they were."""
    said = wm.get("discussed")
    among = said.get("among") if isinstance(said, dict) else None
    if not isinstance(among, list) or len(among) < 2:
        return []
    said_items = {a.get("bundle_id"): a.get("items") for a in among if isinstance(a, dict)}
    found = [
        b for b in bundles if b.get("bundle_id") in said_items and bundle_items(b) == said_items[b.get("bundle_id")]
    ]
    return found if len(found) == len(among) else []


# "the cheaper one", "the faster of the two": said right after options were compared, one of those
_COMPARATIVE = re.compile(
    r"\b(?:cheaper|less\s+expensive|faster|quicker|shorter|pricier|more\s+expensive|(?:better|nicer)\s+hotel)\b"
)
_OF_THOSE = re.compile(
    r"\s+of\s+(?:the|those|these|them|both)(?:\s+(?:two|2|three|3|options?|ones?))?\b|\s+of\s+(?:two|2)\b"
)


def airlines_named(what: str) -> List[str]:
    """The airline codes words name ("delta", "united airlines", "jetblue"), else []."""
    what = what.strip().lower()
    named = list(AIRLINES.get(re.sub(r"\s+(?:air\s*lines?|airways|air)$", "", what)) or ())
    return named[:1] or list(read_airlines(what)[0].get("airlines") or [])


def _unflown_airline(plain: str, bundles: List[Dict[str, Any]]) -> Optional[str]:
    """The airline "the delta one" names when no option on screen flies it, else None."""
    m = FEATURE_RE.match(plain)
    what = (m.group(1) or m.group(2) or "") if m else ""
    codes = airlines_named(what) if what.strip() else []
    return codes[0] if codes and bundle_with(what, bundles) is None else None


def bundle_with(what: str, bundles: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The first option on screen whose card shows ``what``: breakfast (or meals), an N-star hotel,
    an airline every flight of it flies, its hotel's name; None when none does (the words are then a wish)."""
    what = what.strip().lower()
    stars = re.fullmatch(r"([1-5])[ -]?(?:stars?|★|\*)(?: hotel)?", what)
    airlines = airlines_named(what)

    def flies(b: Dict[str, Any], every: bool) -> bool:
        carriers = [(f.get("summary") or {}).get("carrier") for f in b.get("flights") or []]
        return bool(carriers) and (all if every else any)(c in airlines for c in carriers)

    if airlines:  # every flight on it first, else any
        return next((b for b in bundles if flies(b, True)), None) or next((b for b in bundles if flies(b, False)), None)

    def shows(b: Dict[str, Any]) -> bool:
        hotels = [h.get("summary") or {} for h in b.get("hotels") or []]
        if re.fullmatch(r"(?:free )?(?:breakfast|meals)(?: included)?", what):
            return any(re.search(r"breakfast|board|inclusive", str(h.get("board_type") or "")) for h in hotels)
        if stars:
            return bool(hotels) and all(int(h.get("stars") or 0) == int(stars.group(1)) for h in hotels)
        return len(what) > 3 and any(what in str(h.get("hotel_name") or "").lower() for h in hotels)

    return next((b for b in bundles if shows(b)), None)


def _stars(bundle: Dict[str, Any]) -> int:
    return sum(int((h.get("summary") or {}).get("stars") or 0) for h in bundle.get("hotels") or [])


def _stops(bundle: Dict[str, Any]) -> int:
    return sum(int((f.get("summary") or {}).get("stops") or 0) for f in bundle.get("flights") or [])


def bundle_by_quality(quality: str, bundles: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The bundle on screen a quality names: the one the ranker labelled so, else the one that has it most.

    None when no bundle has it (no refundable option, no nonstop): nothing is selected then.
    """
    labelled = next((b for b in bundles if b.get("label") == _LABELS.get(quality)), None)
    if labelled is not None:
        return labelled
    if quality == "cheapest":
        return min(bundles, key=lambda b: float(b.get("total") or "inf"))
    if quality == "arrives_first":  # "the one that lands first": the outbound's arrival
        landing = [
            (str((b["flights"][0].get("summary") or {}).get("arrive_at") or ""), b) for b in bundles if b.get("flights")
        ]
        landing = [(at, b) for at, b in landing if at]
        return min(landing, key=lambda pair: datetime.fromisoformat(pair[0]))[1] if landing else None
    if quality == "dearest":  # "the most expensive one"
        return max(bundles, key=lambda b: float(b.get("total") or 0))
    if quality == "fastest":
        flying = [b for b in bundles if b.get("flights")]
        return min(flying, key=_flight_minutes) if flying else None
    if quality == "refundable":
        return next((b for b in bundles if b.get("refundable")), None)
    if quality == "hotel":
        housed = [b for b in bundles if b.get("hotels")]
        return max(housed, key=_stars) if housed else None
    if quality == "nonstop":
        return next((b for b in bundles if b.get("flights") and _stops(b) == 0), None)
    if quality == "fewest_stops":  # "which has the fewest stops": the first shown of those with the fewest
        flying = [b for b in bundles if b.get("flights")]
        return min(flying, key=_stops) if flying else None
    return bundles[0] if bundles else None


# Words that ask for the options the policy allows ("show me hotels within policy", "only in-policy options").
IN_POLICY_RE = re.compile(
    r"\b(?:with)?in(?:side)?\s+(?:the\s+|our\s+|my\s+)?(?:company(?:'s)?\s+|travel\s+|corporate\s+)?polic(?:y|ies)\b"
    r"|\bin-polic(?:y|ies)\b|\bpolicy[- ](?:compliant|approved|friendly|ok)\b|\bpolicy\s+(?:allows|permits|accepts)\b"
    r"|\b(?:allowed|approved|permitted|ok|fine)\s+(?:by|under|with)\s+(?:the\s+|our\s+|my\s+)?(?:company\s+|travel\s+)?policy\b"
    r"|\b(?:complies|comply|complying)\s+with\s+(?:the\s+|our\s+)?(?:company\s+|travel\s+)?policy\b"
)
# How a request about the options on screen may start: "can you find me", "I'd prefer", "is there".
_ASK = (
    rf"^(?:(?:hmm+|um+|well|actually|so|ok(?:ay)?|and|then|alright)[,.!]*\s+)*{_POLITE}"
    r"(?:(?:can|could|would)\s+(?:you|i|we)\s+(?:please\s+)?(?:find|get|show|see|have|try|pick|choose|go\s+with|do|book|take)"
    r"(?:\s+(?:me|us))?\s+|(?:show|find|get|give|pick|choose)\s+(?:me\s+|us\s+)?|i(?:'d|\s+would)\s+(?:like|prefer|rather\s+have)\s+"
    r"|i\s+(?:want|need)\s+|(?:do\s+you\s+)?(?:have|got)\s+|(?:is|are)\s+there\s+|(?:how|what)\s+about\s+"
    r"|let'?s\s+(?:try|find|get|see|do)\s+|maybe\s+|go\s+for\s+|any\s+chance\s+of\s+"
    r"|any\s+(?:of\s+(?:these|them|those)|options?|ones?)\s+(?:with|that\s+(?:has|have))\s+)?"
    r"(?:a\s+|an\s+|some\s+|something\s+|anything\s+|any\s+|one\s+)?(?:(?:a\s+)?(?:bit|little|lot|much)\s+)?"
)
# "…but keep the same flights", "…and the same hotel": the other part kept, as it is where it can be anyway
_KEEP_THE_REST = (
    r"(?:(?:\s*,\s*|\s*,?\s*(?:but|and|with)\s+)(?:keep(?:ing)?\s+)?(?:the\s+)?(?:same\s+)?(?:flights?|hotels?|rooms?)"
    r"(?:\s+(?:the\s+same|as\s+(?:is|before|now|they\s+are|it\s+is)))?(?:\s+(?:please|pls))?)?"
)
# "a cheaper hotel please", "something cheaper", "cheaper flights?", "can you find me a less expensive option"
CHEAPER_RE = re.compile(
    _ASK + r"(?:cheaper|less\s+expensive|lower[- ]priced|more\s+affordable|less\s+pricey)"
    r"(?:\s+(?P<part>hotels?|rooms?|stays?|accommodations?|places?\s+to\s+stay|flights?|fares?|tickets?|airfares?"
    r"|options?|ones?|bundles?|deals?|trips?|combos?|packages?|choices?))?"
    r"(?:\s+(?:for|on)\s+(?:the\s+|our\s+|my\s+)?(?P<part_for>hotels?|rooms?|stays?|accommodations?|flights?|fares?|tickets?"
    r"|airfares?))?"
    r"(?:\s+(?:please|available|on\s+screen|instead|then|than\s+(?:this|that|these|those|b\d{1,2})|for\s+(?:me|us)))*"
    rf"{_KEEP_THE_REST}\s*[?.!]*$"
)
# "a nicer hotel", "swap the hotel for something nicer", "upgrade the hotel", "can we get a better room?"
_NICER = r"(?:nicer|better|fancier|higher[- ]rated|classier|more\s+stars)"  # not "upscale": a class (4★)
_STAY_PART = r"(?:hotels?|rooms?|stays?|accommodations?|places?(?:\s+to\s+stay)?)"
NICER_HOTEL_RE = re.compile(
    rf"(?:{_ASK}{_NICER}\s+(?:(?:for|as)\s+(?:the\s+|our\s+|my\s+|a\s+)?)?{_STAY_PART}"
    r"|^(?:(?:hmm+|um+|well|actually|so|ok(?:ay)?|and|then|alright|can\s+(?:you|we)|could\s+(?:you|we)|please|let'?s)[,.!]*\s+)*"
    rf"(?:(?P<up>upgrade|bump)|swap|change|switch)\s+(?:up\s+)?(?:the\s+|our\s+|my\s+|that\s+)?{_STAY_PART}"
    rf"(?:\s+(?:for|to|with|into)\s+(?:a\s+|an\s+|something\s+|somewhere\s+|one\s+|some\s+)?(?:bit\s+|little\s+|lot\s+)?{_NICER}"
    rf"(?:\s+(?:one|hotel|place|room))?|(?(up)|(?!))))"
    r"(?:\s+(?:please|pls|instead|then|for\s+(?:me|us)|if\s+(?:possible|you\s+can)))*"
    rf"{_KEEP_THE_REST}\s*[?.!]*$"
)
# "we can spend a bit more on the hotel", "happy to pay more for a better room": a nicer hotel
SPEND_MORE_ON_HOTEL_RE = re.compile(
    r"\b(?:can|could|don'?t\s+mind|happy\s+to|willing\s+to|ok\s+to|fine\s+to|able\s+to)\s+(?:to\s+)?(?:spend|pay)(?:ing)?"
    rf"\s+(?:a\s+(?:bit|little|lot)\s+|a\s+little\s+bit\s+|some(?:what)?\s+)?more\s+(?:on|for)\s+(?:the\s+|a\s+|our\s+|a\s+better\s+|a\s+nicer\s+)?{_STAY_PART}\b"
)
# "a different hotel please", "same flights but another hotel", "can we change the hotel?": the best-ranked
# option with another hotel, keeping the flights where one does
OTHER_HOTEL_RE = re.compile(
    r"^(?:(?:hmm+|um+|well|actually|so|ok(?:ay)?|and|then|alright)[,.!]*\s+)*"
    r"(?:(?:keep\s+)?(?:the\s+)?same\s+flights?\s*(?:,|but|and|with)?\s*)?"
    r"(?:(?:can|could)\s+(?:you|we|i)\s+(?:please\s+)?(?:get|have|try|see|do|show\s+(?:me|us))?\s*|i'?d\s+like\s+|let'?s\s+(?:try|see)\s+"
    r"|(?:show|give)\s+(?:me|us)\s+|maybe\s+|please\s+)?"
    rf"(?:(?:a|an|some)\s+)?(?:(?:different|another|other|new)\s+{_STAY_PART}|(?:change|swap|switch)\s+(?:the\s+|our\s+|my\s+)?{_STAY_PART})"
    r"(?:\s+(?:please|pls|instead|then|for\s+(?:me|us)|if\s+(?:possible|you\s+can)))*"
    rf"{_KEEP_THE_REST}\s*[?.!]*$"
)
# "a later flight on the way out", "something earlier on the return", "can we leave later?", "fly back earlier"
_OUT = r"(?:on\s+the\s+way\s+(?:out|there)|out(?:bound)?|there|going(?:\s+out|\s+there)?|on\s+the\s+outbound|departing|first\s+leg)"
_BACK = r"(?:on\s+the\s+way\s+(?:back|home)|back|home|return(?:ing)?|inbound|coming\s+back|on\s+the\s+(?:return|inbound)|last\s+leg)"
OTHER_TIME_RE = re.compile(
    _ASK
    + r"(?:(?:(?:can|could|should|shall)\s+)?(?:we|i)\s+)?(?:(?P<verb_out>leave|depart|fly\s+out|go|head\s+out)|(?P<verb_back>(?:come|fly|head|get|go)\s+(?:back|home)|return))?\s*"
    r"(?P<when>later|earlier)(?:\s+(?:in\s+the\s+(?:day|(?P<period>morning|afternoon|evening))|on|that\s+day|the\s+same\s+day))?"
    rf"(?:\s+(?P<noun>flights?|departures?|ones?|options?|times?|(?P<noun_back>return(?:\s+flight)?)))?"
    rf"(?:\s+(?:(?P<out>{_OUT})|(?P<back>{_BACK})))?(?:\s+flights?)?"
    r"(?:\s+(?:on\s+)?(?:the\s+)?(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\b)?"
    r"(?:\s+(?:please|instead|then|tho|though|if\s+possible|if\s+there\s+is\s+one|than\s+(?:this|that|b\d{1,2})))*\s*[?.!]*$"
)
# "the earliest flight out", "can we do the last flight back", "latest flight home pls", "id rather take
# the first flight in the morning": "first" / "last" need a leg or a time of day ("the last one" is B5).
EXTREME_TIME_RE = re.compile(
    _ASK + r"(?:i'?d\s+(?:rather|prefer\s+to)\s+(?:take|have|do|get)\s+|(?:we|i)\s+(?:want|need|'?ll\s+take)\s+)?"
    r"(?:the\s+)?(?P<w>earliest|latest|last|first)(?:\s+possible)?\s+(?P<noun>flights?|departures?|ones?)"
    r"(?P<when>(?:\s+(?:of\s+the\s+day|in\s+the\s+(?:morning|evening)|possible|available|on\s+screen))*)"
    rf"(?:\s+(?:(?P<out>{_OUT})|(?P<back>{_BACK})))?(?:\s+flights?)?"
    r"(?:\s+(?:please|pls|plz|instead|then|if\s+possible|if\s+there\s+is\s+one))*\s*[?.!]*$"
)
# "anything earlier on tuesday?", "any later flights on friday", "any flights after 5pm on the 15th": with
# options on screen, a day that is one of the trip's flying days names that leg ("on the way out" / "on the
# way back"), never a new date; a day asked to move to ("can we leave friday instead") stays a date.
_WEEKDAYS = ("mon(?:day)?", "tue(?:s(?:day)?)?", "wed(?:nesday)?", "thu(?:r(?:s(?:day)?)?)?", "fri(?:day)?", "sat(?:urday)?", "sun(?:day)?")  # fmt: skip
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_LEG_DAY = re.compile(
    r"(?:\b(?:on|for)\s+)?(?:\bthe\s+)?(?:"
    rf"\b(?P<weekday>{'|'.join(_WEEKDAYS)})\b\.?"
    rf"|\b(?P<month>{'|'.join(_MONTHS)})[a-z]*\.?\s+(?P<mday>[0-3]?\d)(?:st|nd|rd|th)?\b"
    r"|(?<=\bthe\s)(?P<nth>[0-3]?\d)(?:st|nd|rd|th)?\b(?!\s*(?::|[ap]\.?m\b|o'?clock))|\b(?P<nth2>[0-3]?\d)(?:st|nd|rd|th)\b)"
)
_ABOUT_TIMES = re.compile(
    r"\b(?:earlier|later|earliest|latest|after|before|morning|afternoon|evening|night|times?|flights?|departures?"
    r"|leav\w*|depart\w*)\b"
)
_LEG_SAID = re.compile(r"\b(?:back|home|return\w*|inbound|outbound|on\s+the\s+way|going\s+out|fly(?:ing)?\s+out)\b")
_SAID_BACK = re.compile(r"\b(?:back|home|return\w*|inbound|on\s+the\s+way\s+(?:back|home))\b")
_SAID_OUT = re.compile(r"\b(?:outbound|going\s+(?:out|there)|fly(?:ing)?\s+out|on\s+the\s+way\s+(?:out|there))\b")
_MOVES_DAY = re.compile(r"\b(?:instead|move|moving|change|switch|push|shift|rather|day\s+(?:earlier|later))\b")


def _leg_said_as_day(low: str, bundles: List[Dict[str, Any]]) -> Optional[str]:
    """``low`` with a day said about flight times ("anything earlier on tuesday?") that is the day of one
    leg on screen said as that leg ("anything earlier on the way out?"), else None."""
    if not bundles or not _ABOUT_TIMES.search(low) or _MOVES_DAY.search(low):
        return None
    days = {leg: leg_departure(bundles[0], leg)[:10] for leg in ("outbound", "return")}
    days = {leg: d for leg, d in days.items() if len(d) == 10}

    def leg_of(m: re.Match[str]) -> Optional[str]:
        legs = [leg for leg, d in days.items() if _is_day(m, datetime.fromisoformat(d))]
        return legs[0] if len(legs) == 1 else None

    found = [(m, leg_of(m)) for m in _LEG_DAY.finditer(low)]
    named = [(m, leg) for m, leg in found if leg]
    if len(named) != 1 or len(found) != 1:
        return None  # no day, or several: said as they are
    m, leg = named[0]
    said = " on the way out" if leg == "outbound" else " on the way back"
    if _LEG_SAID.search(low):  # "can we fly out later on thursday": the leg said already, and its own day
        back, out = _SAID_BACK.search(low), _SAID_OUT.search(low)
        if (leg == "return") != bool(back) or bool(back) == bool(out):
            return None  # "an earlier flight home on the 12th" (the day out): said as it is
        said = ""
    return re.sub(r"\s+", " ", low[: m.start()].rstrip() + said + low[m.end() :]).strip()


def _is_day(m: re.Match[str], day: datetime) -> bool:
    if m.group("weekday"):
        return day.weekday() == next(i for i, w in enumerate(_WEEKDAYS) if re.fullmatch(w, m.group("weekday")))
    if m.group("month"):
        return _MONTHS.index(m.group("month")) + 1 == day.month and int(m.group("mday")) == day.day
    return int(m.group("nth") or m.group("nth2")) == day.day


_THAN = re.compile(r"\bthan\s+b(\d{1,2})\b")
_HOTEL_PARTS = ("hotel", "room", "stay", "accommodation", "place")
_FLIGHT_PARTS = ("flight", "fare", "ticket", "airfare")


def _part_cost(bundle: Dict[str, Any], part: str) -> float:
    """What a bundle's hotels, flights or whole trip cost (infinite when it has none of that part)."""
    if part == "total":
        return float(bundle.get("total") or "inf")
    items = bundle.get("hotels" if part == "hotel" else "flights") or []
    if not items:
        return float("inf")
    return sum(float((i.get("summary") or {}).get("total") or "inf") for i in items)


def _items(bundle: Dict[str, Any], part: str) -> List[Any]:
    return [i.get("rate_id") or i.get("offer_id") for i in bundle.get("hotels" if part == "hotel" else "flights") or []]


def _nightly(item: Dict[str, Any]) -> float:
    """A hotel rate's dearest night per room, as a nightly cap is checked against."""
    summary = item.get("summary") or {}
    return float(summary.get("nightly_max") or summary.get("nightly_avg") or "inf")


def _policy_ok(bundle: Dict[str, Any]) -> Optional[bool]:
    verdict = bundle.get("policy")
    return verdict.get("ok") if isinstance(verdict, dict) else None


def _words_about_options(
    low: str, message: Dict[str, Any], bundles: List[Dict[str, Any]], trip: Dict[str, Any]
) -> Optional[Dict[str, Any]]:
    """What "only in-policy options" and "a cheaper hotel" do with the options on screen, else None.

    Policy words do what the refusal card's button does: choose the first option the list marks
    within policy (not the refused one); none marked so is said. "A cheaper hotel", "cheaper
    flights", "something cheaper" choose the best-ranked option that is cheaper in that part than
    the one chosen (or, before any choice, than the first on screen), in policy and keeping the
    other part where it can. With no cheaper hotel on screen but cheaper ones among those the
    search found, hotels are asked for again under a nightly cap below the chosen one's.
    """
    wm = trip.get("working_memory") or {}
    chosen = (wm.get("selected") or {}).get("bundle_id")
    current = next((b for b in bundles if b.get("bundle_id") == chosen), None)
    if IN_POLICY_RE.search(low) and not EXPLICIT_ID_RE.search(low) and not re.match(r"(?:is|does|was)\b", low):
        if not any(_policy_ok(b) is not None for b in bundles):
            return None  # the options carry no verdict: the question is answered, nothing chosen
        report = wm.get("risk_report") or {}
        refused = chosen if current and (_policy_ok(current) is False or report.get("ok") is False) else None
        pick = next((b for b in bundles if _policy_ok(b) is True and b.get("bundle_id") != refused), None)
        if pick is None:
            message["data"]["in_policy"] = "none"
            return message
        because = {"why": "in_policy", "instead_of": refused}
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": pick["bundle_id"], "because": because}}
    timed = OTHER_TIME_RE.match(low)
    if timed:
        return _other_time(timed, message, bundles, current)
    extreme = EXTREME_TIME_RE.match(low)
    if extreme:
        return _extreme_time(extreme, bundles, current)
    if NICER_HOTEL_RE.match(low) or SPEND_MORE_ON_HOTEL_RE.search(low) and not is_question(low):
        return _nicer_hotel(message, bundles, current)
    if OTHER_HOTEL_RE.match(low):
        return _other_hotel(bundles, current)
    m = CHEAPER_RE.match(low)
    if not m:
        return None
    said = m.group("part") or m.group("part_for") or ""
    part = "hotel" if said.startswith(_HOTEL_PARTS) else "flights" if said.startswith(_FLIGHT_PARTS) else "total"
    than = _THAN.search(low)  # "cheaper than B2"
    ref = next((b for b in bundles if than and b.get("bundle_id") == f"B{int(than.group(1))}"), None)
    ref = ref or current or bundles[0]
    base = _part_cost(ref, part)
    if base == float("inf"):
        return None  # "a cheaper hotel" on a flights-only trip: answered from the options
    other = "flights" if part == "hotel" else "hotel"
    cheaper = [b for b in bundles if _part_cost(b, part) < base - 0.005]
    cheaper.sort(key=lambda b: (_policy_ok(b) is False, _items(b, other) != _items(ref, other), bundles.index(b)))
    if cheaper:
        because = {"why": f"cheaper_{part}", "instead_of": ref.get("bundle_id")}
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": cheaper[0]["bundle_id"], "because": because}}
    if part == "hotel":
        # the search found cheaper hotels than those on screen: ask for them with a cap below this one
        nightly = max(_nightly(h) for h in ref.get("hotels") or [])
        found = [_nightly(r) for r in quote_items(wm, "hotel_quotes")]
        below = [n for n in found if n < nightly - 0.005]
        if below:
            top = max(below)
            cap = math.ceil(top) if math.ceil(top) < nightly else top
            currency = ((ref.get("hotels") or [{}])[0].get("summary") or {}).get("currency") or ref.get("currency")
            message["data"]["read_as"] = f"hotels under {cap:.2f} {currency or 'USD'} a night"
            return message
    message["data"]["cheaper_none"] = {"part": part, "bundle_id": ref.get("bundle_id")}
    return message


def _hotel_stars(bundle: Dict[str, Any]) -> int:
    """The stars of a bundle's least starred hotel (0 without one)."""
    stars = [int((h.get("summary") or {}).get("stars") or 0) for h in bundle.get("hotels") or []]
    return min(stars) if stars else 0


def _nicer_hotel(
    message: Dict[str, Any], bundles: List[Dict[str, Any]], current: Optional[Dict[str, Any]]
) -> Optional[Dict[str, Any]]:
    """ "A nicer hotel": choose the best-ranked option on screen whose hotel has more stars than the
    chosen one's (or the first on screen's), in policy and keeping the flights where it can; with none
    on screen, search hotels again a star up. None on a trip without a hotel (answered from the options)."""
    ref = current or bundles[0]
    if not ref.get("hotels"):
        return None
    base = _hotel_stars(ref)
    nicer = [b for b in bundles if b.get("hotels") and _hotel_stars(b) > base]
    nicer.sort(key=lambda b: (_policy_ok(b) is False, _items(b, "flights") != _items(ref, "flights"), bundles.index(b)))
    if nicer:
        because = {"why": "nicer_hotel", "instead_of": ref.get("bundle_id")}
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": nicer[0]["bundle_id"], "because": because}}
    if base < 5:
        message["data"]["read_as"] = f"hotels of {base + 1} stars or better"
    return message


def _other_hotel(bundles: List[Dict[str, Any]], current: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """ "A different hotel": the best-ranked option on screen whose hotel is not the chosen one's (or the
    first on screen's), in policy and keeping the flights where it can; None when every option has it
    (the options' answer says which hotels there are)."""
    ref = current or bundles[0]
    if not ref.get("hotels"):
        return None
    mine = {(h.get("summary") or {}).get("hotel_id") or h.get("rate_id") for h in ref.get("hotels") or []}
    other = [
        b
        for b in bundles
        if b.get("hotels")
        and not mine & {(h.get("summary") or {}).get("hotel_id") or h.get("rate_id") for h in b["hotels"]}
    ]
    other.sort(key=lambda b: (_policy_ok(b) is False, _items(b, "flights") != _items(ref, "flights"), bundles.index(b)))
    if not other:
        return None
    because = {"why": "other_hotel", "instead_of": ref.get("bundle_id")}
    return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": other[0]["bundle_id"], "because": because}}


# The parts of a day as "later in the evening" bounds a departure: from (inclusive), until (exclusive)
_PERIODS = {"morning": ("05:00", "12:00"), "afternoon": ("12:00", "17:00"), "evening": ("17:00", "24:00")}


def _other_time(
    m: re.Match[str], message: Dict[str, Any], bundles: List[Dict[str, Any]], current: Optional[Dict[str, Any]]
) -> Optional[Dict[str, Any]]:
    """ "A later flight on the way out", "an earlier flight home": choose the best-ranked option on
    screen whose flight on that leg leaves later (earlier) than the chosen one's (or the first on
    screen's), in policy and keeping the rest of the trip where it can; with none on screen, search
    that leg again from (until) that time. None when the words name no flight ("later" alone) or the
    trip has no such flight."""
    said = m.groupdict()
    asked = re.match(r"(?:\w+\W+){0,4}?(?:any|anything|something)\s+(?:a\s+bit\s+)?(?:later|earlier)\b", m.string)
    if not any(said.get(k) for k in ("verb_out", "verb_back", "noun", "out", "back")) and not asked:
        return None  # "later" alone is no flight ("talk later"); "anything later?" asks for one
    leg = "return" if said.get("verb_back") or said.get("back") or said.get("noun_back") else "outbound"
    later = said["when"] == "later"
    ref = current or bundles[0]
    at = leg_departure(ref, leg)
    if len(at) < 16 or said.get("day") and int(said["day"]) != int(at[8:10]):
        return None  # "a later flight back on the 16th" when it flies back on the 15th: another day
    rest = [leg_departure(ref, "return" if leg == "outbound" else "outbound"), _items(ref, "hotel")]

    start, end = _PERIODS.get(said.get("period") or "", ("00:00", "24:00"))  # "later in the evening"

    def moved(b: Dict[str, Any]) -> bool:
        when = leg_departure(b, leg)
        return bool(when) and (when > at if later else when < at) and start <= when[11:16] < end

    def keeps_rest(b: Dict[str, Any]) -> bool:
        return [leg_departure(b, "return" if leg == "outbound" else "outbound"), _items(b, "hotel")] == rest

    found = sorted(
        (b for b in bundles if moved(b)), key=lambda b: (_policy_ok(b) is False, not keeps_rest(b), bundles.index(b))
    )
    why = f"{'later' if later else 'earlier'}_{leg}"
    if found:
        because = {"why": why, "instead_of": ref.get("bundle_id")}
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": found[0]["bundle_id"], "because": because}}
    bound = max(at[11:16], start) if later else min(at[11:16], end if end < "24:00" else at[11:16])
    message["data"]["read_as"] = (
        f"fly {'out' if leg == 'outbound' else 'back'} {'after' if later else 'before'} {bound}"
    )
    message["data"]["other_time"] = True  # searched; none found keeps the options (``Intake._kept_options``)
    return message


def _extreme_time(
    m: re.Match[str], bundles: List[Dict[str, Any]], current: Optional[Dict[str, Any]]
) -> Optional[Dict[str, Any]]:
    """ "The earliest flight out", "the last flight back": choose the option on screen whose flight on
    that leg leaves first (last), in policy and keeping the rest of the trip where one does. None when
    the words name no leg for "first"/"last" ("the last one" is the last option) or no option flies it."""
    said = m.groupdict()
    word = said["w"]
    if word in ("first", "last") and not (said.get("out") or said.get("back") or said.get("when", "").strip()):
        return None
    if said["noun"].startswith("one") and not (said.get("out") or said.get("back")):
        return None  # "the earliest one": which option, not which flight
    leg = "return" if said.get("back") else "outbound"
    times = {b.get("bundle_id"): leg_departure(b, leg) for b in bundles}
    known = [t for t in times.values() if len(t) >= 16]
    if not known:
        return None
    extreme = min(known) if word in ("earliest", "first") else max(known)
    ref = current or bundles[0]
    other = "return" if leg == "outbound" else "outbound"
    rest = [leg_departure(ref, other), _items(ref, "hotel")]
    found = sorted(
        (b for b in bundles if times[b.get("bundle_id")] == extreme),
        key=lambda b: (
            _policy_ok(b) is False,
            [leg_departure(b, other), _items(b, "hotel")] != rest,
            bundles.index(b),
        ),
    )
    why = f"{'earliest' if word in ('earliest', 'first') else 'latest'}_{leg}"
    because = {"why": why, "instead_of": ref.get("bundle_id") if current else None}
    return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": found[0]["bundle_id"], "because": because}}


# -- a pick said in passing ---------------------------------------------------------------------
# People pick in clauses ("hmm B2 or B3... B3 I guess", "the first one looks best, lets do it",
# "actually the second one not the first") and by what an option does ("the one that comes back
# latest", "whichever is cheapest"). ``pick_words`` reduces such a text to the plain pick the
# patterns above read; ``_HOLD_PICK`` finds a hold asked for with the pick ("hold B2", "lets do B3
# and hold it", "can you hold the cheapest for me"): the pick is checked, then held if it passes.
_FILLER = (
    r"(?:(?:hmm+|um+|uh+|ok(?:ay)?|k|yes|yeah|yep|yup|cool|great|perfect|nice|alright|all right|so|well|actually|right|tbh|honestly"
    r"|sure|fine|then|oh|ah|wait|and|i think|i guess|i suppose|maybe|probably|eh|i mean|i meant|make that|sorry|oops"
    r"|(?:no|nah|nope)(?=[,.!]*\s+(?:the|b\d|number|option|#|wait|actually|i mean|make that|lets|let's|i'll|ill)\b))[,.!]*\s+)*"
)
_GOOD_TAIL = (
    r"(?:\s*[,.!-]*\s*(?:i guess|i think|then|please|pls|plz|thanks|thank you|thx|ty|for (?:me|us)"
    r"|(?:looks|sounds|seems) (?:good|great|best|better|perfect|fine|right|decent|ok(?:ay)?)"
    r"|(?:is|'?s) (?:good|great|perfect|fine|(?:the )?best|better|decent|ok(?:ay)?)"
    r"|works(?: for (?:me|us))?|it is|lets do it|let'?s do (?:it|that)|go for it|do it|instead))*[.!]*$"
)
_RELATIVE = [
    (
        r"\b(?:(?:the )?one|whichever(?: one)?) (?:that |which )?(?:is |'s )?(?:comes? back|coming back|returns?|returning|gets? back"
        r"|getting back|flies back|flying back|flies home|flying home|gets home|getting home)\s+(?:the )?"
        r"(earliest|latest|first|last)\b",
        r"the \1 flight back",
    ),
    (
        r"\b(?:(?:the )?one|whichever(?: one)?) (?:that |which )?(?:is |'s )?(?:leaves|leaving|departs|departing|goes out|going out"
        r"|flies out|flying out|takes off|taking off|leaves home)\s+(?:the )?"
        r"(earliest|latest|first|last)\b",
        r"the \1 flight out",
    ),
    (
        r"\b(?:the )?one (?:that |which )?(?:lands|arrives|gets (?:in|there))\s+(?:the )?(earliest|first)\b",
        r"the earliest arrival",
    ),
    (
        r"\b(?:the )?one with (?:the )?(earliest|latest) (?:flight|departure)(?: out| there)?\b(?! back| home)",
        r"the \1 flight out",
    ),
    (r"\b(?:the )?one with (?:the )?(earliest|latest) (?:flight|departure) (?:back|home)\b", r"the \1 flight back"),
    (r"\bwhichever(?: one)?(?: is| has|'s| 's) (?:the )?", r"the "),
    (r"\b(?:the )?one (?:that|which) (?:is|'?s|has) (?:the )?", r"the "),
    (
        r"\b(?:the )?one with (?:the )?(?:shortest|quickest|least) (?:flights?|flying time|travel(?:l?ing)? time|journey)\b",
        r"the fastest",
    ),
]
_NOT_THAT = re.compile(
    rf"\s*,?\s*(?:and |but )?(?:not|instead of|rather than) (?:the )?(?:b\d{{1,2}}|(?:{'|'.join(ORDINALS)}|last|{_QUALITY})(?: one)?|\w+ one)\b"
)
_CLAUSE = re.compile(
    r"\s*(?:\.\.+|…|[.;!,]|\s-+\s|—)\s*|\s+(?:no|nah|oops|sorry)?[,.]?\s*(?:wait|i mean|make that|i meant)[,.]?\s+"
)
_HOLD_VERB = r"(?:hold|reserve|lock in|lock|put (?:a )?hold on|place (?:a )?hold on|grab)"
_HOLD_PICK = [
    re.compile(
        rf"^{_FILLER}(?:(?:can|could|would|will) (?:you|we|i) (?:please |pls |just )?|please |pls |just |let'?s |go ahead and "
        rf"|(?:i|we)(?:'d| would) like to |(?:i|we) (?:want|need) to |(?:i|we) wanna )?{_HOLD_VERB} (?P<rest>.+?)"
        r"(?: for (?:me|us)| now| please| pls| plz| then)*\s*[?.!]*$"
    ),
    re.compile(
        rf"^(?P<rest>.+?)\s*(?:[,.;!]|\band\b|\bbut\b|&|\+|\bthen\b)+\s*(?:please |pls |go ahead and |(?:can|could|would|will) (?:you|u|we) (?:please |pls )?)?"
        rf"(?:{_HOLD_VERB}|put (?:it|that|this|them) on hold)(?: (?:it|that|this|them|that one|it in|them in))?"
        rf"(?: in)?(?: for (?:me|us)| now| please| pls| plz)*{_HOLD_FOR}(?: for (?:me|us)| please| pls| plz)*\s*[?.!]*$"
    ),
]
_HOLD_SCOPE = re.compile(
    r"^(?:both |all )?(?:the )?(?:flights?|hotels?|rooms?)(?: (?:and|&) (?:the )?(?:flights?|hotels?|rooms?))? (?:in|of|on|from) "
)


# "can you book the first option", "could you please pick the cheapest one", "can we switch to the third
# one": asked of the desk, a pick
_ASKS_TO_PICK = re.compile(
    r"^(?:(?:can|could|would|will|shall) (?:you|u|we|i) (?:please |pls |just )?)"
    r"(?=(?:book|take|pick|choose|select|reserve|get|go with|go for|do|(?:switch|change|swap|move)(?: it| over| that)? to)\b)"
)
# How people write an option's number: "number three", "option two", "no. 3", "2nd 1" (one), "go w/ #3"
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_NUMBERED = re.compile(
    rf"(?:\b(?:number|option|opt\.?|bundle|choice|no\.|nr\.?|num\.?)\s*#?|#)\s*({'|'.join(_NUMBER_WORDS)}|\d{{1,2}})\b"
)
_ORDINAL_ONE = re.compile(rf"\b({'|'.join(ORDINALS)}|last) 1\b(?!\s*(?:st|am|pm|:|\d|/|-|of\b))")


def _numbers_plain(low: str) -> str:
    """An option's number as the pick patterns read it ("go w/ #three" → "go with #3", "2nd 1" → "2nd one")."""
    low = re.sub(r"\bw/\s*|\bw\s+(?=the\b|b\d|#|number\b|option\b)", "with ", low)
    low = re.sub(rf"\b(?:that|this)\s+(?=(?:{'|'.join(ORDINALS)}|last)\s+(?:one|option|bundle)\b)", "the ", low)
    low = _NUMBERED.sub(lambda m: f"number {_NUMBER_WORDS.get(m.group(1), m.group(1))}", low)
    return _ORDINAL_ONE.sub(r"\1 one", low)


def pick_words(low: str) -> str:
    """The pick a casual text says, as the plain words the pick patterns read ("B3 I guess" → "b3")."""
    low = _numbers_plain(low)
    for pattern, plain in _RELATIVE:
        low = re.sub(pattern, plain, low)
    low = _NOT_THAT.sub("", low)
    low = re.sub(rf"^{_FILLER}", "", low)
    low = re.sub(
        rf"^(?:{_SELECT_VERB})(?:(?:on|with|for) )?(?=the |b\d|number |option |#)", "", low
    )  # "book me on the cheapest"
    return re.sub(_GOOD_TAIL, "", low).strip()


def _said_pick(low: str, bundles: List[Dict[str, Any]], pending_slots: set) -> Optional[str]:
    """The bundle a text names as a pick, read whole, then clause by clause from the last one
    ("hmm B2 or B3... B3 I guess"): a clause counts only when it is a pick on its own. "Can you
    book the first option for us" is a request, not a question."""
    low = _ASKS_TO_PICK.sub("", low)
    whole = _bundle_reference(low, bundles, pending_slots)
    if whole is not None or is_question(low):
        return whole
    plain = pick_words(low)
    if plain != low:
        found = _bundle_reference(plain, bundles, pending_slots)
        if found is not None:
            return found
    clauses = [c for c in _CLAUSE.split(low) if c.strip()]
    if len(clauses) < 2:
        return None
    for clause in reversed(clauses):
        plain = pick_words(clause)
        if plain and not is_question(clause):
            found = _bundle_reference(plain, bundles, pending_slots)
            if found is not None:
                # "stars don't matter, cheapest is fine": a change said beside the pick comes first
                return None if any(_changes_trip(c) for c in clauses if c is not clause) else found
    return None


def _buy_pick(low: str, trip_intent: Dict[str, Any]) -> Dict[str, Any]:
    """The option a wish to buy names ("book B2", "b2 looks good, book it", "hold b1 and buy it",
    "book that one" after one was discussed or chosen): ``bundle_id`` (and ``hold``), else nothing."""
    bundles = _on_screen(trip_intent)
    if not bundles:
        return {}
    slots = set(((trip_intent.get("status") or {}).get("pending_question") or {}).get("slots") or [])
    held = _hold_pick(low, bundles, slots)
    plain = re.sub(r"\b(?:proceed|go ahead) with (?:the )?(?:booking|purchase|buying|order)(?: of)?\b", "take", low)
    plain = re.sub(rf"\b{_BUY}(?:ing)?\b", "take", plain)
    named = held or _said_pick(plain, bundles, slots)
    if named is None:  # "the refundable one and book it please": the pick in its own clause
        clauses = [c for c in re.split(r"\s*(?:,|\band\b|\bthen\b|&)\s*", plain) if c.strip()]
        named = next((p for p in (_said_pick(c, bundles, slots) for c in clauses) if p), None)
    if named is None:  # "sounds good, book it", "ok lets book" after "I'd pick B1" or a choice
        named = _meant(trip_intent, chosen_too=True)
        held = named if re.search(rf"\b{_HOLD_VERB}\b", low) else None  # "hold it and book it"
    if named not in {b.get("bundle_id") for b in bundles}:
        return {}
    return {"bundle_id": named, "hold": True} if held else {"bundle_id": named}


def _approval_hold(
    asked: re.Match[str], low: str, trip_intent: Dict[str, Any], message: Dict[str, Any]
) -> Dict[str, Any]:
    """ "send B2 to my manager for approval": pick (if named) and hold, which asks the approver."""
    bundles = _on_screen(trip_intent)
    said = [asked.group(k) for k in ("pick", "what", "what2", "what3", "what4") if asked.group(k)]
    named = [w for w in said if not re.fullmatch(r"it|this|that|them|(?:this|that) one", w)]
    if not named:
        return {"type": "USER_REQUEST_HOLD", "data": {}}
    slots = set(((trip_intent.get("status") or {}).get("pending_question") or {}).get("slots") or [])
    picked = _said_pick(pick_words(named[0]), bundles, slots) if bundles else None
    if picked in {b.get("bundle_id") for b in bundles}:
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": picked, "hold": True}}
    if picked:
        message["data"]["unknown_bundle_id"] = picked
    return message


# "B1's flights with B2's hotel", "flights from option 2 but the hotel from option 1", "b2 but with the
# hotel from b4": parts of two options put together. The option on screen that is that pair is chosen;
# with none, the Reducer says what the desk can do (each option is priced and held as a whole).
_FLIGHT_PART = r"(?:flights?|fares?|planes?|airfares?|air)"
_HOTEL_PART = r"(?:hotels?|rooms?|stays?|accommodations?|lodging)"
_PART_OF = [
    re.compile(rf"\bb(\d{{1,2}})(?:'?s)?\s+(?:(?P<f>{_FLIGHT_PART})|(?P<h>{_HOTEL_PART}))\b"),
    re.compile(
        rf"\b(?:(?P<f>{_FLIGHT_PART})|(?P<h>{_HOTEL_PART}))\s+(?:from|of|in|on|that\s+(?:comes?|goes)\s+with)\s+"
        rf"(?:the\s+)?(?:one\s+(?:in|of)\s+)?b(\d{{1,2}})\b(?!'?s?\s+(?:{_FLIGHT_PART}|{_HOTEL_PART})\b)"
    ),
]
_ORDINAL_PICK = re.compile(rf"\b(?:the\s+)?({'|'.join(ORDINALS)})(?:\s+(?:one|option|bundle))?\b")


def mixed_parts(low: str) -> Optional[Dict[str, str]]:
    """The option each part comes from when a text puts two options' parts together
    (``{"flights": "B1", "hotel": "B2"}``), else None."""
    text = _numbers_plain(low)
    text = re.sub(r"\bnumber (\d{1,2})\b", r"b\1", text)
    text = _ORDINAL_PICK.sub(lambda m: f"b{ORDINALS[m.group(1)]}", text)
    parts: Dict[str, str] = {}
    for pattern in _PART_OF:
        for m in pattern.finditer(text):
            n = next(g for g in m.groups() if g and g.isdigit())
            kind = "flights" if m.group("f") else "hotel"
            if parts.get(kind, f"B{int(n)}") != f"B{int(n)}":
                return None  # "compare b1's hotel with b2's hotel": two of one part, no pair
            parts[kind] = f"B{int(n)}"
    named = [f"B{int(n)}" for n in re.findall(r"\bb(\d{1,2})\b", text)]
    if len(parts) == 1:  # "b2 but with the hotel from b4": the other part from the other option named
        others = {b for b in named if b not in parts.values()}
        if len(others) == 1:
            parts["hotel" if "flights" in parts else "flights"] = others.pop()
    if len(parts) != 2 or parts["flights"] == parts["hotel"]:
        return None
    return parts


def _mix(parts: Dict[str, str], bundles: List[Dict[str, Any]], message: Dict[str, Any]) -> Dict[str, Any]:
    """The option on screen that has one option's flights and another's hotel, else the message, marked."""
    by_id = {b.get("bundle_id"): b for b in bundles}
    flights_from, hotel_from = by_id.get(parts["flights"]), by_id.get(parts["hotel"])
    if flights_from is None or hotel_from is None or not hotel_from.get("hotels") or not flights_from.get("flights"):
        message["data"]["mix"] = parts
        return message
    pair = next(
        (
            b
            for b in bundles
            if _items(b, "flights") == _items(flights_from, "flights")
            and _items(b, "hotel") == _items(hotel_from, "hotel")
        ),
        None,
    )
    if pair is None:
        message["data"]["mix"] = parts
        return message
    because = {"why": "mixed", "flights_from": parts["flights"], "hotel_from": parts["hotel"]}
    return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": pair["bundle_id"], "because": because}}


def _changes_trip(clause: str) -> bool:
    """Whether a clause said beside a pick changes the search: a filter let go of ("stars don't
    matter") or a wish ("nonstop", "no hotel", "4 stars"); naming a part ("the flight") is none."""
    if read_relax(clause)[0]:
        return True
    mentions = {"flights_needed": True, "hotel_needed": True, "one_way": False}
    if any(read_airlines(clause)[0].values()):  # "lets do b1 but on delta"
        return True
    return any(v is not None and mentions.get(k, object()) != v for k, v in read_preferences(clause).items())


def _changes_party(clause: str, trip_intent: Dict[str, Any]) -> bool:
    """Whether a clause said beside a pick changes who travels ("b4 but for 3 people", "b2 and 2 kids")."""
    said = read_party(clause)
    going = travellers(trip_intent)
    return any(said.get(k) is not None and said[k] != going.get(k) for k in ("adults", "children", "infants"))


def _hold_pick(low: str, bundles: List[Dict[str, Any]], pending_slots: set) -> Optional[str]:
    """The bundle a text asks to pick and hold in one breath, else None."""
    for pattern in _HOLD_PICK:
        m = pattern.match(low)
        if m:
            rest = _HOLD_SCOPE.sub("", m.group("rest").strip(" ,;"))  # "the 6:40 one, and hold it"
            named = _said_pick(rest, bundles, pending_slots)
            if named is None:
                explicit = set(EXPLICIT_ID_RE.findall(rest))
                named = f"B{int(explicit.pop())}" if len(explicit) == 1 else None
            if named is not None:
                return named
    return None


# "perfect, that one", "this one please": a pick that points at no option unless one is chosen already.
THAT_ONE_RE = re.compile(
    rf"^{_FILLER}(?:(?:{_SELECT_VERB})?(?:that|this) one"
    r"|(?:i'?ll|ill|we'?ll|let'?s|lets|i|we)(?:'d| would| will)? (?:take|go with|go for|book) (?:it|that))"
    rf"{_GOOD_TAIL}"
)
# "ok do that", "go with that", "yes please, that one 👍", "lets book it": said right after an option was
# put forward or asked about ("I'd pick B1"), that option; with none discussed, these words name nothing.
ACCEPT_RE = re.compile(
    rf"^{_FILLER}(?:(?:please|pls|plz)[,.!]*\s+)?(?:(?:{_SELECT_VERB})(?:that|this|it)(?: one| option)?|(?:that|this) one)"
    rf"{_GOOD_TAIL}"
)
# what a chat adds around words and is no word: emoji, hearts, stray symbols
_SYMBOLS = re.compile(r"[^\w\s'’,.!?:;#$€£/&-]+")
# "how far is the hotel from downtown?", "is the hotel close to the beach": a question about the
# options on screen, never a wish for the trip (the extractor would read "hotel near downtown").
ABOUT_OPTIONS_RE = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+|um+)[,.!]*\s+)*(?:how\s+(?:far|close)\s+(?:is|are|'?s)\b"
    r"|(?:is|are)\s+(?:the|that|this|it|its|b\d{1,2}(?:'?s)?)\s+(?:\w+\s+)?(?:hotels?\s+)?(?:close|near|far|walking\s+distance)\b)"
)

# "do you know if disney is open on the 14th?", "any idea whether it snows there in january": a question
# about the world, never a change to the trip (the extractor would read "the 14th" as a date).
WORLD_QUESTION_RE = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+|um+|btw|also|oh)[,.!]*\s+)*(?:(?:do|would|did)\s+you\s+(?:happen\s+to\s+)?know"
    r"|any\s+idea|have\s+you\s+(?:heard|any\s+idea)|is\s+it\s+true)\s+(?:if|whether|when|what|how|why|where|who|that|about)\b"
)
# "why is the refundable one so expensive", "how come B3 has a stop": asks about the options, never a wish
# (the extractor would read "refundable" as wanting refundable options).
WHY_RE = re.compile(r"^(?:(?:and|so|but|hmm+|um+|ok(?:ay)?|wait)[,.!]*\s+)*(?:why|how\s+come)\b")
# "which has the fewest stops", "which is refundable", "which ones leave in the morning": a question
# about the options on screen, never a wish (the extractor would read "refundable" or "morning" as one)
WHICH_RE = re.compile(
    r"^(?:(?:and|so|but|hmm+|um+|ok(?:ay)?|wait|also|btw)[,.!]*\s+)*which\b(?!\s+(?:day|date|dates)\b)"
)
# "is breakfast included in b2", "do we get breakfast", "are checked bags included": a yes/no question about
# what an option includes, never a wish (the extractor would read "breakfast" as one and search again)
_INCLUDED = r"(?:a\s+|any\s+|free\s+)?(?:breakfast|meals?|food|(?:checked\s+|carry[- ]?on\s+)?bags?|a\s+checked\s+bag|luggage|baggage)"
INCLUDED_ASK_RE = re.compile(
    r"^(?:(?:and|so|but|hmm+|um+|ok(?:ay)?|wait|also|btw)[,.!]*\s+)*"
    rf"(?:(?:is|are)\s+(?:there\s+)?{_INCLUDED}(?:\s+included)?|(?:do|will|would)\s+(?:i|we|you)\s+get\s+{_INCLUDED}"
    rf"|(?:does|do)\s+(?:it|that|this|they|the\s+(?:hotel|room|fare|flights?)|b\d{{1,2}})\s+(?:include|have|come\s+with)\s+{_INCLUDED})"
    r"(?:\s+(?:included|with\s+(?:it|that|this|b\d{1,2})|in\s+(?:it|that|this|b\d{1,2}|the\s+(?:price|fare|rate))"
    r"|on\s+(?:it|that|this|b\d{1,2})|(?:for|with)\s+(?:the\s+)?(?:hotel|room|fare|flights?)))*\s*\??$"
)
# "can i cancel the hotel in B1 if plans change?", "what happens if we cancel?", "is it free to cancel
# later": a question about the options' cancellation terms, never a wish to drop part of the trip.
CANCEL_TERMS_RE = re.compile(
    r"\bcancel\w*\b.*\b(?:if|later|afterwards?|for\s+free|free(?:\s+of\s+charge)?|fees?|penalt\w+|charged?"
    r"|until|before|up\s+to|deadline|without|refund\w*|money\s+back|last\s+minute|policy|terms)\b"
    r"|\b(?:what\s+(?:happens\s+)?if|what\s+about\s+if|in\s+case)\b.*\bcancel\w*\b"
    r"|\b(?:free|able|possible|allowed|ok)\s+to\s+cancel\b|\bcancellation\b"
)


# "can we cancel the hotel?", "could I cancel it?": asked before anything is booked, a question about the
# terms (answered, with how to leave that part out), never the part dropped on the spot.
CAN_CANCEL_RE = re.compile(
    r"^(?:(?:and|so|but|hmm+|um+|ok(?:ay)?|wait|also)[,.!]*\s+)*(?:can|could|may|would)\s+(?:we|i|you)\s+"
    r"(?:still\s+|later\s+|easily\s+|then\s+)?cancel\s+(?:the|our|my|this|that|it|them|b\d{1,2})\b"
)


def asks_about_cancelling(low: str) -> bool:
    """Whether a question asks about cancelling ("can I cancel B1 if plans change?"), not to drop something."""
    return is_question(low) and (CANCEL_TERMS_RE.search(low) is not None or CAN_CANCEL_RE.match(low) is not None)


# "whats the cheapest nonstop", "which is the fastest refundable one?": a superlative among the options
# that have a quality, answered from the screen (``options_answer.combined_answer``), never a nonstop-only
# search for a question; said as a pick ("the cheapest nonstop then"), the option it names is chosen
COMBINED_RE = re.compile(
    r"\b(?P<most>cheapest|least\s+expensive|lowest[- ]priced|fastest|quickest|shortest)\s+"
    r"(?:(?:one|option)\s+(?:with\s+(?:a\s+|the\s+)?|that'?s\s+|that\s+is\s+))?"  # "the cheapest one with a nonstop"
    r"(?P<kind>non[- ]?stop|direct|refundable|flexible|cancell?able)\b"
)
COMBINED_PICK_RE = re.compile(
    rf"^(?:{_SELECT_VERB})?(?:(?:on|with) )?(?:the |that )?{COMBINED_RE.pattern}"
    r"(?: (?:one|option|bundle|choice|flights?|fares?|trip|combo))?$"
)


def combined_options(low: str, bundles: List[Dict[str, Any]]) -> Optional[Tuple[str, str, List[Dict[str, Any]]]]:
    """ "The cheapest nonstop" among the options on screen: ("cheapest" or "fastest", "nonstop" or
    "refundable", the options of that kind, best first); None when the text says no such thing."""
    m = COMBINED_RE.search(low)
    if not m or not bundles:
        return None
    nonstop = m.group("kind").startswith(("non", "direct"))
    cheap = m.group("most").startswith(("cheap", "least", "lowest"))
    fitting = [
        b for b in bundles if (bool(b.get("flights")) and _stops(b) == 0 if nonstop else bool(b.get("refundable")))
    ]
    fitting.sort(key=lambda b: float(b.get("total") or "inf") if cheap else _flight_minutes(b))
    return ("cheapest" if cheap else "fastest"), ("nonstop" if nonstop else "refundable"), fitting


# "is there a nonstop cheaper than b1", "any refundable option cheaper than B4?", "a cheaper nonstop than b2?":
# answered from the options on screen (``options_answer.kind_cheaper_answer``), never a nonstop-only search
_KIND = r"non[- ]?stops?|directs?|refundable|flexible|cancell?able"
KIND_CHEAPER_RE = re.compile(
    rf"\b(?P<kind>{_KIND})\b(?:\s+(?:one|ones|option|options|flights?|fares?|trip|combo))?\s+(?:that'?s\s+|that\s+is\s+)?"
    r"(?:cheaper|less\s+expensive)\s+than\s+(?:b|option\s*)(?P<ref>\d{1,2})\b"
    rf"|\b(?:cheaper|less\s+expensive)\s+(?P<kind2>{_KIND})\b(?:\s+(?:one|option|flights?|fares?))?\s+than\s+(?:b|option\s*)(?P<ref2>\d{{1,2}})\b"
)


def kind_cheaper(low: str, bundles: List[Dict[str, Any]]) -> Optional[Tuple[str, Dict[str, Any], List[Dict[str, Any]]]]:
    """ "A nonstop cheaper than B1" among the options on screen: ("nonstop" or "refundable", B1, the options
    of that kind cheaper than it, cheapest first); None when the text says no such thing or B1 is not shown."""
    m = KIND_CHEAPER_RE.search(low)
    if not m:
        return None
    ref = next((b for b in bundles if b.get("bundle_id") == f"B{int(m.group('ref') or m.group('ref2'))}"), None)
    if ref is None:
        return None
    nonstop = (m.group("kind") or m.group("kind2")).startswith(("non", "direct"))
    fitting = [
        b
        for b in bundles
        if float(b.get("total") or "inf") < float(ref.get("total") or "inf") - 0.005
        and (bool(b.get("flights")) and _stops(b) == 0 if nonstop else bool(b.get("refundable")))
    ]
    fitting.sort(key=lambda b: float(b.get("total") or "inf"))
    return ("nonstop" if nonstop else "refundable"), ref, fitting


# "drop the red eyes", "get rid of the jetblue ones", "remove the connecting flights", "lose the 1 star
# hotels": the options with that feature taken away, said as the wish that does it ("no red-eyes")
DROP_OPTIONS_RE = re.compile(
    r"^(?:(?:ok(?:ay)?|yeah|hmm+|actually|also|and|pls|please|so)[,.!]*\s+)*(?:(?:can|could)\s+(?:you|u|we)\s+|let'?s\s+|pls\s+|please\s+)?"
    r"(?:drop|remove|lose|ditch|get\s+rid\s+of|take\s+out|cut|exclude|hide|eliminate|filter\s+out|no\s+more)\s+"
    r"(?:all\s+)?(?:the\s+|those\s+|these\s+|any\s+)?(?:ones?\s+(?:with|on)\s+(?:a\s+|the\s+)?)?(?P<what>[\w★*' -]{2,30}?)"
    r"(?:\s+(?:ones?|options?|flights?|fares?|bundles?))?(?:\s+(?:please|pls|plz|thanks|too|as\s+well))*\s*[.!]*$"
)
_DROPPED = [
    (r"red[- ]?eyes?|overnight(?:\s+flights?)?|overnights|night\s+flights?", "no red-eyes"),
    (r"stops?|connections?|connecting|layovers?|one[- ]stops?|1[- ]stops?", "nonstop only"),
    (r"non[- ]?refundable|nonrefundable", "refundable only"),
]


def dropped_as_wish(low: str) -> Optional[str]:
    """The wish that takes away the options "drop the red eyes" names ("no red-eyes", "avoid JetBlue",
    "3 star hotel or better"), else None (then the words are read as they are: "drop the hotel")."""
    m = DROP_OPTIONS_RE.match(low)
    if not m:
        return None
    what = m.group("what").strip()
    for pattern, wish in _DROPPED:
        if re.fullmatch(pattern, what):
            return wish
    stars = re.fullmatch(r"([1-4])[ -]?(?:stars?|★|\*)(?: hotels?| ones?)?", what)
    if stars:
        return f"{int(stars.group(1)) + 1} star hotel or better"
    codes = airlines_named(what)
    return f"avoid {AIRLINE_NAMES.get(codes[0], codes[0])}" if len(codes) == 1 else None


# "anything cheaper if we leave the 13th", "would it be cheaper to fly out the 15th?", "how much if we come
# back on the 6th", "what if i leave on the 13th": another day asked about while options are on screen, a
# question to answer (the Reducer offers to search it), never the trip moved on the spot
_WHAT_IF = re.compile(
    r"\b(?:what\s+if|if\s+(?:we|i|you|they|she|he)\b|would\s+it\s+be|will\s+it\s+be|is\s+it\s+(?:cheaper|less|more|any)"
    r"|how\s+much\s+(?:would|will|is|if|for|to|more|less|cheaper)|(?:any|anything|something)\s+cheaper|cheaper\s+(?:to|if|leaving"
    r"|returning|coming|flying|going|on)|would\s+(?:leaving|flying|going|coming|returning)|does\s+(?:leaving|flying|it))\b"
)
_DAY_SAID = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)\b|the\s+\d{1,2}\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\w*\.?\s+\d{1,2}\b"
    r"|\d{1,2}/\d{1,2}\b|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b|a\s+day\s+(?:earlier|later)"
    r"|the\s+(?:day|week)\s+(?:before|after)|tomorrow|next\s+week)"
)


# "the 2nd one, and is it refundable?", "b3 - does it have breakfast?": an option named, then asked about
_PICK_THEN_ASK = re.compile(r"^(?P<pick>[^,?;]{2,40}?)\s*(?:[,;:]|\s-+\s|\band\b|\bbut\b)+\s*(?P<ask>[^?]+\??)\s*$")
# "b4 nonstop please", "b1 w/ breakfast pls", "lets do b2 in business": an option named by its id, then a
# wish with no comma or "but" between them (what follows is read as a change only if it is one)
_PICK_THEN_WISH = re.compile(
    r"^(?P<pick>(?:(?:let'?s|lets)\s+(?:do|go\s+with|go\s+for)\s+|(?:i'?ll|we'?ll|ill)\s+take\s+)?b\d{1,2})\s+"
    r"(?P<ask>(?!(?:please|pls|plz|thanks?|thx|ty|is|looks?|seems?|sounds?|it|then|one|or|vs|versus|the|that|this)\b)\w[^?]*)$"
)
# "b2 nonstop?", "b3 refundable?", "b1 breakfast included?": an option id and a few words asked of it (a
# question about that option, never a wish for the trip)
_ASKED_OF_ID = re.compile(
    r"^(?:is\s+|does\s+)?b\d{1,2}(?:'?s)?\s+(?!(?:but|and|with|w/|or|vs)\b)[a-z][\w\s'-]{1,30}\?+$"
)
# "hold on, the dates are wrong", "wait that's not right", "thats the wrong airport", "these arent the dates i
# wanted", "b1 looks good but the dates are wrong": something understood is wrong (``Intake`` asks what to
# fix; never a pick, never "Nothing changed.")
_PART = (
    r"(?:dates?|days?|months?|weeks?|weekends?|airports?|cit(?:y|ies)|destination|origin|route|hotels?|rooms?|stay|flights?|times?"
    r"|people|travell?ers|passengers|adults|kids|children|number\s+of\s+(?:people|travell?ers|adults))"
)
_WRONG = re.compile(
    r"\b(?:(?:that|this|it|these|those|something|smth|sth|everything|all\s+(?:of\s+)?this)\s*(?:'?s|s|\s+is|\s+are|'re|\s+looks?|\s+seems?)?"
    r"\s+(?:all\s+)?(?:not\s+(?:right|correct)|wrong|incorrect|off|messed\s+up)"
    r"|(?:that|this|it)\s*(?:isn'?t|is\s+not|isnt|ain'?t)\s+(?:right|correct)"
    r"|(?:that|this|it|something)\s+(?:does(?:n'?t|nt|\s+not)|do(?:n'?t|nt))\s+(?:look|seem|sound)\s+(?:right|correct)"
    r"|not\s+sure\s+(?:that|this|it)\s*(?:'?s|s|\s+is)\s+(?:right|correct)"
    rf"|(?:the\s+|my\s+|our\s+)?{_PART}\s+(?:is|are|'?s|'?re|look|looks?|seems?)\s+(?:all\s+)?(?:wrong|incorrect|off|not\s+right|messed\s+up)"
    rf"|(?:the\s+)?wrong\s+{_PART}"
    r"|(?:these|those|they|that|this)\s*(?:aren'?t|arent|are\s+not|isn'?t|isnt|is\s+not|'?re\s+not)\s+the\s+\w+(?:\s+\w+)?"
    r"\s+(?:i|we)\s+(?:wanted|asked\s+for|said|meant|picked|chose|put|gave|typed)"
    rf"|(?:you|u)\s+(?:got|have|put|read)\s+the\s+{_PART}\s+wrong)\b"
)


def says_wrong(text: str) -> bool:
    """The message says something understood is wrong ("the dates are wrong", "wait that's not right")."""
    return _WRONG.search(re.sub(r"[’`]", "'", (text or "").lower())) is not None


# the question said without its "?" ("b2 looks good but whats the layover", "the second one, is it
# refundable"): one that asks (not a request such as "can you hold it", "could you find a nonstop", nor a
# wish put as "what about a nonstop")
_ASKED_PLAIN = re.compile(
    r"^(?:(?:and|so|but|hmm+|um+|ok(?:ay)?|also|btw|just)[,.!]*\s+)*(?:what|whats|what'?s|how|hows|how'?s|when|where|which|who"
    r"|is|are|does|do|did|has|have|was|were|any)\b(?!\s+about\b)"
)


# "b2 is too expensive", "b1 is too long", "i dont like b3", "b4 is out", "the first one looks sketchy": one
# option put down, never chosen (the Reducer says so and answers about the others)
_PUT_DOWN = re.compile(
    r"\btoo\s+(?:\w+\s+)?(?:expensive|pricey|much|long|late|early|far|many|slow|costly|cheap|basic)\b|\ba\s+bit\s+much\b"
    r"|\bover\s*priced\b|\bover\s+(?:the\s+|our\s+|my\s+)?budget\b|\bpric(?:ey|ier)\b|\bexpensive\b|\bsketchy\b|\bdodgy\b"
    r"|\b(?:bad|terrible|awful|horrible)\b|\bnot\s+(?:great|good|ideal|ok|okay|for\s+(?:me|us)|an\s+option)\b|\bno\s+(?:good|way)\b"
    r"|\b(?:is|are|'s)\s+out\b|\b(?:don'?t|dont|do\s+not)\s+(?:like|want|love)\b|\b(?:hate|dislike)\b"
    r"|\b(?:won'?t|doesn'?t|does\s+not|will\s+not)\s+work\b|\bnope\b|\bmeh\b"
)
# words that choose even beside a put-down ("b3 is too expensive, lets do b2")
_PICK_VERB = re.compile(r"\b(?:let'?s|lets|go\s+(?:with|for)|take|book|pick|choose|hold|i'?ll|we'?ll|instead)\b")


def put_down(low: str, bundles: List[Dict[str, Any]]) -> Optional[str]:
    """The one option on screen ``low`` puts down ("b2 is too expensive"), else None."""
    if not _PUT_DOWN.search(low) or _PICK_VERB.search(low) or is_question(low):
        return None
    said = {f"B{int(n)}" for n in EXPLICIT_ID_RE.findall(low)}
    said |= {f"B{ORDINALS[w]}" for w in re.findall(rf"\b({'|'.join(ORDINALS)})\s+(?:one|option)\b", low)}
    shown = {b.get("bundle_id") for b in bundles}
    return said.pop() if len(said) == 1 and said <= shown else None


# the words that move a day said beside a pick ("B2 looks good but can we come back saturday instead")
_TRAVEL_VERB = re.compile(
    r"\b(?:come|coming|fly|flying|leave|leaving|return\w*|go|going|depart\w*|head\w*|get|getting|back|stay\w*"
    r"|check(?:ing)?\s+(?:in|out))\b"
)


def _pick_and_change(
    m: re.Match[str], bundles: List[Dict[str, Any]], trip_intent: Dict[str, Any], message: Dict[str, Any]
) -> Optional[Dict[str, Any]]:
    """An option named, then a change asked in the same message: "B1 but with a nicer hotel" (the option
    on screen like B1 with a nicer hotel, as if B1 were chosen), "b4, can you find a nonstop", "B2 looks
    good but can we come back saturday instead" (the change searched: read as said without the pick).
    None when the rest is no change ("b2, thanks") or asks about the option (answered for it)."""
    picked = _said_pick(m.group("pick"), bundles, set())
    rest = re.sub(r"^(?:(?:and|but|so|also|then)\s+)+", "", m.group("ask").strip())
    if picked is None or _ASKED_PLAIN.match(rest) or HOLD_ASK_RE.match(rest):
        return None
    if says_wrong(rest):  # "b1 looks good but the dates are wrong": what to fix is asked, nothing chosen
        return message
    wm = trip_intent.get("working_memory") or {}
    as_chosen = {**trip_intent, "working_memory": {**wm, "selected": {"bundle_id": picked}}}
    relative = _words_about_options(re.sub(r"^(?:with|w/)\s+", "", rest), message, bundles, as_chosen)
    if relative is not None:
        return relative
    if _changes_trip(rest) or _changes_party(rest, trip_intent) or _DAY_SAID.search(rest) and _TRAVEL_VERB.search(rest):
        message["data"]["read_as"] = rest
        return message
    return None


def asks_what_if_day(low: str) -> bool:
    """Whether ``low`` asks about another day without asking to move the trip ("is it cheaper on the 4th?")."""
    return bool(_WHAT_IF.search(low) and _DAY_SAID.search(low)) and not re.search(
        r"\b(?:change|move|switch|let'?s|please|pls)\b", low
    )


def _unbooked(trip_intent: Dict[str, Any]) -> bool:
    """Nothing bought yet: "cancel it" after a purchase is about the booking, not a hold."""
    return not (trip_intent.get("working_memory") or {}).get("bookings")


def _meant(trip_intent: Dict[str, Any], *, chosen_too: bool = False) -> Optional[str]:
    """The option a reply naming none means ("hold it", "ok lets book"): the one asked about since the
    last choice (choosing forgets what was discussed, ``handlers.reducer.commerce``), else with
    ``chosen_too`` the one chosen; None when there is neither."""
    wm = trip_intent.get("working_memory") or {}
    talked_of = discussed(wm, _on_screen(trip_intent))
    if talked_of is not None:
        return talked_of.get("bundle_id")
    return (wm.get("selected") or {}).get("bundle_id") if chosen_too else None


def _hold_of_discussed(low: str, trip_intent: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """ "ok hold that one", "can you hold it til friday" right after a question about one option ("whats
    the layover on the first one"): that option, chosen and held; a bare "hold" keeps holding what is chosen."""
    meant = _meant(trip_intent) if re.search(r"\b(?:it|this|that)\b", low) else None
    return None if meant is None else {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": meant, "hold": True}}


def route_text(text: Any, trip_intent: Dict[str, Any]) -> Dict[str, Any]:
    """The event a chat text stands for. Pure: same text and trip ⇒ same event."""
    cleaned = clean_text(text)
    safe = redact_text(cleaned)
    message: Dict[str, Any] = {"type": "USER_MESSAGE", "data": {"text": safe}}
    low = re.sub(r"\s+", " ", cleaned.lower())
    if (
        contains_token_like(cleaned)
        or purchase_refused(cleaned.lower())
        or BUY_BARE_RE.search(low)
        and not _WHICH_TO_BUY.search(low)  # "ok which should i book": asked, answered from the options
        and _on_screen(trip_intent)
        and len(low) <= COMMAND_MAX_CHARS
    ):
        message["data"]["purchase_text_refused"] = True
        if honest_buy_wish(cleaned.lower()):  # "book B2": refused as a purchase, read as a pick
            message["data"]["buy_wish"] = True
            message["data"].update(_buy_pick(low, trip_intent))
        return message
    if len(low) > COMMAND_MAX_CHARS:
        return message
    if RETRY_RE.match(low):
        return {"type": "USER_RETRY", "data": {}}
    if HOLD_RE.match(low) or HOLD_ASK_RE.match(low):
        return _hold_of_discussed(low, trip_intent) or {"type": "USER_REQUEST_HOLD", "data": {}}
    asked = APPROVAL_ASK_RE.match(low)
    if asked:
        return _approval_hold(asked, low, trip_intent, message)
    if RELEASE_RE.match(low) and _unbooked(trip_intent):
        return {"type": "USER_RELEASE_HOLDS", "data": {}}
    if UNDO_RE.match(low) or FIRST_LIST_RE.match(low):
        message["data"]["back"] = "last" if UNDO_RE.match(low) else "first"
        return message
    bundles = _on_screen(trip_intent)
    if not bundles:
        return message
    pending = (trip_intent.get("status") or {}).get("pending_question") or {}
    as_leg = _leg_said_as_day(low, bundles)
    if as_leg:  # "anything earlier on tuesday?": read as "anything earlier on the way out?"
        low = message["data"]["read_as"] = as_leg
    dropped = dropped_as_wish(low)
    if dropped:  # "get rid of the jetblue ones": never read as a wish for JetBlue
        message["data"]["read_as"] = dropped
        return message
    if asks_what_if_day(low):
        message["data"]["what_if"] = True
    put = put_down(low, bundles)
    if put:  # "b2 is too expensive": never chosen
        message["data"]["put_down"] = put
        return message
    asked_of_one = _PICK_THEN_ASK.match(low) or _PICK_THEN_WISH.match(low)
    if _ASKED_OF_ID.match(low):  # "b2 nonstop?": answered for B2
        message["data"]["about_options"] = True
        return message
    if (
        asked_of_one
        and _said_pick(asked_of_one.group("pick"), bundles, set())
        and is_question(asked_of_one.group("ask"))
        and (asked_of_one.group("ask").endswith("?") or _ASKED_PLAIN.match(asked_of_one.group("ask")))
        and not HOLD_ASK_RE.match(asked_of_one.group("ask"))  # "b1, can you hold it?": picked and held
    ):
        message["data"]["about_options"] = True  # "the 2nd one, is it refundable?": answered for it, no wish
        return message
    changed = _pick_and_change(asked_of_one, bundles, trip_intent, message) if asked_of_one else None
    if changed:  # "b4, can you find a nonstop", "B1 but with a nicer hotel"
        return changed
    if (
        ABOUT_OPTIONS_RE.match(low)
        or INCLUDED_ASK_RE.match(low)
        or WHY_RE.match(low)
        or WHICH_RE.match(low)
        and not IN_POLICY_RE.search(low)  # "which ones are within policy": what the refusal card's button does
        or WORLD_QUESTION_RE.match(low)
        or asks_about_cancelling(low)
        and _unbooked(trip_intent)
        or is_question(low)
        and (COMBINED_RE.search(low) or kind_cheaper(low, bundles) is not None)
    ):
        message["data"]["about_options"] = True
        return message
    wm = trip_intent.get("working_memory") or {}
    talked_of = discussed(wm, bundles)  # "what's in the fourth one?" or "I'd pick B1" - "ok lets go with that one"
    bare = re.sub(r"\s+", " ", _SYMBOLS.sub(" ", low)).strip()
    combined = None if is_question(low) else COMBINED_PICK_RE.match(pick_words(bare))
    fitting = (combined_options(combined.group(0), bundles) or ("", "", []))[2] if combined else []
    if fitting:  # "the cheapest nonstop then": chosen among those on screen (none nonstop: a wish, searched)
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": fitting[0]["bundle_id"]}}
    if THAT_ONE_RE.match(bare) or talked_of and ACCEPT_RE.match(bare):
        chosen = talked_of.get("bundle_id") if talked_of else (wm.get("selected") or {}).get("bundle_id")
        if chosen in {b.get("bundle_id") for b in bundles}:
            return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": chosen}}
        message["data"]["which_one"] = True
        return message
    parts = mixed_parts(low)
    if parts:
        return _mix(parts, bundles, message)
    slots = set(pending.get("slots") or [])
    than = _THAN.search(low) if CHEAPER_RE.match(low.strip()) else None  # "cheaper than B2" names no pick
    held = None if than or is_question(low) and ASKS_ABOUT_RE.search(low) else _hold_pick(low, bundles, slots)
    if held in {b.get("bundle_id") for b in bundles}:
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": held, "hold": True}}
    asks_about = ASKS_ABOUT_RE.search(low) and (
        is_question(low)
        or re.match(r"(?:tell me|more |info|details|explain|describe|compare)", low)
        or ASKS_ABOUT_RE.match(low)
    )
    among = compared(wm, bundles) if _COMPARATIVE.search(low) and not is_question(low) else []
    if among:  # "compare b1 and b2" - "ok the cheaper one": the cheaper of those two
        named = _said_pick(_OF_THOSE.sub("", low), among, slots)
    else:
        named = None if than or asks_about else _said_pick(low, bundles, slots)
    if named is None and not is_question(low):
        unflown = _unflown_airline(pick_words(low.strip()), bundles)
        if unflown:  # "the delta one" and none flies Delta: said, never read as Delta's business cabin
            message["data"]["no_airline_on_screen"] = unflown
            return message
        unseen = _unseen_feature(pick_words(low.strip()))
        if unseen:  # "the one with the marriott" and no hotel on screen is one: said, with those there are
            message["data"]["not_on_screen"] = unseen
            return message
    if named is None:
        plain = pick_words(low.strip())
        if plain != low.strip() and not is_question(low):  # "the one that comes back latest"
            picked = _words_about_options(plain, {"type": "USER_MESSAGE", "data": {}}, bundles, trip_intent)
            if picked and picked["type"] == "USER_SELECTED_BUNDLE":
                return picked
        return _words_about_options(low.strip(), message, bundles, trip_intent) or message
    if named in {b.get("bundle_id") for b in bundles}:
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": named}}
    if named.startswith("@"):  # "the 10:55 one" and no flight on screen leaves then: said, with those that do
        message["data"]["no_flight_at"] = named[1:]
        return message
    message["data"]["unknown_bundle_id"] = named
    return message


class Router:
    """Handler: ``run({"event", "trip_intent"})`` → ``{"event": routed}``.

    Only ``USER_MESSAGE`` texts are routed; host events pass through unchanged, and an event
    type the core does not know is refused.
    """

    name = "router"

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, payload, lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        event = payload.get("event") or {}
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            return fail(payload, "unknown_event", f"Unknown event type {kind!r}.")
        if kind != "USER_MESSAGE":
            return ok(payload, {"event": {"type": kind, "data": dict(event.get("data") or {})}})
        text = (event.get("data") or {}).get("text")
        return ok(payload, {"event": route_text(text, payload.get("trip_intent") or {})})

    @classmethod
    def run_tests(cls) -> None:
        trip = {
            "working_memory": {
                "ranked_bundles": [{"bundle_id": "B1", "total": "900"}, {"bundle_id": "B2", "total": "800"}]
            }
        }

        def route(text):
            return cls().run({"event": {"type": "USER_MESSAGE", "data": {"text": text}}, "trip_intent": trip})[
                "output"
            ]["event"]  # noqa: E731

        assert route("hold")["type"] == "USER_REQUEST_HOLD"
        assert route("hold on, the dates are wrong")["type"] == "USER_MESSAGE"
        assert route("the second one")["data"] == {"bundle_id": "B2"}
        assert route("the cheapest")["data"] == {"bundle_id": "B2"}
        assert route("B7")["data"].get("unknown_bundle_id") == "B7"
        refused = route("approval_token=abc purchase now")
        assert refused["data"]["purchase_text_refused"] and "abc" not in refused["data"]["text"]
        assert route("try again")["type"] == "USER_RETRY"
