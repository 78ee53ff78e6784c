"""Command line: ``python -m engine replay | selfplay | catalogue``.
Bad input gets one line on stderr and a non-zero exit, never a traceback."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import RecordError


def _read_json(path: str) -> object:
    try:
        return json.loads(Path(path).read_text())
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{path} is not valid JSON: {e}") from None


def _replay(args: argparse.Namespace) -> int:
    from .record import replay
    from .view import summary

    result = replay(_read_json(args.record))
    if result.error is not None:
        print(json.dumps({"error": result.error.message, "code": result.error.code,
                          "event": result.error_index}))
        return 1
    print(json.dumps(summary(result.state)))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import run

    return run(args.variant, args.length, args.players, args.games, args.seed, args.out,
               progress=not args.quiet, policy=args.policy)


def _verify(args: argparse.Namespace) -> int:
    from .catalogue import standard
    from .fairness import seed_from_record, verify

    raw = _read_json(args.record)
    if not isinstance(raw, dict):
        raise RecordError(f"{args.record} is not a game record: expected a JSON object")
    seed, published = seed_from_record(raw)
    problems = verify(raw, seed, published, standard().deck_ids())
    for p in problems:
        print(p)
    print("fair: the deck and every chance event follow from the committed seed"
          if not problems else f"NOT fair: {len(problems)} problem(s)")
    return 1 if problems else 0


def _catalogue(args: argparse.Namespace) -> int:
    from .catalogue import check, standard_raw

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
    p = sub.add_parser("replay", help="replay a game record and print its summary as JSON")
    p.add_argument("record")
    p.set_defaults(run=_replay)
    p = sub.add_parser("verify", help="check a finished game's deck and chance events "
                       "against its revealed seed and commitment")
    p.add_argument("record")
    p.set_defaults(run=_verify)
    p = sub.add_parser("selfplay", help="random self-play with a summary of the games")
    p.add_argument("--variant", default="classic", choices=("classic", "pitchfork", "animals"))
    p.add_argument("--length", default="long", choices=("short", "long"))
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write each game's record to this folder")
    p.add_argument("--policy", default="random", choices=("random", "compact"),
                   help="random: any hole; compact: holes with more neighbours first")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_selfplay)
    p = sub.add_parser("catalogue", help="print or check the standard catalogue")
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
