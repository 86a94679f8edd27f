"""Malformed inclusion proofs (issue 19 item 11): whatever is wrong with the file, verify-proof
answers in one line naming it, exit 2 when it is not readable as a proof and 1 when a check
fails, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from audit.devtools.attacks_errors import proof_mutations, proof_outcome, run_cli, small_proof
from audit.store.proof import check_proof, structure_problem


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return small_proof(tmp_path_factory.mktemp("proof"))[1]


def test_the_real_proof_is_well_formed_and_checks(proof: dict):
    assert structure_problem(proof) is None
    assert check_proof(proof).ok


@pytest.mark.slow
def test_every_mutation_of_a_real_proof_gives_one_line(proof: dict, tmp_path: Path):
    mutations = list(proof_mutations(proof))
    assert len(mutations) > 1000  # every key dropped, every value of every wrong type
    failed = []
    for mutation in mutations:
        held, detail = proof_outcome(mutation, tmp_path / "proof.json")
        if not held:
            failed.append(f"{mutation.case}: {detail}")
    assert not failed, failed[:20]


@pytest.mark.parametrize("case", ["batch.index = string", "record = list", "chain = zero",
                                  "events.3 = empty list", "events.1.amount = 2**64",
                                  "events.1.seat = 1.5", "leaf.encoding = string"])
@pytest.mark.slow
def test_wrong_types_are_unreadable_input_naming_the_file_and_the_field(
        proof: dict, tmp_path: Path, case: str):
    mutation = next(m for m in proof_mutations(proof) if m.case == case)
    path = tmp_path / "proof.json"
    path.write_text(mutation.text)
    outcome = run_cli(["verify-proof", str(path)])
    assert outcome.one_line(2), outcome
    field = case.split(" = ")[0].replace(".3", "[3]").replace(".1.", "[1].")
    assert str(path) in outcome.lines[0] and field in outcome.lines[0], outcome.lines


@pytest.mark.slow
def test_the_library_check_reports_a_malformed_proof_instead_of_raising(proof: dict):
    malformed = 0
    for mutation in list(proof_mutations(proof))[::7]:
        try:
            broken = json.loads(mutation.text)
        except (ValueError, RecursionError):
            continue
        check = check_proof(broken)  # must not raise, whatever it was given
        problem = structure_problem(broken)
        if problem is not None:
            malformed += 1
            assert check.problems == (f"the proof is malformed ({problem})",), mutation.case
    assert malformed > 50


def test_a_tampered_but_well_formed_proof_fails_in_one_line(proof: dict, tmp_path: Path):
    proof["events"][2]["amount"] = 1
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    outcome = run_cli(["verify-proof", str(path)])
    assert outcome.one_line(1)
    assert outcome.lines[0].startswith("FAILED: the events do not hash to the proof's leaf")


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00binary", b"{", b"null", b"[]"])
def test_unreadable_files_are_one_line_exit_2(tmp_path: Path, content: bytes):
    path = tmp_path / "proof.json"
    path.write_bytes(content)
    outcome = run_cli(["verify-proof", str(path)])
    assert outcome.one_line(2) and str(path) in outcome.lines[0], outcome


def test_directories_fifos_devices_and_stdin_are_one_line_exit_2(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it would wait for a writer forever
    for path in (tmp_path, fifo, Path("/dev/zero"), tmp_path / "missing.json"):
        outcome = run_cli(["verify-proof", str(path)])
        assert outcome.one_line(2) and str(path) in outcome.lines[0], (path, outcome)
    outcome = run_cli(["verify-proof", "-"], stdin=b"\xff not text")
    assert outcome.one_line(2) and "stdin" in outcome.lines[0], outcome
