"""TripDesk mission core: framework-free handlers (see handlers/README.md and shared/spec/SPEC.md)."""
