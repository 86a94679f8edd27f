"""Issue 23, bug 1: an analyst's wrong `--format` never locks a file out, and overlapping
exports are not a quarantine. The story: `ingest stars.txt --format PokerStars` used to
quarantine the file whole (exit 2) and record its bytes, so `--format pokerstars` or auto
then said "skipped, identical bytes already ingested" and stored nothing, for good."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, many_hands, quarantined, write_jsonl

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"


def _stars_file(tmp_path: Path) -> Path:
    """A PokerStars hand history of two hands, copied where the analyst keeps it."""
    return Path(shutil.copy(FIXTURES / "nlhe-two-hands.txt", tmp_path / "stars.txt"))


def _ingest(store: Store, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["ingest", *args, "--store", str(store.root)])
    return result.exit_code, result.output


def _stored(store: Store) -> int:
    return int(query(store, "SELECT count(*) AS n FROM hands_started").column("n")[0].as_py())


def test_format_is_taken_in_the_case_the_user_types(store: Store, tmp_path: Path):
    code, out = _ingest(store, str(_stars_file(tmp_path)), "--format", "PokerStars")
    assert code == 0, out
    assert "2 hands" in out and "[pokerstars]" in out
    assert _stored(store) == 2


def test_unknown_format_is_one_line_before_the_store_is_touched(store: Store, tmp_path: Path):
    src = _stars_file(tmp_path)
    code, out = _ingest(store, str(src), "--format", "bogus")
    assert code == 2
    assert out.strip().splitlines() == [
        "Error: --format 'bogus' is not a format; use one of: auto, bovada, events, fulltilt, "
        "ggpoker, ipoker, merge, ohh, pacific, partypoker, phh, pokerstars, winamax, winning"]
    assert not store.root.exists()  # no store created, nothing quarantined
    # on a store already holding the file, the name is checked all the same
    assert _ingest(store, str(src))[0] == 0
    code, out = _ingest(store, str(src), "--format", "bogus")
    assert code == 2 and "is not a format" in out and "skipped" not in out


def test_an_unknown_format_given_to_the_library_touches_no_store(store: Store, tmp_path: Path):
    from audit.errors import AuditInputError

    try:
        ingest([_stars_file(tmp_path)], store, fmt="PokerStarz")
    except AuditInputError as exc:
        assert "unknown format 'PokerStarz'" in str(exc)
    else:
        raise AssertionError("an unknown format was accepted")
    assert not store.exists()


def test_a_file_read_under_the_wrong_format_is_read_again_under_the_right_one(
        store: Store, tmp_path: Path):
    src = _stars_file(tmp_path)
    code, out = _ingest(store, str(src), "--format", "fulltilt")
    assert code == 1, out  # nothing of it fits Full Tilt's format: quarantined
    assert (f"{src}: its content reads as pokerstars, not fulltilt; nothing of it was stored, "
            "so it is read again when given again") in out
    assert _stored(store) == 0 and quarantined(store)
    code, out = _ingest(store, str(src))  # the right format (by content): read again
    assert code == 0, out
    assert "skipped" not in out and "2 hands (" in out
    assert _stored(store) == 2
    code, out = _ingest(store, str(src))  # now it stored hands: the same bytes are skipped
    assert code == 0 and "skipped, identical bytes already ingested" in out


def test_the_same_wrong_format_again_adds_no_second_quarantine(store: Store, tmp_path: Path):
    """Given again under the same wrong --format, the file would be quarantined again exactly
    as before: it is skipped (exit 1, its hands are still only in quarantine) instead of
    doubling the report's quarantine count; the right format still reads it."""
    src = _stars_file(tmp_path)
    assert _ingest(store, str(src), "--format", "fulltilt")[0] == 1
    first = len(quarantined(store))
    assert first > 0
    code, out = _ingest(store, str(src), "--format", "fulltilt")
    assert code == 1, out
    assert (f"{src}: skipped, identical bytes already read as fulltilt and quarantined, "
            "nothing of them stored") in out
    assert len(quarantined(store)) == first
    assert "1 file(s) skipped still only in quarantine" in out
    code, out = _ingest(store, str(src), "--format", "fulltilt", "--retry-quarantined")
    assert code == 1 and "skipped" not in out  # asked to: read (and quarantined) again
    assert len(quarantined(store)) == 2 * first
    assert _ingest(store, str(src))[0] == 0 and _stored(store) == 2


def test_an_unreadable_file_given_again_is_not_quarantined_twice(store: Store,
                                                                 tmp_path: Path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a hand history\n", encoding="utf-8")
    code, out = _ingest(store, str(junk))
    assert code == 2 and "cannot tell the format from its content" in out
    first = len(quarantined(store))
    assert first == 1
    code, out = _ingest(store, str(junk))
    assert code == 1 and "skipped, identical bytes already read by content and quarantined" in out
    assert "0 quarantined, 0 unreadable file(s), 1 file(s) skipped still only in quarantine" in out
    assert len(quarantined(store)) == first


def test_overlapping_site_exports_say_already_stored_and_stay_clean(store: Store,
                                                                  tmp_path: Path):
    """Two exports of the same session (the second a byte longer): the second stores
    nothing new, says so on its own line, exits 0 and adds nothing to quarantine, so the
    report's quarantine count (the quarantine view) stays 0."""
    first = _stars_file(tmp_path)
    second = tmp_path / "stars-again.txt"
    second.write_bytes(first.read_bytes() + b"\n")
    assert _ingest(store, str(first))[0] == 0
    code, out = _ingest(store, str(second))
    assert code == 0, out
    assert "0 hands (0 events) stored, 2 already stored, 0 quarantined" in out
    assert "total: 0 hands stored, 0 quarantined" in out
    assert "already stored: 2 hands" in out
    assert _stored(store) == 2
    assert quarantined(store) == []
    rejected = query(store, "SELECT count(*) AS n FROM quarantine").column("n")[0].as_py()
    assert rejected == 0


def test_retry_quarantined_reads_a_partly_quarantined_file_again(store: Store, tmp_path: Path):
    """A file of which one hand was quarantined (say, before an importer fix) is skipped as
    already ingested, unless --retry-quarantined: then its stored hands come out as already
    stored and the quarantined one is read again."""
    bad = hand_rows("r9")
    bad[1]["kind"] = "teleport"
    src = write_jsonl(tmp_path / "partly.jsonl", [*many_hands("r", 2), *bad])
    assert _ingest(store, str(src))[0] == 1
    code, out = _ingest(store, str(src))
    assert code == 0 and "skipped, identical bytes already ingested" in out
    code, out = _ingest(store, str(src), "--retry-quarantined")
    assert "skipped" not in out
    assert "0 hands (0 events) stored, 2 already stored, 1 quarantined" in out
    assert code == 1  # the hand is still rejected
    assert _stored(store) == 2
    # a file that quarantined nothing is not read again
    clean = write_jsonl(tmp_path / "clean.jsonl", many_hands("k", 2))
    assert _ingest(store, str(clean))[0] == 0
    code, out = _ingest(store, str(clean), "--retry-quarantined")
    assert code == 0 and "clean.jsonl: skipped, identical bytes already ingested" in out
