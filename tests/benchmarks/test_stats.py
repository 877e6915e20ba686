"""Percentiles as the benchmark reports them (nearest rank) and the query totals it reads back."""

from benchmarks.querycount import totals
from benchmarks.stats import percentile, summary_ms


def test_nearest_rank_percentiles():
    values = list(range(1, 101))  # 1..100
    assert percentile(values, 0.50) == 50
    assert percentile(values, 0.95) == 95
    assert percentile(values, 0.99) == 99
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([3, 1, 2], 1.0) == 3


def test_summary_in_milliseconds():
    summary = summary_ms([0.010, 0.020, 0.030, 0.040])
    assert summary == {"n": 4, "median": 25.0, "p95": 40.0, "p99": 40.0, "max": 40.0}
    assert summary_ms([]) == {"n": 0, "median": None, "p95": None, "p99": None, "max": None}


def test_query_totals_are_summed_per_role(tmp_path):
    (tmp_path / "asgi-101.count").write_text("7")
    (tmp_path / "asgi-102.count").write_text("5")
    (tmp_path / "celery-201.count").write_text("40")
    (tmp_path / "celery-202.tmp").write_text("999")  # a write in progress is not a total
    assert totals(tmp_path) == {"asgi": 12, "celery": 40}
