"""Offline evaluations of the mission core against public data (``python -m handlers.evals.sgd``)."""
