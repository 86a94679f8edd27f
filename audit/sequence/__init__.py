"""Cross-hand checks: one table's hands in order -> findings (button moves, required kill pots).
"""
