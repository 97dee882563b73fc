"""The Streamlit dashboard: a router (app.py) over thin pages (app_pages/), each page's SQL in
queries/ (cached, aggregated in DuckDB), its figures in charts/ (pure Plotly builders, which
the HTML report in report/ reuses), the page-render benchmark in bench.py and launched runs in
jobs.py.  Reads the database through pipelines.store; never imports the CLI (delve)."""
