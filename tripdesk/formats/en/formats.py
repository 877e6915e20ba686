"""Dates and times as the back office shows them: always with the zone's name ("Mon Nov 23, 2026, 11:23 AM EST"; minutes even on the hour, the same clock as the chat)."""

DATETIME_FORMAT = "D M j, Y, g:i A T"
SHORT_DATETIME_FORMAT = "m/d/Y g:i A T"
