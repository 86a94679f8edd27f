"""Development tools, the top layer: the benchmark, the scale bench, fault injection, hostile
inputs and the reliability scorecard's attack suites. The CLI names these modules by string
(`poker-audit bench`); no other `audit` module imports them."""
