"""Read ahead: the next chunk of an input is read and checked on a second thread while the
current one is deduplicated, encoded and written, so ingest keeps both cores busy.

The chunks come out in the order the reader made them, each exactly as the reader made it,
so the store written is the same as reading them one after the other. At most `depth`
chunks wait beyond the one being written (memory stays bounded by a few chunks, never the
file). What the reader raises is raised to the consumer at the point it would have reached
it; a consumer that stops early (its own failure) stops the reader thread before returning.
The reader runs in a copy of the caller's context (the read limits of `using_limits`).
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

_ITEM, _END, _ERROR = 0, 1, 2
_POLL = 0.05  # seconds a blocked hand-over waits before looking at the stop flag again


def read_ahead(items: Iterator[T], depth: int = 2) -> Iterator[T]:
    """The items of `items`, produced on a second thread at most `depth` ahead."""
    if depth < 1:
        raise ValueError("read_ahead needs a depth of at least 1")
    handed: queue.Queue[tuple[int, object]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def hand_over(tag: int, value: object) -> bool:
        while not stop.is_set():
            try:
                handed.put((tag, value), timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not hand_over(_ITEM, item):
                    return
            hand_over(_END, None)
        except BaseException as exc:  # noqa: BLE001 - raised again in the consumer
            hand_over(_ERROR, exc)
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()  # a generator's files closed on the thread that opened them

    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(produce,), name="ingest-read-ahead",
                              daemon=True)
    thread.start()
    try:
        while True:
            tag, value = handed.get()
            if tag == _END:
                return
            if tag == _ERROR:
                assert isinstance(value, BaseException)
                raise value
            yield value  # type: ignore[misc]
    finally:
        stop.set()
        thread.join()
