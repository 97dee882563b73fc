-- DESIGN.md invariant: a run killed part-way and resumed has each game exactly once.
SELECT run_id, game_id, count(*) AS copies
FROM games
WHERE $run IS NULL OR run_id = $run
GROUP BY run_id, game_id
HAVING count(*) > 1
