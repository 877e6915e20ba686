"""A logging filter that masks approval tokens, card numbers and secrets in every log record."""

import logging

from handlers.common.redact import redact, redact_text


class RedactingFilter(logging.Filter):
    """Rewrites the record's message and arguments through ``handlers.common.redact``.

    It runs on the handler, so third-party loggers (Celery, Django's request log) are covered too.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact_text(record.msg)
        if isinstance(record.args, dict):
            record.args = redact(record.args)
        elif isinstance(record.args, tuple):
            record.args = tuple(
                redact(arg) if isinstance(arg, (str, dict, list, tuple)) else arg for arg in record.args
            )
        return True
