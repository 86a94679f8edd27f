"""The quick line helpers of the GGPoker, 888poker and Winamax readers (audit/importers/
fasttext.py) answer exactly as the general helpers of sitetext do: a seated player's name is
split off a line as `SiteHand.split_name` splits it (names with spaces and colons, names that
start other names, lines that are only a name), an amount is worth what `site_money` says and
an amount finer than the unit is refused naming its line, every time it is seen."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.importers.fasttext import Amounts, quick_cards, split_or_note, split_seated
from audit.importers.pacific import amount_888
from audit.importers.sitetext import SiteHand, SiteHandError, parse_amount, site_cards, site_money

_PIECES = ["a", "b", "Bob", " ", ":", "é", "x y", "1", ": calls 5", " folds", " joins the table"]
_NAMES = st.lists(st.lists(st.sampled_from(["a", "b", "Bob", " ", ":", "é", "x"]), min_size=1,
                           max_size=5).map("".join), min_size=1, max_size=6, unique=True)
_LINES = st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map("".join), min_size=1,
                  max_size=20)


def _hand(names: list[str]) -> SiteHand:
    h = SiteHand(fmt="test", file_name="t.txt", hand_id="t:1", table_id=None)
    for seat, name in enumerate(names, start=1):
        h.add_seat(seat, seat, name, 100, False)
    return h


@settings(max_examples=300, deadline=None)
@given(names=_NAMES, lines=_LINES)
def test_a_seated_name_is_split_off_as_split_name_splits_it(names: list[str],
                                                           lines: list[str]) -> None:
    h = _hand(names)
    for text in lines:
        assert split_seated(h, text) == h.split_name(text)


@settings(max_examples=200, deadline=None)
@given(names=_NAMES, lines=_LINES)
def test_a_line_of_someone_not_seated_is_a_note_as_before(names: list[str],
                                                         lines: list[str]) -> None:
    quick, slow = _hand(names), _hand(names)
    for n, text in enumerate(lines, start=10):
        try:
            got: object = split_or_note(quick, n, text)
        except SiteHandError as exc:
            got = str(exc)
        try:
            want: object = slow.split_or_note(n, text)
        except SiteHandError as exc:
            want = str(exc)
        assert got == want
    assert quick.rows == slow.rows  # the same notes, in the same order


def test_a_seat_added_later_is_seen_by_the_next_split() -> None:
    h = _hand(["Bob"])
    assert split_seated(h, "Bob Smith folds") == ("Bob", "Smith folds")
    h.add_seat(9, 2, "Bob Smith", 100, False)
    assert split_seated(h, "Bob Smith folds") == ("Bob Smith", "folds")


@pytest.mark.parametrize("parse", [parse_amount, amount_888])
@pytest.mark.parametrize("mpu", [1, 100])
@pytest.mark.parametrize("text", ["$1,855", "0.5", "1.25", "15 788,50 $", "2,048.50", "7",
                                  "€301,49", "1.183.764 $", "abc", "1.2.3", "0.001"])
def test_an_amount_is_worth_what_site_money_says_every_time(
        parse: Callable[[str], Decimal], mpu: int, text: str) -> None:
    amounts = Amounts(parse)
    money = amounts.of(mpu)

    def outcome(read: Callable[..., int], *args: object) -> object:
        try:
            return read(*args)
        except SiteHandError as exc:
            return str(exc)

    for line in (3, 4, 3):  # a refusal names the line it is on each time
        want = outcome(site_money, text, mpu, line, parse)
        assert outcome(money, text, line) == want
        assert outcome(amounts.value, text, mpu, line) == want


@pytest.mark.parametrize("text", ["[ 9c , 2s ]", "7d Ah 6s 2h", "10h Xx", "[Ah Kd]", "[]", "Zz",
                                  "?? ??", "[ 9c , 2s ]"])
def test_cards_are_read_as_site_cards_reads_them_every_time(text: str) -> None:
    def outcome(read: Callable[[str, str], str], line: int) -> object:
        try:
            return read(text, f"line {line}")
        except SiteHandError as exc:
            return str(exc)

    for line in (5, 6, 5):
        assert outcome(quick_cards, line) == outcome(site_cards, line)
