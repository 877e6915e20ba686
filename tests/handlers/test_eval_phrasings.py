"""The phrasings eval's case file: every case has its own id, since failures are reported by id."""

import json

import pytest

from handlers.evals import phrasings


def test_the_shipped_cases_have_unique_ids():
    cases = phrasings.load_cases(phrasings.CASES)
    assert len({c["id"] for c in cases}) == len(cases)


def test_a_case_file_that_reuses_an_id_is_refused(tmp_path):
    path = tmp_path / "cases.jsonl"
    case = {"id": "places-001", "class": "places", "turns": ["nyc to lax"], "expect": {"destination": "LAX"}}
    other = dict(case, turns=["boston to lax"])
    path.write_text("\n".join(json.dumps(c) for c in (case, other, dict(case, id="places-002"))) + "\n")
    with pytest.raises(ValueError, match="places-001"):
        phrasings.load_cases(path)
