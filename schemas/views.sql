-- DuckDB views over a poker-audit store. `poker-audit query` and the notebooks use these.
-- {events}, {findings}, {collusion}, {hands}, {hand_players}, {runs}, {quarantine} are replaced by the
-- committed files of the store (or an empty relation of the right schema when there are none yet);
-- {latest_run} by the id of the audit run the hash chain committed last (NULL when none).

-- Every committed event, one row per event.
CREATE OR REPLACE VIEW events AS
SELECT * FROM {events};

-- One row per hand: the hand_started header with its game config flattened.
CREATE OR REPLACE VIEW hands_started AS
SELECT hand_id, ts, table_id, source,
       game.variant AS variant, game.structure AS structure,
       game.small_blind AS small_blind, game.big_blind AS big_blind,
       game.small_bet AS small_bet, game.big_bet AS big_bet, game.ante AS ante,
       game.bring_in AS bring_in, game.straddle AS straddle, game.min_bet AS min_bet,
       game.button_seat AS button_seat, game.seat_count AS seat_count,
       game.currency AS currency, game.minor_per_unit AS minor_per_unit,
       game.tournament AS tournament, game.level AS level, game.dead_button AS dead_button,
       game.profile AS profile, game.house_overrides AS house_overrides
FROM events
WHERE kind = 'hand_started';

-- Every audit run (runs/<run_id>/run.json).
CREATE OR REPLACE VIEW runs AS
SELECT * FROM {runs};

-- The audit run the store's hash chain committed last (never decided by run ids or names).
CREATE OR REPLACE VIEW latest_run AS
SELECT {latest_run} AS run_id;

-- Findings of every audit run, with the collusion findings of `poker-audit collusion`.
CREATE OR REPLACE VIEW findings AS
SELECT * FROM {findings}
UNION ALL BY NAME
SELECT * FROM {collusion};

-- Cross-hand collusion leads (RULEBOOK §4.17, level X: suspicions with evidence, not verdicts).
CREATE OR REPLACE VIEW collusion_leads AS
SELECT * FROM findings
WHERE category = 'collusion' AND hand_id IS NULL;

-- Each run with its members: itself and, for an incremental run (`audit --since`), the runs
-- it builds on, back to a full run. A run and its members together cover the store as of
-- that run, so queries filter on `run_id IN (SELECT member FROM run_members WHERE run_id = ?)`.
CREATE OR REPLACE VIEW run_members AS
WITH RECURSIVE chain(run_id, member) AS (
    SELECT run_id, run_id FROM runs
    UNION ALL
    SELECT chain.run_id, runs.since
    FROM chain JOIN runs ON runs.run_id = chain.member
    WHERE runs.since IS NOT NULL
)
SELECT run_id, member FROM chain;

-- The store as of the most recent audit run (with the runs an incremental run builds on).
CREATE OR REPLACE VIEW latest_findings AS
SELECT * FROM findings
WHERE run_id IN (SELECT member FROM run_members
                 WHERE run_id = (SELECT run_id FROM latest_run));

-- Replay projections: one row per hand and one per player per hand, for every run.
CREATE OR REPLACE VIEW hands AS
SELECT * FROM {hands};

CREATE OR REPLACE VIEW hand_players AS
SELECT * FROM {hand_players};

CREATE OR REPLACE VIEW latest_hands AS
SELECT * FROM hands
WHERE run_id IN (SELECT member FROM run_members
                 WHERE run_id = (SELECT run_id FROM latest_run));

CREATE OR REPLACE VIEW latest_hand_players AS
SELECT * FROM hand_players
WHERE run_id IN (SELECT member FROM run_members
                 WHERE run_id = (SELECT run_id FROM latest_run));

-- Input rejected at ingest (quarantine/<batch>/rejected.jsonl): file, line, hand and reason.
CREATE OR REPLACE VIEW quarantine AS
SELECT regexp_extract(replace(filename, '\\', '/'), 'quarantine/([^/]+)/rejected[.]jsonl$', 1)
           AS batch_id,
       source, line, hand_id, reason, raw
FROM {quarantine};
