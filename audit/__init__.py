"""poker-audit: an event-sourced poker hand history auditor."""

__version__ = "0.1.0"
