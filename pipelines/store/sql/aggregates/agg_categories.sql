-- Per player-game category totals as a frequency table: how many player-games scored `points`
-- in `category` (a player who scored nothing in a category is not counted: an implicit zero).
WITH {gp}, sums AS (
    SELECT s.game_id, s.seat, s.category, sum(s.points) AS points
    FROM {score_events} AS s GROUP BY ALL
)
SELECT gp.n_players, gp.map, gp.bot, gp.faction, gp.won, sums.category,
       sums.points::BIGINT AS points, count(*)::BIGINT AS players
FROM sums JOIN gp ON gp.game_id = sums.game_id AND gp.seat = sums.seat
GROUP BY ALL
