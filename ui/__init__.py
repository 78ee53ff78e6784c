"""Each game's own UI, a folder a game found by its key (``ui/<key>/``): its
board and move UI for the game page, its rules page, its mail's picture. Each
folder imports the platform's side of the contract (games.game_ui), which
finds it by the key (``ui_for``); nothing else imports it."""
