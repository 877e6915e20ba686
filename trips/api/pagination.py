"""Pagination for every list endpoint: ``?limit=`` and ``?offset=`` bounded before the database sees them."""

from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``LimitOffsetPagination`` whose page size is capped at ``max_limit`` and offset at the count.

    Unbounded, a 25-digit ``?limit=`` or ``?offset=`` reaches the database as a slice bound
    and fails there (a 500); capped, it simply returns the largest page or an empty one.
    """

    max_limit = 200

    def get_offset(self, request) -> int:
        return min(super().get_offset(request), self.count)
