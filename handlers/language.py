"""Is a message written in another language than English? (Only English is understood for now.)

Asked only of a message the extractor did not understand, so a wrong guess costs little: the
traveller is told English works, instead of a bare "didn't understand". Two signs, either is
enough: most letters outside the Latin script (Cyrillic, Greek, Arabic, Hebrew, CJK, …), or
several common words of the languages travellers most often write in instead.
"""

from __future__ import annotations

import re
from typing import FrozenSet

ENGLISH_ONLY = (
    "Sorry, I only understand English for now, so nothing changed. Please write your trip in English, "
    "for example: '2 people from Madrid to Paris on March 3, back March 7'."
)

ENGLISH_PARTLY = "I only understand English for now, so I may have missed part of that; here is what I could read."

# Frequent words of Spanish, French, German, Italian, Portuguese and Dutch that are not English
# words (nor town names a traveller types on their own).
_FOREIGN_WORDS: FrozenSet[str] = frozenset(
    """
    quiero necesito vuelo vuelos billete billetes viaje viajar para desde hasta personas noches hola gracias
    por una unos mañana próximo proximo ida vuelta habitación
    je voudrais veux besoin vol vols billet pour depuis jusqu nuits bonjour merci avec chambre semaine
    prochain aller retour nous sommes
    ich möchte brauche flug flüge nach von bis nächte hallo danke mit zimmer woche nächste hin zurück wir
    vorrei volo voli biglietto notti ciao grazie settimana prossimo andata ritorno
    preciso gostaria passagem voo voos noites olá obrigado semana próxima
    wil vlucht vluchten naar nachten bedankt kamer volgende
    """.split()
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def looks_non_english(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    if sum(1 for c in letters if ord(c) > 0x24F) / len(letters) > 0.3:
        return True
    words = [w.lower() for w in _WORD.findall(text)]
    foreign = sum(1 for w in words if w in _FOREIGN_WORDS)
    return foreign >= 2 or (foreign == 1 and len(words) <= 2)
