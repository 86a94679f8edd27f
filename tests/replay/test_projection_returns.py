"""A player's `won` in hand_players is what the pots paid him, never his own uncalled bet coming
back: not when the room logs the return apart, and not when it folds the return into the award
without saying so (refunds=implicit). The compiled path and the reference replay agree."""

from __future__ import annotations

import pyarrow as pa
import pytest

from audit.importers.text import parse_text
from audit.replay.fast.table import replay_table_fast
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import events_table

CASH = Settings(load_profile("montana"))

# bob bets 500 on the flop, carol folds: the 500 comes back to bob; the pot is 650, no rake
HAND = """hand fx:{name} holdem no_limit sb=50 bb=100 button=3 {hand_detail}
seat 1 alice 10000
seat 2 bob 10000
seat 3 carol 10000
post 1 small_blind 50
post 2 big_blind 100
deal 1 hole As Ks
deal 2 hole Qd Qc
deal 3 hole 8h 4c
raise 3 to 300
fold 1
call 2 200
deal board 2c 7d 9h
bet 2 500
fold 3
{awards}
end
"""

LOGGED = HAND.format(name="logged", hand_detail="", awards="award 2 500 uncalled\naward 2 650")
FOLDED_IN = HAND.format(name="folded", hand_detail='detail="refunds=implicit"',
                        awards="award 2 1150")
NOT_LOGGED = HAND.format(name="unlogged", hand_detail='detail="refunds=implicit"',
                         awards="award 2 650")


def _bob(text: str, *, use_kernel: bool) -> dict[str, int]:
    table: pa.Table = events_table([r for rs, _ in parse_text(text) for r in rs])
    result = replay_table_fast(table, CASH, CASH, use_kernel=use_kernel)
    assert result.findings.num_rows == 0, result.findings.to_pylist()
    row = next(r for r in result.players.to_pylist() if r["seat"] == 2)
    return {k: row[k] for k in ("invested", "won", "net")}


@pytest.mark.parametrize("use_kernel", [True, False], ids=["compiled", "reference"])
@pytest.mark.parametrize("text", [LOGGED, FOLDED_IN, NOT_LOGGED],
                         ids=["return-logged", "return-folded-into-award", "return-not-logged"])
def test_won_is_the_pot_paid_never_the_players_own_return(text: str, use_kernel: bool) -> None:
    assert _bob(text, use_kernel=use_kernel) == {"invested": 300, "won": 650, "net": 350}
