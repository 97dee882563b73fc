-- Final scores as a frequency table (score quantiles, the scoring page's total score).
WITH {gp}
SELECT n_players, map, bot, faction, won, score, count(*)::BIGINT AS players
FROM gp GROUP BY ALL
