"""Every write to TripDesk's models, one keyword-only function per write (``<entity>_<verb>``).

A write, its audit event and its outgoing notifications share one durable transaction;
pushes and tasks leave only after commit.
"""
