"""Notifications: telling players by email that it is their turn, and reading replies."""
