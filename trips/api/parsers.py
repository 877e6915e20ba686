"""The API's JSON parser, bounded like the websocket: size and nesting depth before parsing.

A body over ``MAX_BODY_BYTES`` is 413 without being read further; invalid UTF-8, invalid JSON
or JSON nested deeper than ``MAX_JSON_DEPTH`` is 400 (``trips.web.protocol.json_parse_bounded``,
the websocket's own rule). What the document *says* is then checked by the one action schema.
"""

from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

from trips.web.protocol import MAX_JSON_DEPTH, FrameError, json_parse_bounded

MAX_BODY_BYTES = 64 * 1024  # a 4,000-character message, every character escaped, fits


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = f"A request body may be at most {MAX_BODY_BYTES // 1024} KB."
    default_code = "body_too_large"


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise BodyTooLarge()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("The body is not valid UTF-8.") from None
        try:
            return json_parse_bounded(text, max_depth=MAX_JSON_DEPTH)
        except FrameError as exc:
            raise ParseError(exc.message) from None
