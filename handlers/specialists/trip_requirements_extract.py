"""trip_requirements_extract: the traveller's latest message as requirements and a TripIntent patch.

The LLM extractor (``deps.llm_extractor``) is used when the host configured one; when it is
absent or fails, the offline extractor answers instead, so a message is never lost to a model
outage. Either way the fields are cleaned to the shared schema and turned into a patch by the
same ``fields_to_patch``; what the model cost is passed on in ``accounting``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Dict, List, Tuple

from handlers.common.clock import local_today
from handlers.common.types import ok
from handlers.extract import clean_fields, empty_fields, extract_fields, fields_to_patch, understood
from handlers.extract.dates import Doubt
from handlers.extract.patch import revert_patch

from . import SELF_TEST_NOW, SpecialistTool


class TripRequirementsExtract(SpecialistTool):
    name = "trip_requirements_extract"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        args = dict(args) if isinstance(args, dict) else {}
        # how "03/04" reads: the trip's locale when the caller sends it, else the organisation's
        args["locale"] = args.get("locale") or (payload.get("org") or {}).get("locale")
        timezone = str(args.get("timezone") or (payload.get("org") or {}).get("timezone") or "UTC")
        today = _today(args.get("today"), now, timezone)
        current = args.get("current") if isinstance(args.get("current"), dict) else {}
        text = args.get("text") if isinstance(args.get("text"), str) else ""
        if isinstance(args.get("revert"), list):  # "undo that": the changes put back, nothing read
            back = revert_patch(current, args["revert"])
            return ok(
                payload,
                {"fields": empty_fields(), "patch": back or {}, "assumptions": [], "understood": bool(back)},
            )
        told: List[str] = []  # what the reader assumed and must say ("Assumed Columbus, Ohio ...")
        doubts: List[Doubt] = []  # dates that could mean two days ("03/04", "Tuesday Feb 3")
        fields, notes, accounting, source = self._fields(args, text, today, timezone, current, told, doubts)
        patch = fields_to_patch(fields, current, today)
        asked = _days_asked_about(fields, patch) if args.get("what_if") else {}
        if asked:  # "is it cheaper if we leave the 13th?": the days are offered, the trip stays as it is
            patch.pop("itinerary")
        known = ((current.get("status") or {}).get("assumptions")) or []
        if told:
            merged = list((patch.get("status") or {}).get("assumptions") or known)
            merged += [a for a in told if a not in merged]
            patch["status"] = {"assumptions": merged}
        assumptions = [a for a in (patch.get("status") or {}).get("assumptions") or [] if a not in known]
        return ok(
            payload,
            {
                "fields": fields,
                "patch": patch,
                "assumptions": assumptions,
                "understood": understood(fields),
                "notes": notes,
                "source": source,
                "accounting": accounting,
                # asked by naming the days it could be ("Do you mean Tue Mar 4 or Thu Apr 3?")
                # and a long trip by the one day it would end ("Do you mean Thu May 6? That is 63 nights...")
                "days_asked": asked,
                "date_doubts": [
                    {
                        "text": d.text,
                        "kind": d.kind,
                        "readings": [r.isoformat() for r in d.readings],
                        "since": d.since.isoformat() if d.since else None,
                        "slot": d.slot or None,
                    }
                    for d in doubts
                    if len(d.readings) == 2 or (d.kind == "long" and d.readings)
                ],
            },
        )

    def _fields(
        self,
        args: Dict[str, Any],
        text: str,
        today: date,
        timezone: str,
        current: Dict[str, Any],
        told: List[str],
        doubts: List[Doubt],
    ) -> Tuple[Dict[str, Any], List[str], List[Dict[str, Any]], str]:
        """(fields, notes, accounting, "llm" | "offline")."""
        accounting: List[Dict[str, Any]] = []
        notes: List[str] = []
        llm = self.deps.llm_extractor
        if llm is not None and text.strip():
            try:
                answer = llm.extract(
                    text=text,
                    pending_question=args.get("pending_question"),
                    today=today.isoformat(),
                    timezone=timezone,
                    current=current,
                    conversation=args.get("conversation") or [],
                )
            except Exception as exc:  # noqa: BLE001 - a broken model client must not cost the message
                answer = {"ok": False, "error": {"code": "llm_internal", "message": type(exc).__name__}}
            answer = answer if isinstance(answer, dict) else {}
            accounting = list(answer.get("accounting") or [])
            if answer.get("ok") and isinstance(answer.get("fields"), dict):
                return clean_fields(answer["fields"]), notes, accounting, "llm"
            error = answer.get("error") or {}
            notes.append(f"The language model was unavailable ({error.get('code', 'error')}); read offline instead.")
        fields, more = extract_fields(
            text=text,
            today=today,
            pending_question=args.get("pending_question"),
            current=current,
            conversation=args.get("conversation"),
            locale=args.get("locale") or "en-US",
            assumptions=told,
            doubts=doubts,
        )
        return fields, notes + more, accounting, "offline"

    @classmethod
    def run_tests(cls) -> None:
        def run(tool, text, **args):
            payload = {
                "args": {"text": text, "today": "2026-12-01", "timezone": "America/New_York", **args},
                "now": SELF_TEST_NOW.isoformat(),
                "trip_id": "t1",
            }
            result = tool.run(payload)
            assert result["success"], result
            return result["output"]

        tool = cls()
        out = run(tool, "4 people going from Newark to Denver for 3 nights on January 30")
        segs = out["patch"]["itinerary"]["segments"]
        assert [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in segs] == [
            ("EWR", "DEN", "2027-01-30"),
            ("DEN", "EWR", "2027-02-02"),
        ], segs
        assert out["patch"]["party"]["travelers"]["adults"] == 4
        stay = out["patch"]["itinerary"]["lodging"]["stays"][0]
        assert (stay["check_in"], stay["check_out"], stay["rooms"]) == ("2027-01-30", "2027-02-02", 2), stay
        assert "Assumed economy" in out["assumptions"] and out["understood"] is True

        bare = run(tool, "Los Angeles", pending_question={"slots": ["origin"], "text": "Where are you flying from?"})
        assert bare["fields"]["origin"]["name"] == "Los Angeles" and bare["fields"]["destination"] is None

        for junk in ("", "\x00\x01\x02", "asdf qwer zxcv", "x" * 1_000_000):
            nothing = run(tool, junk)
            assert nothing["understood"] is False and nothing["patch"] == {}, (junk[:20], nothing)

        class Broken:
            def extract(self, **_):
                return {
                    "ok": False,
                    "fields": None,
                    "accounting": [{"model": "m", "input_tokens": 5}],
                    "error": {"code": "timeout"},
                }

        fallback = run(cls(type(tool.deps)(llm_extractor=Broken())), "one way JFK to LAX on March 3, just me, no hotel")
        assert fallback["source"] == "offline" and fallback["accounting"] == [{"model": "m", "input_tokens": 5}]
        assert fallback["patch"]["itinerary"]["trip_type"] == "one_way"
        assert fallback["patch"]["itinerary"]["lodging"]["stays"] == []


# What a message changes besides its days when it names a place, the shape of the trip or a hotel
_BESIDES_DAYS = ("origin", "destination", "legs", "one_way", "stays", "nights", "hotel_needed", "flights_needed")


def _days_asked_about(fields: Dict[str, Any], patch: Dict[str, Any]) -> Dict[str, str]:
    """The outbound and return days a "what if" question names ("if we leave the 13th"), when the
    message changes nothing else of the itinerary; {} otherwise (then it is read as any change)."""
    days = {k: str(fields[k]) for k in ("depart_date", "return_date") if fields.get(k)}
    if not days or not patch.get("itinerary") or any(fields.get(k) for k in _BESIDES_DAYS):
        return {}
    return days


def _today(value: Any, now: datetime, timezone: str) -> date:
    """The traveller's day: the argument when it is a date, else ``now`` in their timezone."""
    if isinstance(value, str):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            pass
    return local_today(now, timezone)
