"""Dialogue-state accuracy on the SGD travel cases, through the product's own path.

    python -m handlers.evals.sgd --cases ../shared/datasets/sgd/dev.jsonl --predictions /tmp/dev.pred.jsonl [--llm]

Each user turn goes through ``TripRequirementsExtract`` (the system turn before it is the
pending question), its patch through the ``Patcher`` into a TripIntent, and the canonical slots
are read back from that TripIntent, exactly as a trip would hold them. Scoring is the dataset's
own ``score.py``, so the figures are comparable with anyone else's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

from handlers.common.carriers import AIRLINE_NAMES
from handlers.common.host import ToolDeps
from handlers.common.intent import new_trip_intent
from handlers.patcher import Patcher
from handlers.specialists.trip_requirements_extract import TripRequirementsExtract

DATASET_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "sgd"
# What the extractor may read of the trip so far (the Reducer sends the same slice).
CURRENT_KEYS = ("party", "itinerary", "preferences", "constraints", "status")
TIMEZONE = "UTC"


def load_cases(path: Path) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run_case(
    case: Dict[str, Any], *, extractor: TripRequirementsExtract, patcher: Optional[Patcher] = None
) -> Dict[str, Any]:
    """The canonical slots the trip holds after the case's user turns."""
    patcher = patcher or Patcher()
    now = datetime.fromisoformat(case["today"]).replace(hour=12, tzinfo=UTC).isoformat()
    doc = new_trip_intent(case["id"], datetime.fromisoformat(now), timezone=TIMEZONE)
    question: Optional[Dict[str, Any]] = None
    conversation: List[Dict[str, str]] = []
    for turn in case.get("turns") or []:
        text = turn.get("utterance") or ""
        if turn.get("speaker") != "user":
            question = {"text": text}
            conversation.append({"role": "assistant", "content": text})
            continue
        args = {
            "text": text,
            "pending_question": question,
            "today": case["today"],
            "timezone": TIMEZONE,
            "current": {k: doc.get(k) for k in CURRENT_KEYS},
            "conversation": list(conversation),
        }
        result = extractor.run({"args": args, "now": now, "trip_id": case["id"]})
        patch = (result.get("output") or {}).get("patch") if result.get("success") else None
        if patch:
            applied = patcher.run({"trip_intent": doc, "patch": patch, "now": now})
            if applied["success"]:
                doc = applied["output"]["trip_intent"]
        conversation.append({"role": "user", "content": text})
        question = None
    return canonical_slots(doc)


def _city(place: Any) -> Optional[str]:
    return place.get("name") if isinstance(place, dict) else None


def canonical_slots(doc: Dict[str, Any]) -> Dict[str, Any]:
    """SGD's canonical slots as this TripIntent holds them (None where it holds nothing)."""
    itinerary = doc.get("itinerary") or {}
    segments = itinerary.get("segments") or []
    out_leg = segments[0] if segments else {}
    back = segments[1] if len(segments) > 1 and itinerary.get("trip_type") == "round_trip" else {}
    lodging = itinerary.get("lodging") or {}
    stay = (lodging.get("stays") or [{}])[0]
    travelers = (doc.get("party") or {}).get("travelers") or {}
    adults, children = int(travelers.get("adults") or 0), int(travelers.get("children") or 0)
    flight = (doc.get("preferences") or {}).get("flight") or {}
    hotel = (doc.get("preferences") or {}).get("hotel") or {}
    airlines = flight.get("airlines") or flight.get("airlines_required") or []
    return {
        "origin": _city(out_leg.get("origin")),
        "destination": _city(out_leg.get("destination")),
        "depart_date": out_leg.get("depart_date"),
        "return_date": back.get("depart_date"),
        "hotel_city": stay.get("location_hint") or _city(out_leg.get("destination")),
        "check_in": stay.get("check_in"),
        "check_out": stay.get("check_out"),
        "travelers": (adults + children) or None,
        "guests": adults or None,
        "rooms": stay.get("rooms") or lodging.get("rooms"),
        "min_stars": hotel.get("min_stars"),
        "cabin": flight.get("cabin"),
        "airline": AIRLINE_NAMES.get(airlines[0]) if airlines else None,
    }


def predict(cases: Iterable[Dict[str, Any]], *, llm_extractor: Any = None) -> List[Dict[str, Any]]:
    extractor = TripRequirementsExtract(ToolDeps(llm_extractor=llm_extractor))
    patcher = Patcher()
    return [{"id": c["id"], "predicted": run_case(c, extractor=extractor, patcher=patcher)} for c in cases]


def write_predictions(path: Path, predictions: Iterable[Dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for line in predictions:
            handle.write(json.dumps(line) + "\n")


def score(cases_path: Path, predictions_path: Path, *, scorer: Optional[Path] = None) -> Dict[str, Any]:
    """The dataset's ``score.py --json`` result (per-slot, joint overall and per kind)."""
    scorer = scorer or _scorer_for(cases_path)
    done = subprocess.run(
        [sys.executable, str(scorer), str(cases_path), str(predictions_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _scorer_for(cases_path: Path) -> Path:
    beside = cases_path.resolve().parent / "score.py"
    return beside if beside.exists() else DATASET_DIR / "score.py"


def _llm_from_env() -> Any:
    from handlers.llm.factory import llm_extractor_from_env

    return llm_extractor_from_env(os.environ)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handlers.evals.sgd", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=DATASET_DIR / "dev.jsonl")
    parser.add_argument("--predictions", type=Path, required=True)
    parser.add_argument("--llm", action="store_true", help="use the OpenAI extractor from OPENAI_* variables")
    parser.add_argument("--limit", type=int, default=None, help="only the first N cases")
    opts = parser.parse_args(argv)
    llm = None
    if opts.llm:
        llm = _llm_from_env()
        if llm is None:
            parser.error("--llm needs OPENAI_API_KEY or OPENAI_BASE_URL")
    cases = load_cases(opts.cases)[: opts.limit] if opts.limit else load_cases(opts.cases)
    cases_path = opts.cases
    if opts.limit:
        cases_path = opts.predictions.with_suffix(".cases.jsonl")
        write_predictions(cases_path, cases)
    write_predictions(opts.predictions, predict(cases, llm_extractor=llm))
    result = score(cases_path, opts.predictions, scorer=_scorer_for(opts.cases))
    for slot, accuracy in result["slots"].items():
        print(f"{slot:12s} {accuracy:.4f}")
    print("joint " + " ".join(f"{kind}={value:.4f}" for kind, value in result["joint"].items()))
    print(f"slot_micro {result['slot_micro']:.4f}  cases {result['cases']}  predicted {result['predicted']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
