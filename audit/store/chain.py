"""The store's hash chain: the manifest's records (one JSON line each, chained by hash), the one
torn-line rule every reader shares, file hashes and the durable-write helpers.

Below both the dataset (audit.store.dataset) and the audit runs committed to the chain
(audit.store.runs), which each read and append records.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.errors import StoreError

MANIFEST = "manifest.jsonl"
GENESIS = "0" * 64
_CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


CHAIN_VERSION = 2


def _canonical_json(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def record_digest(record: dict[str, Any]) -> str:
    """sha256 of a record's canonical JSON without `hash` and `prev_hash`: what a proof
    carries for each record after the proven batch."""
    body = {k: v for k, v in record.items() if k not in ("hash", "prev_hash")}
    return hashlib.sha256(_canonical_json(body)).hexdigest()


def chain_hash(prev_hash: str, digest: str) -> str:
    """The hash of a chain-2 record from its predecessor's hash and its content digest."""
    return hashlib.sha256(f"{prev_hash}:{digest}".encode()).hexdigest()


def record_hash(record: dict[str, Any]) -> str:
    """Hash of a manifest record. Chain 2: `chain_hash(prev_hash, record_digest)`; earlier
    records: sha256 of the canonical JSON without the `hash` key."""
    if record.get("chain") == CHAIN_VERSION:
        return chain_hash(str(record.get("prev_hash")), record_digest(record))
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(_canonical_json(body)).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class ManifestContents:
    """A manifest's bytes as the store reads them: the committed records, and where the
    committed bytes end (a torn last line lies beyond `committed_bytes`)."""

    records: list[dict[str, Any]]
    committed_bytes: int  # the append path truncates the file to this before appending
    needs_newline: bool  # the last record's newline is missing: an append writes it first


# The bytes a record line can hold: json.dumps(ensure_ascii=True) writes printable ASCII only.
_RECORD_LINE_BYTES = frozenset(range(0x20, 0x7F))


def _record_shape_problem(record: Any) -> str | None:
    """Why a parsed manifest line is not a record every reader can use, or None. Only the
    keys readers index are checked (other record kinds may carry other keys); whether the
    values are the committed ones is verify's hash check."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for key in ("hash", "prev_hash", "batch_id", "kind", "run_id"):
        if key in record and not isinstance(record[key], str):
            return f"{key} is not a string"
    if not isinstance(record.get("hash"), str):
        return "no hash"
    for key in ("hands", "rows"):
        if key in record and (not isinstance(record[key], int) or isinstance(record[key], bool)):
            return f"{key} is not an integer"
    for key in ("files", "quarantine", "sources", "outputs"):  # outputs: a run's files
        items = record.get(key, [])
        if not isinstance(items, list) or not all(
                isinstance(i, dict) and isinstance(i.get("path"), str)
                and isinstance(i.get("sha256"), str) for i in items):
            return f"{key} is not a list of files with path and sha256"
    for key in ("merkle", "run"):
        if key in record and not isinstance(record[key], dict):
            return f"{key} is not an object"
    return None


def read_manifest(raw: bytes, where: Path | str = MANIFEST) -> ManifestContents:
    """Parse manifest bytes: one JSON record per line. The one rule every reader, verify and
    the append path share (they all call this):

    - Every line that ends in a newline must be a record; blank lines are skipped.
    - The last line, when no newline follows it (trailing NUL bytes, which a crash can leave
      on some file systems, are not counted):
      - a whole JSON record is committed: its fsync may have finished before the crash, so
        it is kept, and the next append writes the missing newline first;
      - printable ASCII that is not a whole JSON value is a torn append (a proper prefix of
        a record line: no proper prefix of a JSON object parses) and was never committed:
        it is ignored, and the next append cuts it off;
      - anything else (a whole JSON value followed by other bytes, bytes a record line
        cannot hold) is damage, not a crash: a StoreError, like a damaged earlier line.

    A StoreError names the line and says to run `poker-audit verify`."""
    records: list[dict[str, Any]] = []
    lines = raw.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends with one
    offset = 0
    for number, line in enumerate(lines, start=1):
        offset += len(line) + 1
        if line.strip():
            records.append(_parse_record(line, number, where))
    body = tail.rstrip(b"\0")
    if not body.strip():
        return ManifestContents(records=records, committed_bytes=offset, needs_newline=False)
    number = len(lines) + 1
    if set(body) <= _RECORD_LINE_BYTES:
        text = body.decode("ascii").lstrip()
        try:
            value, end = json.JSONDecoder().raw_decode(text)
        except ValueError:
            # torn: a crash in the middle of the append, never committed
            return ManifestContents(records=records, committed_bytes=offset, needs_newline=False)
        if not text[end:].strip():
            records.append(_checked_record(value, number, where))
            return ManifestContents(records=records, committed_bytes=offset + len(body),
                                    needs_newline=True)
    raise StoreError(f"{where}:{number}: damaged manifest line (not a record, not a torn "
                     f"append); run `poker-audit verify --store {Path(where).parent}`")


def _parse_record(line: bytes, number: int, where: Path | str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError for bytes not UTF-8
        reason = str(exc).splitlines()[0][:120]
        raise StoreError(f"{where}:{number}: manifest line is not JSON ({reason}); "
                         f"run `poker-audit verify --store {Path(where).parent}`") from None
    return _checked_record(value, number, where)


def _checked_record(value: Any, number: int, where: Path | str) -> dict[str, Any]:
    problem = _record_shape_problem(value)
    if problem is not None:
        raise StoreError(f"{where}:{number}: manifest line is not a record ({problem}); "
                         f"run `poker-audit verify --store {Path(where).parent}`")
    return value  # type: ignore[no-any-return]


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifyProblem:
    """One integrity problem found by verify."""

    kind: str  # modified | missing | unlisted | chain | manifest | merkle | run
    path: str
    detail: str


RUN_TMP_SUFFIX = ".tmp"
RUN_LOCK_SUFFIX = ".lock"


def _fsync_file(path: Path) -> None:
    with path.open("rb+") as f:
        os.fsync(f.fileno())
