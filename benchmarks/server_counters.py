"""The web server (marram_site/server.py) around an application factory that also
starts, in each worker, a thread that writes the game state cache's counters to
``$MARRAM_BENCH_COUNTERS/<pid>.json`` twice a second, so that a benchmark can
read them without server code:

    python benchmarks/server_counters.py

Used by benchmarks/capacity_bench.py (through service_bench.web_server).
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

COUNTERS = ("hits", "catch_ups", "misses", "snapshots")
"""``snapshots``: cold reads started from a stored snapshot, where the server has them."""


def counting_application():
    from marram_site.wsgi import serving_application

    application = serving_application()
    folder = os.environ.get("MARRAM_BENCH_COUNTERS")
    if not folder:
        return application
    from live.state_cache import states

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
    return application


if __name__ == "__main__":
    from marram_site import server

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    server.server("server_counters:counting_application").serve()
