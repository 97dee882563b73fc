-- Points scored in each round, by the scorer's faction, bot and outcome.
WITH {gp}
SELECT gp.n_players, gp.map, gp.bot, gp.faction, gp.won, s.round,
       sum(s.points)::BIGINT AS points
FROM {score_events} AS s JOIN gp ON gp.game_id = s.game_id AND gp.seat = s.seat
GROUP BY ALL
