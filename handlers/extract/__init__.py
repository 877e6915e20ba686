"""The offline requirements extractor: text -> requirements fields -> TripIntent patch.

``extract_fields`` reads one message (with the pending question and the trip so far);
``fields_to_patch`` turns fields, from here or from the LLM, into the patch the Patcher
merges; ``REQUIREMENTS_SCHEMA`` is the fields' JSON schema, shared with the LLM path.
"""

from .extractor import extract_fields, understood
from .patch import fields_to_patch
from .schema import REQUIREMENTS_SCHEMA, empty_fields
from .validate import clean_fields

__all__ = ["REQUIREMENTS_SCHEMA", "clean_fields", "empty_fields", "extract_fields", "fields_to_patch", "understood"]
