-- Games per player count and map (the filters' game counts, filter options).
SELECT n_players, map, count(*)::BIGINT AS games
FROM {games} GROUP BY ALL
