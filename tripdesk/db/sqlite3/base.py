"""Django's SQLite backend, except how JSON columns are written.

SQLite keeps a JSON column as the text it is sent. Django writes it with ``json.dumps``' defaults:
a space after every ``,`` and ``:``, and every non-ASCII character as a ``\\uXXXX`` escape (the
bundles' "→", "★", accented hotel names). Written as ``json.dumps(separators=(",", ":"),
ensure_ascii=False)``, a search turn's TripIntent, tool runs, chat and audit rows are about 8 %
smaller, and read back as the same values. ``settings.DATABASES`` names this package as the
engine whenever ``DATABASE_URL`` is a SQLite one; everything else is Django's.
"""

import json
from typing import Any

from django.db.backends.sqlite3 import base
from django.db.backends.sqlite3.operations import DatabaseOperations as SQLiteOperations


class DatabaseOperations(SQLiteOperations):
    def adapt_json_value(self, value: Any, encoder: Any) -> str:
        return json.dumps(value, cls=encoder, separators=(",", ":"), ensure_ascii=False)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
