"""Django's SQLite backend with JSON columns written compactly (``base``)."""
