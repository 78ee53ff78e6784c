"""gunicorn's settings (marram_site/gunicorn.py) plus, in each worker, a thread
that writes the game state cache's counters to ``$MARRAM_BENCH_COUNTERS/<pid>.json``
twice a second, so that a benchmark can read them without server code:

    gunicorn -c benchmarks/gunicorn_counters.py marram_site.wsgi

Used by benchmarks/capacity_bench.py.
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from marram_site import gunicorn as base  # noqa: E402
from marram_site.gunicorn import *  # noqa: E402, F403

COUNTERS = ("hits", "catch_ups", "misses", "snapshots")
"""``snapshots``: cold reads started from a stored snapshot, where the server has them."""


def post_worker_init(worker):
    base.post_worker_init(worker)
    folder = os.environ.get("MARRAM_BENCH_COUNTERS")
    if not folder:
        return
    from games.state_cache import states

    target = Path(folder) / f"{os.getpid()}.json"

    def write() -> None:
        while True:
            figures = {name: getattr(states, name, None) for name in COUNTERS}
            figures["entries"] = len(getattr(states, "_entries", ()))
            figures["size"] = getattr(states, "size", None)
            temporary = target.with_suffix(".tmp")
            temporary.write_text(json.dumps(figures))
            temporary.replace(target)
            time.sleep(0.5)

    threading.Thread(target=write, name="bench-counters", daemon=True).start()
