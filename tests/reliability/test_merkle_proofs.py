"""Tamper evidence beyond the hash chain: a Merkle root per batch over its hands, inclusion
proofs a third party checks (`prove` / `verify-proof`), and `verify` recomputing the roots."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.schema import events_schema, events_table
from audit.store import merkle
from audit.store.dataset import GENESIS, Store, record_hash, sha256_file
from audit.store.proof import ProofError, build_proof, check_proof, proof_size
from tests.support.eventrows import hand_rows, many_hands, write_parquet


@pytest.fixture
def filled(store: Store, tmp_path: Path) -> Store:
    for i in range(3):
        ingest([write_parquet(tmp_path / f"{i}.parquet", many_hands(f"b{i}-", 13))], store)
    return store


# ------------------------------------------------------------------ the tree


def _rfc6962(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, written recursively as in the RFC (the reference)."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return merkle.node_hash(_rfc6962(leaves[:k]), _rfc6962(leaves[k:]))


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 33])
def test_merkle_root_is_rfc6962_and_every_audit_path_leads_to_it(size: int):
    leaves = [bytes([i]) * 32 for i in range(size)]
    root = merkle.merkle_root(leaves)
    assert root == _rfc6962(leaves)
    for index in range(size):
        path = merkle.audit_path(leaves, index)
        assert len(path) <= max(1, (size - 1).bit_length())
        assert merkle.root_from_path(leaves[index], index, size, path) == root
        if path:
            with pytest.raises(ValueError, match="audit path is too short"):
                merkle.root_from_path(leaves[index], index, size, path[:-1])
            wrong = [b"\xff" * 32, *path[1:]]
            assert merkle.root_from_path(leaves[index], index, size, wrong) != root


def test_leaf_changes_with_every_column_and_rows_are_not_interchangeable():
    base = hand_rows("h1")
    leaf = merkle.hand_leaves(events_table(base))[0]
    edits = [("amount", 4, 51), ("seat", 4, 3), ("player", 1, "anne"), ("cards", 6, "As Kh"),
             ("detail", 4, "big_blind"), ("kind", 10, "check"), ("table_id", 2, "t2"),
             ("total", 4, None), ("source", 0, "x:1")]
    seen = {leaf}
    for column, row, value in edits:
        rows = copy.deepcopy(base)
        rows[row][column] = value
        changed = merkle.hand_leaves(events_table(rows))[0]
        assert changed not in seen, column
        seen.add(changed)
    game = copy.deepcopy(base)
    game[0]["game"]["big_blind"] = 200
    assert merkle.hand_leaves(events_table(game))[0] not in seen
    # a value moved across a field boundary ("ab" + "" vs "a" + "b") changes the leaf
    a, b = copy.deepcopy(base), copy.deepcopy(base)
    a[1]["player"], a[1]["detail"] = "ab", ""
    b[1]["player"], b[1]["detail"] = "a", "b"
    assert merkle.hand_leaves(events_table(a)) != merkle.hand_leaves(events_table(b))


def test_leaves_of_a_table_equal_leaves_of_each_hand_alone():
    rows = many_hands("m", 5)
    together = merkle.hand_leaves(events_table(rows))
    alone = [merkle.hand_leaves(events_table(hand_rows(f"m{i}")))[0] for i in range(5)]
    assert together == alone and len(set(together)) == 5


def test_a_large_table_is_hashed_in_halves_with_the_same_leaves(monkeypatch):
    table = events_table(many_hands("big", 9))
    whole = merkle.hand_leaves(table)
    monkeypatch.setattr(merkle, "SLICE_BYTES", 1)  # every table is "large": split to single hands
    assert merkle.hand_leaves(table) == whole and len(whole) == 9
    monkeypatch.undo()
    monkeypatch.setattr(merkle, "SLICE_ROWS", 40)  # and by rows, through the compiled writer
    monkeypatch.setattr(merkle, "KERNEL_MIN_ROWS", 1)
    assert merkle.hand_leaves(table) == whole


# ------------------------------------------------------------------ compiled leaf writer

_INT64 = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1), st.integers(-5, 300))
_TEXT = st.one_of(st.none(), st.text(max_size=6), st.sampled_from(["", "As Kd", "\u00e9\u4e2d"]))


@st.composite
def _event_tables(draw: st.DrawFn) -> pa.Table:
    """Hands of 1-4 rows with every column drawn (nulls, int64 extremes, unicode, empty
    strings, a game struct on any row or none, its bools and strings)."""
    schema = events_schema()
    game_type = schema.field("game").type
    rows = []
    for h in range(draw(st.integers(1, 4))):
        hand_id = draw(st.text(min_size=1, max_size=5)) + f"#{h}"
        for seq in range(draw(st.integers(1, 4))):
            game = None
            if draw(st.booleans()):
                game = {}
                for field in game_type:
                    if pa.types.is_string(field.type):
                        game[field.name] = draw(_TEXT)
                    elif pa.types.is_boolean(field.type):
                        game[field.name] = draw(st.one_of(st.none(), st.booleans()))
                    elif field.type == pa.int8():
                        game[field.name] = draw(st.one_of(st.none(), st.integers(-128, 127)))
                    elif field.type == pa.int32():
                        game[field.name] = draw(st.one_of(st.none(), st.integers(0, 2**31 - 1)))
                    else:
                        game[field.name] = draw(_INT64)
            rows.append({
                "hand_id": hand_id, "seq": seq, "ts": draw(st.one_of(st.none(), st.datetimes(
                    min_value=datetime(1970, 1, 1), max_value=datetime(2200, 1, 1),
                    timezones=st.just(UTC)))),
                "table_id": draw(_TEXT), "kind": draw(st.text(max_size=4)),
                "seat": draw(st.one_of(st.none(), st.integers(-128, 127))),
                "player": draw(_TEXT), "amount": draw(_INT64), "total": draw(_INT64),
                "cards": draw(_TEXT), "detail": draw(_TEXT), "game": game,
                "source": draw(_TEXT)})
    return pa.Table.from_pylist(rows, schema=schema)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=_event_tables(), cut=st.integers(0, 3))
def test_compiled_leaves_equal_the_arrow_reference(table: pa.Table, cut: int):
    kernel = merkle._kernel()
    assert kernel is not None, "the compiled leaf writer should build here"
    assert merkle.compiled_leaves(table, kernel) == merkle.reference_leaves(table)
    # sliced (non-zero array offsets) and multi-chunk tables too
    starts = merkle.hand_starts(table)
    if cut < len(starts):
        at = int(starts[cut])
        rest = table.slice(at)
        assert merkle.compiled_leaves(rest, kernel) == merkle.reference_leaves(rest)
        chunked = pa.concat_tables([table.slice(0, at), rest])
        assert merkle.compiled_leaves(chunked, kernel) == merkle.reference_leaves(table)


PINNED_LEAF = "02c4a919768677cd7667688fba204d029ee59ddb4392f1e1a8ab45ff5281cfa1"


def test_leaf_encoding_is_pinned():
    """Stores written earlier must keep verifying: the leaf of a known hand never changes."""
    leaf = merkle.hand_leaves(events_table(hand_rows("h1")))[0]
    assert leaf == merkle.reference_leaves(events_table(hand_rows("h1")))[0]
    assert leaf.hex() == PINNED_LEAF


def test_large_tables_take_the_compiled_writer_small_ones_the_reference(
        monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    real = merkle.compiled_leaves
    monkeypatch.setattr(merkle, "compiled_leaves",
                        lambda t, k: calls.append(t.num_rows) or real(t, k))
    table = events_table(hand_rows("h1"))
    assert merkle.hand_leaves(table)[0].hex() == PINNED_LEAF and calls == []
    monkeypatch.setattr(merkle, "KERNEL_MIN_ROWS", 1)
    assert merkle.hand_leaves(table)[0].hex() == PINNED_LEAF and calls == [table.num_rows]


def test_a_store_written_with_compiled_leaves_verifies_with_the_reference(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from audit.devtools.faults import hands_table

    src = tmp_path / "big.parquet"
    hands = 2 * merkle.KERNEL_MIN_ROWS // 15
    pq.write_table(hands_table("big", hands), src)
    compiled: list[int] = []
    real = merkle.compiled_leaves
    monkeypatch.setattr(merkle, "compiled_leaves",
                        lambda t, k: compiled.append(t.num_rows) or real(t, k))
    assert ingest([src], store).hands == hands
    assert compiled  # the compiled writer made the committed roots (else nothing is compared)
    compiled.clear()
    monkeypatch.setenv(merkle.REFERENCE_ENV, "1")
    report = store.verify()
    assert report.ok and report.hands == hands, report.problems
    assert compiled == []  # ... and only the Arrow reference recomputed them


def test_reference_env_turns_the_compiled_writer_off(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(merkle.REFERENCE_ENV, "1")
    assert merkle._kernel() is None
    assert merkle.hand_leaves(events_table(hand_rows("h1")))[0].hex() == PINNED_LEAF


# ------------------------------------------------------------------ the store


def test_every_batch_record_carries_a_merkle_root_over_its_hands(filled: Store):
    records = list(filled.records())
    assert records
    for record in records:
        leaves = filled.batch_leaves(record)
        assert record["merkle"] == {"tree": merkle.TREE, "leaf": merkle.LEAF_ENCODING,
                                    "hands": 13, "root": merkle.merkle_root(leaves).hex()}
        assert record["chain"] == 2
    assert filled.verify().ok


def _rewrite_file_and_rechain(store: Store, edit) -> None:
    """The strongest file tamper short of recomputing roots: edit an event file, then patch
    its sha256 in the manifest and re-hash the whole chain so the file hashes verify."""
    records = store.records()
    entry = records[1]["files"][0]
    path = store.root / entry["path"]
    table = edit(pq.read_table(path))
    pq.write_table(table, path)
    entry["sha256"] = sha256_file(path)
    prev = GENESIS
    for r in records:
        r["prev_hash"] = prev
        r["hash"] = record_hash(r)
        prev = r["hash"]
    store.manifest_path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _kinds(store: Store) -> set[str]:
    return {p.kind for p in store.verify().problems}


def test_verify_recomputes_merkle_roots_edited_amount(filled: Store):
    def edit(t: pa.Table) -> pa.Table:
        amounts = t.column("amount").to_pylist()
        amounts[4] = 999
        return t.set_column(t.schema.get_field_index("amount"), "amount",
                            pa.array(amounts, pa.int64()))
    _rewrite_file_and_rechain(filled, edit)
    assert _kinds(filled) == {"merkle"}


def test_verify_recomputes_merkle_roots_deleted_hand(filled: Store):
    _rewrite_file_and_rechain(filled, lambda t: t.slice(15))
    assert _kinds(filled) == {"merkle"}


def test_verify_recomputes_merkle_roots_reordered_hands(filled: Store):
    _rewrite_file_and_rechain(filled, lambda t: pa.concat_tables([t.slice(15, 15), t.slice(0, 15),
                                                                 t.slice(30)]))
    assert _kinds(filled) == {"merkle"}


def test_verify_recomputes_merkle_roots_inserted_hand(filled: Store):
    extra = events_table(hand_rows("forged")).cast(pq.read_schema(
        filled.root / filled.records()[1]["files"][0]["path"]))
    _rewrite_file_and_rechain(filled, lambda t: pa.concat_tables([t, extra]))
    assert _kinds(filled) == {"merkle"}


def test_edited_merkle_root_in_the_manifest_is_an_edited_record(filled: Store):
    records = filled.records()
    records[0]["merkle"]["root"] = "0" * 64
    filled.manifest_path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert "manifest" in _kinds(filled)


def test_records_from_before_merkle_roots_still_verify_but_cannot_be_proven(store: Store,
                                                                            tmp_path: Path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("old", 3))], store)
    records = store.records()
    for r in records:  # the manifest format before this change
        del r["merkle"], r["chain"]
        r["hash"] = record_hash(r)
    store.manifest_path.write_text("".join(json.dumps(r) + "\n" for r in records))
    ingest([write_parquet(tmp_path / "b.parquet", many_hands("new", 3))], store)
    assert store.verify().ok
    with pytest.raises(ProofError, match="before poker-audit kept Merkle roots"):
        build_proof(store, "old1")
    proof = build_proof(store, "new1")
    assert check_proof(proof, store=store).ok


# ------------------------------------------------------------------ proofs


def test_proof_checks_with_nothing_but_itself_and_is_compact(filled: Store):
    proof = build_proof(filled, "b0-5")
    check = check_proof(proof)
    assert check.ok, check.problems
    assert check.head == filled.head() and check.batch_id == filled.records()[0]["batch_id"]
    size = proof_size(proof)
    # leaf + 4 path hashes for 13 hands + root + one digest for each of 2 later records
    assert size["hashes"] == 1 + 4 + 1 + 2
    assert size["bytes_without_events"] < 2500
    assert check_proof(proof, store=filled).ok
    assert check_proof(proof, head=filled.head()).ok


def test_proof_survives_later_ingests_and_stays_valid_against_the_store(filled: Store,
                                                                         tmp_path: Path):
    proof = build_proof(filled, "b2-12")
    ingest([write_parquet(tmp_path / "later.parquet", many_hands("later", 2))], filled)
    assert check_proof(proof, store=filled).ok  # an older head the store committed
    assert not check_proof(proof, head=filled.head()).ok  # not the head you were given


TAMPERS = {
    "edited event": lambda p: p["events"][4].update(amount=51),
    "removed event": lambda p: p["events"].pop(),
    "inserted event": lambda p: p["events"].insert(3, dict(p["events"][3])),
    "reordered events": lambda p: p["events"].reverse(),
    "other hand's events": lambda p: p.update(events=hand_rows("b0-6")),
    "wrong leaf index": lambda p: p["batch"].update(index=p["batch"]["index"] ^ 1),
    "flipped path hash": lambda p: p["batch"]["path"].__setitem__(0, "0" * 64),
    "edited record": lambda p: p["record"].update(hands=99),
    "swapped root": lambda p: p["batch"].update(root="0" * 64),
    "dropped later record": lambda p: p["chain"]["later"].pop(),
    "forged head": lambda p: p["chain"].update(head="f" * 64),
    "truncated path": lambda p: p["batch"]["path"].pop(),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_a_tampered_proof_fails(filled: Store, name: str):
    proof = json.loads(json.dumps(build_proof(filled, "b0-5"), default=str))
    TAMPERS[name](proof)
    check = check_proof(proof)
    assert not check.ok, name


def test_proof_of_a_hand_not_in_the_store_is_a_clear_error(filled: Store):
    with pytest.raises(ProofError, match="not in"):
        build_proof(filled, "nope")


# ------------------------------------------------------------------ CLI


def test_cli_prove_then_verify_proof(filled: Store, tmp_path: Path):
    runner = CliRunner()
    out = tmp_path / "proof.json"
    proved = runner.invoke(main, ["prove", "b1-3", "--store", str(filled.root), "--out",
                                  str(out)])
    assert proved.exit_code == 0, proved.output
    assert "hashes" in proved.stderr
    ok = runner.invoke(main, ["verify-proof", str(out), "--head", filled.head()])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.startswith("OK: hand b1-3 is in batch ")
    against = runner.invoke(main, ["verify-proof", str(out), "--store", str(filled.root)])
    assert against.exit_code == 0, against.output
    proof = json.loads(out.read_text())
    proof["events"][2]["amount"] = 1
    out.write_text(json.dumps(proof))
    bad = runner.invoke(main, ["verify-proof", str(out)])
    assert bad.exit_code == 1
    assert "FAILED: the events do not hash to the proof's leaf" in bad.stdout


def test_cli_verify_proof_of_garbage_is_a_usage_error(tmp_path: Path):
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfenot json")
    result = CliRunner().invoke(main, ["verify-proof", str(junk)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    junk.write_text('{"format": "something else"}')
    result = CliRunner().invoke(main, ["verify-proof", str(junk)])
    assert result.exit_code == 2 and "not a poker-audit inclusion proof" in result.output


def test_cli_prove_unknown_hand_exits_2(filled: Store):
    result = CliRunner().invoke(main, ["prove", "nope", "--store", str(filled.root)])
    assert result.exit_code == 2 and "not in" in result.output
