"""Per-variant facts for the stud and draw families: cards per street, betting rounds, the
street from which the big bet applies, bring-in and first-to-act rules, evaluators, rule ids.

Button games (hold'em, Omaha) are not listed here: `spec_of` returns None for them and the
button-game replay runs unchanged. RULEBOOK §6 games 6–15; §4.7, §4.8, §4.11, §4.12.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantSpec:
    """How one stud or draw game is dealt, bet and evaluated."""

    name: str
    family: str  # "stud" | "draw"
    # stud: total cards a seat holds after each street (3rd street first); draw: hand size
    counts: tuple[int, ...]
    draws: int = 0  # draw games: number of draw phases (betting rounds = draws + 1)
    big_from: int = 2  # first betting round played at the big bet
    bring_in: str = ""  # "low_ace_high" | "high_ace_low" (razz)
    board: str = "high"  # first to act on later stud streets: best "high" or "low" board
    open_pair: bool = False  # BET-STUD-OPENPAIR applies on 4th street
    evaluator: str = "high"  # "high" | "razz" | "hilo8" | "low27" | "lowa5" | "badugi"
    order_first: str = "ORDER-STUD-FIRST"
    order_later: str = "ORDER-STUD-LATER"
    street_rule: str = "BET-LIMIT-STUD-STREETS"
    bringin_rule: str = "STUD-BRINGIN-LOWCARD"
    two_round: bool = False  # fixed-limit cap is cap.two_round (P2) instead of cap.multi_round
    # stud: how each card of a hand is dealt, in order ("d" down, "u" up): 7-card stud is
    # 2 down + 1 up, 3 up, 1 down (RULEBOOK §6 game 6); PHH import and export read it
    faces: str = ""
    # jacks or better: the opening bet needs a pair of jacks or better (JACKS-OPENERS), and
    # after the draw the opener acts first (ORDER-DRAW-AFTER)
    needs_openers: bool = False
    # stud games whose dealing pattern a rule states (FIVESTUD-STRUCTURE, MISS-STRUCTURE):
    # every betting round is played on exactly `counts` cards, dealt face up or down as `faces`
    structure_rule: str = ""
    # the book's limit ace-to-five rules (A5-CHECKRAISE, A5-SEVENS-RULE: 000 §10 A5) are written
    # for the one-draw game; no seed speaks of triple draw, which rooms deal with check-raise
    # allowed and the whole pot to the best low
    a5_book_rules: bool = False

    @property
    def max_cards(self) -> int:
        return self.counts[-1]

    @property
    def rounds(self) -> int:
        return len(self.counts) if self.family == "stud" else self.draws + 1


_STUD7 = (3, 4, 5, 6, 7)
_FACES7 = "dduuuud"
SPECS: dict[str, VariantSpec] = {
    "stud": VariantSpec(name="stud", family="stud", counts=_STUD7, bring_in="low_ace_high",
                        open_pair=True, faces=_FACES7),
    "stud_hilo": VariantSpec(name="stud_hilo", family="stud", counts=_STUD7,
                             bring_in="low_ace_high", evaluator="hilo8",
                             order_first="ORDER-STUDHL", order_later="ORDER-STUDHL",
                             bringin_rule="ORDER-STUDHL", faces=_FACES7),
    "razz": VariantSpec(name="razz", family="stud", counts=_STUD7, bring_in="high_ace_low",
                        board="low", evaluator="razz", order_first="ORDER-RAZZ",
                        order_later="ORDER-RAZZ", bringin_rule="ORDER-RAZZ", faces=_FACES7),
    # five-card stud: the same bet size on every round (BET-LIMIT-5STUD, 001 3.2.4.1)
    "stud5": VariantSpec(name="stud5", family="stud", counts=(2, 3, 4, 5), big_from=99,
                         bring_in="low_ace_high", order_first="ORDER-5STUD",
                         order_later="ORDER-5STUD", street_rule="BET-LIMIT-5STUD",
                         bringin_rule="ORDER-5STUD", faces="duuuu",
                         structure_rule="FIVESTUD-STRUCTURE"),
    # Mississippi stud at limit: 2 down + 1 up, two upcards, then one and one; the bet doubles
    # on the last two rounds (MISS-STRUCTURE, BET-LIMIT-MISSISSIPPI, 001 3.2.5)
    "mississippi": VariantSpec(name="mississippi", family="stud", counts=(3, 5, 6, 7),
                               big_from=2, bring_in="low_ace_high", faces="dduuuuu",
                               order_first="ORDER-MISSISSIPPI", order_later="ORDER-MISSISSIPPI",
                               street_rule="BET-LIMIT-MISSISSIPPI",
                               bringin_rule="ORDER-MISSISSIPPI",
                               structure_rule="MISS-STRUCTURE"),
    "lowball_27_single": VariantSpec(name="lowball_27_single", family="draw", counts=(5,),
                                     draws=1, big_from=1, evaluator="low27",
                                     order_first="", order_later="",
                                     street_rule="BET-LIMIT-DRAW-DOUBLE", two_round=True),
    "lowball_27_triple": VariantSpec(name="lowball_27_triple", family="draw", counts=(5,),
                                     draws=3, big_from=2, evaluator="low27",
                                     order_first="", order_later="",
                                     street_rule="BET-LIMIT-DRAW-DOUBLE"),
    "lowball_a5": VariantSpec(name="lowball_a5", family="draw", counts=(5,), draws=1,
                              big_from=1, evaluator="lowa5", order_first="", order_later="",
                              street_rule="BET-LIMIT-DRAW-DOUBLE", two_round=True,
                              a5_book_rules=True),
    "lowball_a5_triple": VariantSpec(name="lowball_a5_triple", family="draw", counts=(5,),
                                     draws=3, big_from=2, evaluator="lowa5",
                                     order_first="", order_later="",
                                     street_rule="BET-LIMIT-DRAW-DOUBLE"),
    "draw_high": VariantSpec(name="draw_high", family="draw", counts=(5,), draws=1, big_from=1,
                             evaluator="high", order_first="", order_later="",
                             street_rule="BET-LIMIT-DRAW-DOUBLE", two_round=True),
    "jacks_or_better": VariantSpec(name="jacks_or_better", family="draw", counts=(5,), draws=1,
                                   big_from=1, evaluator="high", order_first="",
                                   order_later="", street_rule="BET-LIMIT-DRAW-DOUBLE",
                                   two_round=True, needs_openers=True),
    "badugi": VariantSpec(name="badugi", family="draw", counts=(4,), draws=3, big_from=2,
                          evaluator="badugi", order_first="", order_later="",
                          street_rule="BET-LIMIT-DRAW-DOUBLE"),
}


def spec_of(variant: str | None) -> VariantSpec | None:
    """The stud/draw spec of a variant, or None for button games (hold'em, Omaha)."""
    return SPECS.get(variant or "")
