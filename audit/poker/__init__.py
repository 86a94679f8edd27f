"""The game itself, pure: cards, variants, stud facts, jokers and hand evaluation (evaluate/).

Nothing here knows the rulebook, the store or a log format.
"""
