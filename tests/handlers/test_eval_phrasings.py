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


def test_require_all_fails_the_run_when_a_case_is_not_understood(tmp_path, capsys):
    path = tmp_path / "cases.jsonl"
    understood = {"id": "places-001", "class": "places", "turns": ["nyc to lax"], "expect": {"destination": "LAX"}}
    path.write_text(json.dumps(understood) + "\n")
    assert phrasings.main(["--cases", str(path), "--require-all"]) == 0
    wrong = dict(understood, id="places-002", expect={"destination": "SFO"})
    path.write_text("\n".join(json.dumps(c) for c in (understood, wrong)) + "\n")
    assert phrasings.main(["--cases", str(path), "--require-all"]) == 1
    assert "FAIL places-002" in capsys.readouterr().out
    assert phrasings.main(["--cases", str(path)]) == 0  # a measurement, without the flag
