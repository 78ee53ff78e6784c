"""The changes between two JSON documents as a JSON Patch (RFC 6902): what a move's
answer carries instead of the whole state when the mover's client asks for it,
since the client already holds the state the move was made on.

Only ``add``, ``remove`` and ``replace`` are written. A list is compared from both
ends: the items the two have in common at the start and at the end are kept; in
the part between, where the new list is longer an item is taken as added when
the old item matches the one after it better (more fields alike), else as the
old item changed (and the other way round where it is shorter). A tile laid on a
board listed row by row is then one ``add``, and its neighbours' changes a
``replace`` inside each. Items are compared by identity first: a game's view
reuses the entries of what did not change (engine.marram.view), so most of a
board is passed over without looking into it.

``apply_changes`` is the patch's reader, for the tests and the benchmarks' clients;
the pages read it in games/static/games/client.js (``applyChanges``).
"""

from __future__ import annotations

import copy
from typing import Any

Op = dict[str, Any]

CHANGES_FROM = 1024
"""Bytes of a state below which a move's answer sends it whole even when asked
for the changes: they would save little, or take more room (a few hundred bytes
of Pond or Animals on Board; benchmarks/changes_bench.py)."""


def _pointer(path: str, key: str | int) -> str:
    text = str(key)
    return f"{path}/{text.replace('~', '~0').replace('/', '~1')}"


def _same(a: Any, b: Any) -> bool:
    # bool is an int in Python but not in JSON: true is not 1 (inside two objects
    # compared whole, Python's == still takes them for equal; a game's view never
    # has both in one place)
    return a is b or (type(a) is type(b) and a == b)


def state_changes(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both JSON values)."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if _same(old, new):
        return
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": _pointer(path, key)})
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, _pointer(path, key), ops)
            else:
                ops.append({"op": "add", "path": _pointer(path, key), "value": value})
    elif type(old) is list and type(new) is list:
        _diff_list(old, new, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    start, old_end, new_end = 0, len(old), len(new)
    while start < old_end and start < new_end and _same(old[start], new[start]):
        start += 1
    while old_end > start and new_end > start and _same(old[old_end - 1], new[new_end - 1]):
        old_end -= 1
        new_end -= 1
    # between: walk both, an item at a time; ``j`` is also the place in the list as
    # the operations so far have left it
    i, j = start, start
    while i < old_end and j < new_end:
        more_new = (new_end - j) - (old_end - i)
        if more_new > 0 and _inserted(old[i], new[j], new[j + 1]):
            ops.append({"op": "add", "path": _pointer(path, j), "value": new[j]})
            j += 1
        elif more_new < 0 and _inserted(new[j], old[i], old[i + 1]):
            ops.append({"op": "remove", "path": _pointer(path, j)})
            i += 1
        else:  # the same item, changed
            _diff(old[i], new[j], _pointer(path, j), ops)
            i, j = i + 1, j + 1
    for _ in range(i, old_end):
        ops.append({"op": "remove", "path": _pointer(path, j)})
    for k in range(j, new_end):
        ops.append({"op": "add", "path": _pointer(path, k), "value": new[k]})


def _inserted(item: Any, here: Any, after: Any) -> bool:
    """Whether ``here`` is an item put in before ``item`` (which is ``after``,
    maybe changed) rather than ``item`` changed: ``after`` is it, or shares more of
    its fields."""
    return _same(item, after) or _alike(item, after) > _alike(item, here)


def _alike(a: Any, b: Any) -> int:
    """How many fields two objects have in common (0 for anything else)."""
    if type(a) is not dict or type(b) is not dict:
        return 0
    return sum(1 for key, value in a.items() if key in b and _same(value, b[key]))


class BadChanges(ValueError):
    """A patch that does not fit the document it is applied to."""


def apply_changes(doc: Any, ops: list[Op]) -> Any:
    """``doc`` with the operations applied (a new document: ``doc`` is not changed)."""
    doc = copy.deepcopy(doc)
    for op in ops:
        path = op["path"]
        if path == "":
            if op["op"] != "replace":
                raise BadChanges(f"cannot {op['op']} the whole document")
            doc = copy.deepcopy(op["value"])
            continue
        *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]
        target = doc
        try:
            for part in parents:
                target = target[int(part)] if type(target) is list else target[part]
            key: Any = int(last) if type(target) is list else last
            if op["op"] == "remove":
                del target[key]
            elif op["op"] == "add" and type(target) is list:
                target.insert(key, copy.deepcopy(op["value"]))
            elif op["op"] in ("add", "replace"):
                if op["op"] == "replace" and type(target) is dict and key not in target:
                    raise KeyError(key)
                target[key] = copy.deepcopy(op["value"])
            else:
                raise BadChanges(f"unknown operation {op['op']!r}")
        except (KeyError, IndexError, ValueError, TypeError) as e:
            raise BadChanges(f"{op['op']} {path}: {e!r}") from None
    return doc
