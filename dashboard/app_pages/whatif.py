"""What-if: change rule values, launch a paired run, read whether it helped.

1. Pick a base run.  2. Edit rule values in a form generated from the game's rules model
(pipelines.lab.rules_form); every value is validated like a variant file, errors name the path.
3. Name the variant and launch `delve simulate GAME --paired-with BASE --variant FILE` in the
background; its progress shows live.  4. The result opens as a comparison (the URL holds
?a=RUN_A&b=RUN_B, so it can be shared): win rate and score differences per faction and seat
with 95% intervals and Holm-corrected p-values, score categories, game length, the heatmap
difference.  Sweeps (`delve sweep`, `delve balance`) are drawn as win rate against the value.
No value typed here is evaluated as code: numbers come from number widgets, the rest is parsed
as a TOML literal.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import streamlit as st

from dashboard import table_words as tw
from dashboard.labels import game_title, run_names
from dashboard.table_words import word

from dashboard import charts, jobs, ui
from dashboard.settings import serve_settings
from dashboard.labels import relabel
from dashboard.queries import whatif as wq
from engine.core.errors import DelveError

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
JOB_KEY = "whatif_job"
CHANGES_KEY = "whatif_changes"
OPEN_KEY = "whatif_open"

db = ui.db_path()
st.title("What-if")

runs = ui.load(wq.runs, str(db))
if runs is None:
    st.stop()
if runs.is_empty():
    ui.show_no_runs(db)
    st.stop()

by_id = {r["run_id"]: r for r in runs.iter_rows(named=True)}
done_ids = [r["run_id"] for r in runs.iter_rows(named=True) if r["status"] == "done"]


def _describe(run_id: str) -> str:
    r = by_id[run_id]
    extra = f" · paired with {r['paired_with']}" if r.get("paired_with") else ""
    return (f"{r['label'] or r['variant'] or 'base'} · {game_title(r['game'])} · "
            f"{r['n_games']} games · {run_id}{extra}")


# -- 1. base run and rule changes -------------------------------------------------------------------

st.header("Change the rules", divider="gray")
if not done_ids:
    st.info("No finished run yet: a what-if needs a finished base run to replay.")
    st.stop()
wanted = st.query_params.get("base")
base_id = st.selectbox("Base run", done_ids, format_func=_describe, key="whatif_base",
                       index=done_ids.index(wanted) if wanted in done_ids else 0)
base = ui.load(wq.base_rules, str(db), base_id)
if base is None:
    st.stop()
if isinstance(base, str):
    st.error(base)
    st.stop()
game_id, rules_doc, base_variants, base_sets = base

from engine.core.registry import get_game  # noqa: E402
from pipelines.lab import rules_form as rf  # noqa: E402

model_cls = get_game(game_id).rules_model
changes: dict[str, dict] = st.session_state.setdefault(CHANGES_KEY, {})
changes = changes.setdefault(base_id, {})          # dotted path -> {"path": tuple, "value": v}

left, right = st.columns(2)
section = left.selectbox("Rules section", rf.sections(model_cls), key="whatif_section",
                         format_func=lambda s: s.replace("_", " "))
entry_ids = rf.entries(model_cls, rules_doc, section)
entry = right.selectbox("Entry", entry_ids, key="whatif_entry",
                        format_func=lambda e: rf.entry_name(rules_doc, section, e)
                        if rf.entry_name(rules_doc, section, e) == e
                        else f"{rf.entry_name(rules_doc, section, e)} ({e})") if entry_ids else None
fields = rf.leaves(model_cls, rules_doc, section, entry)

with st.form("whatif_form", border=True):
    st.caption("Values of the base run's rules. Change any, then **Apply**; the changes collect "
               "below and are validated like a variant file.")
    widgets = {}
    for i, leaf in enumerate(fields):
        key = f"whatif_field::{leaf.dotted}"
        cur = changes.get(leaf.dotted, {}).get("value", leaf.value)
        label = rf.label(leaf, rules_doc, entry)
        help_ = f"{leaf.dotted}" + (f" ({leaf.hint})" if leaf.hint else "")
        if leaf.kind == "int":
            widgets[leaf.dotted] = st.number_input(label, value=None if cur is None else int(cur),
                                                   step=1, key=key, help=help_)
        elif leaf.kind == "float":
            widgets[leaf.dotted] = st.number_input(label, value=None if cur is None
                                                   else float(cur), key=key, help=help_)
        elif leaf.kind == "bool":
            widgets[leaf.dotted] = st.checkbox(label, value=bool(cur), key=key, help=help_)
        elif leaf.kind == "choice":
            opts = ([None] if leaf.optional else []) + list(leaf.choices)
            widgets[leaf.dotted] = st.selectbox(label, opts, index=opts.index(cur) if cur in opts
                                                else 0, key=key, help=help_,
                                                format_func=lambda o: "(not set)" if o is None
                                                else str(o))
        else:
            widgets[leaf.dotted] = st.text_input(label, value=rf.text_of(leaf, cur), key=key,
                                                 help=help_)
    applied = st.form_submit_button("Apply", type="primary", key="whatif_apply")

if applied:
    problems = []
    for leaf in fields:
        try:
            value = rf.parse_value(leaf, widgets[leaf.dotted])
        except DelveError as exc:
            problems.append(str(exc))
            continue
        if value != leaf.value:
            changes[leaf.dotted] = {"path": leaf.path, "value": value}
        else:
            changes.pop(leaf.dotted, None)
    for p in problems:
        st.error(p)


def _validate(chg: dict) -> tuple[str | None, str | None]:
    """(patch TOML, None) if the changed rules are valid, else (None, message naming the path)."""
    import tempfile

    patch = rf.build_patch(rules_doc, {c["path"]: c["value"] for c in chg.values()})
    text = rf.to_toml(patch, f"What-if over run {base_id}")
    game = get_game(game_id)
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "whatif.toml"
        f.write_text(text)
        try:
            game.load_rules(variants=(*base_variants, str(f)), sets=tuple(base_sets))
        except DelveError as exc:
            field = getattr(exc, "field", "")
            expected = getattr(exc, "expected", str(exc))
            return None, (f"`{field}`: {expected}" if field else expected)
    return text, None


patch_text, error = (None, None)
st.subheader("Changes")
if changes:
    tw.show(st.container(key="whatif_changes_table"), pl.DataFrame({"path": list(changes),
                      "new value": [rf.toml_value(c["value"]) for c in changes.values()]}),
        hide_index=True)
    patch_text, error = _validate(changes)
    if error:
        st.error(f"These rules are not valid: {error}", icon="🚫")
    if st.button("Clear the changes", key="whatif_clear"):
        changes.clear()
        st.rerun()
else:
    st.caption("No change yet.")

# -- 2. launch ----------------------------------------------------------------------------------------

st.header("Launch a paired run", divider="gray")
name = st.text_input("Variant name", key="whatif_name", placeholder="e.g. cheap_forges",
                     help="1-40 letters, digits, '_', '-' or '.'")
n_jobs = st.number_input("Worker processes", min_value=1, max_value=8, value=1, step=1,
                         key="whatif_jobs")
job = st.session_state.get(JOB_KEY)
launch_off = serve_settings().launch_off_reason()
if launch_off:
    st.info(launch_off, icon="🔒")
name_ok = bool(NAME_RE.match(name or ""))
if name and not name_ok:
    st.error(f"Variant name '{name}': expected 1-40 letters, digits, '_', '-' or '.', starting "
             f"with a letter or digit.")
can_launch = (bool(changes) and patch_text is not None and name_ok and job is None
              and not launch_off)
if st.button("Launch paired run", key="whatif_launch", type="primary", disabled=not can_launch):
    vdir = jobs.work_dir(db) / "variants" / game_id
    vdir.mkdir(parents=True, exist_ok=True)
    vfile = vdir / f"{name}.toml"
    vfile.write_text(patch_text)
    args = ["simulate", game_id, "--paired-with", base_id, "--variant", str(vfile),
            "--variant-name", name, "--label", f"what-if: {name}", "--db", str(db),
            "--jobs", str(int(n_jobs)), "--no-progress"]
    st.session_state.pop("whatif_failed", None)
    st.session_state[JOB_KEY] = jobs.launch(
        "whatif", args, db, {"base": base_id, "name": name,
                             "title": f"what-if {name} over {base_id}"})
    st.rerun()
if not changes:
    st.caption("Change at least one value to launch a run.")
elif not name:
    st.caption("Name the variant to launch a run.")


@st.fragment(run_every=1.0)
def _progress():
    job = st.session_state.get(JOB_KEY)
    if job is None:
        return
    info = job.info
    box = st.container(key="whatif_progress")
    if job.state == "queued":
        box.progress(0.0, text=f"{info['name']}: queued ({jobs.launch_queue().position(job)} in "
                               f"line; the Runs page lists the queue)")
        return
    try:
        row = wq.find_launched(str(db), info["base"], info["name"], job.started)
    except Exception:  # busy or not yet created: try again on the next tick
        row = None
    rc = job.returncode()
    if row:
        stored, planned = int(row["stored"] or 0), int(row["n_games"] or 1)
        box.progress(min(stored / planned, 1.0),
                     text=f"{info['name']}: {stored} of {planned} games ({row['run_id']})")
    else:
        box.progress(0.0, text=f"{info['name']}: starting…")
    if rc is None:
        return
    st.session_state[JOB_KEY] = None
    if job.state == "cancelled":
        st.session_state["whatif_failed"] = ("cancelled: the games played so far are kept and "
                                             f"the run is resumable.\n{job.log_tail()}")
        st.rerun()
    if rc == 0 and row and row["status"] == "done":
        st.session_state[OPEN_KEY] = (info["base"], row["run_id"])
        st.cache_data.clear()
        st.rerun()
    else:
        st.session_state["whatif_failed"] = f"exit code {rc}:\n{job.log_tail()}"
        st.rerun()


_progress()
if st.session_state.get("whatif_failed"):
    st.error("The paired run failed.", icon="🚫")
    st.code(st.session_state["whatif_failed"], language=None)

# -- 3. comparison --------------------------------------------------------------------------------

st.header("Compare two runs", divider="gray")
all_ids = runs["run_id"].to_list()
opened = st.session_state.pop(OPEN_KEY, None)
if opened and opened[0] in all_ids and opened[1] in all_ids:  # a launched run just finished
    st.session_state["whatif_a"], st.session_state["whatif_b"] = opened
    st.query_params["a"], st.query_params["b"] = opened
qa, qb = st.query_params.get("a"), st.query_params.get("b")
c1, c2 = st.columns(2)

def _index(key: str, options: list[str], default: str) -> dict:
    """The initial index in `options`, unless the widget already has a value in the session."""
    return {} if key in st.session_state else {"index": options.index(default)}


run_a = c1.selectbox("Run A (before)", all_ids, format_func=_describe, key="whatif_a",
                     **_index("whatif_a", all_ids, qa if qa in all_ids else base_id))
# Run B is another run of Run A's game: its paired run if there is one, else the newest other.
same_game = [r for r in all_ids if r != run_a and by_id[r]["game"] == by_id[run_a]["game"]]
if st.session_state.get("whatif_b") not in same_game:
    st.session_state.pop("whatif_b", None)
b_default = qb if qb in same_game else next(
    (r for r in same_game if by_id[r]["paired_with"] == run_a), same_game[0] if same_game else None)
run_b = (c2.selectbox("Run B (after)", same_game, format_func=_describe, key="whatif_b",
                      **_index("whatif_b", same_game, b_default)) if same_game else None)
if run_b and (st.query_params.get("a"), st.query_params.get("b")) != (run_a, run_b):
    st.query_params["a"], st.query_params["b"] = run_a, run_b

if run_b is None:
    st.info(f"Run A is the only run of {game_title(by_id[run_a]['game'])}: launch a paired run above, or "
            f"simulate another run of this game, to compare two.")
else:
    cmp = ui.load(wq.comparison, str(db), run_a, run_b)
    if isinstance(cmp, str):
        st.error(cmp)
    elif cmp is not None:
        badge = st.container(key="whatif_pairing")
        if cmp.paired:
            badge.success(f"Paired: {cmp.why}.", icon="🔗")
        else:
            badge.warning(f"Not paired: {cmp.why}.", icon="⚠️")
        from dashboard.comparison_words import display_table, verdict
        from dashboard.labels import game_labels
        names = {**run_names(str(db), by_id[run_a]), **game_labels(cmp.run_a)}
        with st.container(key="whatif_verdict", border=True):
            st.markdown("\n".join(f"- {s}" for s in verdict(cmp, names)))
        sig = cmp.table.filter(pl.col("significant"))
        st.markdown(f"**{sig.height}** of {cmp.table.height} differences are clear changes "
                    f"(95%, Holm-corrected within each family: faction win rates, faction "
                    f"scores, seats; categories and game length below are their own families).")
        settle = wq.settle_column(cmp)
        tw.show(st.container(key="whatif_compare_table"), display_table(cmp, names, settle), hide_index=True,
            column_config={"≈ more games to settle": st.column_config.NumberColumn(
                "≈ more games to settle", format="%d",
                help="For a row without a clear change: about how many more games (in each "
                     "run; a faction's player-games turned into games) a change of the game's "
                     "margin (win rates; data/balance/margins.toml) or of the size seen (scores) "
                     "needs to be found with 80% power at the strictest Holm level of its family "
                     "(5%/rows; statsmodels' power calculation). Decide the size before playing.")})
        st.caption("Plan the number of games before you play them: adding games and re-testing "
                   "until a row turns significant (optional stopping) inflates false positives. "
                   "To grow this comparison until it is settled with its error controlled, run "
                   f"`delve simulate {by_id[run_a]['game']} --paired-with {run_a} --until-settled "
                   "--variant FILE` (the change as a variant file or --set): run A and a new paired "
                   "run grow together, in whole seating cycles, until every faction's change is "
                   "shown or ruled out within the game's margin (Bonferroni over the looks and "
                   "the factions).")
        l1, r1 = st.columns(2)
        named = relabel(cmp.table, cmp.run_a, ("key",))    # a faction row's key named
        l1.plotly_chart(charts.diff_forest(named, "win_rate", "Win rate: B - A"),
                        key="whatif_forest_win")
        r1.plotly_chart(charts.diff_forest(named, "score", "Mean score: B - A"),
                        key="whatif_forest_score")
        l2, r2 = st.columns(2)
        l2.markdown("**Score categories** (points per player-game)")
        tw.show(l2.container(key="whatif_categories"), relabel(cmp.categories, cmp.run_a),
                                                         hide_index=True)
        r2.markdown("**Game length**")
        tw.show(r2.container(key="whatif_length"), cmp.length, hide_index=True)
        st.plotly_chart(charts.category_diff_bar(relabel(cmp.categories, cmp.run_a)),
                        key="whatif_cat_chart")
        if cmp.heatmap.height:
            maps = sorted(set(cmp.heatmap["map"].drop_nulls().to_list()))
            if maps:
                run_words = run_names(str(db), by_id[run_a])
                m = st.selectbox("Heatmap map", maps, key="whatif_map",
                                 format_func=lambda v: word(run_words, v))
                st.plotly_chart(charts.heatmap_diff(cmp.heatmap, m, word(run_words, m)), key="whatif_heat")
                beyond = int(cmp.heatmap["significant"].sum()) if "significant" in cmp.heatmap.columns else 0
                st.caption(f"A dot marks a cell whose change in moves per game is beyond noise: "
                           f"its difference over its standard error (from the games' counts, the "
                           f"runs taken as independent samples) rejects after Holm's correction "
                           f"over all {cmp.heatmap.height:,} cells ({beyond:,} do). Colour alone "
                           f"is not a change: most cells move a little by chance.")

# -- 4. sweeps ---------------------------------------------------------------------------------------

sweep_ids = [s for s in runs["sweep_id"].drop_nulls().unique(maintain_order=True).to_list()]
if sweep_ids:
    st.header("Sweeps", divider="gray")
    sid = st.selectbox("Sweep", sweep_ids, key="whatif_sweep")
    table = ui.load(wq.sweep, str(db), sid)
    if table is not None and table.height:
        import json
        params = list(json.loads(table["point"][0]))
        if table["value"].null_count() == 0:
            st.plotly_chart(charts.sweep_lines(table, params[0]), key="whatif_sweep_chart")
        tw.show(st.container(key="whatif_sweep_table"), table.drop("run_id"), hide_index=True)
        diffs = ui.load(wq.sweep_diffs, str(db), sid)
        if diffs is not None and diffs.height:
            from pipelines.lab.sweep import SWEEP_FAMILY
            st.markdown("**Each point against the first**, game by game on the same seeds "
                        f"(win rate B - A with its 95% interval; p-values Holm-corrected in one "
                        f"family: {SWEEP_FAMILY}). The table above ranks points by point "
                        "estimate only; these differences are what the shared seeds support.")
            tw.show(st.container(key="whatif_sweep_diffs"), diffs, hide_index=True)
