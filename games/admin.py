"""Admin views of games, where admins review replays."""
