"""Django implementations of the mission core's stores and host hooks (the core bound to them: ``factory``), and the turn that runs it (``turns``)."""
