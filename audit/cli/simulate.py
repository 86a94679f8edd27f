"""The `simulate` click command (loaded by audit/cli/main.py when it runs): a thin layer over
`audit.simulate.simulate`, a summary on stderr."""

from __future__ import annotations

from pathlib import Path

import click

from audit.cli.common import CONTEXT_SETTINGS, InputProblem, Share, progress_bar
from audit.errors import AuditError
from audit.simulate.play.live import simulate_live
from audit.simulate.play.sim import VARIANTS, simulate


@click.command("simulate", context_settings=CONTEXT_SETTINGS)
@click.option("--hands", type=click.IntRange(min=1), required=True, help="Hands to simulate.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="New store directory to write (events, labels.parquet, colluders.parquet).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives byte-identical files.")
@click.option("--variant", type=click.Choice([*VARIANTS, "mixed", "all"]),
              default="holdem", show_default=True,
              help="Game, or one per table: mixed (button games) or all (every game).")
@click.option("--structure", type=click.Choice(["no_limit", "pot_limit", "fixed_limit", "mixed"]),
              default="no_limit", show_default=True, help="Betting structure, or mixed.")
@click.option("--tables", type=click.IntRange(min=1), default=8, show_default=True,
              help="Tables played in parallel.")
@click.option("--players", type=click.IntRange(min=2), default=None,
              help="Size of the player pool [default: 12 per table].")
@click.option("--violations", type=Share(0, 1), default=0.0, show_default=True,
              help="Share of hands given one injected, labelled violation.")
@click.option("--colluders", type=click.IntRange(min=0), default=0, show_default=True,
              help="Colluding teams of two (one per table).")
@click.option("--collusion-strength", type=Share(0, 1), default=0.8,
              show_default=True, help="How often a colluder acts on the team's strategy.")
@click.option("--family", type=click.Choice(["sim", "rulebook"]), default="sim",
              show_default=True,
              help="Colluder family: sim (the simulator's own) or rulebook (an independent "
                   "population written from the rule texts: six honest types, --colluders "
                   "teams cycling soft play, chip dumping, whipsaw, check-down, card sharing, "
                   "a team of three; up to two teams a table).")
@click.option("--colluding-share", type=Share(0, 1), default=0.8, show_default=True,
              help="With --family rulebook: share of the hands where two of a team are dealt "
                   "in that the team colludes in.")
@click.option("--tournament-share", type=Share(0, 1), default=0.0,
              show_default=True, help="Share of tables that are tournament tables.")
@click.option("--hands-per-file", type=click.IntRange(min=1), default=50_000,
              show_default=True, help="Hands per committed batch (event file).")
@click.option("--kill-tables", type=Share(0, 1), default=0.0, show_default=True,
              help="Share of fixed-limit cash lowball, draw, hold'em and Omaha hi-lo tables "
                   "that play a required kill game across hands (the kill button, legs, "
                   "scoops, kills posted hand after hand).")
@click.option("--live", is_flag=True,
              help="Live tables: log the physical layer (declare, chips) of every action.")
@click.option("--live-violations", type=Share(0, 1), default=0.0, show_default=True,
              help="With --live: share of hands given one planted, labelled live violation.")
def simulate_command(hands: int, out: Path, seed: int, variant: str, structure: str,
                     tables: int, players: int | None, violations: float, colluders: int,
                     collusion_strength: float, tournament_share: float,
                     hands_per_file: int, kill_tables: float, live: bool,
                     live_violations: float, family: str, colluding_share: float) -> None:
    """Simulate realistic hands into a new event store, with labelled violations.

    Button games (hold'em, Omaha, Omaha hi-lo; no limit, pot limit, fixed limit) and fixed
    limit stud and draw games (stud, stud_hilo, razz, stud5, lowball_27_single,
    lowball_27_triple, badugi, draw_high), cash and tournament tables. Injected violations
    are listed in OUT/labels.parquet, colluding teams in OUT/colluders.parquet.
    --family rulebook plays an independent population written from the rule texts
    (audit/simulate/play/population.py) and lists the hands each team colluded in, with the
    decisions its collusion changed from honest play (OUT/colluding_hands.parquet), and every
    player's honest type (OUT/players.parquet).
    With --live every action also gets the physical layer a live table logs
    (audit/simulate/play/live.py), and --live-violations plants string raises, verbal calls
    followed by raises, oversized chips and the like, labelled likewise.

    \b
    Example:
        poker-audit simulate --hands 100000 --out sim-store --seed 1 \\
            --variant mixed --structure mixed --violations 0.05 --colluders 2
        poker-audit audit --store sim-store
        poker-audit simulate --hands 60000 --out pop-store --tables 10 --players 120 \\
            --family rulebook --colluders 11 --colluding-share 0.4
    """
    if live_violations and not live:
        raise InputProblem("--live-violations needs --live")
    if kill_tables and live:
        raise InputProblem("--kill-tables: live tables play no kill games")
    extra = {"live_violations": live_violations} if live else {}
    if kill_tables:
        extra["kill_tables"] = kill_tables
    if family != "sim":
        if live:
            raise InputProblem("--family rulebook: live tables play the sim family only")
        extra.update(family=family, colluding_share=colluding_share)
    run = simulate_live if live else simulate
    try:
        with progress_bar(hands, "simulating") as advance:
            s = run(out, hands=hands, seed=seed, variant=variant, structure=structure,
                    tables=tables, players=players, violations=violations,
                    colluders=colluders, collusion_strength=collusion_strength,
                    tournament_share=tournament_share, hands_per_file=hands_per_file,
                    progress=advance, **extra)
    except AuditError as exc:
        raise InputProblem(str(exc)) from None
    click.echo(f"simulated {s.hands:,} hands ({s.events:,} events) into {s.out} in "
               f"{s.seconds:.1f}s ({s.hands_per_second:,.0f} hands/s); {s.batches} batch(es), "
               f"{s.injected_hands:,} injected hands ({s.labels:,} labels), "
               f"{s.colluder_teams} colluding team(s)", err=True)
