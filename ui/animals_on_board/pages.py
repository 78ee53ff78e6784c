"""What Animals on Board's game page and rules page show beyond the generic
shell: what happened since the player's last move, each event with what it led
to (the tiles a take carried off, a new round's deal, the end), told without a
secret; its measure in the final standings; and the numbers the rules page
quotes, read from the engine."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.animals_on_board import GAME, State, moves, scoring, tiles
from engine.animals_on_board.events import Event as AnimalsEvent
from games.game_ui import Measure, Since, Told
from ui.animals_on_board.species import species


def _consequences(before: State, event: AnimalsEvent, after: State,
                  names: list[str]) -> list[str]:
    """What an event led to, in words anybody at the table may read."""
    said: list[str] = []
    if event["type"] == "take" and 0 <= event["group"] < len(before.middle):
        group = tiles.shown(before.middle[event["group"]], before.face_down)
        face = ", ".join("the face-down tile" if t == tiles.FACE_DOWN else t for t in group)
        paid = moves.price(before.middle[event["group"]])
        said.append(f"the group held {face}: {paid} crate{'' if paid == 1 else 's'} paid")
    if event["type"] == "take" and not before.flag_taken:  # the round's first take
        said.append(f"{names[event['player']]} takes the starting flag")
    if before.setup and not after.setup or after.round != before.round and not after.finished:
        if before.setup and not after.setup:
            said.append("every player has kept a tile: the others go face up into the middle")
        group = after.middle[0] if after.middle else []
        down = " (one face down)" if after.face_down is not None else ""
        said.append(f"round {after.round} begins: the middle is one group of "
                    f"{len(group)} tiles{down}; {names[after.start_player]} starts")
    if after.final_turn and not before.final_turn and after.current is not None:
        said.append(f"{names[after.current]} is the last in the round and makes one more turn")
    if after.finished and not before.finished:
        said.append("the game is over")
    return said


class _Told(NamedTuple):
    """An event of the game with the states before and after it."""

    told: Told
    own: bool
    """A move the reader made themselves (not one the server made for them)."""
    event: AnimalsEvent
    before: State
    after: State


def since_last_move(state: State, since: Since, names: list[str]) -> dict[str, Any]:
    """The events since the player's own last move (games.game_ui.Since), each
    in words with its consequences; another seat's keep never says which tile.
    The player's own last move leads the list when it led to something (the
    last keep reveals the setup, a take can end the round)."""
    at = since.before
    told: list[_Told] = []
    for one in ([since.own] if since.own is not None else []) + list(since.events):
        event = GAME.read_event(one.payload)
        before = at
        at = GAME.fold(GAME.copy(at), event)
        told.append(_Told(one, one is since.own and since.reader is not None, event, before, at))
    events = []
    for t in told:
        if t.told is since.own and not t.own:
            continue  # a spectator's list starts after the awaited seat's move
        seen = GAME.event_view(state, t.event, since.reader)
        after = _consequences(t.before, t.event, t.after, names)
        if t.own and not after:
            continue
        events.append({"seq": t.told.seq, "type": t.told.type,
                       "player": t.told.payload.get("player"), "own": t.own, "after": after,
                       "text": GAME.describe_event(GAME.read_event(seen), names,
                                                   forced=t.told.by_server
                                                   and t.told.type == "pass")})
    return {"events": events, "more": since.more}


def _tiles_words(tiles_: Sequence[str]) -> str:
    table = species()
    return ", ".join(f"{table[t[0]]['name']} {t[1:]}" if t[0] in table else t for t in tiles_)


def final_measure(state: State, names: list[str]) -> Measure:
    """The final standings' column: each ark's points, and how they were made
    (tiles, crates, species, the tiles returned)."""
    scores = [scoring.score_ark(state.arks[s], state.crates[s]) for s in range(state.seats)]
    details = []
    for s in scores:
        said = [f"{s.tile_points} for tiles, {s.crate_points} for crates, "
                f"{s.species} species"]
        if s.pairs:
            said.append(f"returned as pairs: {_tiles_words(s.pairs)}")
        if s.reduced:
            said.append(f"returned down to 10: {_tiles_words(s.reduced)}")
        details.append("; ".join(said))
    return Measure("Points", tuple(str(s.points) for s in scores), tuple(details))


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules in the project's own words, the numbers read from the engine."""
    table = species()
    return "animals_on_board/rules.html", {
        "by_seats": [{"seats": n, "species": tiles.species_in_play(n),
                      "tiles": tiles.species_in_play(n) * len(tiles.NUMBERS),
                      "face_up": tiles.face_up_target(n)} for n in tiles.SEAT_COUNTS],
        "max_crates": tiles.MAX_CRATES,
        "target": tiles.TARGET_ARK,
        "herd": scoring.HERD_POINTS,
        "numbers": tiles.NUMBERS,
        "animals": [{"letter": letter, "name": table[letter]["name"]}
                    for letter in tiles.SPECIES],
    }
