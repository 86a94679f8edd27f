"""Collusion analytics over the replay projections: pair features, null models, FDR, leads.

RULEBOOK §4.17 (PATTERN-*, level X): the output is a ranked list of suspicions with their
evidence, never a verdict. See leads.py for the features and their null models.
"""

from audit.collusion.findings import (
    checkdown_findings,
    collusion_leads,
    write_collusion_findings,
)
from audit.collusion.leads import FEATURES, LEAD_SCHEMA, leads_from_frames

__all__ = ["FEATURES", "LEAD_SCHEMA", "checkdown_findings", "collusion_leads",
           "leads_from_frames", "write_collusion_findings"]
