"""Read-only DuckDB SQL over the store's views (query) and the database file of `sql-init`
(sqlinit).
"""
