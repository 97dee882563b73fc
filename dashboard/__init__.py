"""Delve dashboard: a Streamlit router (app.py), thin pages (app_pages/), cached SQL
(queries.py) and pure Plotly figure builders (charts.py)."""
