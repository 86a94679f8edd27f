"""The inclusion proof file: its format constants, reading it (bounded, special files
refused) and checking its shape before anything uses it (audit/store/proof.py checks its hashes).

A proof comes from outside, so every key, type, range, nesting depth and string is checked
first: whatever is wrong with the file, the answer is one line naming it and where, never a
traceback.
"""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from audit.errors import AuditInputError
from audit.schema import events_schema, events_table
from audit.store import merkle

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
    shaped: dict[str, Any] = proof  # a dict: checked above
    return shaped


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


class MalformedProof(Exception):
    """Where a proof is not shaped like one, and how (structure_problem's message)."""


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
        raise MalformedProof(f"{where}{key}: missing")
    return parent[key]


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedProof(f"{where}: expected an object, got {_kind(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedProof(f"{where}: expected a list, got {_kind(value)}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise MalformedProof(f"{where}: expected a string, got {_kind(value)}")
    return value


def _count(value: Any, where: str, low: int) -> int:
    if type(value) is not int:  # neither a boolean nor 1.0
        raise MalformedProof(f"{where}: expected an integer, got {_kind(value)}")
    if not low <= value <= MAX_COUNT:
        raise MalformedProof(f"{where}: {_short(value)} is out of range")
    return value


def _hash(value: Any, where: str) -> str:
    text = _text(value, where)
    if len(text) != 64 or text.strip("0123456789abcdef"):
        raise MalformedProof(f"{where}: expected 64 lowercase hex digits, got {_short(text)}")
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
    except MalformedProof as exc:
        return printable(str(exc))
    return None


def _check_structure(proof: Any) -> None:
    top = _object(proof, "the proof")
    _text(_field(top, "hand_id", ""), "hand_id")
    decode_events(_list(_field(top, "events", ""), "events"))
    leaf = _object(_field(top, "leaf", ""), "leaf")
    if _text(_field(leaf, "encoding", "leaf."), "leaf.encoding") != merkle.LEAF_ENCODING:
        raise MalformedProof(f"leaf.encoding: {_short(leaf['encoding'])} is not the encoding this "
                         f"poker-audit computes ({merkle.LEAF_ENCODING})")
    _hash(_field(leaf, "hash", "leaf."), "leaf.hash")
    batch = _object(_field(top, "batch", ""), "batch")
    if _text(_field(batch, "tree", "batch."), "batch.tree") != merkle.TREE:
        raise MalformedProof(f"batch.tree: {_short(batch['tree'])} is not the tree this "
                         f"poker-audit computes ({merkle.TREE})")
    _count(_field(batch, "index", "batch."), "batch.index", 0)
    _count(_field(batch, "size", "batch."), "batch.size", 1)
    path = _list(_field(batch, "path", "batch."), "batch.path")
    if len(path) > MAX_PATH:
        raise MalformedProof(f"batch.path: {len(path)} hashes; no tree here is that deep")
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
            raise MalformedProof(f"{where}: neither a digest nor a record")


def _record(value: Any, where: str) -> dict[str, Any]:
    """A manifest record as far as the chain uses it: its hash and its predecessor's."""
    record = _object(value, where)
    _hash(_field(record, "hash", f"{where}."), f"{where}.hash")
    if "prev_hash" in record:
        _hash(record["prev_hash"], f"{where}.prev_hash")
    return record


_FITS = (pa.ArrowException, TypeError, ValueError, OverflowError)  # what a misfit raises


def decode_events(rows: list[Any]) -> pa.Table:
    """The proof's events as an events table (ISO timestamps parsed); MalformedProof naming the
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
                raise MalformedProof(f"events[{number}].ts: {_short(row['ts'])} is not an ISO "
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
            raise MalformedProof(f"events[{number}]: does not fit the events schema "
                             f"({printable(str(exc))[:120]})") from None
    raise MalformedProof("events: they do not fit the events schema together")


def _event_fields(value: Any, fields: list[pa.Field], where: str) -> dict[str, Any]:
    """An event (or its game object) whose keys are columns and whose values have their
    column's JSON type; a copy, so decoding its timestamp leaves the proof as it was."""
    row = dict(_object(value, where))
    by_name = {f.name: f for f in fields}
    unknown = sorted(set(row) - set(by_name))
    if unknown:  # it would not be hashed, so it could say anything
        raise MalformedProof(f"{where}: {_short(unknown[0])} is not an event column")
    for name, field in by_name.items():
        item = row.get(name)
        if item is None:
            if not field.nullable:
                raise MalformedProof(f"{where}.{name}: missing")
            continue
        if pa.types.is_struct(field.type):
            row[name] = _event_fields(item, list(field.type), f"{where}.{name}")
            continue
        wanted = (int if pa.types.is_integer(field.type) else
                  bool if pa.types.is_boolean(field.type) else str)
        if type(item) is not wanted:  # bool is no int here, nor 1.0
            raise MalformedProof(f"{where}.{name}: expected {_kind(wanted())}, got {_kind(item)}")
        if type(item) is int:  # wanted is int (checked just above): the column's range
            bits = field.type.bit_width
            low, high = ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
                         if pa.types.is_signed_integer(field.type) else (0, 2**bits - 1))
            if not low <= item <= high:
                raise MalformedProof(f"{where}.{name}: {_short(item)} does not fit its column "
                                 f"({field.type})")
    return row
