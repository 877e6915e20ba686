"""Django's PostgreSQL backend with bulk inserts written as multi-row ``VALUES`` (``compiler``)."""
