"""The benchmark command in its quickest mode: it runs end to end and its report holds together.

No timing assertions (speed is what the command reports, not what tests decide): only that each
section ran, measured what it says, and that its figures are consistent with one another.
"""

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_quick(tmp_path: Path, sections: str, *extra: str) -> dict:
    out = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.run",
            "--quick",
            "--only",
            sections,
            "--json",
            str(out),
            "--logs",
            str(tmp_path / "logs"),
            *extra,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["quick"] is True
    for section in sections.split(","):
        assert section in report, f"no {section} section"
    return report | {"table": done.stdout}


def assert_ordered(summary: dict) -> None:
    assert summary["n"] > 0
    assert 0 < summary["median"] <= summary["p95"] <= summary["p99"] <= summary["max"]


@pytest.mark.slow
def test_in_process_websocket_and_ranker_sections(tmp_path):
    report = run_quick(tmp_path, "core,embedded,ranker")

    core = report["core"]
    assert core["scenario1_ms"]["n"] == 3
    assert_ordered(core["scenario1_ms"])
    assert core["decisions"] > 0 and core["decisions_per_second"] > 0
    long = core["after_turns"]
    assert long["prior_turns"] == 10 and long["fresh_cpu_ms"] > 0 and long["after_prior_cpu_ms"] > 0
    # One pair of a fresh and a long trip measured alternately: the ratio is that pair's.
    assert long["pair_ratios"] == [long["ratio"]] and long["ratio"] > 0

    embedded = report["embedded"]
    assert embedded["runs"] == 3 and embedded["errors"] == 0, embedded["error_samples"]
    assert_ordered(embedded["to_bundles_ms"])
    assert_ordered(embedded["turn_complete_ms"])
    # The turn's status frame follows its last message, so a turn completes after its bundles arrive.
    assert embedded["turn_complete_ms"]["median"] >= embedded["to_bundles_ms"]["median"]
    assert (tmp_path / "logs" / "embedded" / "uvicorn.log").exists()

    rows = report["ranker"]["results"]
    assert [row["flight_offers"] for row in rows] == [100, 1_000]
    assert all(row["combinations"] == row["flight_offers"] * row["hotel_rates"] for row in rows)
    assert all(row["median_ms"] > 0 for row in rows)

    assert "scenario 1 in-process" in report["table"] and "message → bundles" in report["table"]


@pytest.mark.slow
def test_host_section_measures_the_host_against_the_core(tmp_path):
    host = run_quick(tmp_path, "host")["host"]

    assert host["runs"] == 2 and host["core_cpu_ms"] > 0 and host["host_cpu_ms"] > 0
    # Two pairs of a core turn and a host turn measured alternately: the ratio is their median.
    assert len(host["pair_ratios"]) == 2 and abs(host["ratio"] - sum(host["pair_ratios"]) / 2) <= 0.01
    assert host["ratio_of_medians"] == round(host["host_cpu_ms"] / host["core_cpu_ms"], 2)
    # A search turn reads and writes the database: statements, transactions and stored bytes are counted.
    assert host["queries_per_turn"] >= host["commits_per_turn"] >= 1
    assert host["bytes_written_per_turn"] > 0
    assert sum(host["bytes_written_by_table"].values()) > 0 and "trips_toolrun" in host["bytes_written_by_table"]
    rows = host["offers"]
    assert [row["flight_offers_per_search"] for row in rows] == [20, 100]
    # Five times the offers per search cannot make a turn store less.
    assert rows[1]["bytes_written_per_turn"] > rows[0]["bytes_written_per_turn"]


@pytest.mark.integration
@pytest.mark.slow
def test_load_section_against_postgres_and_redis(tmp_path):
    report = run_quick(tmp_path, "load", "--travellers", "3")

    load = report["load"]
    assert "skipped" not in load, load.get("skipped")
    (result,) = load["results"]
    assert result["travellers"] == 3
    assert result["errors"] == 0, result["error_kinds"]
    # Each traveller loops journey after journey until the steady window ends, on trips enough for it.
    assert result["journeys"] >= 3 and sum(result["outcomes"].values()) == result["journeys"]
    assert result["outcomes"].get("held", 0) >= 1 and result["travellers_out_of_trips"] == 0
    assert result["turns"] >= 3 and result["turns_ok"] == result["turns"]
    assert_ordered(result["latency_ms"])
    assert_ordered(result["latency_ms_whole_run"])
    assert result["latency_ms"]["n"] <= result["latency_ms_whole_run"]["n"] == result["turns_ok"]
    # Served and asked are read over the steady window; offered is travellers ÷ mean pause.
    assert 0 < result["served_turns_per_s"] and 0 < result["asked_turns_per_s"]
    assert result["offered_turns_per_s"] == round(3 / 0.1, 2)
    assert result["whole_run_turns_per_s"] > 0
    # Both kinds of process talk to the database: the websocket (session, access, history) and the turn.
    assert result["queries"]["asgi"] > 0 and result["queries"]["celery"] > 0
    assert result["queries_per_turn"] == round(sum(result["queries"].values()) / result["turns"], 1)
    # The query log: what each side sends, and the commits that wrote (read-only ones cost no WAL flush).
    kinds = result["statements_per_turn_by_kind"]
    assert kinds["celery"].get("INSERT trips_chatmessage", 0) > 0 and kinds["asgi"]
    assert 0 < result["write_commits_per_turn"] <= result["commits_per_turn"]
    # What the run shared the PostgreSQL cluster with (checkpoints), and the WAL it wrote.
    assert set(result["pg_checkpoints"]) == {"requested", "timed"} and result["pg_wal_kb_per_turn"] > 0


def test_host_steps_time_each_step_where_the_turn_calls_it(monkeypatch):
    from benchmarks.host import Steps

    module = types.ModuleType("bench_steps_example")

    def spin(n: int) -> int:
        return sum(range(n))

    class Turn:
        def run(self) -> int:
            return module.spin(200_000)

    module.spin, module.Turn = spin, Turn
    monkeypatch.setitem(sys.modules, module.__name__, module)
    steps = Steps([f"{module.__name__}:spin", f"{module.__name__}:Turn.run"])
    steps.install()
    assert Turn().run() == sum(range(200_000))  # each step still does what it did
    taken = steps.reset()
    assert taken["Turn.run"] >= taken["spin"] > 0  # a step's time includes the steps it calls
    assert steps.reset() == {"spin": 0.0, "Turn.run": 0.0}  # nothing ran since
