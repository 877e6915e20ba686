"""Django implementations of the mission core's stores and host hooks, and the runner factory."""
