"""The hand-id index: which hand ids a store holds, without opening its event files.

Each committed batch with hands carries an index file, `index/<batch_id>.hid`: the sorted,
distinct 64-bit hashes (`HASH`: the first 8 bytes of blake2b of the id's UTF-8, read as a
little-endian unsigned integer) of its hand ids, 8 bytes each. The manifest record lists it
("hand_index": sha256, hash, hashes; the path is named by the batch id, so two stores of the
same hands hold the same record content); it is written into staging with the batch, made
durable before the record, and published and recovered with the batch's other files
(audit/store/dataset.py), so a crash before the commit point leaves no index and one after
it leaves the committed batch's. verify checks its bytes against the record and its hashes
against the batch's events. An index no committed record names (a rolled-back batch's) is
never read, and verify does not name it: nothing but a published head exposes a rollback.

A process loads the indexes of the committed batches once (HandIndex) and adds each batch
committed after, so asking whether ids are stored costs a binary search per id asked, not a
read of every event file: ingest's lookup then follows the hands asked for and the hands
added, not the files stored. A hash found is only a candidate: its id is confirmed against
the hand_id column of that batch's files (Store.find_hands), so a collision of two ids'
hashes never names a hand stored that is not. Memory is 12 bytes per stored hand (the hash
and the number of its batch's record).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

HASH = "blake2b-64"
INDEX_DIR = "index"
_DTYPE = np.dtype("<u8")


def index_rel(batch_id: str) -> str:
    """Where a batch's index file lives, relative to the store (and to its staging dir)."""
    return f"{INDEX_DIR}/{batch_id}.hid"


def hash_ids(ids: Iterable[str]) -> np.ndarray:
    """The 64-bit hash of each id, in order (uint64)."""
    packed = b"".join(hashlib.blake2b(i.encode(), digest_size=8).digest() for i in ids)
    return np.frombuffer(packed, _DTYPE).astype(np.uint64)


def table_hashes(table: pa.Table) -> bytes:
    """The hashes of the hands of an event table (one per hand: its seq 0 row), packed."""
    ids = table.column("hand_id").filter(pc.equal(table.column("seq"), 0))
    ids = pc.cast(ids, pa.string()) if pa.types.is_dictionary(ids.type) else ids
    return hash_ids(ids.to_pylist()).astype(_DTYPE).tobytes()


def index_bytes(packed: bytes | bytearray) -> bytes:
    """An index file's bytes from the packed hashes of a batch's hands: sorted, distinct."""
    return np.unique(np.frombuffer(bytes(packed), _DTYPE)).astype(_DTYPE).tobytes()


def read_index(data: bytes) -> np.ndarray:
    """The hashes of an index file's bytes (uint64, sorted); ValueError when they are not an
    index (a length that is no multiple of 8, or out of order)."""
    if len(data) % 8:
        raise ValueError("an index file holds 8 bytes per hash")
    hashes = np.frombuffer(data, _DTYPE).astype(np.uint64)
    if len(hashes) > 1 and not bool(np.all(hashes[1:] > hashes[:-1])):
        raise ValueError("an index file's hashes are sorted and distinct")
    return hashes


class HandIndex:
    """The hashes of a store's hand ids with the record each came from, in memory: levels of
    sorted arrays, each at least twice the size of the next (a batch added is a new level,
    merged down while it outgrows the one above), so adding N hashes in batches costs
    O(N log N) in all and a lookup one binary search per level (O(log N) levels).

    `covered` records of the manifest are in it, the last with hash `head`: the store adds
    the records committed since (Store._hand_index)."""

    def __init__(self) -> None:
        self.covered = 0
        self.head = ""
        self._levels: list[tuple[np.ndarray, np.ndarray]] = []  # (hashes, record numbers)

    def __len__(self) -> int:
        return sum(len(h) for h, _ in self._levels)

    def add(self, hashes: np.ndarray, record: int) -> None:
        """The (sorted) hashes of record number `record`'s hands."""
        if len(hashes):
            self._levels.append((hashes, np.full(len(hashes), record, np.uint32)))
        while len(self._levels) > 1 and len(self._levels[-2][0]) <= 2 * len(self._levels[-1][0]):
            (h1, r1), (h2, r2) = self._levels[-2], self._levels.pop()
            self._levels[-1] = _merged(h1, r1, h2, r2)

    def candidates(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(positions in `hashes`, record numbers): every stored hash equal to one asked,
        with the record holding it (a hash in several records: once per record)."""
        found_at: list[np.ndarray] = []
        found_in: list[np.ndarray] = []
        # asked in order: the binary searches then walk each level front to back
        order = np.argsort(hashes, kind="stable")
        asked = hashes[order]
        for stored, records in self._levels:
            left = np.searchsorted(stored, asked, side="left")
            hit = np.nonzero(stored[np.minimum(left, len(stored) - 1)] == asked)[0]
            if not len(hit):
                continue
            counts = np.searchsorted(stored, asked[hit], side="right") - left[hit]
            # each hit expanded to every stored position of its hash (almost always one)
            at = np.repeat(order[hit], counts)
            first = np.repeat(left[hit], counts)
            step = np.arange(len(at)) - np.repeat(np.cumsum(counts) - counts, counts)
            found_at.append(at)
            found_in.append(records[first + step])
        if not found_at:
            return np.empty(0, np.int64), np.empty(0, np.uint32)
        return np.concatenate(found_at), np.concatenate(found_in)


def _merged(h1: np.ndarray, r1: np.ndarray, h2: np.ndarray, r2: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Two sorted levels as one, in linear time (no sort): each entry of the second goes
    after the entries of the first not greater than it."""
    at = np.searchsorted(h1, h2, side="right") + np.arange(len(h2))
    first = np.ones(len(h1) + len(h2), bool)
    first[at] = False
    hashes, records = np.empty(len(first), np.uint64), np.empty(len(first), np.uint32)
    hashes[at], records[at] = h2, r2
    hashes[first], records[first] = h1, r1
    return hashes, records


__all__ = ["HASH", "INDEX_DIR", "HandIndex", "hash_ids", "index_bytes", "index_rel",
           "read_index", "table_hashes"]
