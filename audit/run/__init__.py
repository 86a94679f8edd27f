"""Audit runs: replay every stored hand in parts per event file, in local processes or on Dask
(runner), workers that die with the run (worker_guard), the plain-text summary (summary).
"""
