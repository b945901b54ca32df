"""Experiments over many deals: sweeps, their storage and statistics, plots and benchmarks.

plan (a sweep's cells from its options), sweep (cells, batches and their deals), runner (local
processes or a Dask cluster), store (the SQLite database of a sweep), stats (win rates and
intervals), plot (the figures), bench (the fixed seeded benchmark sets and the baseline gate).
No engine imports this package.
"""
