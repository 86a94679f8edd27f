"""The store's evidence: `verify` (every file hash and the hash chain), `prove` (an inclusion proof
of one hand) and `verify-proof` (check a proof with what it carries)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    err,
    open_store,
    store_option,
    user_errors,
)
from audit.store.dataset import VerifyReport
from audit.store.outfile import write_output
from audit.store.proof import build_proof, check_proof, dumps, proof_size
from audit.store.proof_format import MAX_PROOF_BYTES, parse_proof, printable, read_proof


def _is_sha256_hex(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)


@click.command(context_settings=CONTEXT_SETTINGS)
@store_option
@click.option("--head", default=None, metavar="HASH",
              help="A chain head published earlier (verify prints it): fail if the chain "
              "does not hold it, as after a rollback.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="The result as text, or as one JSON document on stdout (notes stay on "
              "stderr); the exit code is the same.")
def verify(store: Path | None, head: str | None, fmt: str) -> None:
    """Check the store's integrity: every file hash and the manifest hash chain.

    Names each modified, missing or unlisted file. Exit code 1 on any problem. Publish the
    chain head it prints (somewhere the store's owner cannot rewrite): removing the newest
    batches, record and files, leaves nothing inside the store to contradict, and only
    `--head` with a head published before exposes it.

    \b
    Example:
        poker-audit verify --store ./audit-store
        poker-audit verify --store ./audit-store --head 2b05decf...
        poker-audit verify --format json
    """
    if head is not None and not _is_sha256_hex(head):
        raise InputProblem(f"--head {head!r} is not a chain head (64 hex digits); use the "
                           "head a `poker-audit verify` printed")
    target = open_store(store)
    report = target.verify(head=head.lower() if head else None)
    if fmt == "json":
        click.echo(json.dumps(verify_document(report, head), indent=2))
    else:
        for p in report.problems:
            click.echo(f"{p.kind.upper()}: {p.path}: {p.detail}")
        for run_id in report.unprotected:  # not a problem: nothing protected them to check
            click.echo(f"UNPROTECTED: runs/{run_id}: audit run written before runs were "
                       "committed to the chain; verify cannot check it (run `poker-audit "
                       "audit` to make a protected run)")
        status = "OK" if report.ok else f"FAILED ({len(report.problems)} problem(s))"
        click.echo(
            f"{status}: {report.batches} batches, {report.files} files, {report.hands} hands, "
            f"{report.rows} events; chain head {report.head}"
        )
    if report.ok and head:
        err(f"the chain holds the published head {head.lower()}")
    elif report.ok:
        err(f"publish the chain head where the store's owner cannot change it; later "
            f"`poker-audit verify --head {report.head}` fails if the store was rolled back")
    sys.exit(0 if report.ok else 1)


def verify_document(report: VerifyReport, head: str | None) -> dict[str, Any]:
    """What `verify --format json` prints: the counts, the chain head, each problem and each
    unprotected run, and the published head checked (null without --head)."""
    return {
        "ok": report.ok,
        "batches": report.batches,
        "files": report.files,
        "hands": report.hands,
        "rows": report.rows,
        "head": report.head,
        "published_head": head.lower() if head else None,
        "problems": [{"kind": p.kind, "path": p.path, "detail": p.detail}
                     for p in report.problems],
        "unprotected_runs": [f"runs/{run_id}" for run_id in report.unprotected],
    }


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("hand_id")
@store_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the proof here instead of stdout.")
def prove(hand_id: str, store: Path | None, out: Path | None) -> None:
    """Print an inclusion proof that a hand's events are in a committed batch.

    The proof carries the hand's events, their Merkle leaf, the audit path to the batch
    root, the batch's manifest record and a digest per later record up to the chain head;
    anyone can check it with verify-proof. Its size goes to stderr.

    \b
    Example:
        poker-audit prove ps:35824123646 --out proof.json
        poker-audit verify-proof proof.json --head <published chain head>
    """
    target = open_store(store)
    with user_errors():
        proof = build_proof(target, hand_id)
    text = dumps(proof) + "\n"
    size = proof_size(proof)
    if out:
        with user_errors():
            write_output(target, out, text)
        err(f"proof written to {out}")
    else:
        click.echo(text, nl=False)
    err(f"proof of {hand_id}: {size['hashes']} hashes, {size['bytes_without_events']:,} bytes "
        f"without the hand's events ({size['bytes']:,} with them); chain head "
        f"{proof['chain']['head']}")


@click.command("verify-proof", context_settings=CONTEXT_SETTINGS)
@click.argument("proof_file", type=click.Path(allow_dash=True, path_type=Path))
@click.option("--store", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also check the proof's head and batch against this store's manifest.")
@click.option("--head", default=None, metavar="HASH",
              help="A chain head you trust (published elsewhere); the proof must end in it.")
def verify_proof(proof_file: Path, store: Path | None, head: str | None) -> None:
    """Check an inclusion proof made by prove, using only what the proof carries.

    Recomputes the hand's leaf from its events, the batch root from the audit path, the
    manifest record's hash and the chain up to the head. With --head or --store, the head
    must also be one you trust or this store committed. Exit code 1 when a check fails, 2
    when the file cannot be read or is not shaped like a proof.

    \b
    Example:
        poker-audit verify-proof proof.json --head 2b05decf...
        poker-audit verify-proof proof.json --store ./audit-store
    """
    with user_errors():
        if str(proof_file) == "-":
            proof = parse_proof(sys.stdin.buffer.read(MAX_PROOF_BYTES + 1), "stdin")
        else:
            proof = read_proof(proof_file)
        target = open_store(store) if store else None
        check = check_proof(proof, store=target, head=head)
    if not check.ok:  # every failed step, on one line
        click.echo(printable(f"FAILED: {'; '.join(check.problems)}"))
    else:
        anchor = ("; it is the head you trust" if head else
                  f"; {target.root} committed it" if target else
                  "; compare that head with one published by the store's owner (--head)")
        click.echo(printable(f"OK: hand {check.hand_id} is in batch {check.batch_id} under "
                             f"chain head {check.head} ({check.hashes} hashes){anchor}"))
    sys.exit(0 if check.ok else 1)
