"""What the rulebook says: the registry of rule ids (registry), the catalogue of every rule
(catalog), which rules are checked and how (coverage), rule profiles and the settings the replay
reads from them, and findings.

Importing any module of this package registers the whole catalogue, so a lookup by id always
sees every rule.
"""

from audit.rules import catalog as _catalog  # noqa: F401  (registers the rules)
