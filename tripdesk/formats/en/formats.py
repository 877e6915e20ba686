"""Dates and times as the back office shows them: always with the zone's name ("Mon Nov 23, 2026, 11:23 a.m. EST")."""

DATETIME_FORMAT = "D N j, Y, P T"
SHORT_DATETIME_FORMAT = "m/d/Y P T"
