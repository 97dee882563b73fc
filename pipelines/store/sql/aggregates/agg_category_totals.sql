-- The run's points by category (every score event of the run's games).
SELECT s.category, sum(s.points)::BIGINT AS points
FROM {score_events} AS s GROUP BY ALL
