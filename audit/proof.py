"""Inclusion proofs: one hand's events are in a committed batch under the manifest chain head.

A proof carries everything a third party needs and nothing more: the hand's events, their
Merkle leaf, the audit path up to the batch root, the batch's manifest record (which holds the
root) and one content digest per later record up to the head. `check_proof` recomputes each
step; given a store (or a head hash published elsewhere) it also checks that the head is one
this store really committed.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit import merkle
from audit.errors import AuditInputError, StoreError
from audit.schema import events_schema, events_table
from audit.store import (
    CHAIN_VERSION,
    GENESIS,
    Store,
    chain_hash,
    read_event_file,
    record_digest,
    record_hash,
)

PROOF_FORMAT = "poker-audit inclusion proof"
PROOF_VERSION = 1
MAKE_ONE = 'make one with "poker-audit prove HAND_ID --out proof.json"'
# A proof is one hand's events and a few dozen hashes: kilobytes. Anything far larger (or
# endless, like /dev/zero) is not one, and is not read whole.
MAX_PROOF_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32  # a real proof nests 5 deep; deeper only to crash a reader
MAX_PATH = 64  # a tree of fewer than 2**63 leaves is fewer than 64 levels deep
MAX_COUNT = 2**63 - 1
MAX_DIGITS = 40  # every integer in a proof fits in 64 bits (19 digits)


class ProofError(AuditInputError):
    """A proof cannot be built (hand not stored, batch without a Merkle root) or read."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProofCheck:
    """The outcome of checking a proof: every failed step is named."""

    hand_id: str
    batch_id: str
    head: str
    hashes: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _find_hand(store: Store, hand_id: str) -> tuple[dict[str, Any], int] | None:
    """(batch record, index of the file in it) holding the hand, scanning hand ids only."""
    for record in store.records():
        for number, f in enumerate(record.get("files", [])):
            table = pq.read_table(store.file_path(f["path"]), columns=["hand_id", "seq"])
            starts = table.filter(pc.equal(table.column("seq"), 0)).column("hand_id")
            if pc.any(pc.equal(starts, hand_id)).as_py():
                return record, number
    return None


def _event_rows(table: Any) -> list[dict[str, Any]]:
    rows = table.to_pylist()
    for row in rows:
        if isinstance(row.get("ts"), datetime):
            row["ts"] = row["ts"].isoformat()
    return rows


def build_proof(store: Store, hand_id: str) -> dict[str, Any]:
    """The inclusion proof of a stored hand under the store's current chain head."""
    store.ensure_recovered()
    found = _find_hand(store, hand_id)
    if found is None:
        raise ProofError(f"hand {hand_id!r} is not in {store.root}; list hands with "
                         f'"poker-audit query \\"SELECT hand_id FROM hands_started\\""')
    record, file_number = found
    claimed = record.get("merkle")
    if not claimed:
        raise ProofError(
            f"batch {record['batch_id']} was committed before poker-audit kept Merkle roots; "
            "its files are covered by the hash chain (poker-audit verify), but no per-hand "
            "inclusion proof can be made for it"
        )
    leaves: list[bytes] = []
    index = -1
    events: list[dict[str, Any]] = []
    for number, f in enumerate(record["files"]):
        table = read_event_file(store.file_path(f["path"]))
        if number == file_number:
            ids = table.column("hand_id").filter(pc.equal(table.column("seq"), 0)).to_pylist()
            index = len(leaves) + ids.index(hand_id)
            events = _event_rows(table.filter(pc.equal(table.column("hand_id"), hand_id)))
        leaves += merkle.hand_leaves(table)
    if merkle.merkle_root(leaves).hex() != claimed["root"]:
        raise StoreError(
            f"batch {record['batch_id']}: its hands no longer match the Merkle root in the "
            f'manifest; run "poker-audit verify --store {store.root}"'
        )
    records = store.records()
    position = next(i for i, r in enumerate(records) if r["batch_id"] == record["batch_id"])
    later = [{"digest": record_digest(r)} if r.get("chain") == CHAIN_VERSION else {"record": r}
             for r in records[position + 1:]]
    return {
        "format": PROOF_FORMAT,
        "version": PROOF_VERSION,
        "hand_id": hand_id,
        "events": events,
        "leaf": {"encoding": claimed["leaf"], "hash": leaves[index].hex()},
        "batch": {"tree": claimed["tree"], "index": index, "size": len(leaves),
                  "path": [h.hex() for h in merkle.audit_path(leaves, index)],
                  "root": claimed["root"]},
        "record": record,
        "chain": {"later": later, "head": records[-1]["hash"], "records": len(records)},
    }


def proof_size(proof: dict[str, Any]) -> dict[str, int]:
    """How compact a proof is: the hashes it carries and its bytes with and without events."""
    hashes = 1 + len(proof["batch"]["path"]) + 1 + len(proof["chain"]["later"])
    full = len(dumps(proof).encode())
    without_events = len(dumps({**proof, "events": []}).encode())
    return {"hashes": hashes, "bytes": full, "bytes_without_events": without_events}


def dumps(proof: dict[str, Any]) -> str:
    return json.dumps(proof, sort_keys=True, indent=1, ensure_ascii=False)


def read_proof(path: Path) -> dict[str, Any]:
    """Read and parse a proof file; a ProofError naming the file (never a traceback) when it
    cannot be read or is not a proof. Directories, FIFOs and devices are refused unopened."""
    where = printable(str(path))
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ProofError(f"{where}: cannot read the proof ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise ProofError(f"{where}: cannot read the proof ({kind}); give the proof file "
                         "made by poker-audit prove")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PROOF_BYTES + 1)
    except OSError as exc:
        raise ProofError(f"{where}: cannot read the proof ({exc.strerror or exc})") from None
    return parse_proof(data, where)


def parse_proof(data: bytes, where: str = "proof") -> dict[str, Any]:
    """A proof from a file's bytes: UTF-8 JSON shaped like a proof, else a ProofError."""
    if len(data) > MAX_PROOF_BYTES:
        raise ProofError(f"{where}: not a proof (more than {MAX_PROOF_BYTES:,} bytes; a proof "
                         f"is one hand and a few hashes); {MAKE_ONE}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProofError(f"{where}: not a proof (not UTF-8 text: byte {exc.start}); "
                         f"{MAKE_ONE}") from None
    return loads(text, where)


def loads(text: str, where: str = "proof") -> dict[str, Any]:
    """Parse a proof file; a clear error (never a traceback) when it is not one: not JSON,
    not a proof, another version, or not shaped like one (structure_problem)."""
    try:
        proof = json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise ProofError(f"{where}: not a proof (JSON nested too deeply); {MAKE_ONE}") from None
    except ValueError as exc:  # JSONDecodeError, or _bounded_int's
        raise ProofError(f"{where}: not a proof (not JSON: {printable(str(exc))[:200]}); "
                         f"{MAKE_ONE}") from None
    problem = _nesting_problem(proof)  # before anything walks or prints a part of it
    if problem is None:
        if not isinstance(proof, dict) or proof.get("format") != PROOF_FORMAT:
            raise ProofError(f"{where}: not a poker-audit inclusion proof (no "
                             f'"format": "{PROOF_FORMAT}")')
        version = proof.get("version")
        if not (type(version) is int and version == PROOF_VERSION):
            raise ProofError(f"{where}: proof version {_short(version)}; this poker-audit "
                             f"checks version {PROOF_VERSION}")
        problem = structure_problem(proof)
    if problem:
        raise ProofError(f"{where}: not a well-formed inclusion proof ({problem}); {MAKE_ONE}")
    return proof


def _bounded_int(digits: str) -> int:
    """JSON integers as Python ints, refusing absurd lengths before converting them (a
    million digits takes seconds, and Python refuses more than 4,300 anyway)."""
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(digits):,} digits")
    return int(digits)


def printable(text: str) -> str:
    """`text` on one line: control characters (a newline in a hand id or a file name) and
    lone surrogates escaped."""
    return "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF
                   else c.encode("unicode_escape").decode("ascii") for c in text)


def _short(value: Any) -> str:
    """A value quoted in a message: JSON for a scalar, its kind otherwise, 40 characters."""
    scalar = value is None or isinstance(value, str | int | float | bool)
    text = json.dumps(value) if scalar else _kind(value)
    return printable(text if len(text) <= 40 else text[:37] + "...")


# ------------------------------------------------------------------ a proof's structure


class _Malformed(Exception):
    """Where a proof is not shaped like one, and how (internal to structure_problem)."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    kinds = {int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "an object"}
    return kinds.get(type(value), type(value).__name__)


def _nesting_problem(value: Any) -> str | None:
    """Too deep for a proof (a reader recursing into it would crash), or text that is not
    Unicode (a lone surrogate from a \\ud800 escape, which cannot be hashed or printed)."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} deep"
        if isinstance(node, dict):
            for key, child in node.items():
                if not _is_unicode(key):
                    return "a key is not Unicode text (a lone surrogate)"
                todo.append((child, depth + 1))
        elif isinstance(node, list):
            todo.extend((child, depth + 1) for child in node)
        elif isinstance(node, str) and not _is_unicode(node):
            return "a string is not Unicode text (a lone surrogate)"
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _field(parent: dict[str, Any], key: str, where: str) -> Any:
    if key not in parent:
        raise _Malformed(f"{where}{key}: missing")
    return parent[key]


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Malformed(f"{where}: expected an object, got {_kind(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Malformed(f"{where}: expected a list, got {_kind(value)}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _Malformed(f"{where}: expected a string, got {_kind(value)}")
    return value


def _count(value: Any, where: str, low: int) -> int:
    if type(value) is not int:  # neither a boolean nor 1.0
        raise _Malformed(f"{where}: expected an integer, got {_kind(value)}")
    if not low <= value <= MAX_COUNT:
        raise _Malformed(f"{where}: {_short(value)} is out of range")
    return value


def _hash(value: Any, where: str) -> str:
    text = _text(value, where)
    if len(text) != 64 or text.strip("0123456789abcdef"):
        raise _Malformed(f"{where}: expected 64 lowercase hex digits, got {_short(text)}")
    return text


def structure_problem(proof: Any) -> str | None:
    """The first way `proof` is not shaped like an inclusion proof (a missing key, a value
    of the wrong type, an event that does not fit the events schema), e.g. "batch.index:
    expected an integer, got a string"; None when it is shaped like one. Whether its hashes
    check out is check_proof's job."""
    problem = _nesting_problem(proof)
    if problem:
        return problem
    try:
        _check_structure(proof)
    except _Malformed as exc:
        return printable(str(exc))
    return None


def _check_structure(proof: Any) -> None:
    top = _object(proof, "the proof")
    _text(_field(top, "hand_id", ""), "hand_id")
    _decode_events(_list(_field(top, "events", ""), "events"))
    leaf = _object(_field(top, "leaf", ""), "leaf")
    if _text(_field(leaf, "encoding", "leaf."), "leaf.encoding") != merkle.LEAF_ENCODING:
        raise _Malformed(f"leaf.encoding: {_short(leaf['encoding'])} is not the encoding this "
                         f"poker-audit computes ({merkle.LEAF_ENCODING})")
    _hash(_field(leaf, "hash", "leaf."), "leaf.hash")
    batch = _object(_field(top, "batch", ""), "batch")
    if _text(_field(batch, "tree", "batch."), "batch.tree") != merkle.TREE:
        raise _Malformed(f"batch.tree: {_short(batch['tree'])} is not the tree this "
                         f"poker-audit computes ({merkle.TREE})")
    _count(_field(batch, "index", "batch."), "batch.index", 0)
    _count(_field(batch, "size", "batch."), "batch.size", 1)
    path = _list(_field(batch, "path", "batch."), "batch.path")
    if len(path) > MAX_PATH:
        raise _Malformed(f"batch.path: {len(path)} hashes; no tree here is that deep")
    for number, h in enumerate(path):
        _hash(h, f"batch.path[{number}]")
    _hash(_field(batch, "root", "batch."), "batch.root")
    record = _record(_field(top, "record", ""), "record")
    _text(_field(record, "batch_id", "record."), "record.batch_id")
    claim = _object(_field(record, "merkle", "record."), "record.merkle")
    _hash(_field(claim, "root", "record.merkle."), "record.merkle.root")
    _count(_field(claim, "hands", "record.merkle."), "record.merkle.hands", 1)
    chain = _object(_field(top, "chain", ""), "chain")
    _hash(_field(chain, "head", "chain."), "chain.head")
    _count(_field(chain, "records", "chain."), "chain.records", 1)
    for number, item in enumerate(_list(_field(chain, "later", "chain."), "chain.later")):
        where = f"chain.later[{number}]"
        item = _object(item, where)
        if "digest" in item:
            _hash(item["digest"], f"{where}.digest")
        elif "record" in item:
            _record(item["record"], f"{where}.record")
        else:
            raise _Malformed(f"{where}: neither a digest nor a record")


def _record(value: Any, where: str) -> dict[str, Any]:
    """A manifest record as far as the chain uses it: its hash and its predecessor's."""
    record = _object(value, where)
    _hash(_field(record, "hash", f"{where}."), f"{where}.hash")
    if "prev_hash" in record:
        _hash(record["prev_hash"], f"{where}.prev_hash")
    return record


_FITS = (pa.ArrowException, TypeError, ValueError, OverflowError)  # what a misfit raises


def _decode_events(rows: list[Any]) -> pa.Table:
    """The proof's events as an events table (ISO timestamps parsed); _Malformed naming the
    first value that is not of its column's type (Arrow would quietly cut 1.5 to 1), a key
    that is no column, or an event that does not fit the table."""
    schema = events_schema()
    decoded = []
    for number, row in enumerate(rows):
        row = _event_fields(row, list(schema), f"events[{number}]")
        if isinstance(row.get("ts"), str):
            try:
                row["ts"] = datetime.fromisoformat(row["ts"])
            except ValueError:
                raise _Malformed(f"events[{number}].ts: {_short(row['ts'])} is not an ISO "
                                 "timestamp") from None
        decoded.append(row)
    try:
        return events_table(decoded)
    except _FITS:
        pass
    for number, row in enumerate(decoded):  # name the event that does not fit
        try:
            events_table([row])
        except _FITS as exc:
            raise _Malformed(f"events[{number}]: does not fit the events schema "
                             f"({printable(str(exc))[:120]})") from None
    raise _Malformed("events: they do not fit the events schema together")


def _event_fields(value: Any, fields: list[pa.Field], where: str) -> dict[str, Any]:
    """An event (or its game object) whose keys are columns and whose values have their
    column's JSON type; a copy, so decoding its timestamp leaves the proof as it was."""
    row = dict(_object(value, where))
    by_name = {f.name: f for f in fields}
    unknown = sorted(set(row) - set(by_name))
    if unknown:  # it would not be hashed, so it could say anything
        raise _Malformed(f"{where}: {_short(unknown[0])} is not an event column")
    for name, field in by_name.items():
        item = row.get(name)
        if item is None:
            if not field.nullable:
                raise _Malformed(f"{where}.{name}: missing")
            continue
        if pa.types.is_struct(field.type):
            row[name] = _event_fields(item, list(field.type), f"{where}.{name}")
            continue
        wanted = (int if pa.types.is_integer(field.type) else
                  bool if pa.types.is_boolean(field.type) else str)
        if type(item) is not wanted:  # bool is no int here, nor 1.0
            raise _Malformed(f"{where}.{name}: expected {_kind(wanted())}, got {_kind(item)}")
        if wanted is int:
            bits = field.type.bit_width
            low, high = ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
                         if pa.types.is_signed_integer(field.type) else (0, 2**bits - 1))
            if not low <= item <= high:
                raise _Malformed(f"{where}.{name}: {_short(item)} does not fit its column "
                                 f"({field.type})")
    return row


def _leaf_of_events(hand_id: str, rows: list[dict[str, Any]]) -> tuple[bytes | None, str]:
    """The leaf recomputed from the proof's events, or None and why not."""
    if not rows:
        return None, "the proof carries no events"
    if any(r.get("hand_id") != hand_id for r in rows):
        return None, f"an event in the proof belongs to another hand than {hand_id}"
    if [r.get("seq") for r in rows] != list(range(len(rows))):
        return None, "the events' seq is not 0, 1, 2, ... in order"
    leaves = merkle.hand_leaves(_decode_events(rows))
    if len(leaves) != 1:
        return None, "the events are not exactly one hand"
    return leaves[0], ""


def check_proof(proof: dict[str, Any], *, store: Store | None = None,
                head: str | None = None) -> ProofCheck:
    """Recompute leaf -> batch root -> record hash -> chain head; with `head` (a hash
    published elsewhere) or `store`, also check that head is a committed one."""
    malformed = structure_problem(proof)
    if malformed:
        top = proof if isinstance(proof, dict) else {}
        return ProofCheck(hand_id=printable(str(top.get("hand_id"))), batch_id="?", head="?",
                          hashes=0, problems=(f"the proof is malformed ({malformed})",))
    problems: list[str] = []
    hand_id = str(proof.get("hand_id"))
    record = proof.get("record") or {}
    batch = proof.get("batch") or {}
    chain = proof.get("chain") or {}
    try:
        leaf, why = _leaf_of_events(hand_id, list(proof.get("events") or []))
        if leaf is None:
            problems.append(why)
        elif leaf.hex() != (proof.get("leaf") or {}).get("hash"):
            problems.append("the events do not hash to the proof's leaf: an event was edited, "
                            "added, removed or reordered")
        if leaf is not None:
            root = merkle.root_from_path(leaf, int(batch["index"]), int(batch["size"]),
                                         [bytes.fromhex(h) for h in batch["path"]])
            if root.hex() != batch.get("root"):
                problems.append("the audit path does not lead to the batch root")
        claimed = record.get("merkle") or {}
        if claimed.get("root") != batch.get("root") or claimed.get("hands") != batch.get("size"):
            problems.append("the batch root is not the one in the manifest record")
        if record_hash(record) != record.get("hash"):
            problems.append("the manifest record was edited (its hash does not match)")
        current = str(record.get("hash"))
        for number, item in enumerate(chain.get("later") or [], start=1):
            if "digest" in item:
                current = chain_hash(current, str(item["digest"]))
            else:
                later = item.get("record") or {}
                if later.get("prev_hash") != current or record_hash(later) != later.get("hash"):
                    problems.append(f"later manifest record {number} does not chain")
                current = str(later.get("hash"))
        if current != chain.get("head"):
            problems.append("the chain from the batch record does not reach the proof's head")
    except (KeyError, TypeError, ValueError, _Malformed) as exc:  # e.g. a path too short
        problems.append(f"the proof is malformed ({type(exc).__name__}: {exc})")
    if head is not None and chain.get("head") != head:
        problems.append(f"the proof's head {chain.get('head')} is not the trusted head {head}")
    if store is not None:
        problems += _against_store(proof, store)
    return ProofCheck(hand_id=hand_id, batch_id=str(record.get("batch_id")),
                      head=str(chain.get("head")), hashes=_hashes(proof),
                      problems=tuple(problems))


def _hashes(proof: dict[str, Any]) -> int:
    try:
        return proof_size(proof)["hashes"]
    except (KeyError, TypeError):
        return 0


def _against_store(proof: dict[str, Any], store: Store) -> list[str]:
    """The proof's batch record and head are records this store committed, in an intact
    chain (file contents are `poker-audit verify`'s job)."""
    records = store.records()
    prev = GENESIS
    hashes = set()
    for number, r in enumerate(records, start=1):
        if r.get("prev_hash") != prev or record_hash(r) != r.get("hash"):
            return [f"the store's manifest chain is broken at record {number}; run "
                    f'"poker-audit verify --store {store.root}"']
        prev = r["hash"]
        hashes.add(prev)
    problems = []
    if (proof.get("record") or {}).get("hash") not in hashes:
        problems.append(f"the proof's batch record is not in the manifest of {store.root}")
    if (proof.get("chain") or {}).get("head") not in hashes:
        problems.append(f"the proof's head was never committed in {store.root}")
    return problems
