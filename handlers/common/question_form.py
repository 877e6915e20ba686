"""Is a chat text phrased as a question? ("is B1 refundable?", "whats the layover in B4", "any nonstop")

One reading for every part that must tell a question from a wish or a pick, so they never
disagree about the same text:

- the router: a question names no pick ("is B2 refundable" does not choose B2);
- the answers about the options on screen: a question none of their facts answers is said so,
  never met with "Nothing changed.";
- the Reducer: a question that read as something the trip already holds is still answered;
- the extractor's bag wishes: "do the fares include bags?" tells no bags the party brings.

A text is a question when it ends with "?" or opens with a question word or an auxiliary verb
that starts a yes/no question, typed lower case and without apostrophes ("whats", "hows"), after
the words people type before one ("hmm", "ok so").
"""

from __future__ import annotations

import re

# Words that open a question: wh-words (with the apostrophe-less "whats"), and the auxiliaries that
# start a yes/no question ("is it refundable", "can we leave later", "any nonstop flights").
QUESTION_OPENERS = (
    "what",
    "which",
    "how",
    "why",
    "when",
    "where",
    "who",
    "whats",
    "hows",
    "wheres",
    "whens",
    "whos",
    "whys",
    "do",
    "does",
    "did",
    "is",
    "are",
    "can",
    "could",
    "will",
    "would",
    "should",
    "has",
    "have",
    "any",
)
# What people type before the question itself: "hmm which one…", "ok so is it…", "btw does it…"
_LEAD_IN = r"(?:(?:hmm+|um+|uh+|ok(?:ay)?|so|and|but|well|also|oh|hey|btw|wait|sorry)[,.!]*\s+)*"
QUESTION_RE = re.compile(rf"\?\s*$|^\W*{_LEAD_IN}(?:{'|'.join(QUESTION_OPENERS)})\b", re.I)


def is_question(text: str) -> bool:
    """Whether ``text`` is phrased as a question (any case; surrounding whitespace ignored)."""
    return bool(QUESTION_RE.search((text or "").strip()))
