"""Read-only DuckDB SQL over the store's views (query) and the database file of `sql-init`
(sqlinit), and a hand named by the room's own hand number (hand_ids).
"""
