"""Inclusion proofs: one hand's events are in a committed batch under the manifest chain head.

A proof carries everything a third party needs and nothing more: the hand's events, their
Merkle leaf, the audit path up to the batch root, the batch's manifest record (which holds the
root) and one content digest per later record up to the head. `check_proof` recomputes each
step; given a store (or a head hash published elsewhere) it also checks that the head is one
this store really committed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import StoreError
from audit.store import merkle
from audit.store.chain import CHAIN_VERSION, GENESIS, chain_hash, record_digest, record_hash
from audit.store.dataset import Store, read_event_file
from audit.store.proof_format import (  # noqa: F401  (read_proof, parse_proof, loads: the API here too)
    PROOF_FORMAT,
    PROOF_VERSION,
    MalformedProof,
    ProofError,
    decode_events,
    loads,
    parse_proof,
    printable,
    read_proof,
    structure_problem,
)


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
    rows: list[dict[str, Any]] = table.to_pylist()
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
    position = next(i for i, r in enumerate(records) if r.get("hash") == record["hash"])
    later: list[dict[str, Any]] = [
        {"digest": record_digest(r)} if r.get("chain") == CHAIN_VERSION else {"record": r}
        for r in records[position + 1:]
    ]
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



def _leaf_of_events(hand_id: str, rows: list[dict[str, Any]]) -> tuple[bytes | None, str]:
    """The leaf recomputed from the proof's events, or None and why not."""
    if not rows:
        return None, "the proof carries no events"
    if any(r.get("hand_id") != hand_id for r in rows):
        return None, f"an event in the proof belongs to another hand than {hand_id}"
    if [r.get("seq") for r in rows] != list(range(len(rows))):
        return None, "the events' seq is not 0, 1, 2, ... in order"
    leaves = merkle.hand_leaves(decode_events(rows))
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
    except (KeyError, TypeError, ValueError, MalformedProof) as exc:  # e.g. a path too short
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
