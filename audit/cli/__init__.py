"""The `poker-audit` command line: click only. `main` holds the group and names every command by
module, imported only when the command runs; one module per command group (ingest, integrity,
query, run, collusion, report, simulate, bench, demo); `common` the shared options and error
handling.
"""
