"""The Django app that hosts the TripDesk mission core (``handlers/``)."""
