-- Distinct tables: the faction, bot and finishing rank in every seat, who won (bit mask), and
-- how many games had that table (the strength model's input).
WITH tables AS (
    SELECT p.game_id,
           {seat_pivot}
    FROM {players} AS p SEMI JOIN {games} AS g ON g.game_id = p.game_id
    GROUP BY p.game_id
)
SELECT g.n_players, g.map, t.f0, t.b0, t.f1, t.b1, t.f2, t.b2, t.f3, t.b3, t.f4, t.b4, t.f5, t.b5,
       t.f6, t.b6, t.f7, t.b7, t.r0, t.r1, t.r2, t.r3, t.r4, t.r5, t.r6, t.r7, t.won_mask,
       t.top_seat, t.seats, count(*)::BIGINT AS games
FROM tables AS t JOIN {games} AS g ON g.game_id = t.game_id
GROUP BY ALL
