"""Collusion analytics over the replay projections: pair features, null models, FDR, leads.

RULEBOOK §4.17 (PATTERN-*, level X): the output is a ranked list of suspicions with their
evidence, never a verdict. See leads.py for the features and their null models.
"""

from audit.collusion.findings import (
    CollusionStory,
    checkdown_findings,
    collusion_leads,
    collusion_story,
    record_collusion,
    write_collusion_findings,
)
from audit.collusion.leads import FEATURES, LEAD_SCHEMA, leads_from_frames

__all__ = ["FEATURES", "LEAD_SCHEMA", "CollusionStory", "checkdown_findings", "collusion_leads",
           "collusion_story", "leads_from_frames", "record_collusion",
           "write_collusion_findings"]
