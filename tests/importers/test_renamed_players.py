"""A hand reads the same whatever its players are called.

Real hands of every site (fixtures/renames: one hand or a small file per site, cut from
../shared/data/fpdb-dev) are rewritten with each player renamed, consistently, to an awkward
name the room could have written (audit/devtools/renames.py: "calls raises", "Seat 3", "and
won", "ace" beside "ace ace", "中国龙"...), and read again with the site's normal importer: the
same events (names mapped back), the same quarantine, the same audit findings; tables renamed
to names with "Seat" and "Hand" in them read the same too. The sweep over the
whole corpus is tests/corpus/test_renamed_corpus.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools import renames
from audit.devtools.corpus import decode
from audit.devtools.renames import (
    BARE_AMOUNTS,
    FORMAT_SCALERS,
    SITE_NAMES,
    check_rewrite,
    check_scaled,
    check_site,
    read_file,
    rename_tables,
    rewrite_names,
    scale_amounts,
    scale_chips,
    scale_ipoker,
    scale_merge,
    tricky_names,
)
from audit.importers import detect_format
from tests.importers.test_winning_compiled import assert_compiled_same

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "renames"
SITE_OF = {"ftp": "ftp", "party": "partypoker", "winning": "winning", "stars": "stars",
           "gg": "ggpoker", "winamax": "winamax", "pacific": "pacific", "merge": "merge",
           "ipoker": "ipoker", "bovada": "bovada"}


def _site(path: Path) -> str:
    return SITE_OF[path.name.split("-")[0]]


def _renamed(tmp_path: Path, fixture: str, names: dict[str, str]) -> list[str]:
    """The differences of one rewrite of a fixture, with these names (original -> new)."""
    path = FIXTURES / fixture
    rewrite = rewrite_names(path.read_text(encoding="utf-8"), names)
    return [f"{d.what}: {d.detail}" for d in check_rewrite(
        path, detect_format(path), rewrite, tmp_path / "renamed" / fixture, label=fixture)]


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.iterdir()))
def test_every_tricky_name_reads_the_same_on_every_site(tmp_path: Path, fixture: str) -> None:
    site = _site(FIXTURES / fixture)
    result = check_site(site, [FIXTURES / fixture], tmp_path, root=FIXTURES, findings_rounds=1)
    assert result.rewrites == 0 if SITE_NAMES[site].anonymous else result.rewrites >= 1
    assert [f"{d.file} {d.what}: {d.detail}" for d in result.differences] == []


def test_every_fixture_hand_imports_whole() -> None:
    # a rewrite of a quarantined hand would compare two quarantines: the fixtures are read
    for path in FIXTURES.iterdir():
        read = read_file(path, detect_format(path))
        assert read.rows, path.name
        assert all("truncated" in reason for _, _, reason in read.rejected), path.name


def test_a_player_named_like_an_action_reads_the_same(tmp_path: Path) -> None:
    assert _renamed(tmp_path, "gg-short-deck.txt", {
        "f1da9c5a": "calls raises", "27925b27": "folds", "Hero": "all-in",
        "11294517": "shows"}) == []
    assert _renamed(tmp_path, "stars-triple-draw.txt", {
        "rumble1111": "calls raises", "Eisenherz73": "Seat 3", "cypis28": "sitting out",
        "bakter9": "and won", "TheLabman": "mucks", "Hero": "Uncalled"}) == []


def test_a_player_named_like_a_seat_line_reads_the_same(tmp_path: Path) -> None:
    assert _renamed(tmp_path, "winamax-stt.txt", {"Player3": "Seat 3", "Player9": "Seat 9",
                                                  "Hero": "Big Fish 77"}) == []


def test_a_player_whose_name_starts_another_players_name_reads_the_same(tmp_path: Path
                                                                      ) -> None:
    assert _renamed(tmp_path, "pacific-nlh.txt", {"spywebs": "ace", "bocce09": "ace ace",
                                                  "LILLER1969": "Bob", "Jfaw14": "Bob2"}) == []


def test_full_tilt_a_newcomer_whose_name_starts_with_a_seated_name_sits_down(tmp_path: Path
                                                                          ) -> None:
    # "nespejau sits down" in the middle of a hand: a seated "ace" must not swallow "ace ace"
    assert _renamed(tmp_path, "ftp-sits-down.txt", {"Player0": "ace",
                                                    "nespejau": "ace ace"}) == []


def test_full_tilt_a_seat_named_in_the_summary_only_may_hold_the_word_won(tmp_path: Path
                                                                        ) -> None:
    # an observed hand logged without seat lines: "Seat 3: and won (small blind) collected"
    # names "and won", who posts the small blind, not a player "and"
    assert _renamed(tmp_path, "ftp-observed-no-seat-lines.txt",
                    {"cinidy lynn": "and won", "durrrr": "is sitting out"}) == []


def test_partypoker_a_newcomer_named_like_a_seated_player_or_an_action_joins_and_posts(
        tmp_path: Path) -> None:
    # "Player7 has joined the table." then "Player7 posts big blind": unseated, he posts
    assert _renamed(tmp_path, "party-joins-and-posts.txt", {"Player2": "ace",
                                                            "Player7": "ace ace"}) == []
    assert _renamed(tmp_path, "party-joins-and-posts.txt", {"Player7": "calls raises"}) == []


def test_partypoker_a_line_glued_to_the_last_reads_the_same(tmp_path: Path) -> None:
    # "Player2 does not show cards.Player2 wins $1,10 USD": the client dropped a line end
    assert _renamed(tmp_path, "party-glued-lines.txt", {"Player2": "a.b_c-d",
                                                        "Player0": "Bob"}) == []


def test_winning_a_player_named_uncalled_is_not_named_by_an_uncalled_bet_line(tmp_path: Path
                                                                            ) -> None:
    # `Uncalled bet (10.18) returned to` (to the unnamed player) names nobody: the unnamed
    # player is still the one seated player no line names, not a new seat
    assert _renamed(tmp_path, "winning-unnamed-player.txt", {"Player3": "Uncalled"}) == []
    # and the compiled pass reads him as the line parser does
    path = tmp_path / "uncalled.txt"
    path.write_text(rewrite_names((FIXTURES / "winning-unnamed-player.txt").read_text(
        encoding="utf-8"), {"Player3": "Uncalled"}).text, encoding="utf-8")
    assert_compiled_same(path)


def test_each_site_is_given_only_names_it_can_write() -> None:
    for site, rules in SITE_NAMES.items():
        names = tricky_names(site)
        assert all(len(n) <= rules.max_length for n in names), site
        assert not any(set(n) & set(rules.never) for n in names), site
    # PokerStars' Indian site writes names of 15 characters ("OfficerJimLahey")
    assert max(map(len, tricky_names("stars"))) == len("Long Name Long")
    assert "Ca$h 4 u" in tricky_names("stars") and "Ca$h 4 u" not in tricky_names("ggpoker")
    assert tricky_names("bovada") == []  # positions, not names
    assert "中国龙" in tricky_names("ggpoker") and "Жора" in tricky_names("winamax")


@pytest.mark.parametrize("fixture", ["stars-triple-draw.txt", "gg-short-deck.txt",
                                     "winamax-stt.txt", "ftp-observed-no-seat-lines.txt",
                                     "pacific-nlh.txt", "winning-old-format.txt",
                                     "winning-unnamed-player.txt", "ipoker-russian.xml",
                                     "merge-heads-up.xml"])
def test_a_table_named_with_seat_and_hand_words_reads_the_same(tmp_path: Path,
                                                              fixture: str) -> None:
    path = FIXTURES / fixture
    rewrite = rename_tables(rewrite_names(path.read_text(encoding="utf-8"), {}), _site(path))
    assert rewrite.tables, "the site's table line was not found"
    assert all(new.startswith("Seat 9 Hand 2") for new in rewrite.tables.values())
    assert [f"{d.what}: {d.detail}" for d in check_rewrite(
        path, detect_format(path), rewrite, tmp_path / fixture, label=fixture)] == []


@pytest.mark.parametrize("fixture", ["stars-triple-draw.txt", "gg-short-deck.txt",
                                     "ftp-observed-no-seat-lines.txt", "pacific-nlh.txt"])
def test_amounts_a_thousand_times_larger_read_the_same(tmp_path: Path, fixture: str) -> None:
    # x1001: "$0.05" -> "$50.05", "$4.58" -> "$4,584.58" (grouped as the room groups them)
    path = FIXTURES / fixture
    rewrites = scale_amounts(path.read_text(encoding="utf-8"), _site(path))
    assert rewrites and "," in rewrites[0].text  # thousands separators appear
    assert check_scaled(path, _site(path), tmp_path, label=fixture) == []


def test_a_scaled_amount_keeps_its_cents_and_the_rooms_grouping() -> None:
    assert scale_amounts("Seat 1: Hero ($4.58 in chips)", "stars")[0].text == (
        "Seat 1: Hero ($4,584.58 in chips)")
    assert scale_amounts("Seat 1: Hero ($4.58 in chips)", "stars")[1].text == (
        "Seat 1: Hero ($4584.58 in chips)")
    assert scale_amounts("bets $0.2", "ggpoker")[0].text == "bets $200.2"
    assert scale_amounts("Hand #12345 Seat 3", "ftp")[0].text == "Hand #12345 Seat 3"
    assert scale_amounts("Seat 4: Player0 ( 5\xa0000\xa0$ ) [25\xa0$]", "pacific")[0].text == (
        "Seat 4: Player0 ( 5\xa0005\xa0000\xa0$ ) [25\xa0025\xa0$]")
    assert scale_amounts("( 222,75$ )", "pacific")[0].text == "( 222972,75$ )"
    assert scale_amounts("(1€/2€) 0,50€ 761.99€", "winamax")[0].text == (
        "(1001€/2002€) 500,50€ 762751.99€")
    assert scale_amounts("Seat 1: P ( $48,47 USD )", "partypoker")[0].text == (
        "Seat 1: P ( $48518,47 USD )")
    assert scale_amounts("0.10/0.25 Omaha Hi Game Table (PL)\nP raises 0.85 to 0.85",
                         "partypoker")[0].text == (
        "100.10/250.25 Omaha Hi Game Table (PL)\nP raises 850.85 to 850.85")


@pytest.mark.parametrize("fixture", ["stars-mtt-level.txt", "bovada-mtt-grouped-chips.txt",
                                     "merge-mtt-ante.xml", "gg-mtt-level.txt",
                                     "ftp-mtt-ante.txt", "winamax-stt.txt",
                                     "winamax-stt-thousands-pot.txt",
                                     "pacific-mtt-space-groups.txt",
                                     "pacific-mtt-dot-groups.txt",
                                     "party-sng-balance-lines.txt",
                                     "party-stt-grouped-chips.txt",
                                     "winamax-play-money-stud.txt",
                                     "pacific-play-money-cents.txt"])
def test_tournament_chips_a_thousand_times_larger_read_the_same(tmp_path: Path,
                                                                 fixture: str) -> None:
    # stacks, blinds, antes, bets and pots x1001 ("Level I (20/40)" -> "(20020/40040)",
    # "Ante 10, Blinds 50/100", Full Tilt "120/240 Ante 25", Winamax "Total pot 1.32k" ->
    # "1321.32k", 888 "1 123 698" and "298.064 $" grouped as the file groups them,
    # PartyPoker "balance 654, bet 327, collected 654, net +327" and "Blinds-Antes(400/800
    # -25)"), play money with cents (Winamax "bring-in 0.02", 888 "( 1,283.15 )"); the buy-in
    # and the fee are money and stay
    path = FIXTURES / fixture
    assert _scaled_text(path) != decode(path.read_bytes())
    assert check_scaled(path, _site(path), tmp_path, label=fixture) == []


@pytest.mark.parametrize("fixture", ["bovada-no-small-blind.txt", "ipoker-russian.xml",
                                     "ipoker-decimal-comma.xml", "merge-heads-up.xml",
                                     "pacific-sign-after.txt", "winamax-cash-sign-after.txt",
                                     "winning-old-format.txt", "winning-unnamed-player.txt",
                                     "party-bare-amounts.txt", "party-dead-blind-sign-after.txt",
                                     "party-glued-lines.txt"])
def test_cash_amounts_a_thousand_times_larger_read_the_same_on_more_sites(
        tmp_path: Path, fixture: str) -> None:
    # Bovada "$1,808.75"; iPoker attributes "€1,024.50" or with a decimal comma "€301,49";
    # Merge "$1024.50"; 888 "5 000 $" (a no-break space), Winamax "761.99€"; Winning's older
    # format, bare ("Pot: 0.04. Rake 0"); PartyPoker "$48,47 USD", "[0,35 €]" beside
    # "€0.10 EUR", and bare ("0.10/0.25 Omaha Hi Game Table", "raises 0.85 to 0.85"); a small
    # blind Bovada did not print is half the scaled big blind
    path = FIXTURES / fixture
    assert _scaled_text(path) != decode(path.read_bytes())
    assert check_scaled(path, _site(path), tmp_path, label=fixture) == []


def _scaled_text(path: Path) -> str:
    text = decode(path.read_bytes())
    fmt = detect_format(path)
    if fmt in FORMAT_SCALERS:
        return FORMAT_SCALERS[fmt](text).text
    if fmt in BARE_AMOUNTS and BARE_AMOUNTS[fmt][0] in text:
        return scale_chips(text, fmt).text  # type: ignore[union-attr]
    if renames._is_chips(read_file(path, fmt)):
        return scale_chips(text, fmt).text  # type: ignore[union-attr]
    return scale_amounts(text, _site(path))[0].text


def test_a_chip_amount_the_rewrite_leaves_unscaled_is_a_difference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the comparison holds the harness to every amount: the header's blinds left as they
    # were read as 20 chips where 20/1001 of the scaled chips were expected
    path = FIXTURES / "stars-mtt-level.txt"
    monkeypatch.setitem(renames.CHIP_PATTERNS, "pokerstars", tuple(
        p for p in renames.CHIP_PATTERNS["pokerstars"] if "Hand|Game" not in p))
    assert [d.what for d in check_scaled(path, "stars", tmp_path, label="x")][:1] == ["events"]


def test_scaled_chips_are_grouped_as_the_file_groups_them() -> None:
    assert scale_chips("Seat 1: P ( 1 500 )\nP calls [20]", "pacific").text == (  # type: ignore[union-attr]
        "Seat 1: P ( 1 501 500 )\nP calls [20 020]")
    assert scale_chips("Seat 1: P ( 298.064 $ )", "pacific").text == (  # type: ignore[union-attr]
        "Seat 1: P ( 298.362.064 $ )")
    assert scale_chips("Seat 1: P ( 1,283.15 )", "pacific").text == (  # type: ignore[union-attr]
        "Seat 1: P ( 1,284,433.15 )")
    assert scale_chips("Total pot 1.32k | No rake", "winamax").text == (  # type: ignore[union-attr]
        "Total pot 1321.32k | No rake")


def test_a_scaled_xml_amount_keeps_the_rooms_sign_decimals_and_grouping() -> None:
    assert scale_ipoker('<gametype>PL €2/€4</gametype><player chips="€301,49" win="€0"/>'
                        ).text == ('<gametype>PL €2002/€4004</gametype>'
                                   '<player chips="€301791,49" win="€0"/>')
    assert scale_ipoker('<player chips="1,500" bet="20"/>').text == (
        '<player chips="1,501,500" bet="20,020"/>')
    assert scale_merge('stakes="No Limit ($0.05/$0.10/$0.25)" amount="0.25" balance="$12.00"'
                       ).text == ('stakes="No Limit ($50.05/$100.10/$250.25)" amount="250.25" '
                                  'balance="$12012.00"')
    assert scale_merge('stakes="No Limit Level 5 Ante 10, Blinds 50/100" buyIn="10.00"').text == (
        'stakes="No Limit Level 5 Ante 10010, Blinds 50050/100100" buyIn="10.00"')
