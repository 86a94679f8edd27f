"""Exceptions: bad input and unusable stores. Rule violations are findings, never exceptions."""


class AuditError(Exception):
    """Base class for every error poker-audit reports to a user (no traceback)."""


class AuditInputError(AuditError):
    """Input that cannot be read or mapped (a file, a row, a hand)."""


class SchemaVersionError(AuditInputError):
    """A Parquet file or manifest written by a newer schema version than this reader knows."""


class StoreError(AuditError):
    """The store is missing, locked, or inconsistent."""


class QueryError(AuditError):
    """A query was refused or failed."""


class RunCheckError(StoreError):
    """An audit run failed its check against the hash chain (tampered, damaged or never
    committed): the command completed but flags the store, so the CLI exits 1, not 2."""

    exit_code = 1
