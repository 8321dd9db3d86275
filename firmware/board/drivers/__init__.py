"""One class per chip or part, given its pins."""
