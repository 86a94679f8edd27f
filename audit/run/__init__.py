"""Audit runs: replay every stored hand in parts per event file, in local processes or on Dask
(runner), workers that die with the run (worker_guard), the plain-text summary (summary) and
its JSON document (summary_doc), the list of a store's runs (listing).
"""
