-- Winners against losers within each game, for every player selection (all bots, or one bot's
-- seats): per game, d = the winners' mean points minus the losers' mean points (in a category;
-- category NULL: the final score), kept exactly as d * 840 (840 = lcm(1..8): with at most 8
-- seats both means are multiples of 1/840), summed with its square over the games that have a
-- winner and a loser.  `games` counts those games (category NULL) or those where the category
-- was scored; a category scored only in other games has a row with games = 0.
WITH {gp}, scoped AS (
    SELECT gp.*, true AS all_bots, NULL::VARCHAR AS scope_bot FROM gp
    UNION ALL
    SELECT gp.*, false AS all_bots, gp.bot AS scope_bot FROM gp WHERE gp.bot IS NOT NULL
), ng AS (
    SELECT all_bots, scope_bot, game_id, any_value(n_players) AS n_players, any_value(map) AS map,
           count(*) FILTER (WHERE won) AS nw, count(*) FILTER (WHERE NOT won) AS nl,
           sum(score) FILTER (WHERE won) AS sw, sum(score) FILTER (WHERE NOT won) AS sl
    FROM scoped GROUP BY all_bots, scope_bot, game_id
), ev AS (
    SELECT sc.all_bots, sc.scope_bot, s.game_id, any_value(sc.n_players) AS n_players,
           any_value(sc.map) AS map, s.category,
           coalesce(sum(s.points) FILTER (WHERE sc.won), 0) AS pw,
           coalesce(sum(s.points) FILTER (WHERE NOT sc.won), 0) AS pl
    FROM {score_events} AS s JOIN scoped AS sc ON sc.game_id = s.game_id AND sc.seat = s.seat
    GROUP BY sc.all_bots, sc.scope_bot, s.game_id, s.category
), d AS (
    SELECT ev.all_bots, ev.scope_bot, ev.n_players, ev.map, ev.category,
           CASE WHEN ng.nw > 0 AND ng.nl > 0 THEN 1 ELSE 0 END AS counted,
           CASE WHEN ng.nw > 0 AND ng.nl > 0
                THEN (ev.pw * 840) // ng.nw - (ev.pl * 840) // ng.nl ELSE 0 END AS d840
    FROM ev JOIN ng ON ng.all_bots = ev.all_bots AND ng.scope_bot IS NOT DISTINCT FROM ev.scope_bot
                   AND ng.game_id = ev.game_id
    UNION ALL
    SELECT all_bots, scope_bot, n_players, map, NULL::VARCHAR AS category, 1 AS counted,
           (sw * 840) // nw - (sl * 840) // nl AS d840
    FROM ng WHERE nw > 0 AND nl > 0
)
SELECT n_players, map, all_bots, scope_bot AS bot, category, sum(counted)::BIGINT AS games,
       sum(d840)::BIGINT AS d_sum, sum(d840::HUGEINT * d840)::HUGEINT AS d_sq
FROM d GROUP BY ALL
