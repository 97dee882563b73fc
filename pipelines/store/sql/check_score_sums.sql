-- DESIGN.md invariant: for every (run_id, game_id, seat), sum(score_events.points) = players.score.
SELECT p.run_id, p.game_id, p.seat, p.score, coalesce(s.points, 0) AS events_sum
FROM players p
LEFT JOIN (SELECT run_id, game_id, seat, sum(points) AS points
           FROM score_events GROUP BY run_id, game_id, seat) s
  USING (run_id, game_id, seat)
WHERE p.score <> coalesce(s.points, 0) AND ($run IS NULL OR p.run_id = $run)
