"""Django's PostgreSQL backend, except how ``bulk_create`` sends its rows (see ``compiler``).

``settings.DATABASES`` names this module's package as the engine whenever ``DATABASE_URL`` is a
PostgreSQL one; everything else is Django's (``Subclassing the built-in database backends``).
"""

from django.db.backends.postgresql import base
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations


class DatabaseOperations(PostgresOperations):
    compiler_module = "tripdesk.db.postgresql.compiler"


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
