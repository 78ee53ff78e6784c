"""A desktop's notification server for the browser tests: a session D-Bus of its
own (dbus-daemon) with a server of the Desktop Notifications specification on it
(``org.freedesktop.Notifications``), which Chromium on Linux shows its
notifications through, headless or not. It keeps each notification shown
(``shown``) and clicks one as a person would (``click``: the ``ActionInvoked``
signal with the default action), which Chromium hands to the page's service
worker as a ``notificationclick`` allowed to open or focus a window."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jeepney import DBusAddress, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


@dataclass
class Shown:
    """A notification as the browser asked the desktop to show it."""

    id: int
    app: str
    title: str
    body: str
    actions: list[str]
    closed: bool = False
    hints: dict[str, Any] = field(default_factory=dict)


class Desktop:
    """The bus (``address``, for the browser's DBUS_SESSION_BUS_ADDRESS) and the
    notification server on it, serving in a thread until ``stop``."""

    def __init__(self, where: Path) -> None:
        self.daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
             f"--address=unix:path={where / 'bus'}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.daemon.stdout is not None
        self.address = self.daemon.stdout.readline().strip()
        self.shown: list[Shown] = []
        self.outgoing: queue.Queue[Any] = queue.Queue()
        self.changed = threading.Condition()
        self.running = True
        self.connection = open_dbus_connection(self.address)
        self.connection.send_and_get_reply(message_bus.RequestName(NAME))
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.running = False
        self.thread.join(5)
        self.connection.close()
        self.daemon.terminate()
        self.daemon.wait(5)

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Shown]:
        """Wait until ``count`` notifications have been shown; all of them."""
        end = time.monotonic() + timeout
        with self.changed:
            while len(self.shown) < count:
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.shown)} notifications of {count} shown")
                self.changed.wait(left)
            return list(self.shown)

    def click(self, shown: Shown) -> None:
        """Click the notification, as a person does on the desktop."""
        emitter = DBusAddress(PATH, interface=NAME)
        self.outgoing.put(new_signal(emitter, "ActionInvoked", "us", (shown.id, "default")))

    def _serve(self) -> None:
        while self.running:
            while not self.outgoing.empty():
                self.connection.send(self.outgoing.get())
            try:
                message = self.connection.receive(timeout=0.05)
            except TimeoutError:
                continue
            except OSError:
                return
            if message.header.message_type == MessageType.method_call:
                self.connection.send(self._answer(message))

    def _answer(self, message: Any) -> Any:
        member = message.header.fields.get(3)  # HeaderFields.member
        body = message.body
        if member == "GetCapabilities":
            return new_method_return(message, "as", (["actions", "body"],))
        if member == "GetServerInformation":
            return new_method_return(message, "ssss", ("desktop_kit", "marram tests", "1", "1.2"))
        if member == "Notify":
            app, replaces, _icon, title, text, actions, hints, _timeout = body
            with self.changed:
                number = replaces or len(self.shown) + 1
                self.shown.append(Shown(number, app, title, text, list(actions),
                                        hints={k: v[1] for k, v in hints.items()}))
                self.changed.notify_all()
            return new_method_return(message, "u", (number,))
        if member == "CloseNotification":
            (number,) = body
            with self.changed:
                for shown in self.shown:
                    if shown.id == number:
                        shown.closed = True
                self.changed.notify_all()
            self.outgoing.put(new_signal(DBusAddress(PATH, interface=NAME),
                                         "NotificationClosed", "uu", (number, 3)))
            return new_method_return(message, "", ())
        return new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s",
                         (f"no method {member}",))
