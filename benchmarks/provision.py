"""Travellers for a benchmark run: ``python -m benchmarks.provision --travellers N``.

Runs against whatever database the environment points the app at (the benchmark sets
``DATABASE_URL`` to a scratch database). Creates one organisation with the default policy
(holds need no approver), N travellers in it, ``--trips`` new trips each (one per journey the load test may run), and
signs each traveller in the way Django's test client does (``Client.force_login``: a real session
row, no password hashing). Prints one JSON list: ``[{"username", "trip_ids", "session_id"}, ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def travellers_create(*, count: int, prefix: str, trips: int = 1) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from trips.models import Membership
    from trips.services.orgs import member_add, organisation_create
    from trips.services.trips import trip_create

    organisation = organisation_create(name="Benchmark Travel", slug="bench")
    User = get_user_model()
    rows = []
    for i in range(count):
        user = User.objects.create(username=f"{prefix}{i:04d}", email=f"{prefix}{i:04d}@example.com")
        member_add(user=user, organisation=organisation, role=Membership.Role.TRAVELLER)
        trip_ids = [
            trip_create(owner=user, organisation=organisation, title=f"Benchmark trip {i}.{k}").pk for k in range(trips)
        ]
        client = Client()
        client.force_login(user)
        rows.append({"username": user.username, "trip_ids": trip_ids, "session_id": client.cookies["sessionid"].value})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--travellers", type=int, required=True)
    parser.add_argument("--trips", type=int, default=1, help="trips per traveller")
    parser.add_argument("--prefix", default="bench")
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")
    import django

    django.setup()
    json.dump(travellers_create(count=options.travellers, prefix=options.prefix, trips=options.trips), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
