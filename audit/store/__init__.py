"""The append-only event store: Parquet dataset and hash-chained manifest (dataset), Merkle leaves
and proofs, audit runs in the chain (runs), and where outputs may be written (outfile).
"""
