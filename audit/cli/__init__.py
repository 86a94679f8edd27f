"""The `poker-audit` command line: click only. `main` holds the group; one module per command group;
`common` the shared options and error handling.
"""
