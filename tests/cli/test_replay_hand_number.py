"""`poker-audit replay 47656382023`: the analyst has the room's own hand number (from the
site's log or its support desk), not our prefixed id (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, write_jsonl


@pytest.fixture
def rooms(store: Store, tmp_path: Path) -> Store:
    rows = [*hand_rows("ps:47656382023"), *hand_rows("ftp:555"),
            *hand_rows("phh:pokerstars:555"), *hand_rows("ps:1555")]
    assert ingest([write_jsonl(tmp_path / "rooms.jsonl", rows)], store).hands == 4
    return store


def _replay(store: Store, hand: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["replay", hand, "--store", str(store.root)])
    return result.exit_code, result.output


def test_the_rooms_hand_number_finds_the_one_hand_that_ends_with_it(rooms: Store):
    code, out = _replay(rooms, "47656382023")
    assert code == 0, out
    assert out.startswith("hand ps:47656382023 ")
    assert _replay(rooms, "ps:47656382023") == (code, out)  # the same as our own id


def test_a_number_several_rooms_share_lists_the_matching_ids(rooms: Store):
    code, out = _replay(rooms, "555")
    assert code == 2
    assert out.strip().splitlines() == [
        "Error: hand number 555 is in 2 stored hands: ftp:555, phh:pokerstars:555; give the "
        "whole id"]  # ps:1555 is another number


@pytest.mark.parametrize("number", ["2023", "5", "999"])
def test_a_number_that_is_no_stored_hand_is_one_line_and_exit_2(rooms: Store, number: str):
    code, out = _replay(rooms, number)
    assert code == 2
    assert len(out.strip().splitlines()) == 1
    assert f"hand '{number}' is not in" in out and "room's hand number" in out
