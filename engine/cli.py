"""Command line: ``python -m engine replay | verify | selfplay | arena | games |
catalogue``.
``replay`` and ``verify`` choose the game by the record's ``format``; ``selfplay``
and ``arena`` by ``--game``. Bad input gets one line on stderr and exit status 2, never a
traceback."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import registry
from .errors import BadOptions, RecordError
from .protocol import JSON, AnyGame, Option, OptionValue, read_options


def _read_json(path: str) -> object:
    try:
        return json.loads(Path(path).read_text())
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{path} is not valid JSON: {e}") from None


def _replay(args: argparse.Namespace) -> int:
    from .replay import replay

    game, result = replay(_read_json(args.record))
    if result.error is not None:
        print(json.dumps(result.failure()))
        return 1
    print(json.dumps(game.summary(result.state)))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .fairness import seed_from_record, verify
    from .replay import read_record

    raw = _read_json(args.record)
    game = read_record(raw).game
    assert isinstance(raw, dict)  # read_record refuses anything else
    seed, published = seed_from_record(raw)
    problems = verify(game, raw, seed, published)
    for p in problems:
        print(p)
    print("fair: the deal and every chance event follow from the committed seed"
          if not problems else f"NOT fair: {len(problems)} problem(s)")
    return 1 if problems else 0


def _option_value(option: Option | None, text: str) -> OptionValue:
    """A command line's text as the declared choice it names (true/false, numbers)."""
    for value in option.values() if option else ():
        if text == (str(value).lower() if isinstance(value, bool) else str(value)):
            return value
    return text  # read_options says what the choices are


def _options(game: AnyGame, args: argparse.Namespace) -> dict[str, OptionValue]:
    declared = {o.name: o for o in game.options_declared}
    raw: dict[str, OptionValue] = {}
    pairs = list(args.option or [])
    pairs += [f"variant={args.variant}"] if args.variant else []
    pairs += [f"length={args.length}"] if args.length else []
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise BadOptions(f"write an option as NAME=VALUE, not {pair!r}")
        raw[name] = _option_value(declared.get(name), text)
    return raw


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import run

    game = registry.get(args.game)
    players = args.players if args.players is not None else min(game.seat_counts)
    options = read_options(game, _options(game, args), players)
    if args.policy not in game.bot_policies:
        raise BadOptions(f"{game.title}'s bots play " + ", ".join(game.bot_policies)
                         + f", not {args.policy!r}")
    if args.games < 1:
        raise BadOptions("--games must be at least 1")
    return run(game, options, players, args.games, args.seed, args.out,
               progress=not args.quiet, policy=args.policy)


def _arena(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from .bots import LEVELS
    from .bots.arena import run

    game = registry.get(args.game)
    levels = [level.strip() for level in args.players.split(",")]
    for level in levels:
        if level not in LEVELS:
            raise BadOptions(f"no bot level {level!r}: the levels are " + ", ".join(LEVELS))
    options = read_options(game, _options(game, args), len(levels))
    if args.games < 1:
        raise BadOptions("--games must be at least 1")
    settings = game.search
    if args.playouts is not None:
        if args.playouts < 1:
            raise BadOptions("--playouts must be at least 1")
        settings = replace(settings, playouts=args.playouts)
    if args.cpu_seconds is not None:
        if not args.cpu_seconds > 0:
            raise BadOptions("--cpu-seconds must be more than 0")
        settings = replace(settings, cpu_seconds=args.cpu_seconds)
    run(game, options, levels, args.games, args.seed, progress=not args.quiet,
        settings=settings)
    return 0


def _games(args: argparse.Namespace) -> int:
    listed: list[JSON] = []
    games = registry.games()
    key_width = max((len(g.key) for g in games), default=0)
    title_width = max((len(g.title) for g in games), default=0)
    for game in games:
        options: list[JSON] = [{"name": o.name, "label": o.label, "default": o.default,
                                "choices": list(o.values())} for o in game.options_declared]
        listed.append({"key": game.key, "title": game.title, "format": game.record_format,
                       "version": game.record_version, "rules_version": game.rules_version,
                       "seats": list(game.seat_counts), "options": options,
                       "bots": list(game.bot_policies)})
        if not args.json:
            low, high = min(game.seat_counts), max(game.seat_counts)
            seats = str(low) if low == high else f"{low}-{high}"
            described = "; ".join(
                f"{o.name}: " + ", ".join(f"{v}{'*' if v == o.default else ''}"
                                          for v in o.values())
                for o in game.options_declared)
            print(f"{game.key:<{key_width}}  {game.title:<{title_width}}  {game.record_format} "
                  f"v{game.record_version}, {seats} players"
                  + (f"; {described}" if described else ""))
    if args.json:
        print(json.dumps(listed, indent=1))
    return 0


def _catalogue(args: argparse.Namespace) -> int:
    from .marram.catalogue import check, standard_raw

    raw = standard_raw()
    if args.check:
        problems = check(raw)
        for p in problems:
            print(p)
        print(f"{len(raw['tiles']) - 1} tiles and a starter: "
              + ("ok" if not problems else f"{len(problems)} problem(s)"))
        return 1 if problems else 0
    print(json.dumps(raw, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a game record of any game and print its "
                       "summary as JSON")
    p.add_argument("record")
    p.set_defaults(run=_replay)
    p = sub.add_parser("verify", help="check a finished game's deal and chance events "
                       "against its revealed seed and commitment")
    p.add_argument("record")
    p.set_defaults(run=_verify)
    p = sub.add_parser("selfplay", help="bots play a game against each other; a summary "
                       "of the games")
    p.add_argument("--game", default="marram", help="the game's key (see `games`)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a game option (repeat for several; see `games`)")
    p.add_argument("--variant", help="Marram's variant: the same as --option variant=...")
    p.add_argument("--length", help="Marram's length: the same as --option length=...")
    p.add_argument("--players", type=int, help="default: the fewest the game allows")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write each game's record to this folder")
    p.add_argument("--policy", default="random",
                   help="the bots' policy (see `games`); Marram's: random (any hole) or "
                   "compact (holes with more neighbours first)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_selfplay)
    p = sub.add_parser("arena", help="bots of given levels play each other, seats rotated; "
                       "each level's wins (95%% Wilson interval), mean score, time per move")
    p.add_argument("--game", default="marram", help="the game's key (see `games`)")
    p.add_argument("--players", required=True, metavar="LEVEL,LEVEL[,...]",
                   help="one bot level per seat: easy, medium or strong")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a game option (repeat for several; see `games`)")
    p.add_argument("--variant", help="Marram's variant: the same as --option variant=...")
    p.add_argument("--length", help="Marram's length: the same as --option length=...")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--playouts", type=int, help="the strong bot's playouts per move "
                   "(default: the game's)")
    p.add_argument("--cpu-seconds", type=float, help="the strong bot's CPU-time cap per move")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_arena)
    p = sub.add_parser("games", help="list the games this engine plays, with their options")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=_games)
    p = sub.add_parser("catalogue", help="print or check Marram's standard catalogue")
    p.add_argument("--check", action="store_true")
    p.set_defaults(run=_catalogue)
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except RecordError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
