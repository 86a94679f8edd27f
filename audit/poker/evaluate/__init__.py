"""Hand evaluation: high hands (high), the lows (low), short deck (short), the packed tables of
vectorised strengths (tables) and the compiled kernel (kernel).
"""
