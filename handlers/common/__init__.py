"""Shared types, stores, defaults and helpers for the mission core (not handlers themselves)."""
