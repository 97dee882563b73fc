-- Heatmaps: every move's cell is a space of its game's map (map_cells joined on moves.cell).
SELECT m.run_id, m.game_id, m.step, m.cell, g.map
FROM moves m
JOIN games g USING (run_id, game_id)
JOIN runs r USING (run_id)
WHERE m.cell IS NOT NULL AND ($run IS NULL OR m.run_id = $run)
  AND NOT EXISTS (SELECT 1 FROM map_cells c
                  WHERE c.game = r.game AND c.map = g.map AND c.cell = m.cell)
