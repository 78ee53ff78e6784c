"""What keeps open game pages current without replaying or re-sending whole
games: the in-process cache of game states (live.state_cache), the changes
between two states as JSON Patch (live.changes) and the live stream a commit
publishes on Redis for the stream server (live.stream). It imports no other
app of the project: a game reaches it as the little it reads
(live.stream.Game), and the settings name the games app's side
(``MARRAM_STREAM_SEAT_VIEW``)."""
