"""Bulk inserts as multi-row ``VALUES (…), (…)``, not Django 5.2's ``UNNEST`` of one array per column.

A turn's transaction inserts its chat messages, audit events and tool runs a few rows at a time,
with JSON columns of up to hundreds of kilobytes. Sent as arrays, psycopg writes each JSON text
into an array literal, escaping every ``"`` with a Python-level ``re.sub`` callback: under load
that was a quarter of the Celery workers' CPU. Row by row, each value is one parameter, quoted
by libpq. ``UNNEST`` saves planning time for thousands of rows, which TripDesk never inserts at once.
"""

from django.db.backends.postgresql.compiler import (
    SQLAggregateCompiler,
    SQLCompiler,
    SQLDeleteCompiler,
    SQLUpdateCompiler,
)
from django.db.backends.postgresql.compiler import SQLInsertCompiler as PostgresInsertCompiler
from django.db.models.sql.compiler import SQLInsertCompiler as GenericInsertCompiler

__all__ = [
    "SQLAggregateCompiler",
    "SQLCompiler",
    "SQLDeleteCompiler",
    "SQLInsertCompiler",
    "SQLUpdateCompiler",
]


class SQLInsertCompiler(PostgresInsertCompiler):
    def assemble_as_sql(self, fields, value_rows):
        return GenericInsertCompiler.assemble_as_sql(self, fields, value_rows)
