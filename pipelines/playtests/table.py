"""The playtest table a designer fills in: its columns, reading it (CSV or .xlsx), the template.

One row per seat of a played game.  Row numbers are the ones the designer's editor shows (the
file's line, or the sheet's row), so an error can say "row 7, column faction".  Lines whose
first cell starts with `#` are comments (the template's hints, the examples' "invented data"
line); blank rows are skipped.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import DelveError

#: Columns every file needs.
REQUIRED = ("game_id", "seat", "faction", "score", "won")
#: Columns a file may have (`points_<category>` too, one per score category).
OPTIONAL = ("game", "date", "event", "game_number", "n_players", "player", "rank", "map",
            "variant", "rounds", "notes")
#: A score category's column: `points_` + the category id.
POINTS_PREFIX = "points_"

#: What each column holds, for the template's hints and the README.
MEANING = {
    "game": "the Delve game id (optional; checked when given)",
    "date": "the day it was played, YYYY-MM-DD",
    "event": "the group or event name",
    "game_id": "your id of the played game: every seat of one game shares it",
    "game_number": "the game's number within the event",
    "n_players": "players in that game (optional: the game's rows are counted)",
    "seat": "0 for the starting player, then 1, 2, ... in turn order",
    "faction": "the faction (or colony, corporation, board) the seat played",
    "player": "the player's label (anonymous by default: P1, P2 ...)",
    "score": "final score",
    "rank": "final place, 1 = first (optional)",
    "won": "yes / no; 'tie' on every seat of a shared win",
    "map": "the map played (optional)",
    "variant": "base, a variant name (data/variants/<game>/NAME.toml) or --set text "
               "such as game.rounds=4; several joined with ';'",
    "rounds": "rounds played (optional)",
    "notes": "free text",
}


class PlaytestFileError(DelveError):
    """A playtest file that cannot be imported: names the file, row and column."""

    def __init__(self, file: str | Path, message: str, *, row: int | None = None,
                 column: str | None = None):
        where = []
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column '{column}'")
        place = f" {', '.join(where)}:" if where else ":"
        super().__init__(f"Playtest file '{file}'{place} {message}. Nothing was imported.")
        self.file, self.row, self.column = str(file), row, column


@dataclass(frozen=True)
class Sheet:
    """A file's cells as text: the header, and each data row with its row number."""

    file: str
    header: tuple[str, ...]
    header_row: int
    rows: tuple[tuple[int, dict[str, str]], ...]


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


def _sheet(file: Path, raw: list[tuple[int, list[str]]]) -> Sheet:
    lines = [(n, [c.strip() for c in cells]) for n, cells in raw
             if any(c.strip() for c in cells) and not cells[0].strip().startswith("#")]
    if not lines:
        raise PlaytestFileError(file, "the file is empty: expected a header row ("
                                + ", ".join(REQUIRED) + ", ...) and one row per seat of each game")
    header_row, names = lines[0]
    header = tuple(h.lower() for h in names)
    seen = set()
    for h in header:
        if h and h in seen:
            raise PlaytestFileError(file, f"the column '{h}' appears twice", row=header_row, column=h)
        seen.add(h)
    for need in REQUIRED:
        if need not in header:
            raise PlaytestFileError(
                file, f"the column '{need}' is missing ({MEANING[need]}); the header has: "
                + ", ".join(h for h in header if h), row=header_row, column=need)
    rows = []
    for n, cells in lines[1:]:
        if len(cells) > len(header) and any(cells[len(header):]):
            raise PlaytestFileError(file, f"{len(cells)} cells but the header names "
                                          f"{len(header)} columns", row=n)
        rows.append((n, {h: (cells[i] if i < len(cells) else "") for i, h in enumerate(header) if h}))
    if not rows:
        raise PlaytestFileError(file, "the file has a header but no rows: expected one row per "
                                      "seat of each played game", row=header_row)
    return Sheet(str(file), header, header_row, tuple(rows))


def read_sheet(path: str | Path) -> Sheet:
    """The cells of a CSV or .xlsx playtest file (PlaytestFileError if it cannot be read)."""
    file = Path(path)
    if not file.is_file():
        raise DelveError(f"Playtest file '{file}' does not exist: expected a .csv or .xlsx file "
                         f"(write one with `delve playtests template GAME -o FILE`)")
    suffix = file.suffix.lower()
    if suffix == ".xlsx":
        return _sheet(file, _xlsx_rows(file))
    if suffix not in (".csv", ".txt"):
        raise PlaytestFileError(file, f"'{file.suffix}' files cannot be read: expected .csv or .xlsx")
    try:
        text = file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise PlaytestFileError(file, "the file is not UTF-8 text: save it as CSV (UTF-8) "
                                      "or as .xlsx") from None
    reader = csv.reader(io.StringIO(text))
    return _sheet(file, [(reader.line_num, row) for row in reader])


def _xlsx_rows(file: Path) -> list[tuple[int, list[str]]]:
    import zipfile

    import openpyxl
    try:
        book = openpyxl.load_workbook(file, read_only=True, data_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        raise PlaytestFileError(file, f"the spreadsheet cannot be read ({exc})") from None
    try:
        sheet = book["playtests"] if "playtests" in book.sheetnames else book.worksheets[0]
        return [(i, [_cell_text(v) for v in row])
                for i, row in enumerate(sheet.iter_rows(values_only=True), start=1)]
    finally:
        book.close()


# -- the template ----------------------------------------------------------------------------

def template_columns(categories) -> list[str]:
    return ["game", "date", "event", "game_id", "game_number", "n_players", "seat", "faction",
            "player", "score", *(POINTS_PREFIX + c for c in categories), "rank", "won", "map",
            "variant", "rounds", "notes"]


def hint_lines(game_id: str, title: str, factions, categories, player_counts, maps) -> list[str]:
    return [
        f"Delve playtest table for {title} ({game_id}): one row per seat of each game you played.",
        f"factions: {', '.join(factions)}",
        f"score categories (points_<category>; leave them all blank if not noted, else they must "
        f"add up to score): {', '.join(categories)}",
        f"player counts: {', '.join(map(str, player_counts))}; seats 0..P-1, 0 = starting player",
        f"maps: {', '.join(maps)}" if maps else "maps: -",
        "won: yes / no, or 'tie' on every seat of a shared win; lines starting with # are ignored",
    ]


def write_template(out: str | Path, game_id: str, title: str, factions, categories,
                   player_counts, maps) -> Path:
    """A blank table for GAME (.csv with `#` hint lines, or .xlsx with a hints sheet and a
    faction drop-down), one example game's rows left empty for the designer to fill."""
    out = Path(out)
    if out.is_dir():
        raise DelveError(f"Output '{out}' (-o) is a directory: expected a file such as playtests.csv")
    if not out.parent.is_dir():
        raise DelveError(f"Output '{out}' (-o): the directory '{out.parent}' does not exist")
    if out.exists():
        raise DelveError(f"Output '{out}' (-o) exists already: pick a new file name (a "
                         f"template never overwrites a filled table)")
    cols = template_columns(categories)
    hints = hint_lines(game_id, title, factions, categories, player_counts, maps)
    n = min(player_counts, key=lambda p: abs(p - 4))
    blank = [[game_id if c == "game" else str(s) if c == "seat" else str(n) if c == "n_players"
              else "G1" if c == "game_id" else "" for c in cols] for s in range(n)]
    suffix = out.suffix.lower()
    if suffix == ".xlsx":
        _write_xlsx(out, cols, blank, hints, factions)
    elif suffix == ".csv":
        buf = io.StringIO()
        buf.write("".join(f"# {h}\n" for h in hints))   # comment lines: the reader skips them
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(cols)
        w.writerows(blank)
        out.write_text(buf.getvalue(), encoding="utf-8")
    else:
        raise DelveError(f"Output '{out}' (-o): expected a .csv or .xlsx file name")
    return out


def _write_xlsx(out: Path, cols, blank, hints, factions) -> None:
    import openpyxl
    from openpyxl.worksheet.datavalidation import DataValidation
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "playtests"
    sheet.append(cols)
    for row in blank:
        sheet.append([int(v) if v.isdigit() else v or None for v in row])
    about = book.create_sheet("about")
    for h in hints:
        about.append([h])
    about.append([])
    for c in cols:
        about.append([c, MEANING.get(c, "points scored in this category")
                      if not c.startswith(POINTS_PREFIX) else "points scored in this category"])
    letter = openpyxl.utils.get_column_letter(cols.index("faction") + 1)
    pick = DataValidation(type="list", formula1='"' + ",".join(factions) + '"', allow_blank=True)
    sheet.add_data_validation(pick)
    pick.add(f"{letter}2:{letter}2000")
    won = openpyxl.utils.get_column_letter(cols.index("won") + 1)
    yes_no = DataValidation(type="list", formula1='"yes,no,tie"', allow_blank=True)
    sheet.add_data_validation(yes_no)
    yes_no.add(f"{won}2:{won}2000")
    book.save(out)
