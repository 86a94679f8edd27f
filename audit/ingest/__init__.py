"""Ingest: read files through an importer (pipeline), validate their structure (validate), write a
batch or quarantine what is rejected.
"""
