"""TripRequirementsExtract: the offline path, the LLM path and its fallback (handlers/specialists)."""

from handlers.common.host import ToolDeps
from handlers.specialists.trip_requirements_extract import TripRequirementsExtract

NOW = "2026-12-01T19:00:00+00:00"


def run(text, deps=None, **args):
    payload = {
        "args": {"text": text, "today": "2026-12-01", "timezone": "America/New_York", **args},
        "now": NOW,
        "trip_id": "t1",
    }
    result = TripRequirementsExtract(deps or ToolDeps()).run(payload)
    assert set(result) == {"success", "input", "output", "stack"}
    return result


def test_run_tests_battery():
    TripRequirementsExtract.run_tests()


def test_output_shape():
    out = run("4 people going from Newark to Denver for 3 nights on January 30")["output"]
    assert {"fields", "patch", "assumptions", "understood", "notes"} <= set(out)
    assert out["source"] == "offline" and out["accounting"] == []


def test_today_comes_from_now_and_the_timezone_when_not_given():
    # 03:00 UTC on Dec 2 is still Dec 1 in New York: "tomorrow" is Dec 2.
    payload = {
        "args": {"text": "JFK to LAX tomorrow", "timezone": "America/New_York"},
        "now": "2026-12-02T03:00:00+00:00",
    }
    out = TripRequirementsExtract().run(payload)["output"]
    assert out["fields"]["depart_date"] == "2026-12-02"


class FakeModel:
    def __init__(self, answer):
        self.answer = answer
        self.calls = []

    def extract(self, **kwargs):
        self.calls.append(kwargs)
        return self.answer


def test_the_llm_answer_is_used_and_cleaned():
    fields = {
        "origin": {"type": "airport", "code": "ewr", "name": "Newark"},
        "destination": {"code": "ZZZ"},
        "depart_date": "2027-01-30",
        "adults": 4,
        "cabin": "luxury",
        "sneaky": "drop me",
    }
    model = FakeModel({"ok": True, "fields": fields, "accounting": [{"model": "m", "usd": 0.001}], "error": None})
    out = run(
        "4 from Newark on Jan 30", ToolDeps(llm_extractor=model), conversation=[{"role": "user", "content": "hi"}]
    )["output"]
    assert out["source"] == "llm" and out["accounting"] == [{"model": "m", "usd": 0.001}]
    assert out["fields"]["origin"] == {"type": "airport", "code": "EWR", "name": "Newark"}
    assert out["fields"]["destination"] is None and out["fields"]["cabin"] is None and "sneaky" not in out["fields"]
    assert model.calls[0]["today"] == "2026-12-01" and model.calls[0]["conversation"] == [
        {"role": "user", "content": "hi"}
    ]


def test_a_failed_llm_falls_back_offline_and_keeps_its_accounting():
    model = FakeModel(
        {
            "ok": False,
            "fields": None,
            "accounting": [{"model": "m", "error": "timeout"}],
            "error": {"code": "timeout", "message": "slow", "retryable": True},
        }
    )
    out = run("one way JFK to LAX on March 3", ToolDeps(llm_extractor=model))["output"]
    assert out["source"] == "offline" and out["accounting"] == [{"model": "m", "error": "timeout"}]
    assert out["fields"]["origin"]["code"] == "JFK" and out["notes"]


def test_an_llm_that_raises_or_returns_junk_never_breaks_the_turn():
    class Raising:
        def extract(self, **_):
            raise RuntimeError("boom")

    for model in (Raising(), FakeModel("junk"), FakeModel({"ok": True, "fields": "junk"})):
        out = run("JFK to LAX", ToolDeps(llm_extractor=model))["output"]
        assert out["source"] == "offline" and out["fields"]["destination"]["code"] == "LAX"


def test_bad_arguments_are_not_understood():
    for args in ({"text": None}, {"text": 5, "current": "x", "pending_question": 3}, {}):
        result = TripRequirementsExtract().run({"args": args, "now": NOW})
        assert result["success"] is True and result["output"]["understood"] is False
    assert TripRequirementsExtract().run({"args": "nonsense"})["success"] is False  # no now, no clock
