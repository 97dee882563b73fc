-- Moves on map cells per cell and action, by the mover's faction, bot and outcome, with the
-- points scored at their steps (every seat's score events at the move's game and step).
WITH {gp}, ev AS (
    SELECT s.game_id, s.step, sum(s.points) AS points FROM {score_events} AS s GROUP BY ALL
), mv AS (
    SELECT m.game_id, m.step, m.seat, m.cell, m.action FROM {moves} AS m
    SEMI JOIN {games} AS g ON g.game_id = m.game_id
    WHERE m.cell IS NOT NULL
)
SELECT g.n_players, g.map, gp.bot, gp.faction, gp.won, mv.cell, mv.action,
       count(*)::BIGINT AS moves, coalesce(sum(ev.points), 0)::BIGINT AS points
FROM mv JOIN {games} AS g ON g.game_id = mv.game_id
LEFT JOIN gp ON gp.game_id = mv.game_id AND gp.seat = mv.seat
LEFT JOIN ev ON ev.game_id = mv.game_id AND ev.step = mv.step
GROUP BY ALL
