"""Audit runs: replay every stored hand in parts per event file, in local processes or on Dask
(runner; its workers die with the run: audit/workers.py), the plain-text summary (summary) and
its JSON document (summary_doc), the list of a store's runs (listing).
"""
