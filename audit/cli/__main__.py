"""`python -m audit.cli`: the `poker-audit` command without the console script."""

from audit.cli.main import main

main()
