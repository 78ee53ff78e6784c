"""The registry loads the built-in games once, however many threads ask first: a
fresh server process's threads may all look a game up at once, and none of them
may find the registry half full."""

from __future__ import annotations

import threading
import time

from engine import registry


def test_threads_that_ask_at_once_all_find_every_game(monkeypatch):
    every = sorted(g.key for g in registry.games())
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_ready", False)
    imported = registry.importlib.import_module

    def slow_import(name: str):  # a first import takes a while
        time.sleep(0.02)
        return imported(name)

    monkeypatch.setattr(registry.importlib, "import_module", slow_import)
    start = threading.Barrier(8)
    found: list[list[str]] = []

    def ask() -> None:
        start.wait()
        found.append(sorted(g.key for g in registry.games()))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == [every] * 8
