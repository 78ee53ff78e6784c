"""Games and their append-only event log; game state is a replay of the events."""
