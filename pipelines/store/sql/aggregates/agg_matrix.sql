-- Head to head: ordered pairs of seats of one game, faction against opponent; half_wins counts
-- 2 when the faction finished above the opponent (rank), 1 for a tie in rank; decided games
-- only (a game without a winner, stopped by a turn limit, has no finishing order).
WITH {gp}
SELECT a.n_players, a.map, a.bot, a.faction, b.faction AS opponent, count(*)::BIGINT AS pairs,
       sum(CASE WHEN a.rank < b.rank THEN 2 WHEN a.rank = b.rank THEN 1 ELSE 0 END)::BIGINT AS half_wins
FROM gp AS a JOIN {players} AS b ON b.game_id = a.game_id AND b.seat <> a.seat
WHERE a.game_id IN (SELECT game_id FROM {players} WHERE won)
GROUP BY ALL
