-- DESIGN.md invariant: every game of a `done` run has its players, moves and score events,
-- and a done run holds all n_games games.  A game in which nobody scored a point (a cave-colony
-- game stopped at its turn limit with no colony card completed) has no score events to have:
-- every point is one event, and a zero is none.
SELECT g.run_id, g.game_id,
       (SELECT count(*) FROM players p WHERE p.run_id = g.run_id AND p.game_id = g.game_id) AS players,
       (SELECT count(*) FROM moves m WHERE m.run_id = g.run_id AND m.game_id = g.game_id) AS moves,
       (SELECT count(*) FROM score_events e WHERE e.run_id = g.run_id AND e.game_id = g.game_id) AS score_events
FROM games g JOIN runs r USING (run_id)
WHERE r.status = 'done' AND ($run IS NULL OR g.run_id = $run)
  AND (players <> g.n_players
       OR (moves = 0 AND coalesce(json_extract(r.config, '$.log_moves')::BOOLEAN, true))
       OR (score_events = 0 AND EXISTS (SELECT 1 FROM players p WHERE p.run_id = g.run_id
                                         AND p.game_id = g.game_id AND p.score <> 0)))
UNION ALL
SELECT r.run_id, NULL, NULL, NULL, NULL
FROM runs r
WHERE r.status = 'done' AND ($run IS NULL OR r.run_id = $run)
  AND (SELECT count(*) FROM games g WHERE g.run_id = r.run_id) <> r.n_games
