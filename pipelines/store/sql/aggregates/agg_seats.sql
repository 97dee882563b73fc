-- Player-games per seat, turn order (from the starting player), outcome and the game's number
-- of winners: win rates with tied wins counted 1/n_won, fair shares, score means and spreads.
WITH {gp}, nw AS (
    SELECT game_id, (count(*) FILTER (WHERE won))::INTEGER AS n_won FROM {players} GROUP BY game_id
)
SELECT gp.n_players, gp.map, gp.bot, gp.faction, gp.seat,
       ((gp.seat - gp.start_seat + gp.n_players) % gp.n_players)::INTEGER AS start_position,
       gp.won, nw.n_won, count(*)::BIGINT AS players, sum(gp.score)::BIGINT AS score_sum,
       sum(gp.score::HUGEINT * gp.score)::HUGEINT AS score_sq
FROM gp JOIN nw ON nw.game_id = gp.game_id
GROUP BY ALL
