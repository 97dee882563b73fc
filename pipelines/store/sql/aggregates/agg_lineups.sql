-- Distinct tables: the faction, bot and finishing rank in every seat, who won (bit mask), and
-- how many games had that table (the strength model's input).
WITH tables AS (
    SELECT p.game_id,
           max(CASE WHEN p.seat = 0 THEN p.faction END) AS f0, max(CASE WHEN p.seat = 0 THEN coalesce(p.bot, '') END) AS b0,
           max(CASE WHEN p.seat = 1 THEN p.faction END) AS f1, max(CASE WHEN p.seat = 1 THEN coalesce(p.bot, '') END) AS b1,
           max(CASE WHEN p.seat = 2 THEN p.faction END) AS f2, max(CASE WHEN p.seat = 2 THEN coalesce(p.bot, '') END) AS b2,
           max(CASE WHEN p.seat = 3 THEN p.faction END) AS f3, max(CASE WHEN p.seat = 3 THEN coalesce(p.bot, '') END) AS b3,
           max(CASE WHEN p.seat = 4 THEN p.faction END) AS f4, max(CASE WHEN p.seat = 4 THEN coalesce(p.bot, '') END) AS b4,
           max(CASE WHEN p.seat = 5 THEN p.faction END) AS f5, max(CASE WHEN p.seat = 5 THEN coalesce(p.bot, '') END) AS b5,
           max(CASE WHEN p.seat = 6 THEN p.faction END) AS f6, max(CASE WHEN p.seat = 6 THEN coalesce(p.bot, '') END) AS b6,
           max(CASE WHEN p.seat = 7 THEN p.faction END) AS f7, max(CASE WHEN p.seat = 7 THEN coalesce(p.bot, '') END) AS b7,
           max(CASE WHEN p.seat = 0 THEN p.rank END) AS r0, max(CASE WHEN p.seat = 1 THEN p.rank END) AS r1,
           max(CASE WHEN p.seat = 2 THEN p.rank END) AS r2, max(CASE WHEN p.seat = 3 THEN p.rank END) AS r3,
           max(CASE WHEN p.seat = 4 THEN p.rank END) AS r4, max(CASE WHEN p.seat = 5 THEN p.rank END) AS r5,
           max(CASE WHEN p.seat = 6 THEN p.rank END) AS r6, max(CASE WHEN p.seat = 7 THEN p.rank END) AS r7,
           sum(CAST(p.won AS BIGINT) << p.seat)::BIGINT AS won_mask, max(p.seat)::INTEGER AS top_seat,
           count(*)::BIGINT AS seats
    FROM {players} AS p SEMI JOIN {games} AS g ON g.game_id = p.game_id
    GROUP BY p.game_id
)
SELECT g.n_players, g.map, t.f0, t.b0, t.f1, t.b1, t.f2, t.b2, t.f3, t.b3, t.f4, t.b4, t.f5, t.b5,
       t.f6, t.b6, t.f7, t.b7, t.r0, t.r1, t.r2, t.r3, t.r4, t.r5, t.r6, t.r7, t.won_mask,
       t.top_seat, t.seats, count(*)::BIGINT AS games
FROM tables AS t JOIN {games} AS g ON g.game_id = t.game_id
GROUP BY ALL
