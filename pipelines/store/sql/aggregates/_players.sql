-- The players of the games being aggregated, with their game's filter columns (player count,
-- map) and the game's winners counted over all its seats (a tied win counts 1/n_won).
gp AS (
    SELECT p.game_id, p.seat, p.faction, p.bot, p.score, p.rank, p.won,
           g.n_players, g.map, g.start_seat
    FROM {players} AS p JOIN {games} AS g ON g.game_id = p.game_id
)
