"""Admin views of notifications."""
